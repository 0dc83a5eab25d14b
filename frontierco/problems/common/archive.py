"""Reading NumPy ``.npz`` archives for the readers, bounded like text (``text.expansion_limit``): the arrays of an
archive take at most ``MAX_EXPANSION`` times its size, and no array declares more bytes than its member holds, both
checked from the zip directory and the ``.npy`` headers before any array is made (numpy sizes an array from its
header and only then reads: a 200-byte member claiming 10^12 rows was a MemoryError, 2 MB of zeros 2 GB)."""

from __future__ import annotations

import math
import zipfile
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.text import MAX_EXPANSION, expansion_limit

_HEADERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}


def _check_members(path: Path, archive: zipfile.ZipFile) -> None:
    members = archive.infolist()
    total, limit = sum(member.file_size for member in members), expansion_limit(path)
    if total > limit:
        raise FormatError(path, 0, f"an archive whose arrays take at most {MAX_EXPANSION} times its size ({limit} bytes), these {total}")
    for member in members:
        with archive.open(member) as handle:
            version = np.lib.format.read_magic(handle)
            if version not in _HEADERS:
                raise FormatError(path, 0, f"arrays saved by numpy (.npy version 1.0 or 2.0), {member.filename} has {version}")
            shape, _, dtype = _HEADERS[version](handle)
        if dtype.hasobject:
            raise FormatError(path, 0, f"arrays of numbers or text, {member.filename} holds Python objects")
        declared = math.prod(shape) * dtype.itemsize
        if declared > member.file_size:
            raise FormatError(path, 0, f"{member.filename}: an array of {declared} bytes in a member of {member.file_size}")


def number_array(arrays: dict[str, np.ndarray], key: str, path: Path) -> np.ndarray:
    """The array ``key`` as float64, when it holds numbers: numpy converts an array of text by float(), so '1_000',
    ' 12 ' and a digit of another script were numbers to it."""
    array = arrays[key]
    if array.dtype.kind not in "iuf":
        raise FormatError(path, 0, f"numbers in {key}, not an array of {array.dtype}")
    return np.asarray(array, dtype=np.float64)


def read_npz(path: str | Path) -> dict[str, np.ndarray]:
    """Every array of the archive by name; a file that is not such an archive, or one past the bounds, is a
    FormatError."""
    path = Path(path)
    if not path.exists():
        raise FormatError(path, 0, "file not found")
    if not path.is_file():
        raise FormatError(path, 0, "a regular file (not a folder, a device or a pipe)")
    try:
        with zipfile.ZipFile(path) as archive:
            _check_members(path, archive)
        with np.load(path, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise FormatError(path, 0, f"a NumPy .npz archive ({exc})") from None
