"""The solver toolkit: pieces solvers share (a budget clock, distance matrices, tour, route and tree searches,
a heatmap GNN, MILP formulations, checked checkpoints). Solvers import it, and generators/milp.py one partition
heuristic; the harness does not.

Until the next release the old names (``frontierco.solverkit``, ``frontierco.tour_search``, ...) still import,
with a ``DeprecationWarning`` naming the new module (``frontierco._MOVED``)."""
