"""problems/common/archive.py: an .npz archive's arrays are bounded by the file before numpy makes any of them."""

import io
import zipfile

import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems.common.archive import read_npz


def _header(shape: tuple[int, ...]) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": "<f8", "fortran_order": False, "shape": shape})
    return buffer.getvalue()


def test_an_archive_whose_arrays_outgrow_it_is_refused_before_they_are_made(tmp_path):
    with zipfile.ZipFile(tmp_path / "bomb.npz", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        with archive.open("zeros.npy", "w") as member:
            member.write(_header((1 << 24,)))
            for _ in range(8):
                member.write(bytes(1 << 24))  # 128 MiB of zeros in ~130 KB (was read whole)
    with pytest.raises(FormatError, match="at most 100 times its size"):
        read_npz(tmp_path / "bomb.npz")


def test_an_array_that_declares_more_than_its_member_holds_is_refused(tmp_path):
    with zipfile.ZipFile(tmp_path / "liar.npz", "w") as archive:
        archive.writestr("coords.npy", _header((10**12, 2)) + bytes(64))  # was a MemoryError: numpy sizes by the header
    with pytest.raises(FormatError, match="an array of 16000000000000 bytes in a member of"):
        read_npz(tmp_path / "liar.npz")


@pytest.mark.parametrize("kind", ["object-array", "folder"])
def test_objects_and_paths_that_are_not_files_are_refused(tmp_path, kind):
    path = tmp_path / "x.npz"
    if kind == "folder":
        path.mkdir()
    else:
        np.savez(path, name=np.array([{"a": 1}], dtype=object))
    with pytest.raises(FormatError, match="Python objects|a regular file"):
        read_npz(path)


def test_an_archive_within_its_bounds_reads_back(tmp_path):
    np.savez_compressed(tmp_path / "ok.npz", a=np.arange(5.0), b=np.array("text"))
    arrays = read_npz(tmp_path / "ok.npz")
    assert arrays["a"].tolist() == [0, 1, 2, 3, 4] and str(arrays["b"]) == "text"
