"""Fixtures shared by several test modules.

A fixture used by one module stays in that module; one that two or more modules need lives
here, once, so the same game or form is not written (and built) again in each file.
"""

from __future__ import annotations

import signal
from types import ModuleType

import pytest
from hypothesis import settings

from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.model import Game

# No example has a deadline: the machines the suite runs on are shared and loaded (two
# workers on two cores beside other jobs), and hypothesis's default of 200 ms an example
# failed tests/test_json_text.py's records test under load, a timing, not a defect.
settings.register_profile("seqform", deadline=None)
settings.load_profile("seqform")


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the children the tests start and interrupt (``test_interrupts``,
    ``test_finished_runs``, ...), however pytest was started.  A run started in the
    background of a shell (``nohup pytest &``, a CI job) inherits SIGINT ignored; an ignored
    signal stays ignored across ``exec``, and Python then installs no KeyboardInterrupt in
    the children, which finish their solve and exit 0 instead of 130.  A handled signal is
    reset to its default at ``exec``, so Python's own handler here gives every child the
    default disposition, as at a terminal."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def kuhn() -> Game:
    """Kuhn poker with 3 cards (Kuhn 1950), the game most tests start from."""
    return kuhn_poker()


@pytest.fixture(scope="session")
def kuhn_form(kuhn: Game) -> SequenceForm:
    """Kuhn poker's sequence form: 13 sequences and 6 information sets per player (KMvS 1996)."""
    return build_sequence_form(kuhn)


@pytest.fixture(scope="session")
def pyspiel() -> ModuleType:
    """OpenSpiel's Python module; the tests that take it are skipped where it is not installed."""
    return pytest.importorskip("pyspiel")
