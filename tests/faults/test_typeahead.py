"""Keys typed at once after ``paperscope`` are all kept, in order (issue 29, item 1).

The real app in a real terminal (tmux, 120×36): ``paperscope`` is launched with Enter
and ``proeval`` typed 0.1, 0.2 or 0.4 s later, before the first frame, on a first run
(empty home) and on a warm home. The old app lost the keys that came before its search
box had the focus (the box showed ``val``, or nothing); now the box must show
``proeval`` and the ProEval paper must be listed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.tmux import TmuxServer

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

PROMPT = "READY$ "
TYPED = "proeval"


def wait_for(server: TmuxServer, wanted: str, seconds: float) -> str:
    """The pane once it shows ``wanted`` (or as it is when ``seconds`` have passed)."""
    deadline = time.monotonic() + seconds
    screen = server.capture("main")
    while wanted not in screen and time.monotonic() < deadline:
        time.sleep(0.05)
        screen = server.capture("main")
    return screen


@pytest.mark.parametrize("delay", [0.1, 0.2, 0.4])
@pytest.mark.parametrize("home_kind", ["first-run", "warm"])
def test_keys_typed_before_the_first_frame_reach_the_box(
    request: pytest.FixtureRequest, tmp_path: Path, home_kind: str, delay: float
) -> None:
    if home_kind == "warm":  # the copy (35 MB) only where it is used
        home: Path = request.getfixturevalue("warm_home_copy")
    else:
        home = tmp_path / "empty-home"
    home.mkdir(exist_ok=True)
    env = f"env -i PATH={shlex.quote(os.environ.get('PATH', ''))} TERM=xterm-256color"
    with TmuxServer() as server:
        server("new-session", "-d", "-s", "main", "-x", "120", "-y", "36",
               f"{env} PS1={shlex.quote(PROMPT)} bash --norc --noprofile")  # fmt: skip
        assert PROMPT.strip() in wait_for(server, PROMPT.strip(), 20)
        app = f"{HOME_ENV}={shlex.quote(str(home))} {shlex.quote(sys.executable)} -m tui"
        server("send-keys", "-t", "main", "-l", f"clear; {app}")
        launched = time.monotonic()
        server("send-keys", "-t", "main", "Enter")
        time.sleep(max(0.0, launched + delay - time.monotonic()))
        server("send-keys", "-t", "main", "-l", TYPED)
        typed_at = time.monotonic() - launched
        screen = wait_for(server, "ProEval: Proactive Failure Discovery", 60)
    box = screen.splitlines()[1] if screen.count("\n") > 1 else screen
    assert f"▊  {TYPED} " in box, f"typed {typed_at:.2f} s after launch:\n{screen}"
    assert "ProEval: Proactive Failure Discovery" in screen, screen
