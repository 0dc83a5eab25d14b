"""How long ``frontierco leaderboard build --check`` takes on the committed store, as a whole process.

    python benchmarks/bench_leaderboard_build.py [--repeat 3] [--redraw]

Each case runs ``--repeat`` times in a fresh process (``python -m frontierco leaderboard build --check``, which
also fails the benchmark when the committed boards are out of date); the median wall time and the median CPU
time (user + system of the child and its forked drawers, from ``resource.getrusage(RUSAGE_CHILDREN)``; on a
loaded machine the wall time also counts the waits for a core) are printed for: the yardstick ``python -c
"import numpy, typer, rich"``; a fresh clone (an empty figure cache: only the committed figures and their key
file, ``leaderboards/figures/keys.json``); this machine's figure cache as it is; with ``--redraw`` also every
figure drawn afresh (``FRONTIERCO_FIGURE_CACHE=off``: what a fresh clone paid before the key file). Issue 30's
aim: under 10 s, the output byte-identical (``--check`` compares every byte).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from bench_cli_start import measure  # the sibling script's timer (run as python benchmarks/...)

AIM_SECONDS = 10.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--redraw", action="store_true", help="also time a build that draws every figure afresh")
    args = parser.parse_args()
    check = [sys.executable, "-m", "frontierco", "leaderboard", "build", "--check"]
    with tempfile.TemporaryDirectory(prefix="frontierco-bench-figures-") as empty:
        cases = {
            'python -c "import numpy, typer, rich" (yardstick)': ([sys.executable, "-c", "import numpy, typer, rich"], {}),
            "leaderboard build --check, fresh clone (empty figure cache)": (check, {"FRONTIERCO_FIGURE_CACHE": empty}),
            "leaderboard build --check, this machine's figure cache": (check, {}),
        }
        if args.redraw:
            cases["leaderboard build --check, every figure drawn (cache off)"] = (check, {"FRONTIERCO_FIGURE_CACHE": "off"})
        print(f"load average {os.getloadavg()[0]:.1f}; median of {args.repeat} whole processes; aim: under {AIM_SECONDS:g} s")
        print(f"{'command':<62} {'wall s':>8} {'CPU s':>8}")
        for label, (command, extra) in cases.items():
            wall, cpu = measure(command, args.repeat, os.environ | extra)
            verdict = "" if command[1] == "-c" else ("  meets the aim" if wall < AIM_SECONDS else "  over the aim")
            print(f"{label:<62} {wall:8.2f} {cpu:8.2f}{verdict}", flush=True)


if __name__ == "__main__":
    main()
