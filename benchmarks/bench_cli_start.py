"""How long the command line takes as a whole process, against the yardstick of its own libraries.

    python benchmarks/bench_cli_start.py [--repeat 5] [--size 1000000]

Each command runs ``--repeat`` times in a fresh process (``python -m frontierco ...``); the median wall time
and the median CPU time (user + system of the child, from ``resource.getrusage(RUSAGE_CHILDREN)``: on a loaded
machine the wall time also counts the waits for a core) are printed for: the yardstick ``python -c "import
numpy, typer, rich"``, ``--version``, ``instances list``, and ``evaluate`` on a small TSPLIB file with a tour
and on a ``--size``-node one (uniform integer points, EUC_2D, a random tour), both written into a temporary
folder first. Issue 30's aims: ``--version`` within 0.15 s of the yardstick, ``evaluate`` at 1M nodes under 1.5 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _tour(path: Path, n: int) -> Path:
    """A random tour of ``n`` nodes as a TSPLIB .tour file beside ``path``."""
    tour = path.with_suffix(".tour")
    order = np.random.default_rng(1).permutation(n) + 1
    with open(tour, "w") as handle:
        handle.write(f"NAME : {path.stem}\nTYPE : TOUR\nDIMENSION : {n}\nTOUR_SECTION\n")
        np.savetxt(handle, order, fmt="%d")
        handle.write("-1\nEOF\n")
    return tour


def _tsplib(path: Path, n: int) -> Path:
    """``n`` uniform integer points in [0, 10^7)^2 as a TSPLIB EUC_2D file."""
    points = np.random.default_rng(0).integers(0, 10**7, (n, 2))
    with open(path, "w") as handle:
        handle.write(f"NAME : {path.stem}\nTYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n")
        np.savetxt(handle, np.column_stack([np.arange(1, n + 1), points]), fmt="%d")
        handle.write("EOF\n")
    return path


def measure(command: list[str], repeat: int, environment: dict[str, str] | None = None) -> tuple[float, float]:
    """Median wall and median CPU seconds of ``command`` over ``repeat`` fresh processes (output discarded; a
    failure stops the benchmark); ``environment`` replaces the inherited one when given."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=environment)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--size", type=int, default=1_000_000, help="nodes of the large TSPLIB file")
    args = parser.parse_args()
    cli = [sys.executable, "-m", "frontierco"]
    with tempfile.TemporaryDirectory(prefix="frontierco-bench-") as name:
        folder = Path(name)
        small, large = _tsplib(folder / "small.tsp", 50), _tsplib(folder / "large.tsp", args.size)
        cases = {
            'python -c "import numpy, typer, rich" (yardstick)': [sys.executable, "-c", "import numpy, typer, rich"],
            "frontierco --version": [*cli, "--version"],
            "frontierco instances list": [*cli, "instances", "list"],
            "frontierco evaluate (50 nodes)": [*cli, "evaluate", str(small), str(_tour(small, 50))],
            f"frontierco evaluate ({args.size:,} nodes)": [*cli, "evaluate", str(large), str(_tour(large, args.size))],
        }
        print(f"load average {os.getloadavg()[0]:.1f}; median of {args.repeat} whole processes")
        print(f"{'command':<52} {'wall s':>8} {'CPU s':>8}")
        for label, command in cases.items():
            wall, cpu = measure(command, args.repeat)
            print(f"{label:<52} {wall:8.3f} {cpu:8.3f}", flush=True)


if __name__ == "__main__":
    main()
