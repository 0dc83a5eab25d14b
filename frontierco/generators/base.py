"""What a generator returns and how generators are registered."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from frontierco.problems import Instance, Solution


@dataclass(frozen=True)
class Generated:
    """A generated instance and, when the construction guarantees it, its optimal objective and a
    solution that attains it (the certificate, checked by the tests with the independent checker)."""

    instance: Instance
    known_optimum: float | None = None
    certificate: Solution | None = None


@dataclass(frozen=True)
class Generator:
    """A named, seeded generator: ``build(name, seed, **params)``."""

    name: str
    problem: str
    build: Callable[..., Generated]
