"""What a generator returns and how generators are registered."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from frontierco.problems import Instance


@dataclass(frozen=True)
class Generated:
    """A generated instance and, when the construction guarantees it, its optimal objective."""

    instance: Instance
    known_optimum: float | None = None


@dataclass(frozen=True)
class Generator:
    """A named, seeded generator: ``build(name, seed, **params)``."""

    name: str
    problem: str
    build: Callable[..., Generated]
