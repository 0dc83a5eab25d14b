"""mis-search: branch and bound for maximum clique of the complement, ARW's iterated local search and NuMVC."""
