"""Greedy, written as a FrontierCO CFLP solve file: customers by decreasing demand, each served from its cheapest
facilities per unit that still have room (split when one is full); the facilities used are open. Then, while
it pays, the open facility whose customers fit elsewhere at the lowest extra cost is closed."""


def _serve(order, facilities, capacities, demands, trans_costs):
    room = {i: capacities[i] for i in facilities}
    amounts = [[0.0] * len(capacities) for _ in demands]
    for j in order:
        left = demands[j]
        for i in sorted(facilities, key=lambda i: trans_costs[i][j] / max(demands[j], 1e-9)):
            take = min(left, room[i])
            if take > 0:
                amounts[j][i] += take
                room[i] -= take
                left -= take
            if left <= 1e-9:
                break
        if left > 1e-9:
            return None
    return amounts


def _cost(amounts, fixed_cost, demands, trans_costs):
    used = {i for row in amounts for i, a in enumerate(row) if a > 0}
    serving = sum(a / demands[j] * trans_costs[i][j] for j, row in enumerate(amounts) for i, a in enumerate(row) if a > 0)
    return sum(fixed_cost[i] for i in used) + serving, used


def solve(**kwargs):
    capacities, fixed_cost = kwargs["capacities"], kwargs["fixed_cost"]
    demands, trans_costs = kwargs["demands"], kwargs["trans_costs"]
    facilities = set(range(len(capacities)))  # len(capacities), not n: FrontierCO's own loader puts the customer count in n
    order = sorted(range(len(demands)), key=lambda j: -demands[j])
    amounts = _serve(order, facilities, capacities, demands, trans_costs)
    if amounts is None:
        return
    best, used = _cost(amounts, fixed_cost, demands, trans_costs)
    yield {"facilities_open": [int(i in used) for i in range(len(capacities))], "assignments": amounts}
    improved = True
    while improved:
        improved = False
        for i in sorted(used, key=lambda i: -fixed_cost[i]):
            trial = _serve(order, used - {i}, capacities, demands, trans_costs)
            if trial is None:
                continue
            cost, trial_used = _cost(trial, fixed_cost, demands, trans_costs)
            if cost < best - 1e-9:
                best, used, amounts, improved = cost, trial_used, trial, True
                yield {"facilities_open": [int(k in used) for k in range(len(capacities))], "assignments": amounts}
                break
