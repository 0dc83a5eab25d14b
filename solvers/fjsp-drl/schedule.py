"""The scheduling process of Song et al. (2023), for a batch of copies of one instance: at the current time,
any idle job's next operation may start on any idle eligible machine; once no such pair is left, time moves
to the next machine completion. The features the network reads are updated after every action as the
authors' environment updates them (raw values here; ``normalised`` scales them).

Operation features: 0 scheduled (0/1); 1 eligible machines (1 once scheduled); 2 processing time (the mean
over eligible machines, the real time once scheduled); 3 operations of the job not yet scheduled; 4 the
job's estimated end (the estimated start of its last operation plus its time); 5 start (the real start once
scheduled, else the end of the job's last scheduled operation plus the times of the operations between).
Machine features: 0 eligible operations (an operation counts only for its chosen machine once scheduled);
1 the time the machine is free (0 before its first operation); 2 utilisation, min(busy time assigned, t) / t.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from frontierco.problems import FJSPInstance

EPSILON = 1e-5  # the normalisation's guard against a zero deviation, as the authors'
UTILISATION_EPSILON = (1e-9, 1e-5)  # the utilisation's guard after an action, after a move of time (the authors')


@dataclass(frozen=True)
class Layout:
    """The static arrays of one instance: times [O, M] (0 where not eligible), eligibility [O, M], the mean time
    of each operation over its eligible machines [O] (sum / (count + 1e-9), the authors' feature 2), the sum of
    those means over the operations before each one in its job [O], and the operation structure (job of each
    operation, first and last operation of each job, neighbours in the job)."""

    times: torch.Tensor
    eligible: torch.Tensor
    mean_time: torch.Tensor
    before: torch.Tensor
    job_of: torch.Tensor
    first: torch.Tensor
    last: torch.Tensor
    successor: torch.Tensor
    predecessor: torch.Tensor

    @classmethod
    def of(cls, instance: FJSPInstance) -> Layout:
        n, m = instance.num_operations, instance.num_machines
        times = np.zeros((n, m), dtype=np.float64)  # exact start times (sums of integer times)
        eligible = np.zeros((n, m), dtype=bool)
        rows = np.repeat(np.arange(n), np.diff(instance.option_ptr))
        times[rows, instance.machines] = instance.times
        eligible[rows, instance.machines] = True
        mean_time = times.sum(axis=1) / (eligible.sum(axis=1) + 1e-9)
        first, last = instance.job_ptr[:-1], instance.job_ptr[1:] - 1
        job_of = instance.job_of
        before = np.zeros(n)
        for a, b in zip(first, last, strict=True):
            before[a + 1 : b + 1] = np.cumsum(mean_time[a:b])
        index = np.arange(n)
        successor = np.where(np.isin(index, last), n, index + 1)
        predecessor = np.where(np.isin(index, first), n, index - 1)
        as_long = (torch.from_numpy(np.asarray(a, dtype=np.int64)) for a in (job_of, first, last, successor, predecessor))
        return cls(*(torch.from_numpy(a) for a in (times, eligible, mean_time, before)), *as_long)


class Schedules:
    """B partial schedules of one instance, built one (job, machine) action at a time. The raw features are kept
    and updated in place by each action, touching only what the action changes: the chosen operation, the
    estimated starts of its job's later operations, the job's counts and end, the machines it was eligible on."""

    def __init__(self, layout: Layout, batch: int) -> None:
        self.layout, self.batch = layout, batch
        n, m = layout.times.shape
        jobs = len(layout.first)
        self.rows = torch.arange(batch)
        self.adjacent = layout.eligible.expand(batch, -1, -1).clone()
        self.times = layout.times.expand(batch, -1, -1).clone()
        self.scheduled = torch.zeros(batch, n, dtype=torch.bool)
        self.eligible_count = layout.eligible.sum(dim=1).double().expand(batch, -1).clone()  # feature 1
        self.op_time = layout.mean_time.expand(batch, -1).clone()  # feature 2
        self.left = (layout.last - layout.first + 1).double().expand(batch, -1).clone()  # feature 3, per job
        self.start = layout.before.expand(batch, -1).clone()  # feature 5: real start once scheduled, else the estimate
        self.job_end = self.start[:, layout.last] + self.op_time[:, layout.last]  # feature 4, per job
        self.machine = torch.zeros(batch, n, dtype=torch.long)
        self.next_op = layout.first.expand(batch, -1).clone()
        self.job_busy = torch.zeros(batch, jobs, dtype=torch.bool)
        self.job_done = torch.zeros(batch, jobs, dtype=torch.bool)
        self.machine_busy = torch.zeros(batch, m, dtype=torch.bool)
        self.machine_count = layout.eligible.sum(dim=0).double().expand(batch, -1).clone()  # machine feature 0
        self.free_at = torch.zeros(batch, m, dtype=torch.float64)  # machine feature 1
        self.busy_time = torch.zeros(batch, m, dtype=torch.float64)
        self.machine_job = torch.zeros(batch, m, dtype=torch.long)
        self.time = torch.zeros(batch, dtype=torch.float64)
        self.utilisation = torch.zeros(batch, m, dtype=torch.float64)  # machine feature 2

    @property
    def done(self) -> bool:
        return bool(self.job_done.all())

    def current_operations(self) -> torch.Tensor:
        """Each job's next operation, its last one once the job is done [B, J]."""
        return torch.minimum(self.next_op, self.layout.last)

    def mask(self) -> torch.Tensor:
        """The actions open now [B, M * J], machine-major as the actor's scores."""
        current = self.current_operations()
        fits = self.adjacent.gather(1, current.unsqueeze(-1).expand(-1, -1, self.adjacent.shape[-1]))  # [B, J, M]
        open_now = fits & ~(self.job_busy | self.job_done).unsqueeze(-1) & ~self.machine_busy.unsqueeze(1)
        return open_now.transpose(1, 2).flatten(1)

    def operation_features(self) -> torch.Tensor:
        """The six raw operation features [B, O, 6]."""
        job_of = self.layout.job_of
        columns = (self.scheduled.double(), self.eligible_count, self.op_time, self.left[:, job_of], self.job_end[:, job_of], self.start)
        return torch.stack(columns, dim=-1)

    def machine_features(self) -> torch.Tensor:
        """The three raw machine features [B, M, 3]."""
        return torch.stack((self.machine_count, self.free_at, self.utilisation), dim=-1)

    def _utilisation(self, epsilon: float) -> None:
        t = self.time.unsqueeze(-1)
        self.utilisation = torch.minimum(self.busy_time, t) / (t + epsilon)

    def step(self, action: torch.Tensor) -> None:
        """Start, at the current time, job j's next operation on machine m (action m * J + j) in every copy,
        then move time on until some action is open again or the schedule is complete."""
        layout = self.layout
        jobs = len(layout.first)
        machine, job = action // jobs, action % jobs
        rows = self.rows
        op = self.next_op[rows, job]
        duration = layout.times[op, machine]
        chosen = torch.zeros_like(self.adjacent[:, 0])
        chosen[rows, machine] = True
        self.machine_count -= self.adjacent[rows, op].double()  # the operation now counts for its machine only
        self.machine_count[rows, machine] += 1
        self.adjacent[rows, op] = chosen
        self.times[rows, op] = layout.times[op] * chosen
        self.scheduled[rows, op] = True
        self.eligible_count[rows, op] = 1.0
        self.op_time[rows, op] = duration
        self.start[rows, op] = self.time
        later = (layout.job_of == job.unsqueeze(-1)) & (torch.arange(len(layout.job_of)) > op.unsqueeze(-1))  # [B, O]
        anchor = self.time + duration - layout.before[(op + 1).clamp(max=len(layout.job_of) - 1)]
        self.start = torch.where(later, anchor.unsqueeze(-1) + layout.before, self.start)
        last = layout.last[job]
        self.job_end[rows, job] = self.start[rows, last] + self.op_time[rows, last]
        self.machine[rows, op] = machine
        self.left[rows, job] -= 1
        self.free_at[rows, machine] = self.time + duration
        self.busy_time[rows, machine] += duration
        self.machine_job[rows, machine] = job
        self.machine_busy[rows, machine] = True
        self.job_busy[rows, job] = True
        self.next_op[rows, job] += 1
        self.job_done[rows, job] = self.next_op[rows, job] > last
        self._utilisation(UTILISATION_EPSILON[0])
        self._advance()

    def _advance(self) -> None:
        """Move each copy with no open action (and work left) to its next machine completion, freeing the
        machines (and their jobs) that complete then."""
        while True:
            stuck = ~self.mask().any(dim=1) & ~self.job_done.all(dim=1)
            if not stuck.any():
                return
            pending = torch.where(self.machine_busy, self.free_at, torch.full_like(self.free_at, float("inf")))
            moved = torch.where(stuck, pending.min(dim=1).values, self.time)
            self.time = moved
            freed = self.machine_busy & (self.free_at <= moved.unsqueeze(-1)) & stuck.unsqueeze(-1)
            rows, machines = torch.nonzero(freed, as_tuple=True)
            self.job_busy[rows, self.machine_job[rows, machines]] = False
            self.machine_busy &= ~freed
            self._utilisation(UTILISATION_EPSILON[1])

    def makespans(self) -> torch.Tensor:
        """[B] the makespan of each complete schedule."""
        return (self.start + self.op_time).max(dim=1).values


def normalised(schedules: Schedules, pooled: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The network's inputs: operation and machine features standardised over the operations (machines) of each
    copy; processing times standardised over the positive entries of each copy (greedy decoding, ``pooled``
    False) or over every entry of the whole batch, zeros included (sampling, ``pooled`` True), as the authors'
    test code does for DRL-G and DRL-S."""
    operations, machines = schedules.operation_features(), schedules.machine_features()
    operations = (operations - operations.mean(dim=1, keepdim=True)) / (_std(operations, 1) + EPSILON)
    machines = (machines - machines.mean(dim=1, keepdim=True)) / (_std(machines, 1) + EPSILON)
    times = schedules.times
    if pooled:
        edges = (times - times.mean()) / (_std(times.flatten(), 0) + EPSILON)
    else:
        positive = times > 0
        count = positive.sum(dim=(1, 2)).clamp(min=1).double()
        mean = times.sum(dim=(1, 2)) / count
        squares = torch.where(positive, (times - mean[:, None, None]) ** 2, torch.zeros_like(times)).sum(dim=(1, 2))
        std = torch.sqrt(squares / (count - 1).clamp(min=1))
        edges = torch.where(positive, (times - mean[:, None, None]) / (std[:, None, None] + EPSILON), torch.zeros_like(times))
    return operations.float(), machines.float(), edges.float()


def _std(x: torch.Tensor, dim: int) -> torch.Tensor:
    """The sample standard deviation along ``dim`` (kept), 0 where only one value is there."""
    if x.shape[dim] < 2:
        return torch.zeros_like(x.mean(dim=dim, keepdim=True))
    return x.std(dim=dim, keepdim=True)
