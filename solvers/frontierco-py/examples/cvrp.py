"""Nearest feasible customer, route by route, written as a FrontierCO CVRP solve file (kwargs: nodes, demands,
capacity, depot_idx, dist_matrix)."""


def solve(**kwargs):
    demands, capacity, depot = kwargs["demands"], kwargs["capacity"], kwargs["depot_idx"]
    matrix = kwargs["dist_matrix"]
    left = {i for i in range(len(demands)) if i != depot}
    routes = []
    while left:
        route, load, last = [depot], 0, depot
        while True:
            fitting = [c for c in left if load + demands[c] <= capacity]
            if not fitting:
                break
            nearest = min(fitting, key=lambda c: matrix[last][c])
            route.append(nearest)
            load += demands[nearest]
            left.remove(nearest)
            last = nearest
        if len(route) == 1:  # a customer larger than the vehicle: no solution
            return
        routes.append(route + [depot])
    yield {"routes": routes}
