"""frontierco-py through the real harness: each problem's FrontierCO-style greedy (the solver's examples/), its
yields re-checked here, and files that yield garbage, raise or return instead of yielding."""

from __future__ import annotations

import importlib
import importlib.util
import inspect

import pytest

from frontierco.harness.execute import run_plan
from frontierco.harness.plan import plan_file
from frontierco.problems import evaluate, problem_of
from frontierco.problems.files import natural_suffix, write_instance
from frontierco.problems.generate import generate
from frontierco.results import ResultStore, Status
from frontierco.solver import SOLVERS_DIR, Budget, discover
from tests.helpers import DATA

EXAMPLES = SOLVERS_DIR / "frontierco-py" / "examples"
FILES = DATA / "frontierco_py"
CASES = {
    "tsp": ("tsp-uniform", {"n": 30}),
    "cvrp": ("cvrp-uniform", {"n": 15, "capacity": 20}),
    "mis": ("mis-er", {"n": 40, "p": 0.1}),
    "mds": ("mds-ba", {"n": 60, "m": 2}),
    "fjsp": ("fjsp-random", {"jobs": 5, "machines": 3, "operations": 3}),
    "stp": ("stp-random", {"n": 40, "m": 80, "terminals": 8}),
    "cflp": ("cflp-cornuejols", {"customers": 20, "facilities": 8}),
    "cpmp": ("cpmp-frontierco", {"n": 30, "p": 4}),
}
REGISTERED = sorted(CASES)


def _run(tmp_path, instance, file):
    path = tmp_path / f"{instance.name}{natural_suffix(instance)}"
    write_instance(path, instance)
    plan = plan_file(discover()["frontierco-py"], path, Budget(5.0), params={"file": str(file)})
    (record,) = run_plan(plan, ResultStore(tmp_path / "runs"))
    return record


def _yields_here(instance, file):
    """The file's yields, converted and checked in this process (not through the harness)."""
    discover()["frontierco-py"].load()
    convert = importlib.import_module("frontierco_solver_frontierco_py.adaptors").adaptor(problem_of(instance).name)
    return [evaluate(instance, convert.solution(instance, data)) for data in _module(file).solve(**convert.kwargs(instance))]


def test_every_problem_of_the_solver_has_an_example_and_a_case():
    assert set(discover()["frontierco-py"].problems) == set(CASES) == {p.stem for p in EXAMPLES.glob("*.py")}


@pytest.mark.slow
@pytest.mark.parametrize("problem", REGISTERED)
def test_each_example_greedy_runs_and_its_best_yield_is_what_the_record_says(tmp_path, problem):
    generator, params = CASES[problem]
    instance = generate(generator, f"{problem}-x", 3, params).instance
    verdicts = _yields_here(instance, EXAMPLES / f"{problem}.py")
    assert verdicts and all(v.feasible for v in verdicts)
    record = _run(tmp_path, instance, EXAMPLES / f"{problem}.py")
    assert record.status == Status.FEASIBLE and record.solutions_received == len(verdicts)
    best = (max if problem == "mis" else min)(v.objective for v in verdicts)
    assert record.objective == best
    assert record.row_name == f"frontierco-py{{file={EXAMPLES / f'{problem}.py'}}}"


def test_malformed_dicts_are_recorded_one_by_one_and_never_crash_the_run(tmp_path):
    instance = generate("mds-ba", "g", 1, {"n": 20, "m": 2}).instance
    record = _run(tmp_path, instance, FILES / "malformed_mds.py")
    assert record.status == Status.INFEASIBLE and record.solutions_received == 4
    assert record.reason == "frontierco-py: yield 1: yielded a str, not a dict like {'mds_nodes': [2, 7, ...]} (nodes numbered from 1)"


def test_a_valid_yield_after_a_malformed_one_counts_and_a_worse_one_after_it_is_judged(tmp_path):
    instance = generate("mds-ba", "g", 1, {"n": 20, "m": 2}).instance
    record = _run(tmp_path, instance, FILES / "malformed_then_every_node.py")
    assert record.status == Status.FEASIBLE and record.objective == instance.n and record.solutions_received == 3


def test_each_malformed_yield_is_refused_with_its_own_number_and_reason(tmp_path):
    """The solver's own stream, read here: one Rejected per malformed yield, numbered, each saying what is wrong."""
    from frontierco.solver import Budget, Rejected

    instance = generate("mds-ba", "g", 1, {"n": 20, "m": 2}).instance
    solver = discover()["frontierco-py"].load()(file=str(FILES / "malformed_mds.py"))
    reasons = [item.reason for item in solver.solve(instance, Budget(time_limit=5.0)) if isinstance(item, Rejected)]
    assert [r.split(": ")[1] for r in reasons] == ["yield 1", "yield 2", "yield 3", "yield 4"]
    assert "not a dict" in reasons[0] and "has no 'mds_nodes'" in reasons[1]
    assert "flat list of integers" in reasons[2] and "list of integers, got a str" in reasons[3]


def test_a_file_that_raises_is_an_error_with_its_message(tmp_path):
    instance = generate("mds-ba", "g", 1, {"n": 20, "m": 2}).instance
    record = _run(tmp_path, instance, FILES / "raises.py")
    assert record.status == Status.ERROR and "RuntimeError: no idea" in record.reason


def test_a_solve_that_returns_one_dict_is_taken_as_one_yield(tmp_path):
    assert not inspect.isgeneratorfunction(_module(FILES / "returns_one_dict.py").solve)
    instance = generate("mis-er", "g", 1, {"n": 20, "p": 0.2}).instance
    record = _run(tmp_path, instance, FILES / "returns_one_dict.py")
    assert record.status == Status.FEASIBLE and record.objective == 1


def test_a_missing_file_is_named(tmp_path):
    instance = generate("mis-er", "g", 1, {"n": 20, "p": 0.2}).instance
    record = _run(tmp_path, instance, FILES / "absent.py")
    assert record.status == Status.ERROR and "no file" in record.reason and "absent.py" in record.reason


def _module(path):
    spec = importlib.util.spec_from_file_location("m", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _adaptors():
    discover()["frontierco-py"].load()
    return importlib.import_module("frontierco_solver_frontierco_py.adaptors")


def test_graph_kwargs_number_nodes_from_one_as_frontiercos_loaders():
    adaptors = _adaptors()
    instance = generate("mds-ba", "g", 2, {"n": 30, "m": 2}).instance
    graph = adaptors.adaptor("mds").kwargs(instance)["graph"]
    assert sorted(graph.nodes) == list(range(1, 31))
    assert sorted(map(sorted, graph.edges)) == (instance.edges + 1).tolist()
    assert adaptors.adaptor("mds").solution(instance, {"mds_nodes": [1, 30]}).vertices.tolist() == [0, 29]
    assert adaptors.adaptor("mis").solution(instance, {"mis_nodes": [2]}).vertices.tolist() == [1]


def test_cvrp_kwargs_and_routes_from_depot_to_depot():
    adaptors = _adaptors()
    instance = generate("cvrp-uniform", "c", 2, {"n": 6, "capacity": 20}).instance
    kwargs = adaptors.adaptor("cvrp").kwargs(instance)
    coords = instance.weights.coords
    assert kwargs["depot_idx"] == 0 and kwargs["demands"][0] == 0 and kwargs["capacity"] == 20
    assert kwargs["dist_matrix"][1][2] == pytest.approx(((coords[1] - coords[2]) ** 2).sum() ** 0.5)
    routes = adaptors.adaptor("cvrp").solution(instance, {"routes": [[0, 3, 1, 0], [0, 2, 4, 5, 6, 0]]}).routes
    assert [r.tolist() for r in routes] == [[3, 1], [2, 4, 5, 6]]
    with pytest.raises(adaptors.Malformed, match="route 1 must start and end at the depot"):
        adaptors.adaptor("cvrp").solution(instance, {"routes": [[3, 1]]})


def test_tsp_kwargs_are_the_coordinates_and_a_matrix_only_when_there_is_one():
    adaptors = _adaptors()
    instance = generate("tsp-uniform", "t", 2, {"n": 5}).instance
    assert adaptors.adaptor("tsp").kwargs(instance) == {"nodes": instance.weights.coords.tolist()}
    assert adaptors.adaptor("tsp").solution(instance, {"tour": (4, 3, 2, 1, 0)}).tour.tolist() == [4, 3, 2, 1, 0]


@pytest.mark.parametrize(
    "data, reason",
    [
        ([1, 2], "yielded a list, not a dict"),
        ({"tour": [0]}, "yielded dict has no 'mds_nodes' (keys: 'tour')"),
        ({"mds_nodes": [1.0, 2.0]}, "'mds_nodes' must be a flat list of integers"),
        ({"mds_nodes": 3}, "'mds_nodes' must be a list of integers, got a int"),
        ({"mds_nodes": [[1], [2, 3]]}, "flat list of integers"),
    ],
)
def test_malformed_dicts_are_named(data, reason):
    instance = generate("mds-ba", "g", 2, {"n": 10, "m": 2}).instance
    with pytest.raises(_adaptors().Malformed, match=reason.replace("(", r"\(").replace(")", r"\)")):
        _adaptors().adaptor("mds").solution(instance, data)


def test_fjsp_kwargs_number_machines_from_one_and_yields_map_back():
    from frontierco.problems.fjsp.fjsp import FJSPInstance

    instance = FJSPInstance.from_lists("f", 2, [[[(0, 3), (1, 5)], [(1, 2)]], [[(0, 4)]]])
    convert = _adaptors().adaptor("fjsp")
    assert convert.kwargs(instance) == {"num_jobs": 2, "num_machines": 2, "jobs": [[[(1, 3), (2, 5)], [(2, 2)]], [[(1, 4)]]]}
    schedule = convert.solution(instance, {"machine_assignments": [1, 2, 1], "start_times": [0, 3, 3], "makespan": 1})
    assert schedule.machines.tolist() == [0, 1, 0] and schedule.starts.tolist() == [0.0, 3.0, 3.0]
    assert evaluate(instance, schedule).objective == 7
    with pytest.raises(_adaptors().Malformed, match="'start_times' must be a flat list of numbers"):
        convert.solution(instance, {"machine_assignments": [1, 2, 1], "start_times": ["soon", 3, 3]})


def test_stp_kwargs_are_one_based_with_float_costs_and_yields_map_back():
    from frontierco.problems.steiner.stp import STPInstance

    instance = STPInstance.build("s", 3, [[0, 1], [1, 2], [0, 2]], [1, 1, 3], [0, 2])
    convert = _adaptors().adaptor("stp")
    assert convert.kwargs(instance) == {"n": 3, "m": 3, "graph_edges": {(1, 2): 1.0, (2, 3): 1.0, (1, 3): 3.0}, "terminals": [1, 3]}
    tree = convert.solution(instance, {"edges": [(1, 2), (3, 2)], "declared_cost": 0, "num_edges": 2})
    assert evaluate(instance, tree).objective == 2
    with pytest.raises(_adaptors().Malformed, match="integer vertex pairs"):
        convert.solution(instance, {"edges": [1, 2, 3]})


def test_cflp_kwargs_count_facilities_in_n_and_yielded_amounts_become_fractions():
    import numpy as np

    from frontierco.problems import CFLPInstance

    instance = CFLPInstance(
        "c", np.array([10.0, 10.0, 4.0]), np.array([5.0, 7.0, 1.0]), np.array([6.0, 8.0]), np.array([[6.0, 8.0], [12.0, 4.0], [3.0, 2.0]])
    )
    convert = _adaptors().adaptor("cflp")
    data = convert.kwargs(instance)
    assert (data["n"], data["m"]) == (3, 2) and data["capacities"] == [10.0, 10.0, 4.0]  # n: the facilities
    assert data["trans_costs"] == [[6.0, 8.0], [12.0, 4.0], [3.0, 2.0]]
    split = convert.solution(instance, {"facilities_open": [1, 1, 0], "assignments": [[6.0, 0.0, 0.0], [4.0, 4.0, 0.0]]})
    assert evaluate(instance, split).objective == 5 + 7 + 6 + 8 * 0.5 + 4 * 0.5
    closed = convert.solution(instance, {"facilities_open": [1, 0, 0], "assignments": [[6.0, 0.0, 0.0], [4.0, 4.0, 0.0]]})
    assert not evaluate(instance, closed).feasible  # an amount from a closed facility: the checker names it
    with pytest.raises(_adaptors().Malformed, match="'assignments' must be 2 x 3"):
        convert.solution(instance, {"facilities_open": [1, 1, 0], "assignments": [[6.0, 0.0], [4.0, 4.0]]})


def test_a_cflp_file_that_sizes_by_n_runs_on_more_customers_than_facilities(tmp_path):
    """Issue 44: FrontierCO's load_data sets n to the customer count; a file that loops over n facilities then read
    past `capacities` (IndexError) on this 2-facility, 3-customer instance."""
    import numpy as np

    from frontierco.problems import CFLPInstance

    instance = CFLPInstance("c", np.array([20.0, 20.0]), np.array([5.0, 7.0]), np.array([6.0, 8.0, 2.0]), np.ones((2, 3)))
    file = tmp_path / "by_n.py"
    file.write_text(
        "def solve(**kwargs):\n"
        "    n, m = kwargs['n'], kwargs['m']\n"
        "    room = [kwargs['capacities'][i] for i in range(n)]\n"
        "    first = max(range(n), key=lambda i: room[i])\n"
        "    amounts = [[kwargs['demands'][j] if i == first else 0.0 for i in range(n)] for j in range(m)]\n"
        "    yield {'facilities_open': [int(i == first) for i in range(n)], 'assignments': amounts}\n"
    )
    (verdict,) = _yields_here(instance, file)
    assert verdict.feasible and verdict.objective == 5 + 3 * 1  # facility 0 open, each customer whole from it at cost 1


def test_cpmp_kwargs_are_frontiercos_customer_tuples_and_yields_map_back():
    import numpy as np

    from frontierco.problems import CPMPInstance

    instance = CPMPInstance("p", 1, np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]), np.array([10.0, 10.0, 10.0]), np.array([1.0, 2.0, 3.0]))
    convert = _adaptors().adaptor("cpmp")
    assert convert.kwargs(instance) == {
        "n": 3,
        "p": 1,
        "customers": [(0, 0.0, 0.0, 10.0, 1.0), (1, 3.0, 4.0, 10.0, 2.0), (2, 6.0, 8.0, 10.0, 3.0)],
    }
    assert evaluate(instance, convert.solution(instance, {"medians": [1], "assignments": [1, 1, 1]})).objective == 10
    with pytest.raises(_adaptors().Malformed, match="'medians' must be a list of integers"):
        convert.solution(instance, {"medians": 1, "assignments": [1, 1, 1]})
