"""MILP files: MPS (fixed or free) and CPLEX LP, read and written through HiGHS (``highspy``).

HiGHS tolerates many malformed MPS files silently, so an MPS file is first checked line by line
against the section grammar; every error names its line. LP files are left to HiGHS, but for a Unicode space
outside their comments, which HiGHS reads as part of a name.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.text import base_suffix, read_text
from frontierco.problems.common.tokens import UNICODE_SPACE, fields, real
from frontierco.problems.milp.milp import MILPInstance

if TYPE_CHECKING:  # highspy is imported where it is used: reading any other file never loads it
    import highspy

_SECTIONS = ("NAME", "OBJSENSE", "OBJSENS", "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "ENDATA")
_BOUND_TYPES = ("UP", "LO", "FX", "FR", "MI", "PL", "BV", "LI", "UI", "SC")


@contextlib.contextmanager
def _stdout_silenced() -> Iterator[None]:
    """Silence fd 1 while HiGHS prints its banner (it does so before options can be set)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def new_highs() -> highspy.Highs:
    """A silent HiGHS object."""
    import highspy

    with _stdout_silenced():
        highs = highspy.Highs()
    highs.silent()
    return highs


def _is_number(token: str) -> bool:
    try:
        real(token)
    except ValueError:
        return False
    return True


def _check_data_line(section: str, tokens: list[str]) -> str:
    """What is wrong with a data line of ``section`` ('' when it is fine)."""
    if section == "ROWS":
        return "" if len(tokens) == 2 and tokens[0].upper() in ("N", "E", "L", "G") else "'TYPE NAME' with TYPE in N, E, L, G"
    if section == "COLUMNS":
        if "'MARKER'" in tokens:
            return ""
        ok = len(tokens) in (3, 5) and _is_number(tokens[2]) and (len(tokens) == 3 or _is_number(tokens[4]))
        return "" if ok else "'COLUMN ROW VALUE [ROW VALUE]' with numeric values"
    if section in ("RHS", "RANGES"):
        ok = 2 <= len(tokens) <= 5 and _is_number(tokens[-1])
        return "" if ok else f"'[SET] ROW VALUE [ROW VALUE]' in {section} with numeric values"
    if section == "BOUNDS":
        kind = tokens[0].upper()
        if kind not in _BOUND_TYPES:
            return f"a bound type in {', '.join(_BOUND_TYPES)}"
        needs_value = kind not in ("FR", "MI", "PL", "BV")
        ok = len(tokens) in (3, 4) and (not needs_value or _is_number(tokens[-1]))
        return "" if ok else "'TYPE [SET] COLUMN VALUE' with a numeric value"
    if section in ("OBJSENSE", "OBJSENS"):
        return "" if len(tokens) == 1 and tokens[0].upper() in ("MIN", "MAX", "MINIMIZE", "MAXIMIZE") else "MIN or MAX"
    return f"a section header ({', '.join(_SECTIONS)})"


def _is_finite(token: str) -> bool:
    return _is_number(token) and bool(np.isfinite(real(token)))


class _References:
    """What the data lines of COLUMNS, RHS and RANGES refer to: rows that ROWS declared, finite values, each
    column's entries in one block (HiGHS merges or drops the rest silently)."""

    def __init__(self) -> None:
        self.rows: set[str] = set()
        self.columns: set[str] = set()
        self.column = ""

    def problem(self, section: str, tokens: list[str]) -> str:
        if section == "ROWS":
            self.rows.add(tokens[1])
            return ""
        if section == "COLUMNS" and "'MARKER'" not in tokens:
            if tokens[0] != self.column:
                if tokens[0] in self.columns:
                    return f"the entries of column {tokens[0]!r} in one block (it appeared before)"
                self.columns.add(self.column)
                self.column = tokens[0]
            pairs = tokens[1:]
        elif section in ("RHS", "RANGES"):
            pairs = tokens[len(tokens) % 2 :]  # an odd count starts with the set's name
        else:
            return ""
        for row, value in zip(pairs[::2], pairs[1::2], strict=True):
            if row not in self.rows:
                return f"a row declared in ROWS, got {row!r} in {section}"
            if not _is_finite(value):
                return f"a finite value in {section}, got {value!r}"
        return ""


def check_mps_text(text: str, path: Path) -> None:
    """Raise a FormatError at the first line that breaks the MPS section grammar, or refers to a row ROWS did
    not declare, holds a value that is not finite (COLUMNS, RHS, RANGES), or splits a column's entries."""
    section = ""
    seen: set[str] = set()
    references = _References()
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("*"):
            continue
        tokens = fields(raw)
        head = tokens[0].upper()
        if not raw[0].isspace() and head in _SECTIONS:
            section = head
            seen.add(head)
            if head == "ENDATA":
                break
            if head in ("OBJSENSE", "OBJSENS") and len(tokens) > 1:
                problem = _check_data_line(head, tokens[1:])
                if problem:
                    raise FormatError(path, number, problem)
            continue
        problem = _check_data_line(section, tokens) if section not in ("", "NAME") else "a section header (NAME, ROWS, ...)"
        problem = problem or references.problem(section, tokens)
        if problem:
            raise FormatError(path, number, problem)
    for required in ("ROWS", "COLUMNS"):
        if required not in seen:
            raise FormatError(path, 0, f"a {required} section")


def check_lp_text(text: str, path: Path) -> None:
    """Raise a FormatError at the first Unicode space outside an LP model's comments ('\\' to the end of the line):
    HiGHS takes one as part of a name ('x +', a no-break space, 'y' as x and a variable named by the space and y, y
    left out), where str.split() would have taken it for a space; the rest of the LP form is left to HiGHS."""
    if text.isascii():
        return
    for number, line in enumerate(text.split("\n"), start=1):  # (splitlines() would break a line at U+2028 too)
        found = UNICODE_SPACE.search(line.split("\\", 1)[0])
        if found is not None:
            raise FormatError(path, number, f"names and numbers apart by ASCII spaces (found U+{ord(found.group()):04X})")


def read_milp(path: str | Path) -> MILPInstance:
    """Read an MPS or LP file (optionally gzipped) into a MILPInstance."""
    import highspy

    path = Path(path)
    suffix = base_suffix(path)
    if suffix not in (".mps", ".lp"):
        raise FormatError(path, 0, "an .mps or .lp file")
    text = read_text(path)  # compression, size and encoding checked as for every text file, the LP form's too
    if suffix == ".mps":
        check_mps_text(text, path)
    else:
        check_lp_text(text, path)
    highs = new_highs()
    status = highs.readModel(str(path))
    if status == highspy.HighsStatus.kError:
        raise FormatError(path, 0, f"a valid {suffix[1:].upper()} model (HiGHS could not read it)")
    if highs.getLp().num_col_ == 0:  # HiGHS reads an empty or blank LP file as a model of nothing
        raise FormatError(path, 0, f"a {suffix[1:].upper()} model with at least one variable")
    return _from_lp(path.name.split(".")[0], highs.getLp())


def _from_lp(name: str, lp: highspy.HighsLp) -> MILPInstance:
    import highspy
    import scipy.sparse as sp

    n, m = lp.num_col_, lp.num_row_
    a = lp.a_matrix_
    shape = (m, n)
    if a.format_ == highspy.MatrixFormat.kColwise:
        matrix = sp.csc_matrix((np.array(a.value_), np.array(a.index_), np.array(a.start_)), shape=shape).tocsr()
    else:
        matrix = sp.csr_matrix((np.array(a.value_), np.array(a.index_), np.array(a.start_)), shape=shape)
    integrality = np.array([int(t) for t in lp.integrality_], dtype=np.int64) if len(lp.integrality_) else np.zeros(n, dtype=np.int64)
    col_names = tuple(lp.col_names_) if len(lp.col_names_) == n else tuple(f"x{j}" for j in range(n))
    row_names = tuple(lp.row_names_) if len(lp.row_names_) == m else tuple(f"r{i}" for i in range(m))
    return MILPInstance(
        name=name,
        sense="max" if lp.sense_ == highspy.ObjSense.kMaximize else "min",
        objective=np.array(lp.col_cost_, dtype=np.float64),
        matrix=matrix,
        row_lower=np.array(lp.row_lower_, dtype=np.float64),
        row_upper=np.array(lp.row_upper_, dtype=np.float64),
        col_lower=np.array(lp.col_lower_, dtype=np.float64),
        col_upper=np.array(lp.col_upper_, dtype=np.float64),
        integrality=integrality == int(highspy.HighsVarType.kInteger),
        col_names=col_names,
        row_names=row_names,
        offset=float(lp.offset_),
    )


def to_highs(instance: MILPInstance) -> highspy.Highs:
    """A silent HiGHS object holding the model (used to write files; solvers may reuse it)."""
    import highspy

    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = instance.num_cols, instance.num_rows
    lp.sense_ = highspy.ObjSense.kMaximize if instance.sense == "max" else highspy.ObjSense.kMinimize
    lp.offset_ = instance.offset
    lp.col_cost_ = instance.objective
    lp.col_lower_, lp.col_upper_ = instance.col_lower, instance.col_upper
    lp.row_lower_, lp.row_upper_ = instance.row_lower, instance.row_upper
    csc = instance.matrix.tocsc()
    csc.sort_indices()
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = instance.num_cols, instance.num_rows
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = csc.indptr, csc.indices, csc.data
    lp.integrality_ = [highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous for i in instance.integrality]
    lp.col_names_, lp.row_names_ = list(instance.col_names), list(instance.row_names)
    highs = new_highs()
    highs.passModel(lp)
    return highs


def mps_suffix(instance: MILPInstance) -> str:
    return ".mps"


def write_milp(path: str | Path, instance: MILPInstance) -> None:
    """Write the model as MPS or LP (by the suffix) through HiGHS."""
    import highspy

    status = to_highs(instance).writeModel(str(path))
    if status == highspy.HighsStatus.kError:
        raise OSError(f"HiGHS could not write {path}")


def to_scip(instance: MILPInstance) -> tuple[Any, list[Any]]:
    """A silent PySCIPOpt model of the instance (through an MPS file) and its variables in column order."""
    import tempfile

    import pyscipopt

    model = pyscipopt.Model()
    model.hideOutput()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.mps"
        write_milp(path, instance)
        model.readProblem(str(path))
    order = {name: k for k, name in enumerate(instance.col_names)}
    return model, sorted(model.getVars(), key=lambda var: order[var.name])
