"""Random bytes and random JSON into the record store: every command's reader keeps going, never raises,
and reading never changes a file."""

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontierco.results import ResultStore

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=20,
)


def _read(content: bytes) -> int:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c" / "s.jsonl"
        path.parent.mkdir()
        path.write_bytes(content)
        records = list(ResultStore(Path(folder)).records())
        assert path.read_bytes() == content
        return len(records)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes_never_break_the_reader(content: bytes) -> None:
    assert _read(content) == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(JSON, max_size=5))
def test_random_json_lines_never_break_the_reader(values: list[object]) -> None:
    _read("\n".join(json.dumps(v) for v in values).encode())
