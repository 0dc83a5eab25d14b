"""Leaderboards rebuilt from stored run records: markdown, CSV, SVG figures and one static HTML page."""
