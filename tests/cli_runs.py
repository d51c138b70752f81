"""The command line run in the test's own process, for tests that read its files or output."""

from __future__ import annotations


def run_main(*argv: str) -> int:
    """``seqform``'s exit code for ``argv``, argparse's usage errors (``SystemExit``)
    included."""
    from seqform.cli.main import main

    try:
        return main(list(argv))
    except SystemExit as stop:  # argparse's usage errors
        return int(stop.code or 0)
