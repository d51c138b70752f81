"""The certificate's verdict is scale-invariant and its gains are never negative.

The verdict judges the exploitability (NashConv / 2) relative to the game's payoff range
(seqform.certify.is_certified), so multiplying every payoff by a positive constant leaves it
as it was; a gain that round-off makes negative is reported as 0.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest
from scaled_games import TERMINAL, scaled_kuhn

import seqform
from seqform.certify import Certificate, certify, is_certified
from seqform.cli.main import main
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.formats.efg import read_efg
from seqform.game.model import Game
from seqform.game.public.tree import (
    Constant,
    PayoffRule,
    PublicLeaf,
    PublicNode,
    Sign,
    Threshold,
)
from seqform.io.documents import validate_document

SCALES = (
    Fraction(1, 10**300),
    Fraction(1, 10**9),
    Fraction(1),
    Fraction(10**9),
    Fraction(10**15),
)
SCALE_IDS = ("1e-300", "1e-9", "1", "1e9", "1e15")


def _mapping(strategy: BehaviouralStrategy) -> dict[str, dict[str, float]]:
    """A strategy by information-set and action labels, to carry it to another game."""
    table, probabilities = strategy.table, strategy.to_float().probabilities
    return {
        name: {
            action: float(probabilities[sequence])
            for action, sequence in zip(
                table.actions[index], table.sequences_of(index), strict=True
            )
        }
        for index, name in enumerate(table.infosets)
    }


def _uniform(game: Game, player: int) -> dict[str, dict[str, float]]:
    table = game.flat.tables[player]
    return {
        name: {action: 1 / len(table.actions[index]) for action in table.actions[index]}
        for index, name in enumerate(table.infosets)
    }


@pytest.fixture(scope="module")
def kuhn_equilibrium() -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    solution = seqform.solve("kuhn", exact=True)
    assert solution.certified
    first, second = solution.strategies
    return _mapping(first), _mapping(second)


@pytest.mark.parametrize("scale", SCALES, ids=SCALE_IDS)
def test_the_verdict_does_not_depend_on_the_payoffs_scale(tmp_path, scale, kuhn_equilibrium):
    game = read_efg(scaled_kuhn(tmp_path, scale))
    equilibrium = certify(game, *kuhn_equilibrium)
    assert equilibrium.payoff_range == pytest.approx(4 * float(scale), rel=1e-12)
    assert is_certified(equilibrium)
    uniform = certify(game, _uniform(game, 0), _uniform(game, 1))
    assert not is_certified(uniform)
    # OpenSpiel's exploitability test: NashConv of uniform Kuhn play is 11/12, so the
    # exploitability is 11/24 and, over the payoff range 4, 11/96 at every scale.
    assert float(uniform.relative_exploitability) == pytest.approx(11 / 96, rel=1e-9)
    assert min(uniform.gains) >= 0 and min(equilibrium.gains) >= 0


@pytest.mark.parametrize("scale", SCALES, ids=SCALE_IDS)
def test_solve_certifies_a_scaled_game_and_prints_the_range(tmp_path, scale, capsys):
    # An absolute tolerance of 1e-9 on NashConv failed a correct solve at 1e9 (NashConv
    # 6e-8) and printed a negative gain at 1e15.  At 1e-9 and 1e-300 HiGHS's absolute
    # tolerances (1e-7, and 1e-9 for dropping entries) left an answer the certificate
    # refused, until the LP's payoffs were brought to [1, 2) by a power of two
    # (seqform.lp.minmax.payoff_normaliser).
    path = scaled_kuhn(tmp_path, scale)
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"relative to the payoff range {float(4 * scale):g}: " in out
    assert main(["solve", str(path), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate_document(document)
    certificate = document["certificate"]
    assert certificate["equilibrium"] and min(certificate["gains"]) >= 0
    assert certificate["payoff_range"] == float(4 * scale)
    assert certificate["exploitability"] == certificate["nash_conv"] / 2


@pytest.mark.parametrize("scale", SCALES, ids=SCALE_IDS)
@pytest.mark.parametrize("option", ["--fix", "--lock"])
def test_a_restricted_game_is_solved_in_any_payoff_unit(tmp_path, scale, option, capsys):
    # Player 1 made to bet with the J (J:b=1): the restricted Kuhn game's value is -5/18
    # (the exact locked LP and the restricted normal form agree, tests/test_locks.py).
    # In billionths of a chip the restricted LP was given A unscaled: its value came out 0
    # and its point was refused (exploitability 0.167 of the payoff range), the locked
    # reference called 0 exact.
    path = scaled_kuhn(tmp_path, scale)
    restriction = "J:b=1" if option == "--fix" else "P1@J: b=1"
    assert main(["solve", str(path), option, restriction, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["certificate"]["equilibrium"]
    assert document["value"] == pytest.approx(float(Fraction(-5, 18) * scale), rel=1e-9)


def test_a_spot_s_payoff_range_follows_the_stacks():
    # A river spot with pot 10 and stacks 30: an all-in showdown pays +-(5 + 30), so the
    # range is 70, whatever the pot (seqform.holdem.game: payoffs net of half
    # the pot).
    from seqform.holdem.game import spot_game
    from seqform.holdem.spot import spot_from_mapping
    from seqform.structured.responses import payoff_range

    spot = {
        "board": "Ks7h2d9c4s",
        "pot": 10,
        "effective_stack": 30,
        "oop_range": "AA,99",
        "ip_range": "KK,77",
        "bet_sizes": [0.5],
    }
    assert payoff_range(spot_game(spot_from_mapping(spot))) == 70
    assert payoff_range(spot_game(spot_from_mapping({**spot, "pot": 1}))) == 61


@pytest.mark.parametrize("scale", SCALES, ids=SCALE_IDS)
def test_exploit_and_compare_judge_in_the_payoff_range(tmp_path, scale, capsys):
    # 'exploit' called uniform play unexploitable at 1e-9 (its gain, 11/36 of a unit, was
    # below an absolute 1e-9) and 'compare' said the formulations' values disagree at 1e9
    # (5e-8 apart, under 1e-9 of the range 4e9).
    path = scaled_kuhn(tmp_path, scale)
    game = read_efg(path)
    uniform = tmp_path / "uniform.json"
    uniform.write_text(json.dumps(_uniform(game, 0)))
    assert main(["exploit", str(path), "--strategy", str(uniform), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate_document(document)
    # OpenSpiel's exploitability test: player 2 gains 13/36 against uniform Kuhn play
    # (NashConv 11/12 less player 1's gain 5/9), over the payoff range 4
    assert document["gain_relative"] == pytest.approx(13 / 36 / 4, rel=1e-9)
    assert not document["unexploitable"]
    solved = tmp_path / "solved.json"
    assert main(["solve", str(path), "--format", "json", "--output", str(solved)]) == 0
    assert main(["exploit", str(path), "--strategy", str(solved), "--player", "1"]) == 0
    assert "it is an equilibrium strategy" in capsys.readouterr().out
    assert main(["compare", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["values_agree"] is True


@pytest.mark.parametrize("scale", SCALES, ids=SCALE_IDS)
def test_the_set_of_equilibria_does_not_depend_on_the_payoffs_scale(tmp_path, scale):
    # Kuhn (1950): player 1's equilibria are a segment (alpha in [0, 1/3]), player 2's
    # unique.  At 1e-9 the faces' value row, met within HiGHS's absolute 1e-7, let every
    # plan in (a 6-dimensional set); at 1e9 its round-off made the face LP infeasible.
    ranges = seqform.equilibrium_ranges(read_efg(scaled_kuhn(tmp_path, scale)))
    assert [player.dimension for player in ranges.players] == [1, 0]
    assert float(ranges.value) == pytest.approx(float(-scale / 18), rel=1e-9)


def test_a_gain_below_zero_from_round_off_is_reported_as_zero():
    # best responses a hair below the value, as floats leave them
    certificate = Certificate.from_best_responses(0.25, 0.25 - 1e-17, -0.25 - 1e-17, 4.0)
    assert certificate.gains == (0.0, 0.0)
    assert certificate.nash_conv == 0.0 and certificate.exploitability == 0.0
    assert certificate.best_response_values == (0.25 - 1e-17, -0.25 - 1e-17)  # the raw ones
    assert is_certified(certificate)


def test_exploiting_solve_s_own_answer_gains_nothing(tmp_path, capsys):
    # 'exploit kuhn --strategy' of solve's answer once gave gain -9.0e-17, which the
    # exploit schema (gain >= 0) forbids
    answer = tmp_path / "kuhn.json"
    assert main(["solve", "kuhn", "--format", "json", "--output", str(answer)]) == 0
    capsys.readouterr()
    assert main(["exploit", "kuhn", "--strategy", str(answer), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate_document(document)
    assert document["gain"] >= 0


# --- the structured route and --refine: their float LPs see the payoffs in [1, 2) -------

LEDUC_VALUE = -0.085606424078  # Lanctot et al. (2017), App. E.2: Leduc's value to player 1


def _scaled_rule(rule: PayoffRule, scale: Fraction) -> PayoffRule:
    if isinstance(rule, Constant):
        return Constant(rule.payoff * scale)
    if isinstance(rule, Sign):
        return Sign(rule.stake * scale)
    return Threshold(rule.quantity, rule.if_reached * scale, rule.otherwise * scale)


def _scaled_public(node: PublicNode, scale: Fraction) -> PublicNode:
    """The public tree with every leaf's payoffs multiplied by ``scale`` (levels kept)."""
    if isinstance(node, PublicLeaf):
        return PublicLeaf(_scaled_rule(node.rule, scale), node.levels)
    return replace(node, children=tuple(_scaled_public(child, scale) for child in node.children))


@pytest.mark.parametrize("solver", ["clarabel", "simplex"])
@pytest.mark.parametrize("scale", SCALES, ids=SCALE_IDS)
def test_the_structured_route_certifies_a_scaled_game(scale, solver):
    # The structured LP normalised chance only: Leduc in billionths of a chip came back
    # uncertified (exploitability 0.1 of the payoff range), in units of 1e9 Clarabel ran
    # out of iterations and in units of 1e15 HiGHS called the LP empty.
    from seqform.game.builtin.leduc import leduc_structured
    from seqform.routes.structured import solve_structured

    leduc = leduc_structured()
    game = replace(leduc, root=_scaled_public(leduc.root, scale))
    solution = solve_structured(game, solver=solver)
    assert is_certified(solution.certificate)
    assert solution.value == pytest.approx(LEDUC_VALUE * float(scale), rel=1e-9)


def test_the_structured_route_solves_rhode_island_with_large_stakes(capsys):
    # Rhode Island with antes of 5e9: Clarabel stopped with a numerical error and HiGHS,
    # its fallback, called the LP of a finite game unbounded.
    ante = 5 * 10**9
    game = f"rhode_island(ranks=2, suits=2, ante={ante}, bets=({2 * ante}, {4 * ante}, {4 * ante}))"
    assert main(["solve", game, "--method", "structured", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["certificate"]["equilibrium"]


@pytest.mark.parametrize("scale", SCALES, ids=SCALE_IDS)
def test_refine_verifies_a_scaled_game(tmp_path, scale):
    # The perturbed LP gave HiGHS A unscaled: in billionths of a chip no basis it found led
    # to one optimal for all small ε, and in units of 1e-300 the exact solves overflowed;
    # both fell back, unverified.  Kuhn's value is -1/18 (Kuhn 1950).
    refined = seqform.refine(read_efg(scaled_kuhn(tmp_path, scale)))
    assert refined.verified
    assert refined.value == Fraction(-1, 18) * scale
    assert refined.certificate.nash_conv == 0


# --- logit QRE: the trace's default λ limit follows the payoff unit -------------------------


@pytest.mark.parametrize(
    "scale", [Fraction(1, 10**9), Fraction(1), Fraction(10**9)], ids=["1e-9", "1", "1e9"]
)
def test_the_logit_trace_converges_in_any_payoff_unit(tmp_path, scale):
    # λ multiplies payoffs (σ ∝ exp(λ U)), so Kuhn in units of 1e-9 needs λ 1e9 times
    # Kuhn's.  A fixed default limit of λ = 1e7 ended Kuhn in millionths of a chip at
    # NashConv 8e-3 of its payoff range, "not converged: max_lambda" (exit 3).
    from seqform.qre.equilibria import trace_logit

    kuhn = trace_logit("kuhn")
    scaled = trace_logit(read_efg(scaled_kuhn(tmp_path, scale)))
    assert kuhn.converged and scaled.converged, scaled.shortfall
    assert scaled.limit.nash_conv <= 1e-6 * scaled.payoff_range
    assert scaled.payoff_range == pytest.approx(4 * float(scale))  # Kuhn's range is 4
    # the same limit, up to where each trace stopped (both within 1e-6 of the range)
    assert (
        max(
            abs(_mapping(a)[name][action] - _mapping(b)[name][action])
            for a, b in zip(kuhn.limit.strategies, scaled.limit.strategies, strict=True)
            for name in _mapping(a)
            for action in _mapping(a)[name]
        )
        < 1e-3
    )


def test_the_logit_trace_s_tolerance_is_player_one_s_payoff_range(tmp_path):
    # Kuhn with 1000 added to player 1's payoffs and taken from player 2's is still
    # zero-sum, with the same equilibria and NashConv; the trace measured its tolerance on
    # both players' payoffs together (range 2004, not 4) and stopped 500 times too early.
    from seqform.qre.equilibria import trace_logit

    assert main(["export", "kuhn", "--to", "efg", "--output", str(tmp_path / "kuhn.efg")]) == 0
    shifted = TERMINAL.sub(
        lambda m: f"{{ {int(m.group(1)) + 1000}, {int(m.group(2)) - 1000} }}",
        (tmp_path / "kuhn.efg").read_text(),
    )
    (tmp_path / "shifted.efg").write_text(shifted)
    branch = trace_logit(read_efg(tmp_path / "shifted.efg"))
    assert branch.payoff_range == 4  # Kuhn's payoffs -2 .. 2 (Kuhn 1950)
    assert branch.converged and branch.limit.nash_conv <= 1e-6 * 4


@pytest.mark.parametrize("reduced", [False, True], ids=["normal", "reduced"])
def test_the_normal_form_is_solved_whatever_constant_it_carries(tmp_path, reduced):
    # Kuhn with 10,000 moved from player 2 to player 1: the same zero-sum game, value
    # -1/18 + 10,000 (Kuhn 1950).  Its matrix entries near 10^4 met HiGHS's absolute
    # tolerances instead of the range of 4: the reduced normal form ended 2.6e-9 of the
    # range from an equilibrium at +1,000 and 2.5e-7 apart from the others at +10,000.
    assert main(["export", "kuhn", "--to", "efg", "--output", str(tmp_path / "kuhn.efg")]) == 0
    shifted = TERMINAL.sub(
        lambda m: f"{{ {int(m.group(1)) + 10_000}, {int(m.group(2)) - 10_000} }}",
        (tmp_path / "kuhn.efg").read_text(),
    )
    (tmp_path / "shifted.efg").write_text(shifted)
    solution = seqform.solve(str(tmp_path / "shifted.efg"), method="normal", reduced=reduced)
    assert solution.certificate.relative_exploitability <= 1e-12
    assert solution.value == pytest.approx(10_000 - 1 / 18, abs=1e-9)
