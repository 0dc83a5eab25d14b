"""frontierco-py: FrontierCO / CO-Bench style ``solve(**kwargs)`` files run under the harness."""
