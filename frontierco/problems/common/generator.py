"""What a generator returns and how a family declares its generators."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from frontierco.problems.common.base import resolve

if TYPE_CHECKING:  # types only: the registry imports the families, which declare their generators here
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
    files: bool = False  # it reads the file store (a city's extract): ``build`` then takes the context's as ``files=``

    @property
    def build(self) -> Callable[..., Generated]:
        """The function ``build(name, seed, **params) -> Generated`` (``files=`` too when ``files``)."""
        return resolve(self.target)
