"""What a generator returns and how generators are registered."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types only: a problem's contract cases call the generators, which must not import the problems back
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
    """A named, seeded generator; ``target`` is 'module:function', imported only when first used."""

    name: str
    problem: str
    target: str

    @property
    def build(self) -> Callable[..., Generated]:
        """The function ``build(name, seed, **params) -> Generated``."""
        module, _, function = self.target.partition(":")
        return getattr(importlib.import_module(module), function)
