"""manifests.py: what a manifest's TOML numbers are."""

from frontierco.manifests import read_manifest


def test_a_toml_number_with_underscores_reads_as_toml_defines_it(tmp_path):
    """TOML, unlike the instance formats, has '_' between digits in its grammar (1_000 is 1000; '1__0', '_1' and '1_'
    are not TOML): a manifest's numbers are read as the TOML they are, and strings are never taken for numbers."""
    path = tmp_path / "m.toml"
    path.write_text(
        'name = "m"\nproblem = "mis"\ngenerator = "mis-er"\nparams = { n = 1_0, p = 0.5 }\n'
        '[[instance]]\nname = "a"\nseed = 1_2\nreference = 1_000.5\n'
    )
    (entry,) = read_manifest(path).entries
    assert (entry.source.seed, entry.source.params["n"], entry.require_reference().value) == (12, 10, 1000.5)  # type: ignore[union-attr]
