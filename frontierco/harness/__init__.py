"""The harness: runs each solver in its own worker process under a hard time limit, re-checks every solution
with the problem's checker, and appends the records to the store (``execute``, ``runner``, ``worker``,
``executors``)."""
