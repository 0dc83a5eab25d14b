"""A compact stored form of a long tour on coordinates: each step as the rank of the next city among the current
city's nearest not yet visited neighbours, so that a 10-million-city tour fits the record store's size limit.

The form needs the instance to read back (the neighbour lists are rebuilt from the coordinates, exactly, with ties
broken by city index): the harness stores a best tour this way from ``PACK_FROM`` cities and the checker unpacks it
before it checks the tour, so a form that unpacks to another tour is caught by the recomputed length. Layout: the
first city; one byte per step, the rank ``r < K`` among the ``K`` nearest neighbours (by squared distance, then
index) that are not yet visited, or ``K`` where the next city is none of them (an escape); the escapes' cities as
little-endian uint32; both streams LZMA-compressed and base64 in the JSON.
"""

from __future__ import annotations

import base64
import lzma
from typing import Any

import numpy as np

FORMAT = "knn-rank-1"
K = 16  # neighbours per city the ranks refer to
PACK_FROM = 200_000  # cities from which the harness stores a best tour in this form
_QUERY_BLOCK = 1 << 20  # cities per neighbour query (bounds the query's temporary arrays)


def neighbour_table(coords: np.ndarray, k: int = K) -> np.ndarray:
    """Each city's ``k`` nearest other cities, nearest first, ties by index (shape (n, k), int64); the same on
    every machine for the same coordinates, whatever order the tree returns tied neighbours in, except where more
    than one city ties at the k-th distance (then the unpacked tour's length tells)."""
    from scipy.spatial import cKDTree

    points = np.asarray(coords, dtype=np.float64)
    n = len(points)
    k = min(k, n - 1)
    tree = cKDTree(points)
    table = np.empty((n, k), dtype=np.int64)
    for start in range(0, n, _QUERY_BLOCK):
        rows = np.arange(start, min(start + _QUERY_BLOCK, n))
        _, found = tree.query(points[rows], k=k + 1)
        found = found.astype(np.int64)
        squared = ((points[found] - points[rows, None]) ** 2).sum(axis=2)
        itself = found == rows[:, None]
        itself[~itself.any(axis=1), -1] = True  # more than k + 1 copies of a point: drop the farthest
        order = np.lexsort((found, squared, itself), axis=-1)
        table[rows] = np.take_along_axis(found, order, axis=1)[:, :k]
    return table


def pack(tour: np.ndarray, coords: np.ndarray, table: np.ndarray | None = None) -> dict[str, Any]:
    """The packed form of ``tour`` (a permutation of the cities of ``coords``)."""
    table = neighbour_table(coords) if table is None else table
    order = np.asarray(tour, dtype=np.int64)
    n, k = table.shape
    visited = bytearray(n)
    flat = _flat(table)
    symbols, escapes = bytearray(n - 1), []
    current = int(order[0])
    visited[current] = 1
    for step, following in enumerate(order[1:].tolist()):
        rank, symbol = 0, k
        for city in flat[current * k : current * k + k]:
            if city == following:
                symbol = rank
                break
            if not visited[city]:
                rank += 1
        symbols[step] = symbol
        if symbol == k:
            escapes.append(following)
        visited[following] = 1
        current = following
    return {
        "format": FORMAT,
        "k": k,
        "n": n,
        "first": int(order[0]),
        "steps": _text(bytes(symbols)),
        "escapes": _text(np.asarray(escapes, dtype="<u4").tobytes()),
    }


def unpack(data: dict[str, Any], coords: np.ndarray, table: np.ndarray | None = None) -> np.ndarray:
    """The tour a packed form describes on ``coords`` (ValueError when it is not one of this module's forms or
    does not describe a walk over these cities; the checker still checks the walk is a tour)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a packed tour of format {FORMAT}")
    n, k, first = data.get("n"), data.get("k"), data.get("first")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, k, first)):
        raise ValueError("a packed tour's n, k and first must be integers")
    assert isinstance(n, int) and isinstance(k, int) and isinstance(first, int)
    if n != len(coords) or not 0 <= first < n or k != min(K, n - 1):
        raise ValueError(f"a packed tour of {n} cities (k {k}, first {first}) for an instance of {len(coords)}")
    symbols = _bytes(data.get("steps"), n - 1)
    escapes = np.frombuffer(_bytes(data.get("escapes"), 4 * (n - 1)), dtype="<u4").tolist()
    if len(symbols) != n - 1:
        raise ValueError(f"a packed tour of {n} cities has {len(symbols)} steps, not {n - 1}")
    table = neighbour_table(coords) if table is None else table
    flat = _flat(table)
    visited = bytearray(n)
    tour = np.empty(n, dtype=np.int64)
    current, escaped = first, 0
    tour[0] = current
    visited[current] = 1
    for step, symbol in enumerate(symbols, start=1):
        if symbol == k:
            if escaped >= len(escapes):
                raise ValueError("a packed tour has more escapes than escaped cities")
            following, escaped = escapes[escaped], escaped + 1
            if following >= n:
                raise ValueError(f"a packed tour escapes to city {following}, beyond {n - 1}")
        else:
            following = _unvisited(flat[current * k : current * k + k], visited, symbol)
        if visited[following]:
            raise ValueError(f"a packed tour visits city {following + 1} twice (cities numbered from 1)")
        visited[following] = 1
        tour[step] = current = following
    if escaped != len(escapes):
        raise ValueError("a packed tour has escaped cities no step uses")
    return tour


def _flat(table: np.ndarray) -> memoryview:
    """The neighbour table as one flat sequence of Python ints (indexing it is cheap, unlike a numpy row)."""
    return np.ascontiguousarray(table, dtype=np.int64).reshape(-1).data.cast("B").cast("q")


def _unvisited(row: memoryview, visited: bytearray, rank: int) -> int:
    for city in row:
        if not visited[city]:
            if rank == 0:
                return city
            rank -= 1
    raise ValueError("a packed tour's step names a neighbour rank the city does not have")


def _text(raw: bytes) -> str:
    return base64.b64encode(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME)).decode()


def _bytes(text: object, bound: int) -> bytes:
    """A stream of the packed form, decompressed to at most ``bound`` bytes (a stream that unpacks beyond what
    n cities need is refused before it is held in memory)."""
    if not isinstance(text, str):
        raise ValueError("a packed tour's streams must be base64 text")
    try:
        decompressor = lzma.LZMADecompressor()
        raw = decompressor.decompress(base64.b64decode(text, validate=True), max_length=bound + 1)
    except (ValueError, lzma.LZMAError) as exc:
        raise ValueError(f"a packed tour's stream does not decode: {exc}") from None
    if len(raw) > bound or not decompressor.eof:
        raise ValueError("a packed tour's stream is longer than its cities need")
    return raw
