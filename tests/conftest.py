"""Fixtures shared by several test modules.

A fixture used by one module stays in that module; one that two or more modules need lives
here, once, so the same game or form is not written (and built) again in each file.
"""

from __future__ import annotations

import compileall
import signal
import sys
from pathlib import Path
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
    if not hasattr(config, "workerinput"):  # the controller, before xdist starts workers
        _compile_the_package()


ROOT = Path(__file__).resolve().parent.parent


def _compile_the_package() -> None:
    """seqform's and the benchmarks' bytecode, written before the run where Python writes none.

    Where ``PYTHONDONTWRITEBYTECODE`` is set (this project's machines set it), Python reads
    bytecode but writes none, and the editable install has none (pip byte-compiles a
    regular install, not an editable one): each xdist worker and each of the suite's 150 or
    so child processes (the CLI runs, the documentation's examples, the notebooks' kernels)
    compiled every seqform module it imported from source, about 0.35 s of a ``solve
    kuhn`` child's 1.3 s, and a minute of CPU over the run (plain pytest on two cores:
    973 s of user CPU and 519.5 s before, 913 s and 487.8 s after).  So the suite
    byte-compiles the two packages once, as pip would, into their ``__pycache__`` folders
    (ignored by git; numba's cache writes there too); files already compiled are skipped,
    and a folder that cannot be written is left as it is.  A temporary
    ``PYTHONPYCACHEPREFIX`` instead was measured and not kept: the installed packages'
    bytecode is not found under a prefix, so numpy, scipy and the rest were compiled again
    in each worker, and the run was no faster.
    """
    if sys.dont_write_bytecode:
        for package in ("seqform", "benchmarks"):
            compileall.compile_dir(ROOT / package, quiet=2)


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
