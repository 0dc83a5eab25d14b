"""The run inside a bubblewrap sandbox: ``python -m frontierco.harness.confined HANDOVER CHANNEL_FD``.

The worker (``harness/worker``), having loaded the instance outside, wrote the job, the instance and the name
of the sandbox to ``HANDOVER`` (in the run's temporary folder) and became ``bwrap`` running this; here they
are read back and the file removed, then the solver is imported and run as in any worker, its messages on
file descriptor ``CHANNEL_FD``. Nothing of the workspace exists in this process's file system or memory.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path
from typing import IO, Any


def _take(handover: Path) -> dict[str, Any]:
    with open(handover, "rb") as handle:
        given: dict[str, Any] = pickle.load(handle)
    handover.unlink()
    return given


def main(argv: list[str]) -> int:
    from frontierco.harness.worker import report, solve_job

    handover, channel_fd = Path(argv[1]), int(argv[2])
    given = _take(handover)

    def work(channel: IO[str]) -> None:
        solve_job(given["job"], given["instance"], channel, str(given["applied"]))

    return report(os.fdopen(channel_fd, "w"), work)


if __name__ == "__main__":
    os._exit(main(sys.argv))  # as a forked worker ends: no wait for threads a solver left running
