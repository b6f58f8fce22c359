"""Start-up in one place: the steps from ``paperscope`` to the first frame and after, and
every timing constant they wait on.

This module is a map and the home of the timings; it runs nothing and imports nothing
(the forked peek and the command line import it before Textual). Each step names the
file and the function that does it.

Before the first frame (one process; a forked child reads the first papers meanwhile):

1. ``tui/__main__.py`` :func:`main`: bare ``paperscope`` calls :func:`early_peek`, which
   forks :class:`~tui.lifecycle.peek.ForkedPeek` (``tui/lifecycle/peek.py``) *before* the
   command line and Textual are imported. The child runs
   :meth:`~tui.shared.context.Context.peek_catalogue` (``tui/shared/context.py``: the head
   cache via ``index_builder/catalogue/load.py:read_head``, or on a first run
   ``index_builder/catalogue/first_look.py:peek_table_papers``) and pickles it back.
2. ``tui/cli/main.py`` :func:`run`: parses the arguments, builds the
   :class:`~tui.shared.context.Context` (paths, sources; nothing opened yet), and with no
   sub-command imports the app and calls ``run_tui(ctx, peek.result)``.
3. ``tui/app.py`` :func:`run_tui`: starts a :class:`~tui.lifecycle.loading.Preload`
   (``tui/lifecycle/loading.py``), a thread that takes the peek (waiting at most
   :data:`TIMEOUT_S` for the child), then holds the full catalogue back until the first
   frame is drawn (:data:`GATE_S` at most); builds the ``PaperScopeApp``.
4. ``tui/lifecycle/quitting.py`` :func:`run_until_quit`: sets the interpreter's switch
   interval to :data:`SWITCH_INTERVAL_S`, installs the quit signals and runs the app.
5. ``tui/app.py`` :meth:`PaperScopeApp.get_default_screen` makes the
   :class:`~tui.screens.main.screen.MainScreen` with the
   :class:`~tui.services.Services`; it owns a
   :class:`~tui.screens.main.search_flow.SearchFlow` (queries) and a
   :class:`~tui.screens.main.start_up.StartUp` (what fills it).
6. ``tui/screens/main/screen.py`` :meth:`MainScreen.on_mount` calls
   ``tui/screens/main/start_up.py`` :meth:`StartUp.first_frame`: waits at most
   :data:`QUICK_LOAD_S` for something to show (the peek, a first look or the catalogue),
   hands it to :meth:`MainScreen.use_catalogue` (which gives
   :meth:`SearchFlow.use_catalogue` a :class:`~tui.screens.main.searching.Searcher` over
   it: substring filter until the index is there, and shows its papers), and sets a
   :data:`GATE_S` timer for the rest.

The first frame is drawn with the first screen of papers. Keys typed before it were held
(``tui/lifecycle/typeahead.py``) and are handed on now, one per turn of the event loop.
After it:

7. ``tui/widgets/result_list.py`` posts ``ResultList.Drawn`` once it has drawn papers;
   :meth:`StartUp.drawn` waits :data:`AFTER_FRAME_S` and calls :meth:`StartUp.load_rest`
   (or the :data:`GATE_S` timer does, for a screen that shows none).
8. :meth:`StartUp.load_rest` releases the ``Preload`` thread (:meth:`Preload.resume`),
   which reads the full catalogue (``Context.catalogue`` →
   ``index_builder/catalogue/load.py:load_catalogue``; on a first run it reads a first
   look, ``Context.quick_catalogue``, before building). In a thread worker,
   :meth:`~tui.lifecycle.loading.Loader.run` posts each catalogue as it is read, then
   opens the index (``Context.index`` → ``index_builder/search/engine.py``
   ``SearchIndex.ensure``, built in a child process on a first run), each step a
   ``Loader`` message.
9. ``MainScreen.on_loader_*`` handle those (a catalogue through :meth:`StartUp.loaded`
   to ``MainScreen.use_catalogue``, the index to ``MainScreen.use_index``): the list
   shows every paper, the status line the build's progress, the ``Searcher`` gets the
   index and the paper view a source of similar papers.
10. From then on each keystroke runs :meth:`SearchFlow.run` in an exclusive thread worker,
    which pauses :data:`TYPING_PAUSE_S` so that keys typed together run one query.

Quitting (``q``, Ctrl+C, SIGTERM): ``tui/lifecycle/quitting.py`` :func:`quit_now` restores
the terminal and ends the process with ``tui/lifecycle/exiting.py`` :func:`leave`, killing
the peek child and an index build still running, without waiting for any thread.

The timings, with the figure each was tuned on (from the commit that set it or
``tests/benchmarks/RESULTS.md``). The modules that use them import them by name, so a
test patches them where they are used (``tui.lifecycle.peek.TIMEOUT_S``, …).
"""

from __future__ import annotations

TIMEOUT_S = 5.0
"""The longest the first papers are waited for from the forked child (``peek.py``).

Tuned on: a first run's peek takes ~0.1 s (commit e969b58, "Start-up: the first papers are
read in a forked child"); 5 s is a hung child's limit, not a measured figure."""

GATE_S = 2.0
"""The longest the rest of the catalogue waits for the first frame, then loads anyway
(``loading.py`` ``Preload``, ``start_up.py`` ``StartUp.first_frame``).

Tuned on: not recorded (commit f375705 sets "0.1 s; 2 s at most" next to a table peek of
~60 ms instead of ~700 ms; no figure for the 2 s itself)."""

QUICK_LOAD_S = 0.15
"""How long the first frame may wait for a catalogue that is still loading (``start_up.py``).

Tuned on: RESULTS.md, "Issue 14, item 3: start-up" (2026-12-03, 14:54 run): first runs
took 0.41–0.55 s when the peek was ready for the first frame, 0.77 s when the frame waited
the 0.15 s for it; the value dates from commit ccb988d, which records no figure."""

AFTER_FRAME_S = 0.1
"""How long after the list first draws its papers the rest of the loading starts
(``start_up.py`` ``StartUp.drawn``): the terminal gets the whole first screen first.

Tuned on: not recorded (commit f375705: "ResultList.Drawn, then 0.1 s")."""

TYPING_PAUSE_S = 0.01
"""Keys typed within this pause of each other run one query, the last
(``search_flow.py`` ``SearchFlow._search``).

Tuned on: not recorded (commit ccb988d)."""

SWITCH_INTERVAL_S = 0.001
"""The interpreter's thread switch interval while the app runs (``quitting.py``): a busy
thread (a first run's catalogue) holds the lock at most this long when a key or the quit
wants it.

Tuned on: RESULTS.md, "Issue 14: instant quit, build cost, freshness" (2026-12-03): an A/B
of 1 ms against Python's 5 ms under the same load gave typing times no worse with 1 ms
(129–984 ms against 163–1,311 ms)."""
