import itertools

import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems import MISSolution, evaluate
from frontierco.problems.files import read_instance, read_solution, write_solution
from frontierco.problems.generate import generate
from frontierco.problems.graphs.dimacs import cnf_to_mis, read_cnf_clauses, read_dimacs, read_metis, write_dimacs, write_metis
from tests.helpers import DATA


def test_dimacs_and_metis_round_trip(tmp_path):
    graph = generate("mis-ba", "g", 1, {"n": 60, "m": 3}).instance
    write_dimacs(tmp_path / "g.mis", graph)
    write_metis(tmp_path / "g.graph", graph)
    for again in (read_dimacs(tmp_path / "g.mis"), read_metis(tmp_path / "g.graph")):
        assert again.n == graph.n and np.array_equal(again.edges, graph.edges)


def _max_independent_size(graph):
    best = 0
    for size in range(graph.n, 0, -1):
        for subset in itertools.combinations(range(graph.n), size):
            if evaluate(graph, MISSolution(np.array(subset))).feasible:
                return size
    return best


def test_cnf_reduction_sizes_and_optimum():
    variables, clauses = read_cnf_clauses(DATA / "tiny.cnf")
    graph = cnf_to_mis("tiny", clauses)
    assert variables == 3 and graph.n == 9
    # 3 triangles (9 edges) + complementary pairs: x1 occurs twice and -x1 once (2 edges); same for x2, x3
    assert graph.m == 9 + 2 + 2 + 2
    assert _max_independent_size(graph) == len(clauses)  # satisfiable: one true literal per clause


@pytest.mark.parametrize(
    "body",
    [
        " ".join(map(str, range(1, 401))) + " 0\n",  # one clause of 400 literals: a clique of 79,800 edges from 2 KB
        "1 0\n" * 200 + "-1 0\n" * 200,  # 200 x 200 complementary occurrences: 40,000 edges from 1.4 KB
    ],
    ids=["long-clause", "complementary"],
)
def test_a_cnf_whose_graph_outgrows_its_file_is_refused_before_any_edge_is_made(tmp_path, body):
    clauses = body.count(" 0\n")
    (tmp_path / "big.cnf").write_text(f"p cnf 400 {clauses}\n{body}")  # was 1.6 GB from 24 KB, MemoryError from 229 KB
    with pytest.raises(FormatError, match="edges per character of the file"):
        read_instance(tmp_path / "big.cnf")


def test_unsatisfiable_cnf_has_smaller_optimum():
    graph = cnf_to_mis("unsat", [[1], [-1]])
    assert _max_independent_size(graph) == 1


def test_satlib_optimum_matches_a_model(mirror):
    path = sorted((mirror / "mis" / "satlib-cbs").glob("*.cnf"))[0]
    graph = read_instance(path)
    _, clauses = read_cnf_clauses(path)
    assert graph.n == sum(len(c) for c in clauses)


def test_bhoslib_reads_with_expected_size(mirror):
    graph = read_instance(mirror / "mis" / "bhoslib" / "frb30-15-1.mis")
    assert graph.n == 450 and graph.m == 17827


def test_mis_solution_file(tmp_path):
    graph = generate("mis-rb", "rb", 1, {"cliques": 5, "clique_size": 4})
    write_solution(tmp_path / "s.txt", graph.instance, graph.certificate)
    assert evaluate(graph.instance, read_solution(tmp_path / "s.txt", graph.instance)).objective == 5


@pytest.mark.parametrize(
    "suffix, text, line",
    [
        (".mis", "p edge 3 1\ne 1 4\n", 2),
        (".mis", "e 1 2\n", 0),
        (".mis", "p edge 3 1\nx 1 2\n", 2),
        (".mis", "p edge 2 1\ne 1 1\n", 0),
        (".graph", "3 1\n2\n1 x\n\n", 3),
        (".cnf", "p cnf 2 1\n1 3 0\n", 2),
    ],
)
def test_malformed_graphs(tmp_path, suffix, text, line):
    path = tmp_path / f"bad{suffix}"
    path.write_text(text)
    with pytest.raises(FormatError) as info:
        read_instance(path)
    assert info.value.line == line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p edge 99999999999 1\ne 1 2\n", "0 <= N <= 2147483647"),  # was a 745 GiB allocation
        ("p edge -3 1\ne 1 2\n", "0 <= N <= 2147483647"),  # was a complaint about the edge line
        ("c a comment\np edge 3 5\ne 1 2\ne 2 3\n", "5 edges as the header says, found 2"),
        ("p edge 3 x\ne 1 2\n", "integer N and M"),
    ],
)
def test_a_dimacs_header_that_cannot_be_true_is_refused_before_any_allocation(tmp_path, text: str, expected: str) -> None:
    path = tmp_path / "bad.dimacs"
    path.write_text(text)
    with pytest.raises(FormatError) as info:
        read_dimacs(path)
    header = next(number for number, line in enumerate(text.splitlines(), start=1) if line.startswith("p"))
    assert expected in info.value.expected and info.value.line == header


def test_a_bare_n_m_first_line_is_a_header(tmp_path):
    path = tmp_path / "g.clq"
    path.write_text("4 3\ne 1 2\ne 2 3\ne 3 4\n")
    graph = read_dimacs(path)
    assert graph.n == 4 and graph.edges.tolist() == [[0, 1], [1, 2], [2, 3]]


@pytest.mark.parametrize(
    "text",
    [
        "p edge 3 2\ne 1 2\ne 2 3\n",  # each edge once
        "3 4\ne 1 2\ne 2 3\n",  # each edge twice, as the DSJC files
        "3 3\ne 1 2\ne 2 1\ne 2 3\n",  # every line
        "3 2\ne 1 2\ne 2 1\ne 2 3\n",  # the distinct edges
    ],
)
def test_a_header_may_count_each_edge_once_or_twice_and_a_repeated_edge_is_one(tmp_path, text):
    path = tmp_path / "g.dimacs"
    path.write_text(text)
    assert read_dimacs(path).edges.tolist() == [[0, 1], [1, 2]]


@pytest.mark.parametrize("text", ["3 3\ne 1 2\ne 2 3\n", "p edge 3 5\ne 1 2\ne 2 1\ne 2 3\n", "c slow reader\n3 1\ne 1 2\nc x\ne 2 3\n"])
def test_a_header_count_that_fits_no_honest_count_is_refused(tmp_path, text):
    path = tmp_path / "g.dimacs"
    path.write_text(text)
    with pytest.raises(FormatError, match="edges as the header says") as info:
        read_dimacs(path)
    assert info.value.line == next(k for k, line in enumerate(text.splitlines(), start=1) if not line.startswith("c"))


def test_a_file_without_any_header_is_refused(tmp_path):
    path = tmp_path / "g.clq"
    path.write_text("c only a comment\n1 2 3\ne 1 2\n")
    with pytest.raises(FormatError, match="bare 'N M' first line"):
        read_dimacs(path)


def test_the_dimacs_clique_graphs_of_the_mirror_read_with_their_published_sizes(mirror):
    folder = mirror / "mis" / "dimacs-clique"
    brock = read_instance(folder / "brock200_2.clq")
    assert (brock.n, brock.m) == (200, 9876)  # the DIMACS original's 'p edge 200 9876'
    dsjc = read_instance(folder / "DSJC500_5.clq")  # its header says 125248: each of the 62624 edges counted twice
    assert (dsjc.n, dsjc.m) == (500, 62624) and (folder / "DSJC500_5.clq").read_text().split("\n", 1)[0].split() == ["500", "125248"]


@pytest.mark.parametrize("suffix", [".clq", ".b"])
@pytest.mark.parametrize("comment_among_edges", [False, True])  # the vectorised reader, then the line-by-line one
def test_crlf_line_ends_and_a_full_header_with_comments_read_as_lf(tmp_path, suffix, comment_among_edges):
    lines = ["c FILE: g.b", "c", "c SOURCE: a copy with CRLF line ends", "p edge 4 3", "e 2 1", "e 3 2", "e 4 3"]
    if comment_among_edges:
        lines.insert(5, "c between the edges")
    path = tmp_path / f"g{suffix}"
    path.write_bytes("\r\n".join(lines).encode() + b"\r\n")
    graph = read_instance(path)
    assert graph.n == 4 and graph.edges.tolist() == [[0, 1], [1, 2], [2, 3]]


def test_a_binary_file_named_b_is_refused_as_not_text(tmp_path):
    path = tmp_path / "g.b"
    path.write_bytes(b"p edge 4 3\n\xff\xfe\x00\x81")
    with pytest.raises(FormatError, match="UTF-8"):
        read_instance(path)


def test_the_second_copy_of_dimacs_clique_graphs_reads_with_the_dimacs_table_s_sizes(mirror):
    folder = mirror / "mis" / "dimacs-clique-2"
    sizes = {"MANN_a27.clq.b": (378, 70551), "gen200_p0.9_44.b": (200, 17910), "gen400_p0.9_75.b": (400, 71820)}
    sizes |= {"hamming8-4.clq": (256, 20864), "keller4.clq": (171, 9435), "keller5.clq": (776, 225990)}
    for name, (n, m) in sizes.items():
        assert b"\r\n" in (folder / name).read_bytes()[:200]
        graph = read_instance(folder / name)
        assert (graph.n, graph.m) == (n, m), name
