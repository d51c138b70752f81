"""Python's cyclic garbage collector paused while a game's millions of small, acyclic objects
are built (:func:`gc_paused`), and kept from walking them when the build is interrupted."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while building many small objects.

    Trees are acyclic, so the collector finds nothing to free while a game is built, yet
    it runs again and again as the node count grows; pausing it makes building 20-30 %
    faster.  The previous state is restored afterwards; interrupted (Ctrl-C, SIGTERM), the
    objects built so far are first frozen (:func:`gc.freeze`), or the next collection walks
    the millions of nodes the unwinding holds (Leduc 13×4 took 5.5 s to stop, not 1.4 s).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    except (KeyboardInterrupt, SystemExit):
        gc.freeze()
        raise
    finally:
        if was_enabled:
            gc.enable()
