"""The MILP a MILP solver works on: a MILP as it is, any other problem through the MILP form its family declares
(``Family.milp_forms``: MIS as its clique cover, MDS as its set cover, CFLP and CPMP as their assignment models)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from frontierco.problems import FAMILIES, PROBLEMS, MILPInstance, MILPSolution
from frontierco.problems.common.base import resolve


@dataclass(frozen=True)
class Form:
    """A problem written as a MILP: ``model(instance)``, and ``solution(instance, column values)`` back."""

    model: Callable[[Any], MILPInstance]
    solution: Callable[[Any, np.ndarray], Any]


def _forms() -> dict[type, Form]:
    return {
        PROBLEMS[problem].instance_type: Form(resolve(form.model), resolve(form.solution))
        for family in FAMILIES
        for problem, form in family.milp_forms.items()
    }


FORMS: dict[type, Form] = _forms()  # instance type -> its MILP form (a problem lists its name in the MILP solvers' `problems`)


def as_milp(instance: Any) -> tuple[MILPInstance, Callable[[np.ndarray], Any]]:
    """The MILP a MILP solver works on, and how its column values become a solution of the instance: a MILP as
    it is, any other problem through its family's form (``FORMS``)."""
    form = FORMS.get(type(instance))
    if form is None:
        return instance, MILPSolution
    return form.model(instance), lambda x: form.solution(instance, x)
