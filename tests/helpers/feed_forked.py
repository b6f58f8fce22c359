"""``paperscope update`` in a child forked from the test's process, trusting what its
environment says (the feed tests' TLS sites).

The downloads make one certificate-checking context per process
(``index_builder.feeds.download.tls_context``), from the trust store the environment
names when it is first made. A fresh ``python -m tui update`` made its own from
:func:`tests.helpers.feed_server.trust_env`; a forked child made after the context is
dropped here does the same, without starting Python again (~0.3 s of CPU a command).
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

from index_builder.feeds import download
from tests.helpers.faults_cli import forked_cli


def update_forked(
    home: Path, *args: str, env: Mapping[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``paperscope update ARGS`` on ``home`` in a forked child (:func:`forked_cli`), whose
    TLS context is made from ``env`` as a fresh process's would be."""
    download.tls_context.cache_clear()
    return forked_cli("update", *args, home=home, env=env, timeout=timeout)
