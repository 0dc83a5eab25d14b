"""Content hashes of in-memory instances, so that drift in a generator is caught.

The hash covers the instance's type and every field in a fixed order: arrays by dtype, shape and
little-endian bytes, scalars and names by their text. It does not depend on any file format. A field added to an
instance type later is declared with ``metadata=OMIT_WHEN_DEFAULT``: it is left out while it holds its default, so
the instances that do not use it keep the hash they had.
"""

from __future__ import annotations

import dataclasses
import hashlib

import numpy as np

OMIT_WHEN_DEFAULT = {"fingerprint": "omit-when-default"}


def _feed(digest: hashlib._Hash, value: object) -> None:
    if hasattr(value, "tocsr") and hasattr(value, "nnz"):  # a scipy sparse matrix, without importing scipy
        csr = value.tocsr(copy=True)
        csr.sort_indices()
        for part in (np.asarray(csr.shape), csr.indptr.astype(np.int64), csr.indices.astype(np.int64), csr.data):
            _feed(digest, part)
    elif isinstance(value, np.ndarray):
        array = np.ascontiguousarray(value)
        array = array.astype(array.dtype.newbyteorder("<"), copy=False)
        digest.update(f"array:{array.dtype.str}:{array.shape}:".encode())
        digest.update(array.tobytes())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        digest.update(f"{type(value).__name__}{{".encode())
        for field in dataclasses.fields(value):
            if field.metadata.get("fingerprint") == "omit-when-default" and getattr(value, field.name) is field.default:
                continue
            digest.update(f"{field.name}=".encode())
            _feed(digest, getattr(value, field.name))
        digest.update(b"}")
    elif isinstance(value, tuple | list):
        digest.update(f"seq:{len(value)}:".encode())
        for item in value:
            _feed(digest, item)
    else:
        digest.update(f"{type(value).__name__}:{value!r};".encode())


def content_sha256(instance: object) -> str:
    """Hex sha256 of the instance's content."""
    digest = hashlib.sha256()
    _feed(digest, instance)
    return digest.hexdigest()


def file_sha256(path: str) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
