"""The app's life from the ``paperscope`` command to the quit.

- ``startup``: the map of the start, step by step with each step's file and function,
  and every timing constant it waits on, with the figure each was tuned on. Read it first.
- ``peek``: ``ForkedPeek``, the first screen of papers read in a forked child while
  Textual is imported. Textual-free (the command line imports it).
- ``loading``: ``Preload`` (the catalogue read in a thread from before the first frame)
  and ``Loader`` (the worker that posts the catalogue, then the index, as messages).
- ``quitting``: ``run_until_quit`` and ``quit_now``, quitting at once whatever runs.
- ``exiting``: ``leave``, ending the process, safe while an import is interrupted.
  Textual-free and imports nothing new.

This package's ``__init__`` imports nothing: ``exiting`` must load before anything else.
"""
