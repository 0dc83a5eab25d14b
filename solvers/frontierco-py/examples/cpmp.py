"""Greedy, written as a FrontierCO CPMP solve file: the p points of largest capacity are the medians, then every
point, by decreasing demand, goes to the nearest median with room left."""

import math


def solve(**kwargs):
    customers, p = kwargs["customers"], kwargs["p"]
    medians = sorted(customers, key=lambda c: (-c[3], c[0]))[:p]
    room = {m[0]: m[3] for m in medians}
    assignments = [None] * len(customers)
    for cid, x, y, _, demand in sorted(customers, key=lambda c: -c[4]):
        for m in sorted(medians, key=lambda m: math.hypot(m[1] - x, m[2] - y)):
            if room[m[0]] >= demand:
                room[m[0]] -= demand
                assignments[cid] = m[0]
                break
        else:
            return  # no room anywhere: this greedy has nothing to offer
    yield {"medians": [m[0] for m in medians], "assignments": assignments}
