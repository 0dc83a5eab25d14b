"""The protocol behind a set of records: time limits, machines, library versions, newest run."""

from __future__ import annotations

from dataclasses import dataclass

from frontierco.leaderboard import markdown
from frontierco.results import RunRecord


@dataclass(frozen=True)
class Protocol:
    time_limits: tuple[float, ...]
    cpus: tuple[str, ...]
    jobs: tuple[int, ...]
    pythons: tuple[str, ...]
    libraries: tuple[str, ...]
    frontierco: tuple[str, ...]
    newest: str
    sandboxes: tuple[str, ...] = ()  # what the runs' workers applied (harness/sandbox); records before it say nothing

    @classmethod
    def of(cls, records: list[RunRecord]) -> Protocol:
        libraries = sorted({f"{name} {version}" for r in records for name, version in r.libraries.items()})
        sandboxes = {str(r.provenance.get("sandbox", "not recorded")) for r in records}
        return cls(
            time_limits=tuple(sorted({r.time_limit for r in records})),
            cpus=tuple(sorted({str(r.provenance.get("cpu", "unknown")) for r in records})),
            jobs=tuple(sorted({int(r.provenance.get("jobs", 1)) for r in records})),
            pythons=tuple(sorted({str(r.provenance.get("python", "?")) for r in records})),
            libraries=tuple(libraries),
            frontierco=tuple(sorted({str(r.provenance.get("frontierco", "?")) for r in records})),
            newest=max((str(r.provenance.get("finished_at", "")) for r in records), default="")[:10],
            sandboxes=tuple(sorted(sandboxes)) if sandboxes != {"not recorded"} else (),
        )

    def markdown(self) -> str:
        return "\n".join(
            [
                "Protocol: each run in its own process under a hard wall-clock limit, one thread unless stated; every",
                "solution re-checked by frontierco's own checker.",
                f"- time limits: {', '.join(f'{t:g} s' for t in self.time_limits)}",
                f"- machines: {'; '.join(self.cpus)}; parallel runs: {', '.join(map(str, self.jobs))}",
                f"- Python {', '.join(self.pythons)}; frontierco {', '.join(self.frontierco)}",
                f"- libraries: {', '.join(map(markdown.name, self.libraries)) or 'none'}",
                f"- newest run: {self.newest}",
            ]
            + ([f"- solver sandbox: {', '.join(map(markdown.name, self.sandboxes))}"] if self.sandboxes else [])
        )
