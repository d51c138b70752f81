"""The exact re-solve on canonical boards (``resolve_structured(..., boards=..., exact=True)``):
each gadget LP on hand classes solved exactly, the combined profile certified exactly on
classes, and every number equal, as a Fraction, to the game's own exact re-solve.

The reference is the unreduced exact re-solve (:mod:`seqform.resolving.exact_gadgets`,
itself checked against the float one in tests/test_resolve_structured.py) of the same
blueprint lifted to the game (:func:`~seqform.structured.reductions.suit_classes.lift_behaviour`),
and the exact structured certificate (:func:`seqform.structured.responses.certify`) of the
lifted combined profile.  A gadget LP's optimum value is unique where its answer need not be,
so the comparison is subgame by subgame where both answers are proven optimal (gap 0); an
unreduced basis that is not (RI 2×4 has one) still bounds the optimum, within its gap.
Rhode Island 2×4's last round, exactly on classes, and this comparison for the ``unsafe`` and
``resolve`` gadgets are big cases in benchmarks/checks/test_big_cases.py (run by ``pytest
benchmarks/checks`` and ``.ci/run``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from seqform.abstraction.solve import abstract
from seqform.game.builtin.leduc import leduc_structured
from seqform.resolving.structured_resolve import resolve_structured
from seqform.structured.reductions.suit_classes import lift_behaviour
from seqform.structured.responses import certify
from tests.subgames_named import subgames_named


def leduc_blueprint():
    """Leduc 3×3 with the abstraction blueprint of tests/test_resolve_canonical.py: G' keeps
    3 of the 9 board cards of round 2, its hands in classes."""
    return abstract(leduc_structured(3, 3), (2, 3), suit_isomorphism=True)


@pytest.fixture(scope="module")
def leduc():
    return leduc_blueprint()


_REDUCED: dict = {}


def _reduced(abstraction, gadget, round_number=2):
    """The exact re-solve on classes, once per blueprint, gadget and round in a worker (three
    tests read the same one)."""
    key = (id(abstraction), gadget, round_number)
    if key not in _REDUCED:
        _REDUCED[key] = _solved(abstraction, gadget, round_number)
    return _REDUCED[key]


def _solved(abstraction, gadget, round_number):
    return resolve_structured(
        abstraction.boards.game,
        abstraction.strategies,
        gadget=gadget,
        boards=abstraction.boards,
        exact=True,
        round_number=round_number,
    )


def _lifted(reduced):
    """The exact blueprint the re-solve on classes used, lifted to the game."""
    return [lift_behaviour(reduced.boards, strategy) for strategy in reduced.blueprint]


def _same_exact_gadgets(reduced, unreduced, names=None):
    """Each subgame of ``G'`` (of ``names`` only, if given): the game's exact gadget value at
    its canonical board."""
    theirs = {(run.subgame, run.player): run for run in unreduced.runs}
    assert reduced.runs and all(run.nash_conv == 0 for run in reduced.runs)  # all proven
    compared = [run for run in reduced.runs if names is None or run.subgame in names]
    assert compared
    for run in compared:
        other = theirs[(run.subgame, run.player)]  # the game's subgame at the canonical board
        assert isinstance(run.exact_value, Fraction)
        if other.nash_conv == 0:
            assert run.exact_value == other.exact_value, run.subgame
        else:  # the game's basis was not exactly optimal: its answer is within its gap
            assert abs(run.exact_value - other.exact_value) <= Fraction(other.nash_conv)
        if run.exact_margin is not None:  # safe gadgets: safe exactly, not within a tolerance
            assert run.exact_margin >= 0


def same_as_the_games_exact_re_solve(abstraction, gadget, every=1):
    """The exact re-solve on classes of Leduc 3×3's round 2 against the game's own exact
    re-solve of the lifted blueprint, subgame by subgame (round 2 starts before its board
    card: G' has the game's 5 subgames); with ``every`` > 1 the game re-solves only every
    ``every``-th of them (by name), which alone are compared (not for ``reach``)."""
    reduced = _reduced(abstraction, gadget)
    game = abstraction.boards.game
    names = set(sorted(reduced.subgames)[::every])
    with subgames_named(names):
        unreduced = resolve_structured(game, _lifted(reduced), gadget=gadget, exact=True)
    assert reduced.blueprint_certificate == unreduced.blueprint_certificate  # the same blueprint
    _same_exact_gadgets(reduced, unreduced, names)
    if gadget == "maxmargin":  # the smallest margin per hand (resolve's are not unique)
        theirs = {(run.subgame, run.player): run for run in unreduced.runs}
        for run in reduced.runs:
            if run.subgame in names:
                assert run.exact_margin == theirs[(run.subgame, run.player)].exact_margin


@pytest.mark.slow  # the unreduced exact re-solve of 2 of the 5 subgames
def test_the_exact_maxmargin_gadget_on_classes_has_the_games_exact_value(leduc):
    # maxmargin, whose margins are unique too, on every third subgame (all five took 12 s of
    # plain pytest's budget); unsafe and resolve on all five are big cases in
    # benchmarks/checks/test_big_cases.py
    same_as_the_games_exact_re_solve(leduc, "maxmargin", every=3)


@pytest.mark.parametrize("gadget", ["unsafe", "resolve", "maxmargin"])
def test_the_exact_class_certificate_is_its_lifts_in_the_game(leduc, gadget):
    reduced = _reduced(leduc, gadget)
    assert reduced.exact and isinstance(reduced.certificate.nash_conv, Fraction)
    on_game = certify(leduc.boards.game, *reduced.game_strategies())
    assert reduced.certificate == on_game  # value, best responses, NashConv: exactly
    blueprint = certify(leduc.boards.game, *_lifted(reduced))
    assert reduced.blueprint_certificate == blueprint
    if gadget != "unsafe":  # the safe gadgets: never worse than the blueprint, exactly
        assert reduced.certificate.nash_conv <= reduced.blueprint_certificate.nash_conv
        assert reduced.min_margin >= 0


def test_the_exact_blueprint_on_classes_is_the_same_on_each_class(leduc):
    # the float blueprint is class-symmetric to rounding only; the exact one exactly, so
    # that the LP on classes is the game's (tests/test_resolve_canonical.py, "_broken")
    reduced = _reduced(leduc, "maxmargin")
    for strategy, classes in zip(reduced.blueprint, leduc.boards.classes, strict=True):
        assert strategy.exact
        first = {}
        for sequence, number in enumerate(classes.sequences.tolist()):
            value = strategy.probabilities[sequence]
            assert first.setdefault(number, value) == value
