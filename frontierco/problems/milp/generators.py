"""Seeded MILP families of Gasse et al. (2019), written here from their published descriptions.

Sizes ("easy" / "medium" / "hard" in the paper): set cover 500 / 1000 / 2000 rows by 1000 columns;
combinatorial auction 100 items x 500 bids / 200 x 1000 / 300 x 1500; capacitated facility location
100 / 200 / 400 customers with 100 facilities; independent set on Barabasi-Albert graphs (affinity 4)
with 500 / 1000 / 1500 nodes.

- ``milp-setcover`` (Balas and Ho 1980): binary columns with integer costs in 1..100, rows
  ``sum x_j >= 1`` over a random support of the given density; every column covers a row and every
  row has at least two columns.
- ``milp-cauction`` (Leyton-Brown et al. 2000, "arbitrary" relationships, simplified): items with
  common values in 1..100, each bidder's private values within +-20%, a random compatibility between
  items; a bundle grows from one item while a coin with probability 0.65 says so, the next item drawn
  with weight compatibility x private value; price = sum of private values + |bundle|^1.2; maximise the
  accepted prices with each item sold at most once.
- ``milp-cauction-arbitrary`` (Leyton-Brown, Pearson and Shoham 2000, section 4.3, "arbitrary" relationships, as
  Gasse et al. and Ecole generate it): common values U(1, 100) per item; a symmetric random compatibility
  between items, each column scaled to sum 1; bidder by bidder, private interests U(0, 1) and private values =
  common value + 100 x 0.5 x (2 x interest - 1); a first bundle from one item drawn by interest, grown while a
  coin with probability 0.65 says so, each next item drawn with weight interest x mean compatibility with the
  bundle; price = private values + |bundle|^1.2 (a negative price: the bidder is redrawn). Then, from each item
  of that bundle, a substitute of the same size grown the same way; the dearest first, up to 5, each at most
  1.5 x the first price, positive, with common value at least half the first bundle's, and no duplicate. A
  bidder with more than two bids gets a dummy item that all its bids share (at most one of them is accepted;
  two bids of one bidder get none, as in both reference generators). Maximise the accepted prices, each item
  (dummies included) sold at most once. Where Gasse et al.'s script indexes the compatibility rows with the
  bundle's 0/1 mask (rows 0 and 1), the mean is over the bundle's items, as the scheme describes.
- ``milp-facility`` (Cornuejols et al. 1991): customers and facilities uniform in the unit square,
  demands 5..35, capacities 10..160 scaled to ``ratio`` x total demand, fixed costs
  floor(U(100, 110) sqrt(capacity) + U(0, 90)), transport cost 10 x distance x demand; continuous
  assignment x_ij in [0, 1], binary opening y_j; demand, capacity, total capacity and x_ij <= y_j rows.
- ``milp-indset``: maximum independent set with one ``sum x <= 1`` row per clique of a greedy clique
  partition of the edges.
"""

from __future__ import annotations

from typing import Annotated

import networkx as nx
import numpy as np
import scipy.sparse as sp

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.milp.milp import MILPInstance
from frontierco.problems.milp.model import greedy_clique_partition


def _binary_model(
    name: str,
    sense: str,
    costs: np.ndarray,
    rows: sp.csr_matrix,
    lower: np.ndarray,
    upper: np.ndarray,
    row_names: tuple[str, ...] | None = None,
) -> MILPInstance:
    m, n = rows.shape
    return MILPInstance(
        name=name,
        sense=sense,  # type: ignore[arg-type]
        objective=costs.astype(np.float64),
        matrix=rows.tocsr().astype(np.float64),
        row_lower=lower.astype(np.float64),
        row_upper=upper.astype(np.float64),
        col_lower=np.zeros(n),
        col_upper=np.ones(n),
        integrality=np.ones(n, dtype=bool),
        col_names=tuple(f"x{j}" for j in range(n)),
        row_names=row_names or tuple(f"c{i}" for i in range(m)),
    )


def milp_setcover(
    name: str,
    seed: int,
    rows: Annotated[int, Range(1, 50_000)],
    cols: Annotated[int, Range(2, 50_000)],
    density: Annotated[float, Range(0.0, 1.0)] = 0.05,
    max_cost: Annotated[int, Range(1, 10**9)] = 100,
) -> Generated:
    rng = np.random.default_rng(seed)
    support = np.zeros((rows, cols), dtype=bool)
    flat = rng.choice(rows * cols, size=int(round(rows * cols * density)), replace=False)
    support.flat[flat] = True
    support[rng.integers(0, rows, size=cols), np.arange(cols)] = True
    for i in range(rows):
        support[i, rng.choice(cols, size=2, replace=False)] = True
    costs = rng.integers(1, max_cost + 1, size=cols)
    matrix = sp.csr_matrix(support.astype(np.float64))
    return Generated(_binary_model(name, "min", costs, matrix, np.ones(rows), np.full(rows, np.inf)))


def _bundle(rng: np.random.Generator, private: np.ndarray, compatibility: np.ndarray, add_probability: float) -> list[int]:
    items = len(private)
    bundle = [int(rng.choice(items, p=private / private.sum()))]
    while rng.random() < add_probability and len(bundle) < items:
        weights = compatibility[bundle].mean(axis=0) * private
        weights[bundle] = 0.0
        if weights.sum() <= 0:
            break
        bundle.append(int(rng.choice(items, p=weights / weights.sum())))
    return sorted(bundle)


DRAWS_PER_BID = 1000  # milp-cauction draws at most this many bundles per bid asked for


def milp_cauction(
    name: str,
    seed: int,
    items: Annotated[int, Range(2, 10_000)],
    bids: Annotated[int, Range(1, 10**6)],
    add_probability: Annotated[float, Range(0.0, 1.0)] = 0.65,
    additivity: Annotated[float, Range(0.0, 10.0)] = 0.2,
) -> Generated:
    rng = np.random.default_rng(seed)
    common = rng.uniform(1.0, 100.0, size=items)
    compatibility = rng.random((items, items))
    compatibility = (compatibility + compatibility.T) / 2.0
    np.fill_diagonal(compatibility, 0.0)
    seen: set[tuple[int, ...]] = set()
    bundles: list[list[int]] = []
    prices: list[float] = []
    for _ in range(DRAWS_PER_BID * bids):
        if len(bundles) == bids:
            break
        private = common * rng.uniform(0.8, 1.2, size=items)
        bundle = _bundle(rng, private, compatibility, add_probability)
        if tuple(bundle) in seen:
            continue
        seen.add(tuple(bundle))
        bundles.append(bundle)
        prices.append(float(private[bundle].sum() + len(bundle) ** (1.0 + additivity)))
    if len(bundles) < bids:  # few items, a small add_probability: not that many bundles exist (it drew forever)
        raise ValueError(f"{bids} distinct bundles of {items} items not drawn in {DRAWS_PER_BID * bids} draws")
    row_index = np.concatenate([np.array(b) for b in bundles])
    col_index = np.repeat(np.arange(bids), [len(b) for b in bundles])
    matrix = sp.csr_matrix((np.ones(row_index.size), (row_index, col_index)), shape=(items, bids))
    used = np.flatnonzero(matrix.getnnz(axis=1) > 0)
    matrix = matrix[used]
    return Generated(_binary_model(name, "max", np.round(np.array(prices), 4), matrix, np.full(len(used), -np.inf), np.ones(len(used))))


MAX_VALUE = 100.0  # items' common values are U(1, MAX_VALUE); private values deviate by a share of it


def _grow(rng: np.random.Generator, bundle: list[int], interests: np.ndarray, compatibility: np.ndarray) -> None:
    """Add one item to ``bundle``: weight interest x mean compatibility with the bundle's items."""
    weights = interests * compatibility[bundle].mean(axis=0)
    weights[bundle] = 0.0
    bundle.append(int(rng.choice(len(interests), p=weights / weights.sum())))


def _bidder(
    rng: np.random.Generator, values: np.ndarray, compatibility: np.ndarray, add_probability: float, deviation: float,
    additivity: float, budget_factor: float, resale_factor: float, max_substitutes: int, room: int,
) -> list[tuple[tuple[int, ...], float]]:  # fmt: skip
    """One bidder's bids (bundle, price), the first bundle first; empty when its first price is negative."""
    items = len(values)
    interests = rng.random(items)
    private = values + MAX_VALUE * deviation * (2.0 * interests - 1.0)
    bundle = [int(rng.choice(items, p=interests / interests.sum()))]
    while rng.random() < add_probability and len(bundle) < items:
        _grow(rng, bundle, interests, compatibility)

    def price(of: list[int]) -> float:
        return float(private[of].sum() + len(of) ** (1.0 + additivity))

    first = price(bundle)
    if first < 0:
        return []
    substitutes = []
    for item in bundle:
        other = [item]
        while len(other) < len(bundle):
            _grow(rng, other, interests, compatibility)
        substitutes.append((tuple(sorted(other)), price(other)))
    bids = {tuple(sorted(bundle)): first}
    resale = resale_factor * values[bundle].sum()
    for candidate, cost in sorted(substitutes, key=lambda bid: -bid[1]):
        if len(bids) > max_substitutes or len(bids) >= room:
            break
        if 0 <= cost <= budget_factor * first and values[list(candidate)].sum() >= resale and candidate not in bids:
            bids[candidate] = cost
    return list(bids.items())


def milp_cauction_arbitrary(
    name: str, seed: int, items: Annotated[int, Range(2, 10_000)], bids: Annotated[int, Range(1, 10**6)],
    add_probability: Annotated[float, Range(0.0, 1.0)] = 0.65, deviation: Annotated[float, Range(0.0, 1.0)] = 0.5,
    additivity: Annotated[float, Range(0.0, 10.0)] = 0.2, budget_factor: Annotated[float, Range(1.0, 100.0)] = 1.5,
    resale_factor: Annotated[float, Range(0.0, 1.0)] = 0.5, max_substitutes: Annotated[int, Range(0, 1000)] = 5,
) -> Generated:  # fmt: skip
    rng = np.random.default_rng(seed)
    values = rng.uniform(1.0, MAX_VALUE, size=items)
    compatibility = np.triu(rng.random((items, items)), k=1)
    compatibility = compatibility + compatibility.T
    compatibility = compatibility / compatibility.sum(axis=0)
    rows: list[np.ndarray] = []
    prices: list[float] = []
    dummies = 0
    while len(prices) < bids:
        args = (add_probability, deviation, additivity, budget_factor, resale_factor, max_substitutes, bids - len(prices))
        placed = _bidder(rng, values, compatibility, *args)
        dummy = [items + dummies] if len(placed) > 2 else []
        dummies += bool(dummy)
        for bundle, cost in placed:
            rows.append(np.array([*bundle, *dummy], dtype=np.int64))
            prices.append(cost)
    row_index = np.concatenate(rows)
    col_index = np.repeat(np.arange(len(prices)), [len(r) for r in rows])
    matrix = sp.csr_matrix((np.ones(row_index.size), (row_index, col_index)), shape=(items + dummies, len(prices)))
    used = np.flatnonzero(matrix.getnnz(axis=1) > 0)
    names = tuple(f"item_{k}" if k < items else f"bidder_{k - items}" for k in used)  # a bidder row: its bids' XOR
    model = _binary_model(name, "max", np.round(np.array(prices), 4), matrix[used], np.full(len(used), -np.inf), np.ones(len(used)), names)
    return Generated(model)


def milp_facility(
    name: str,
    seed: int,
    customers: Annotated[int, Range(1, 10**5)],
    facilities: Annotated[int, Range(1, 10**5)],
    ratio: Annotated[float, Range(1.0, 1000.0)] = 5.0,
) -> Generated:
    rng = np.random.default_rng(seed)
    c_xy, f_xy = rng.random((customers, 2)), rng.random((facilities, 2))
    demands = rng.integers(5, 36, size=customers).astype(np.float64)
    capacities = rng.integers(10, 161, size=facilities).astype(np.float64)
    fixed = np.floor(rng.integers(100, 111, size=facilities) * np.sqrt(capacities) + rng.integers(0, 91, size=facilities))
    capacities = np.round(capacities * ratio * demands.sum() / capacities.sum())
    distance = np.linalg.norm(c_xy[:, None, :] - f_xy[None, :, :], axis=2)
    transport = np.round(10.0 * distance * demands[:, None], 4)
    nx_ = customers * facilities
    x = np.arange(nx_).reshape(customers, facilities)
    y = nx_ + np.arange(facilities)
    blocks = []
    blocks.append(
        sp.csr_matrix((np.ones(nx_), (np.repeat(np.arange(customers), facilities), x.ravel())), shape=(customers, nx_ + facilities))
    )
    cap_rows = np.concatenate([np.tile(np.arange(facilities), customers), np.arange(facilities)])
    cap_cols = np.concatenate([x.ravel(), y])
    cap_vals = np.concatenate([np.repeat(demands, facilities), -capacities])
    blocks.append(sp.csr_matrix((cap_vals, (cap_rows, cap_cols)), shape=(facilities, nx_ + facilities)))
    blocks.append(sp.csr_matrix((capacities, (np.zeros(facilities, dtype=int), y)), shape=(1, nx_ + facilities)))
    link_rows = np.concatenate([np.arange(nx_), np.arange(nx_)])
    link_cols = np.concatenate([x.ravel(), np.tile(y, customers)])
    link_vals = np.concatenate([np.ones(nx_), -np.ones(nx_)])
    blocks.append(sp.csr_matrix((link_vals, (link_rows, link_cols)), shape=(nx_, nx_ + facilities)))
    matrix = sp.vstack(blocks).tocsr()
    m = matrix.shape[0]
    lower = np.concatenate([np.ones(customers), np.full(facilities, -np.inf), [demands.sum()], np.full(nx_, -np.inf)])
    upper = np.concatenate([np.ones(customers), np.zeros(facilities), [np.inf], np.zeros(nx_)])
    names = [f"demand_{i}" for i in range(customers)] + [f"capacity_{j}" for j in range(facilities)]
    names += ["total_capacity"] + [f"link_{i}_{j}" for i in range(customers) for j in range(facilities)]
    instance = MILPInstance(
        name=name,
        sense="min",
        objective=np.concatenate([transport.ravel(), fixed]),
        matrix=matrix,
        row_lower=lower,
        row_upper=upper,
        col_lower=np.zeros(nx_ + facilities),
        col_upper=np.ones(nx_ + facilities),
        integrality=np.concatenate([np.zeros(nx_, dtype=bool), np.ones(facilities, dtype=bool)]),
        col_names=tuple([f"x_{i}_{j}" for i in range(customers) for j in range(facilities)] + [f"y_{j}" for j in range(facilities)]),
        row_names=tuple(names),
    )
    assert m == len(names)
    return Generated(instance)


def milp_indset(name: str, seed: int, nodes: Annotated[int, Range(2, 10**6)], affinity: Annotated[int, Range(1, 10_000)] = 4) -> Generated:
    if affinity >= nodes:
        raise ValueError(f"affinity = {affinity} must be below nodes = {nodes} (edges per new vertex)")
    graph = nx.barabasi_albert_graph(nodes, affinity, seed=seed)
    cliques = greedy_clique_partition(graph)
    rows = np.repeat(np.arange(len(cliques)), [len(c) for c in cliques])
    cols = np.concatenate([np.array(c) for c in cliques])
    matrix = sp.csr_matrix((np.ones(cols.size), (rows, cols)), shape=(len(cliques), nodes))
    return Generated(_binary_model(name, "max", np.ones(nodes), matrix, np.full(len(cliques), -np.inf), np.ones(len(cliques))))
