"""What the command modules share: the console, progress bars, the context the callback built, the record
store a command reads or writes, and the flag a library's bad setting came from."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer
from rich.console import Console
from rich.progress import track

from frontierco.errors import BadSetting, UsageError

if TYPE_CHECKING:
    from frontierco.app.catalog import Progress
    from frontierco.workspace import Context

console = Console() if Console().is_terminal else Console(width=200)
T = TypeVar("T")


def progress(description: str) -> Progress:
    def wrap(items: Iterable[T]) -> Iterable[T]:
        items = list(items)
        return track(items, description=description, console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty())

    return wrap


def run_progress(items: Iterable[T], total: int) -> Iterator[T]:
    bar = track(items, total=total, description="running", console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty())
    return iter(bar)


def context_of(ctx: typer.Context) -> Context:
    """The context the callback built for this command (``--root``, else FRONTIERCO_ROOT, else the nearest
    marked folder)."""
    found = ctx.find_root().obj
    assert found is not None, "the callback builds the context"
    return found


def records(context: Context, results: Path | None, reading: bool = False) -> Path:
    """The record store a command reads or writes: the one given (a folder), else the workspace's; a command that
    only reads (``reading``) refuses a store that is not there instead of reading it as empty."""
    if results is not None and results.exists() and not results.is_dir():
        raise UsageError(f"--results must be a folder of records, {results} is a file")
    if reading and results is not None and not results.exists():
        raise UsageError(f"--results: no record store at {results}")
    return results if results is not None else context.required().runs


@contextmanager
def flags(*settings: str) -> Iterator[None]:
    """A library's bad setting (``BadSetting``) among ``settings`` worded with the flag that set it:
    'time limit must be ...' becomes '--time-limit: time limit must be ...'."""
    try:
        yield
    except BadSetting as exc:
        if exc.setting not in settings:
            raise
        raise UsageError(f"--{exc.setting.replace('_', '-')}: {exc}") from None


def number(value: float | None) -> str:
    """An objective as a person reads it: an integer whole (23260728, not 2.32607e+07), else 12 significant digits."""
    if value is None:
        return "none"
    return str(int(value)) if float(value).is_integer() and abs(value) < 2**63 else f"{value:.12g}"


def terminal_text(text: str) -> str:
    """``text`` with every character a terminal would act on (ESC, NUL, line breaks, other controls) written as
    its escape (``\\x1b``): a message naming a hostile file's content stays one inert line."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
