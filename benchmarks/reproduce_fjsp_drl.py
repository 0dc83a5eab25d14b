"""Run fjsp-drl (Song, Chen, Li, Cao, IEEE TII 2023) with the authors' published policies on the authors' own
test sets (`fjsp/song-2022/` of the offline mirror) as the authors' test code runs them: DRL-G, one greedy
schedule per instance; DRL-S, the best of 100 schedules sampled at once (one batch of 100 copies). Random sets
are served by the policy trained on their size (30x10 and 40x10 by the 20x10 one, as the paper); the public
sets by `--public-policy`. Prints mean makespans per set and, for the public sets, the mean gap to the
literature upper bound ((f - ub) / ub, the paper's measure). One thread.

    python benchmarks/reproduce_fjsp_drl.py [--sets 1005 2005 Mk] [--instances 100] [--samples 100]

(`--samples 0`: greedy only.)

Sets: 1005 1510 2005 2010 3010 4010 (random), Mk (Brandimarte), e_la r_la v_la (Hurink edata/rdata/vdata).
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np
import torch

from frontierco.problems import FJSPInstance
from frontierco.problems.fjsp.files import read_fjs
from frontierco.solver import load_solver_module
from frontierco.workspace import Context

solver_module = load_solver_module("fjsp-drl", "solver")
schedule_module = load_solver_module("fjsp-drl", "schedule")
RANDOM_POLICY = {"1005": (10, 5), "1510": (15, 10), "2005": (20, 5), "2010": (20, 10), "3010": (20, 10), "4010": (20, 10)}
HURINK = {"e_la": "Hurink_edata", "r_la": "Hurink_rdata", "v_la": "Hurink_vdata"}


def instances(root: Path, name: str, count: int) -> list[tuple[FJSPInstance, float | None]]:
    """(instance, literature upper bound or None) of one set, in file-name order."""
    if name in RANDOM_POLICY:
        return [(read_fjs(path), None) for path in sorted((root / name).glob("*.fjs"))[:count]]
    bounds = {}
    with open(root / "Public-bounds.csv") as handle:
        for row in csv.DictReader(handle):
            bounds[(row["benchname"], int(row["dataname"].lstrip("mkla")))] = float(row["ub"])
    bench = "Brandimarte" if name == "Mk" else HURINK[name]
    paths = sorted((root / "Public").glob(f"{name}*.fjs"))[:count]
    return [(read_fjs(path), bounds[(bench, int(path.stem.lstrip("Mke_rvla")))]) for path in paths]


def makespans(network: object, instance: FJSPInstance, samples: int, seed: int) -> tuple[float, float]:
    """(greedy makespan, best of ``samples`` sampled ones; the greedy one again when ``samples`` is 0)."""
    layout = schedule_module.Layout.of(instance)
    generator = torch.Generator().manual_seed(seed)
    greedy = solver_module.rollout(network, layout, 1, sample=False, generator=generator)
    if samples == 0:
        return float(greedy.makespans()[0]), float(greedy.makespans()[0])
    sampled = solver_module.rollout(network, layout, samples, sample=True, generator=generator)
    return float(greedy.makespans()[0]), float(sampled.makespans().min())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="+", default=["1005", "2005", "Mk"])
    parser.add_argument("--instances", type=int, default=100)
    parser.add_argument("--samples", type=int, default=solver_module.PAPER_SAMPLES)
    parser.add_argument("--public-policy", default="10x5", choices=["10x5", "15x10", "20x5", "20x10"])
    args = parser.parse_args()
    torch.set_num_threads(1)
    files = Context.discover().files
    assert files.mirror is not None, "needs the offline mirror (FRONTIERCO_MIRROR)"
    root = files.mirror / "fjsp/song-2022"
    public = tuple(int(x) for x in args.public_policy.split("x"))
    for name in args.sets:
        size = RANDOM_POLICY.get(name, public)
        network = solver_module.load_policy(size, files)
        started, rows = time.perf_counter(), []
        for seed, (instance, bound) in enumerate(instances(root, name, args.instances)):
            greedy, sampled = makespans(network, instance, args.samples, seed)
            rows.append((greedy, sampled, bound))
            if bound is not None:
                print(f"  {instance.name}: greedy {greedy:g}, sampled {sampled:g}, ub {bound:g}", flush=True)
        greedy_mean, sampled_mean = np.mean([r[0] for r in rows]), np.mean([r[1] for r in rows])
        seconds = time.perf_counter() - started
        line = f"{name} ({len(rows)} instances, policy {size[0]}x{size[1]}, {seconds:.0f} s): "
        line += f"DRL-G {greedy_mean:.2f}, DRL-S {sampled_mean:.2f}"
        if rows[0][2] is not None:
            gaps = [(100 * (r[0] / r[2] - 1), 100 * (r[1] / r[2] - 1)) for r in rows if r[2] is not None]
            line += f"; mean gap to the upper bound: DRL-G {np.mean([g[0] for g in gaps]):.2f}%, DRL-S {np.mean([g[1] for g in gaps]):.2f}%"
        print(line, flush=True)


if __name__ == "__main__":
    main()
