"""The leaderboard's section on FrontierCO's test sets: per collection that lists a FrontierCO test set by its
names (a manifest's ``[published_set]``), each row's mean gap to FrontierCO's value, the instances it left
without a solution, what its bounds say about FrontierCO's value, and where the suite holds a better value
than FrontierCO's (a run, or another collection's reference for the same instance)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from frontierco.filestore import FileSource
from frontierco.leaderboard.data import CollectionBoard
from frontierco.leaderboard.frontier import PUBLISHER, comparison_markdown, is_frontierco_set
from frontierco.manifests import Collection, InstanceEntry
from frontierco.metrics import ScoredRun, primal_gap, refuted_bound, same_value_slack
from frontierco.problems import PROBLEMS
from frontierco.registry import Registry
from frontierco.results import FEASIBLE_STATUSES


def identity(entry: InstanceEntry) -> tuple[str, str]:
    """What makes two entries of different collections one instance: the file (with its transform) or the
    content a generator builds."""
    source = entry.source
    if isinstance(source, FileSource):
        return source.sha256, entry.transform or ""
    return source.content_sha256 or f"{source.generator}:{source.seed}:{sorted(source.params.items())}", ""


def _better(sense: str, value: float, than: float) -> bool:
    slack = same_value_slack(than)
    return value < than - slack if sense == "min" else value > than + slack


def _claim(run: ScoredRun, sense: str) -> float | None:
    """The run's bound on the optimum: its recorded bound (unless the run's own solution refutes it), or its
    objective when it proved that optimal."""
    record = run.record
    feasible = record.objective if record.status in FEASIBLE_STATUSES else None
    if record.bound is not None and (feasible is None or not refuted_bound(sense, record.bound, feasible)):
        return record.bound
    return feasible if record.proven else None


@dataclass(frozen=True)
class Unrounded:
    """A row's mean gap by FrontierCO's evaluator (the records' ``unrounded`` objective against FrontierCO's value),
    over the runs that carry it (a run without a solution counts 1, as in the other gap)."""

    mean_gap: float | None
    carried: int  # runs scored: those without a solution, and those whose record holds the unrounded objective
    runs: int

    def cell(self) -> str:
        if self.mean_gap is None or self.carried < self.runs:
            return f"n/a ({self.carried} of {self.runs} runs)"
        return f"{100 * self.mean_gap:.3f}"


def _unrounded(runs: list[ScoredRun], reference: dict[str, float | None]) -> Unrounded:
    gaps = []
    for run in runs:
        value = reference.get(run.record.instance)
        if value is None:
            continue
        solved = run.record.status in FEASIBLE_STATUSES and run.record.objective is not None
        if solved and run.record.unrounded is None:
            continue  # a record older than the field: not scored by this gap
        gaps.append(primal_gap(run.record.unrounded if solved else None, value))
    scored = sum(1 for run in runs if reference.get(run.record.instance) is not None)
    return Unrounded(sum(gaps) / len(gaps) if gaps else None, len(gaps), scored)


@dataclass(frozen=True)
class Row:
    solver: str
    time_limit: float
    instances: int
    mean_gap: float | None
    unrounded: Unrounded | None  # the mean gap by FrontierCO's evaluator (None: the problem's objective has no rounding)
    unsolved: list[str]  # instances where no run of the row found a solution
    claimed: int  # instances where a run claimed a bound (or proved an optimum)
    proves: list[str]  # instances where a bound reaches FrontierCO's value
    excludes: list[str]  # instances where a bound is better than FrontierCO's value: not FrontierCO's instance


def published_value(entry: InstanceEntry) -> float | None:
    """The published set's own value of an entry: kept apart where a better run became the reference."""
    if entry.reference is None:
        return None
    return entry.reference.published if entry.reference.published is not None else entry.reference.value


def _row(runs: list[ScoredRun], reference: dict[str, float | None], sense: str, unrounded: bool = False) -> Row:
    """A row's figures against ``reference`` (instance -> the published set's value), whatever the board's reference."""
    by_instance: dict[str, list[ScoredRun]] = defaultdict(list)
    for run in runs:
        by_instance[run.record.instance].append(run)
    gaps = [
        primal_gap(run.record.objective if run.record.status in FEASIBLE_STATUSES else None, value)
        for run in runs
        if (value := reference.get(run.record.instance)) is not None
    ]
    unsolved, proves, excludes = [], [], []
    claimed = 0
    for name, own in sorted(by_instance.items()):
        if not any(run.record.status in FEASIBLE_STATUSES and run.record.objective is not None for run in own):
            unsolved.append(name)
        value = reference.get(name)
        claims = [claim for run in own if (claim := _claim(run, sense)) is not None]
        claimed += bool(claims)
        if value is None or not claims:
            continue
        if any(_better(sense, value, claim) for claim in claims):
            excludes.append(name)  # f* is better than the bound allows: nothing here attains FrontierCO's value
        elif any(abs(claim - value) <= same_value_slack(value) for claim in claims):
            proves.append(name)
    first = runs[0].record
    mean = sum(gaps) / len(gaps) if gaps else None
    scored = _unrounded(runs, reference) if unrounded else None
    return Row(first.row_name, first.time_limit, len(by_instance), mean, scored, unsolved, claimed, proves, excludes)


def _rows(collection: Collection, board: CollectionBoard | None) -> list[Row]:
    if board is None:
        return []
    reference = {e.name: published_value(e) for e in collection.entries}
    groups: dict[tuple[str, float], list[ScoredRun]] = defaultdict(list)
    for run in board.runs:
        groups[run.group].append(run)
    problem = PROBLEMS[collection.problem]
    unrounded = problem.unrounded is not None
    return [_row(groups[key], reference, groups[key][0].record.sense or problem.sense, unrounded) for key in sorted(groups)]


def _betters(registry: Registry, sets: list[Collection], boards: list[CollectionBoard]) -> list[str]:
    """'collection/instance: FrontierCO's value v; here w (where)' for every instance of the sets that the
    suite holds a better value for: a feasible run on that instance in any collection, or another collection's
    reference for it."""
    found: dict[tuple[str, str], list[tuple[float, str]]] = defaultdict(list)
    entries = {(c.name, e.name): e for c in registry.collections.values() for e in c.entries}
    for board in boards:
        for run in board.runs:
            record = run.record
            entry = entries.get((record.collection, record.instance))
            if entry is not None and record.status in FEASIBLE_STATUSES and record.objective is not None:
                found[identity(entry)].append((record.objective, f"{record.row_name} at {record.time_limit:g} s in {record.collection}"))
    for collection in registry.collections.values():
        if collection.published_set is None:
            for entry in collection.entries:
                if entry.reference is not None and entry.reference.value is not None:
                    source = entry.reference.source or "no source"
                    found[identity(entry)].append((entry.reference.value, f"{collection.name}'s reference, {source}"))
    lines = []
    for collection in sets:
        sense = PROBLEMS[collection.problem].sense
        for entry in collection.entries:
            value = published_value(entry)
            if value is None:
                continue
            better = [(v, where) for v, where in found.get(identity(entry), []) if _better(sense, v, value)]
            if better:
                best = sorted(better, key=lambda item: (item[0] if sense == "min" else -item[0], item[1]))[0]
                lines.append(f"- {entry.key}: FrontierCO's value {value:,.12g}; here {best[0]:,.12g} ({best[1]})")
    return lines


def _proven_elsewhere(registry: Registry, sets: list[Collection]) -> list[str]:
    """'collection: k of n (where)' for each set with instances whose FrontierCO value another collection's
    proven-optimal reference for the same instance equals."""
    optimal: dict[tuple[str, str], tuple[float, str]] = {}
    for collection in sorted(registry.collections.values(), key=lambda c: c.name):
        if collection.published_set is None:
            for entry in collection.entries:
                if entry.reference is not None and entry.reference.is_optimal and entry.reference.value is not None:
                    optimal.setdefault(identity(entry), (entry.reference.value, collection.name))

    def held(entry: InstanceEntry) -> bool:
        value = published_value(entry)
        known = optimal.get(identity(entry))
        return value is not None and known is not None and abs(known[0] - value) <= same_value_slack(value)

    lines = []
    for collection in sets:
        proven = [e for e in collection.entries if held(e)]
        if proven:
            where = sorted({optimal[identity(e)][1] for e in proven})
            lines.append(f"- {collection.name}: {len(proven)} of {len(collection.entries)} ({', '.join(where)})")
    return lines


def _names(names: list[str]) -> str:
    return f"{len(names)} ({', '.join(names)})" if 0 < len(names) <= 3 else str(len(names))


def published_markdown(registry: Registry, boards: list[CollectionBoard], learned: set[str] | frozenset[str]) -> list[str]:
    """The section's lines ([] when the suite lists none of FrontierCO's test sets)."""
    sets = sorted(
        filter(is_frontierco_set, registry.collections.values()),
        key=lambda c: c.name,
    )
    if not sets:
        return []
    by_name = {board.collection.name: board for board in boards}
    lines = [
        "",
        "## FrontierCO's test sets",
        "",
        "Collections that list FrontierCO's test instances by its names, as far as the mirror holds their files",
        "(`instances/frontierco/`), scored against FrontierCO's value (`FrontierCO bks.csv`): mean gap |f - f*| / max(f, f*)",
        "over the runs (1 for a run without a solution); 'no solution': instances where no run of the row found one;",
        "a bound (the solver's claimed bound, or an optimum it proved) 'proves' FrontierCO's value when it reaches it",
        "and 'excludes' it when it is better than it: that instance is then not the one FrontierCO used ('-': the row",
        "claimed no bound). Run with `frontierco campaign run frontierco-protocol` (60 s); `--time-limit 3600` is",
        "FrontierCO's protocol. Where a re-verified run better than FrontierCO's value became an instance's reference",
        "(`frontierco reference update`: the boards rank against the best known value), the manifest keeps FrontierCO's",
        "value beside it (`published_reference`) and this table still scores against FrontierCO's value.",
        "",
        "Two gaps where the instance files round their distances: 'mean gap %' scores the objective as the file's format",
        "prescribes (its rounding), and the boards rank by it; 'by FrontierCO's evaluator' scores the same solutions with",
        "unrounded Euclidean lengths, as FrontierCO's `eval_func` computes them, against the same FrontierCO values (which",
        "for the library sets are their rounded optima and best-known costs). The harness computes that length from the",
        "instance and the best solution (`Problem.unrounded`), never takes it from the solver; 'n/a (k of n runs)':",
        "records older than it; '(same)': the problem's objective has no rounding.",
        "",
        "| collection | FrontierCO's names held | solver | limit s | instances run | mean gap % | by FrontierCO's evaluator % "
        "| no solution | bound proves | bound excludes |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for collection in sets:
        held = collection.coverage.removeprefix(f"{PUBLISHER} ")
        rows = _rows(collection, by_name.get(collection.name))
        if not rows:
            lines.append(f"| {collection.name} | {held} | no runs yet | | 0 | n/a | | | | |")
        for row in rows:
            gap = "n/a" if row.mean_gap is None else f"{100 * row.mean_gap:.3f}"
            unrounded = "(same)" if row.unrounded is None else row.unrounded.cell()
            lines.append(
                f"| {collection.name} | {held} | {row.solver} | {row.time_limit:g} | {row.instances} | {gap} | {unrounded} | "
                f"{_names(row.unsolved)} | {_names(row.proves) if row.claimed else '-'} | {_names(row.excludes) if row.claimed else '-'} |"
            )
    lines += [
        "",
        "FrontierCO's comparison: on each set and time limit, the best learned row (the widest coverage, then the lowest",
        "mean gap) against the best classical row that ran on every instance (the lowest mean gap), both scored on the",
        "instances the learned row ran on (the board's mean gap |f - f*| / max(f, f*) to its reference, 1 for a run",
        "without a solution); a win is an instance where the learned row's gap is lower.",
        "",
        *comparison_markdown(boards, learned),
    ]
    proven = _proven_elsewhere(registry, sets)
    if proven:
        lines += ["", "FrontierCO's values that another collection of the suite holds as a proven optimum of the same instance:", ""]
        lines += proven
    betters = _betters(registry, sets, boards)
    if betters:
        lines += ["", "Instances where the suite holds a better value than FrontierCO's:", ""] + betters
    else:
        lines += ["", "The suite holds no better value than FrontierCO's for any of these instances."]
    return lines
