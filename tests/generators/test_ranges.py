"""Every numeric parameter of every generator declares its range (``common.generator.Range``), and a value outside
it is one RegistryError line naming the parameter and the range, before anything is generated (issue 44: ``n = -5``
built an empty graph, ``p = 7`` a complete one)."""

import inspect
import math
from typing import Annotated, get_args, get_origin

import pytest

from frontierco.errors import RegistryError
from frontierco.problems.common.generator import Range
from frontierco.problems.generate import GENERATORS, generate


def _declared(generator: str) -> dict[str, tuple[object, inspect.Parameter]]:
    """The generator's parameters (past name and seed) with their annotations resolved as the module resolves them."""
    build = GENERATORS[generator].build
    found = {}
    for name, parameter in list(inspect.signature(build).parameters.items())[2:]:
        try:
            found[name] = (eval(parameter.annotation, build.__globals__), parameter)
        except NameError:
            continue  # a type imported for the type checker only (the file store): no manifest value
    return found


def _numeric(hint: object) -> bool:
    return hint in (int, float) or any(_numeric(arg) for arg in get_args(hint))


def _ranges(hint: object) -> list[Range]:
    return [m for m in hint.__metadata__ if isinstance(m, Range)] if get_origin(hint) is Annotated else []


@pytest.mark.parametrize("generator", sorted(GENERATORS))
def test_every_numeric_parameter_declares_a_range_its_default_is_in(generator):
    for name, (hint, parameter) in _declared(generator).items():
        if not _numeric(hint):
            continue
        (declared,) = _ranges(hint) or [None]
        assert declared is not None, f"{generator}: {name} declares no Range"
        assert math.isfinite(declared.low) and math.isfinite(declared.high) and declared.low <= declared.high
        if parameter.default is not inspect.Parameter.empty:
            assert declared.holds(parameter.default), f"{generator}: {name}'s default is outside its range"


@pytest.mark.parametrize("generator", sorted(GENERATORS))
def test_a_value_past_either_end_of_a_range_is_one_line_naming_the_parameter_and_range(generator):
    for name, (hint, _) in _declared(generator).items():
        for declared in _ranges(hint):
            for wrong in (declared.low - 1, declared.high * 2 + 1):
                with pytest.raises(
                    RegistryError, match=rf"^bad parameters for generator '{generator}': .*{name} = .* is out of its range "
                ):
                    generate(generator, "x", 1, {name: wrong})


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"n": -5, "p": 0.3}, r"n = -5 is out of its range 1\.\.20000$"),  # an empty graph was generated
        ({"n": 10, "p": 7.0}, r"p = 7\.0 is out of its range 0\.0\.\.1\.0$"),  # a complete graph
    ],
)
def test_the_hostile_runs_cases_are_refused(params, message):
    with pytest.raises(RegistryError, match=message):
        generate("mis-er", "x", 1, params)


@pytest.mark.parametrize(
    ("generator", "params", "message"),
    [
        ("mis-ba", {"n": 3, "m": 5}, "m = 5 must be below n = 3"),  # networkx's NetworkXError traceback
        ("mds-ba", {"n": [3, 4], "m": 5}, r"m = 5 must be below n = \d"),
        ("milp-indset", {"nodes": 3, "affinity": 5}, "affinity = 5 must be below nodes = 3"),
        ("milp-cauction", {"items": 2, "bids": 50, "add_probability": 0.0}, "distinct bundles"),  # drew forever
        ("stp-random", {"n": 3, "m": 2, "terminals": 5}, "terminals <= n"),  # its ValueError traceback
        ("mis-rb-frontierco", {"cliques": [40, 54], "clique_size": [2, 3], "vertices": [97, 97]}, "gives vertices in"),  # drawn forever
    ],
)
def test_parameters_that_contradict_each_other_are_one_line(generator, params, message):
    with pytest.raises(RegistryError, match=rf"^cannot generate with {generator!r}: .*{message}"):
        generate(generator, "x", 1, params)
