"""Re-solving on canonical boards (``resolve_structured(..., boards=...)``): each subgame of
``G'`` is re-solved on hand classes, and must answer as the game's own re-solve does.

The reference is the unreduced structured re-solve (:mod:`seqform.resolving.structured_resolve`,
itself checked against the tree path in tests/test_resolve_structured.py) of the same
blueprint lifted to the game (:func:`~seqform.structured.reductions.suit_classes.lift_behaviour`).
A gadget LP's optimum value is unique where its answer need not be, so the comparison is
subgame by subgame: the subgame of ``G'`` at a canonical board has the value (and the
smallest margin, per hand) of the game's subgame at that board; and the combined profile,
certified on hand classes, has its lift's certificate in the game.
"""

from __future__ import annotations

import numpy as np
import pytest

from seqform.abstraction.solve import abstract
from seqform.forms.strategies import plan_from_behaviour
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.iterative.run import Stopping
from seqform.resolving.structured_resolve import resolve_structured
from seqform.resolving.subgames import ResolveError
from seqform.structured.reductions.suit_classes import lift_behaviour
from seqform.structured.responses import certify
from seqform.structured.vector_cfr import canonical_vector_cfr

AGREE = 1e-9  # two HiGHS solves of LPs with one optimum value, certified to ~1e-10


def _abstraction(game, counts):
    result = abstract(game, counts, suit_isomorphism=True)
    return result.boards, result.strategies


def _cfr(game, iterations):
    run = canonical_vector_cfr(game, "cfr+", Stopping(iterations, None, None, iterations))
    return run.boards, run.result.strategies


BLUEPRINTS = {
    # Leduc 3×3: round 2 starts with no public card, so G' has the game's subgames, each
    # with its board card canonical (3 of 9) and its hands in classes
    "leduc-3x3-abstraction": lambda: _abstraction(leduc_structured(3, 3), (2, 3)),
    "leduc-3x3-cfr+": lambda: _cfr(leduc_structured(3, 3), 30),
}


@pytest.fixture(scope="module", params=sorted(BLUEPRINTS))
def blueprint(request):
    return BLUEPRINTS[request.param]()


def _runs(result):
    return {(run.subgame, run.player): run for run in result.runs}


def _compare(boards, strategies, gadget, round_number=2):
    """The re-solve on canonical boards and the game's own of the lifted blueprint."""
    reduced = resolve_structured(
        boards.game, strategies, gadget=gadget, boards=boards, round_number=round_number
    )
    lifted = [lift_behaviour(boards, strategy) for strategy in strategies]
    unreduced = resolve_structured(boards.game, lifted, gadget=gadget, round_number=round_number)
    return reduced, unreduced


def _same_gadget_values(reduced, unreduced):
    assert reduced.blueprint_exploitability == pytest.approx(
        unreduced.blueprint_exploitability, abs=AGREE
    )
    theirs = _runs(unreduced)
    for key, run in _runs(reduced).items():
        other = theirs[key]  # the game's subgame at the canonical board
        assert run.value == pytest.approx(other.value, abs=AGREE), key
        if run.margins:  # reported per hand of the game: the smallest is the optimum's
            assert min(run.margins) == pytest.approx(min(other.margins), abs=AGREE), key
    assert reduced.max_gadget_nash_conv < AGREE


@pytest.mark.parametrize("gadget", ["unsafe", "resolve", "maxmargin"])
def test_each_subgame_on_canonical_boards_has_the_games_gadget_value(blueprint, gadget):
    boards, strategies = blueprint
    reduced, unreduced = _compare(boards, strategies, gadget)
    _same_gadget_values(reduced, unreduced)
    if gadget != "unsafe":  # safe gadgets: never worse than the blueprint
        assert reduced.min_margin >= -AGREE
        assert reduced.exploitability <= reduced.blueprint_exploitability + AGREE


@pytest.mark.slow  # 8 s: the unreduced re-solve has 144 gadget LPs
@pytest.mark.parametrize("gadget", ["unsafe", "maxmargin"])
def test_rhode_islands_last_round_is_re_solved_one_board_orbit_at_a_time(gadget):
    # round 3 starts after the flop card: G' has one subgame per flop orbit (18 of 72 here),
    # whose turn cards are canonical under the flop's stabilizer
    boards, strategies = _abstraction(rhode_island_structured(2, 4, max_bets=1), (1, 2, 3))
    reduced, unreduced = _compare(boards, strategies, gadget, round_number=3)
    assert 4 * len(reduced.subgames) == len(unreduced.subgames)
    _same_gadget_values(reduced, unreduced)


@pytest.mark.parametrize("gadget", ["unsafe", "maxmargin"])
def test_the_combined_profile_is_class_symmetric_and_certified_as_its_lift(blueprint, gadget):
    boards, strategies = blueprint
    result = resolve_structured(boards.game, strategies, gadget=gadget, boards=boards)
    assert result.boards is boards
    for strategy, classes in zip(result.strategies, boards.sequence_classes(), strict=True):
        plan = plan_from_behaviour(strategy)
        low = np.full(classes.max() + 1, np.inf)
        high = np.full(classes.max() + 1, -np.inf)
        np.minimum.at(low, classes, plan)
        np.maximum.at(high, classes, plan)
        assert (high - low).max() < 1e-12
    # the certificate on hand classes is the lifted profile's, by the game's best responses
    on_game = certify(boards.game, *result.game_strategies())
    assert result.certificate.value == pytest.approx(float(on_game.value), abs=AGREE)
    for mine, theirs in zip(
        result.certificate.best_response_values, on_game.best_response_values, strict=True
    ):
        assert float(mine) == pytest.approx(float(theirs), abs=AGREE)
    assert result.exploitability != pytest.approx(result.blueprint_exploitability, abs=1e-6)


def _broken(boards, strategies):
    """The blueprint with one hand of a class playing its least likely first action alone."""
    first = strategies[0]
    mapping = first.as_dict()
    name = first.table.infosets[0]
    actions = mapping[name]
    least = min(actions, key=actions.__getitem__)
    mapping[name] = {action: float(action == least) for action in actions}
    return [mapping, strategies[1]]


def test_refusals_name_what_canonical_boards_do_not_re_solve(blueprint):
    boards, strategies = blueprint
    game = boards.game
    with pytest.raises(ResolveError, match="reach's gifts on canonical boards"):
        resolve_structured(game, strategies, gadget="reach", boards=boards)
    with pytest.raises(ResolveError, match="boards: the canonical boards of"):
        resolve_structured(leduc_structured(3, 2), strategies, boards=boards)
    with pytest.raises(ResolveError, match=r"blueprint of player 1: .* within a hand class"):
        resolve_structured(game, _broken(boards, strategies), boards=boards)
