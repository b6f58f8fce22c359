"""PaperScope's benchmark: start-up, typing, search, build, memory and growth.

Run ``.venv/bin/python -m tests.benchmarks.run`` (``--quick`` for the small version
that ``.ci/run`` executes). Figures go to a printed table and a JSON file; the
method and the last figures are in ``RESULTS.md`` next to this file.
"""
