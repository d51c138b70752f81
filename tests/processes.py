"""Whether a process is still there: for the tests that a child dies with its parent."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat").read_text().split()[2] if sys.platform == "linux" else ""
    return status != "Z"


def gone(pid: int, bound: float = 30.0) -> bool:
    """Whether ``pid`` has ended within ``bound`` seconds (a bound on waiting, not a timing
    claim: the tests ask whether it ends, not how soon)."""
    deadline = time.monotonic() + bound
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not alive(pid)
