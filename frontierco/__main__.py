"""``python -m frontierco`` runs the command line."""

from frontierco.cli import main

main()
