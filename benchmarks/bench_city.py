"""Build a 1,000-point city from a town-sized extract: time and peak memory (target: well under 30 s).

python benchmarks/bench_city.py [--osm ../shared/data/osm/monaco.osm.pbf] [--points 1000]
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from frontierco.problems.routing.cities.build import build_city, check_city
from frontierco.workspace import Context


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    mirror = Context.discover().files.mirror  # FRONTIERCO_MIRROR
    parser.add_argument("--osm", type=Path, default=(mirror / "osm" / "monaco.osm.pbf") if mirror else None)
    parser.add_argument("--points", type=int, default=1000)
    args = parser.parse_args()
    start = time.perf_counter()
    city = build_city(args.osm, args.osm.name.split(".")[0], args.points)
    seconds = time.perf_counter() - start
    report = check_city(city)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.osm.name}: {city.size} points on {city.metadata['scc_nodes']} road nodes in {seconds:.2f} s, peak RSS {peak:.0f} MB")
    print(f"checks: finite {report.finite}, triangle violations {report.triangle_violations}, asymmetry {report.asymmetry:.3f}")
    print(f"mean speed implied by the matrices: {report.mean_speed_kmh:.1f} km/h")


if __name__ == "__main__":
    main()
