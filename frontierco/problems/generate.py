"""The seeded instance generators of every family (same name, seed and parameters: same instance)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from frontierco.errors import RegistryError
from frontierco.problems import FAMILIES
from frontierco.problems.common.generator import Generated, Generator

if TYPE_CHECKING:
    from frontierco.filestore import FileStore

GENERATORS: dict[str, Generator] = {generator.name: generator for family in FAMILIES for generator in family.generators}


def generate(generator: str, name: str, seed: int, params: dict[str, object], files: FileStore | None = None) -> Generated:
    """Build one instance; an unknown generator or parameter, a value out of its declared range
    (``common.generator.Range``) or parameters the generator finds contradictory are a one-line RegistryError. ``files`` is the file
    store of a generator that reads one (``Generator.files``; the registry passes its own), else the default."""
    if generator not in GENERATORS:
        raise RegistryError(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    chosen = GENERATORS[generator]
    wrong = chosen.parameter_problems(params)
    if wrong:
        raise RegistryError(f"bad parameters for generator {generator!r}: {'; '.join(wrong)}")
    try:
        return chosen.build(name, seed, **params, **({"files": files} if chosen.files else {}))
    except TypeError as exc:
        raise RegistryError(f"bad parameters for generator {generator!r}: {exc}") from None
    except ValueError as exc:  # parameters in their ranges that contradict each other (terminals > n), said by the generator
        raise RegistryError(f"cannot generate with {generator!r}: {exc}") from None


__all__ = ["GENERATORS", "Generated", "Generator", "generate"]
