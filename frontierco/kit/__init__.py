"""The solver toolkit: pieces solvers share (a budget clock, distance matrices, tour, route and tree searches,
a heatmap GNN, the MILP a MILP solver works on, checked checkpoints). Solvers import it; the harness and the
problems do not.

Until the next release the old names (``frontierco.solverkit``, ``frontierco.tour_search``, ...) still import,
with a ``DeprecationWarning`` naming the new module (``frontierco._MOVED``)."""
