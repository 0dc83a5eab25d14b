"""What a generator returns and how a family declares its generators."""

from __future__ import annotations

import inspect
import math
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Union, get_args, get_origin

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
class Range:
    """The values a generator's numeric parameter may take, both ends included (every number of it: each end of a
    [low, high] pair too). Declared on the parameter as ``n: Annotated[int, Range(1, 10**6)]``; a value outside
    is refused before anything is generated (``n = -5`` built an empty graph, ``p = 7`` a complete one)."""

    low: float
    high: float

    def holds(self, value: object) -> bool:
        numbers = value if isinstance(value, list | tuple) else [value]
        return all(self.low <= number <= self.high for number in numbers if isinstance(number, int | float))


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

    def parameter_problems(self, params: dict[str, object]) -> list[str]:
        """What keeps ``params`` from being this generator's, one line each (nothing is generated): a name ``build``
        does not take (the instance's own name and seed, and the file store the suite passes, among them), one it
        needs that is missing, and a value that does not fit the type it declares (a manifest's ``cliques = [20]``
        where ``int | tuple[int, int]``, a number or a [low, high] range, is asked) or its range."""
        build = self.build
        signature = inspect.signature(build)
        own = list(signature.parameters)[:2]  # the instance's name and seed, which build takes first
        takes = [name for name in list(signature.parameters)[2:] if not (self.files and name == "files")]
        found = []
        for name in params:
            if name in own:
                found.append(f"{name} is the instance's own key, not a parameter")
            elif self.files and name == "files":
                found.append("files is not a parameter (the suite passes its file store)")
            elif name not in takes:
                found.append(f"{name} is not a parameter of {self.name} (it takes {', '.join(takes) or 'none'})")
        needed = [name for name in takes if signature.parameters[name].default is inspect.Parameter.empty]
        found += [f"{name} is required ({self.name} has no default for it)" for name in needed if name not in params]
        for name, value in params.items():
            if name not in takes or not isinstance(hint := signature.parameters[name].annotation, str):
                continue
            try:
                declared = eval(hint, build.__globals__)  # the annotation, as the module's own names resolve it
            except NameError:
                continue  # a type imported only for the type checker (a file store): not one a manifest gives
            ranges = [m for m in declared.__metadata__ if isinstance(m, Range)] if get_origin(declared) is Annotated else []
            if not _fits(value, declared.__origin__ if ranges else declared):
                found.append(f"{name} = {value!r} is not a {hint.removeprefix('Annotated[').split(', Range(')[0]}")
            found += [f"{name} = {value!r} is out of its range {r.low}..{r.high}" for r in ranges if not r.holds(value)]
        return found


def _fits(value: object, hint: object) -> bool:
    """Whether a manifest's (TOML) value is of the declared type: numbers, strings, booleans, None, lists and
    fixed-length tuples (a TOML array of that length) of them; a type it does not know is not checked."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        return any(_fits(value, arg) for arg in args)
    if hint is None or hint is type(None):
        return value is None
    if hint in (bool, str):
        return isinstance(value, hint)
    if hint in (int, float):
        number = isinstance(value, int) or (hint is float and isinstance(value, float))
        return number and not isinstance(value, bool) and math.isfinite(value)  # type: ignore[arg-type]
    if origin in (list, tuple):
        if not isinstance(value, list | tuple):
            return False
        if origin is tuple and args and Ellipsis not in args:
            return len(value) == len(args) and all(_fits(item, arg) for item, arg in zip(value, args, strict=True))
        return all(_fits(item, args[0]) for item in value) if args else True
    return True
