"""The seeded instance generators of every family (same name, seed and parameters: same instance)."""

from __future__ import annotations

from frontierco.errors import RegistryError
from frontierco.problems import FAMILIES
from frontierco.problems.common.generator import Generated, Generator

GENERATORS: dict[str, Generator] = {generator.name: generator for family in FAMILIES for generator in family.generators}


def generate(generator: str, name: str, seed: int, params: dict[str, object]) -> Generated:
    """Build one instance; an unknown generator or parameter is a one-line RegistryError."""
    if generator not in GENERATORS:
        raise RegistryError(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    try:
        return GENERATORS[generator].build(name, seed, **params)
    except TypeError as exc:
        raise RegistryError(f"bad parameters for generator {generator!r}: {exc}") from None


__all__ = ["GENERATORS", "Generated", "Generator", "generate"]
