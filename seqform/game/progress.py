"""Moved to :mod:`seqform.base.progress` (issue 19.3: the room below every other).

This path re-exports it for one release, for code written against it.
"""

from seqform.base.progress import ProgressListener, Step, current_listener, listening, report

__all__ = ["ProgressListener", "Step", "current_listener", "listening", "report"]
