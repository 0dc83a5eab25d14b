"""Earliest finish time list scheduling, written as a FrontierCO FJSP solve file (kwargs: num_jobs, num_machines,
jobs: per job, per operation, (machine, time) pairs, machines numbered from 1)."""


def solve(**kwargs):
    jobs, num_machines = kwargs["jobs"], kwargs["num_machines"]
    machine_free = [0] * (num_machines + 1)
    job_free = [0] * len(jobs)
    next_op = [0] * len(jobs)
    first = [0]
    for job in jobs:
        first.append(first[-1] + len(job))
    assignments, starts = [0] * first[-1], [0] * first[-1]
    while any(next_op[j] < len(jobs[j]) for j in range(len(jobs))):
        best = None
        for j, job in enumerate(jobs):
            if next_op[j] == len(job):
                continue
            for machine, time in job[next_op[j]]:
                start = max(machine_free[machine], job_free[j])
                if best is None or start + time < best[0]:
                    best = (start + time, start, j, machine)
        end, start, j, machine = best
        index = first[j] + next_op[j]
        assignments[index], starts[index] = machine, start
        machine_free[machine] = job_free[j] = end
        next_op[j] += 1
    yield {"makespan": max(job_free), "machine_assignments": assignments, "start_times": starts}
