"""Fixtures shared by several test modules.

A fixture used by one module stays in that module; one that two or more modules need lives
here, once, so the same game or form is not written (and built) again in each file.
"""

from __future__ import annotations

from types import ModuleType

import pytest

from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.model import Game


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
