"""The application layer: what the command line does beyond parsing its arguments (used by the CLI alone)."""
