"""Pure strategies, the normal form, its LP, and Kuhn's theorem back to the sequence form."""

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from gametrees import games, random_game
from hypothesis import HealthCheck, assume, given, settings

import seqform.forms.normal_form as normal_form_module
from seqform.base.counts import LogCount
from seqform.certify import expected_value
from seqform.forms.normal_counts import (
    JSON_EXACT_DIGITS,
    NormalFormTooLargeError,
    count_json,
    count_pure_strategies,
    count_reduced_strategies,
    count_text,
    strategy_counts,
)
from seqform.forms.normal_form import build_normal_form, kuhn_conversion
from seqform.forms.pure_strategies import pure_strategies
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.registry import GAMES, load_structured_game
from seqform.routes.normal import solve_matrix_game, solve_normal_form
from seqform.routes.solve import solve
from seqform.structured.responses import sequence_tables

KUHN_VALUE = -1 / 18  # Kuhn (1950); Wikipedia "Kuhn poker"
TOL = 1e-9


@pytest.fixture(scope="module")
def kuhn_normal_form(kuhn_form):
    return build_normal_form(kuhn_form)


# --- counting and enumerating ---------------------------------------------------------------


def test_kuhn_counts(kuhn_form):
    # KUHN_FACTS "Sizes": 2^6 = 64 pure strategies each; player 1's reduced normal form has
    # 27 (3 per card: bet; check then fold; check then call); player 2 keeps 64.
    counts = strategy_counts(kuhn_form)
    assert counts.pure == (64, 64)
    assert counts.reduced == (27, 64)
    assert counts.profiles == 4096  # 64 × 64 pure strategy profiles


def test_kuhn_enumeration_matches_counts(kuhn_form):
    for player, (full, reduced) in enumerate([(64, 27), (64, 64)]):
        table = kuhn_form.players[player]
        assert len(pure_strategies(table)) == full
        assert len(pure_strategies(table, reduced=True)) == reduced


def test_kuhn_labels(kuhn_form):
    first = pure_strategies(kuhn_form.players[0])
    labels = first.labels()
    assert labels[0] == "J:p Jpb:p Q:p Qpb:p K:p Kpb:p"
    assert labels[-1] == "J:b Jpb:b Q:b Qpb:b K:b Kpb:b"
    assert len(set(labels)) == 64


def test_kuhn_reduced_player_one_is_three_choices_per_card(kuhn_form):
    # Per card: bet (the later infoset is excluded), check-fold, check-call (KUHN_FACTS).
    reduced = pure_strategies(kuhn_form.players[0], reduced=True)
    per_card = {"b": 0, "p p": 0, "p b": 0}
    for label in reduced.labels():
        choices = dict(part.split(":") for part in label.split())
        for card in "JQK":
            key = choices[card] if choices[card] == "b" else f"p {choices[card + 'pb']}"
            assert (choices[card] == "b") == (card + "pb" not in choices)
            per_card[key] += 1
    assert per_card == {"b": 27, "p p": 27, "p b": 27}  # 9 strategies for each choice × 3 cards


def test_reduced_plans_are_the_distinct_full_plans(kuhn_form):
    table = kuhn_form.players[0]
    full = pure_strategies(table).plans.toarray().T
    reduced = pure_strategies(table, reduced=True).plans.toarray().T
    assert {tuple(row) for row in full} == {tuple(row) for row in reduced}
    assert len({tuple(row) for row in reduced}) == len(reduced)


def test_plans_satisfy_the_sequence_form_constraints(kuhn_form):
    for player in (0, 1):
        matrix, rhs = kuhn_form.constraints(player)
        for reduced in (False, True):
            plans = pure_strategies(kuhn_form.players[player], reduced=reduced).plans
            expected = np.tile(rhs[:, None], (1, plans.shape[1]))
            np.testing.assert_array_equal((matrix @ plans).toarray(), expected)


def test_count_text_and_json():
    assert count_text(4096) == "4,096"
    assert count_text(27) == "27"
    assert count_text(10**30) == "≈ 10^30.0"  # 31 digits
    assert count_text(2**80) == "1,208,925,819,614,629,174,706,176"  # 25 digits, exact
    assert count_json(4096) == {"exact": "4096", "log10": pytest.approx(3.6123599)}


@pytest.mark.parametrize("digits", [4301, 5420, 100_000], ids=["limit", "liars-dice", "huge"])
def test_counts_of_any_size_print(digits):
    # Python refuses str() of an int with more than 4 300 digits: neither the text
    # nor the JSON may ask for the digits of such a count.
    count = 3 * 10 ** (digits - 1)
    # exponents from 10,000 up are written with thousands separators
    exponent = digits - 1 + math.log10(3)
    written = f"{exponent:,.1f}" if exponent >= 10_000 else f"{exponent:.1f}"
    assert count_text(count) == f"≈ 10^{written}"
    document = count_json(count)
    assert document["exact"] is None
    assert document["log10"] == pytest.approx(digits - 1 + math.log10(3))


def test_count_json_keeps_the_exact_digits_up_to_the_json_limit():
    below = 10**JSON_EXACT_DIGITS - 1  # JSON_EXACT_DIGITS nines: still exact
    assert count_json(below)["exact"] == "9" * JSON_EXACT_DIGITS
    assert count_json(below + 1)["exact"] is None


def test_leduc_counts_are_exact_integers_and_astronomical():
    if "leduc" not in GAMES:
        pytest.skip("Leduc is not in the registry yet")
    form = build_sequence_form(GAMES["leduc"]())
    counts = strategy_counts(form)
    for player in (0, 1):
        table = form.players[player]
        sizes = [len(actions) for actions in table.actions]
        assert counts.pure[player] == np.prod(sizes, dtype=object)  # exact, no overflow
        assert count_text(counts.pure[player]).startswith("≈ 10^")
        assert counts.reduced[player] < counts.pure[player]


# --- the matrix -----------------------------------------------------------------------------


def test_kuhn_matrix_is_64_by_64(kuhn_normal_form):
    assert kuhn_normal_form.shape == (64, 64)
    assert kuhn_normal_form.entries == 4096
    assert kuhn_normal_form.denominator == 6  # six equally likely deals


def _exact_behaviour(strategies, index):
    table = strategies.table
    choices = strategies.choices[index]
    return {
        name: [Fraction(int(action == max(choices[h], 0))) for action in range(len(acts))]
        for h, (name, acts) in enumerate(zip(table.infosets, table.actions, strict=True))
    }


def test_kuhn_matrix_entries_equal_exact_tree_walks(kuhn_normal_form):
    # Independent of A: each entry is the exact expected payoff of the pure pair on the tree.
    game = kuhn_poker()
    first, second = kuhn_normal_form.strategies
    rng = np.random.default_rng(1953)
    for row, column in rng.integers(0, 64, size=(150, 2)):
        walked = expected_value(
            game, _exact_behaviour(first, row), _exact_behaviour(second, column)
        )
        assert kuhn_normal_form.exact(row, column) == walked
        assert kuhn_normal_form.matrix[row, column] == float(walked)


def test_exact_entries_without_the_int64_matrix(kuhn_normal_form):
    # The fallback used when the exact int64 product could overflow sums A's Fractions.
    fallback = replace(kuhn_normal_form, numerators=None)
    for row, column in [(0, 0), (5, 63), (63, 17), (40, 40)]:
        assert fallback.exact(row, column) == kuhn_normal_form.exact(row, column)


def test_always_bet_against_always_call_is_even(kuhn_normal_form):
    # Every deal goes to a showdown for 2; by symmetry of the deals the expectation is 0.
    first, second = (s.labels() for s in kuhn_normal_form.strategies)
    row = first.index("J:b Jpb:b Q:b Qpb:b K:b Kpb:b")
    column = second.index("Qp:b Qb:b Kp:b Kb:b Jp:b Jb:b")
    assert kuhn_normal_form.exact(row, column) == 0


# --- the normal-form LP and Kuhn's theorem ------------------------------------------------


@pytest.fixture(
    scope="module",
    params=[("highs", "simplex"), ("cvxpy", "simplex")],
    ids=["highs-simplex", "cvxpy-simplex"],
)
def kuhn_normal_solution(request):
    backend, solver = request.param
    return solve_normal_form(kuhn_poker(), backend=backend, solver=solver)


def test_normal_form_value_is_minus_one_eighteenth(kuhn_normal_solution):
    assert kuhn_normal_solution.value == pytest.approx(KUHN_VALUE, abs=TOL)


def test_mixed_strategies_map_to_feasible_plans(kuhn_normal_solution):
    # Kuhn (1953): x = P sigma satisfies E x = e (and F y = f) since sigma sums to one.
    form = kuhn_normal_solution.form
    x, y = kuhn_normal_solution.plans
    np.testing.assert_allclose(form.E @ x, form.e, atol=TOL)
    np.testing.assert_allclose(form.F @ y, form.f, atol=TOL)
    assert (x >= 0).all() and (y >= 0).all()
    summary = kuhn_normal_solution.normal.summary
    assert max(summary.constraint_residuals) <= TOL
    assert max(summary.payoff_gaps) <= TOL
    for mixed in kuhn_normal_solution.normal.mixed:
        assert mixed.sum() == pytest.approx(1, abs=TOL)


def test_normal_and_sequence_form_agree_and_are_equilibria(kuhn_normal_solution):
    sequence = solve(kuhn_poker())
    normal = kuhn_normal_solution
    assert normal.value == pytest.approx(sequence.value, abs=TOL)
    assert normal.nash_conv <= TOL
    assert sequence.nash_conv <= TOL
    # Player 2's equilibrium is unique (Kuhn 1950), so both routes must give it.
    for name in sequence.strategies[1].table.infosets:
        for action, probability in normal.strategies[1].at(name).items():
            assert probability == pytest.approx(sequence.strategies[1].at(name)[action], abs=1e-6)


def test_reduced_normal_form_gives_the_same_value():
    result = solve_normal_form(kuhn_poker(), reduced=True)
    assert result.normal.summary.shape == (27, 64)
    assert result.value == pytest.approx(KUHN_VALUE, abs=TOL)
    assert result.nash_conv <= TOL


def test_uniform_mixture_is_uniform_behaviour(kuhn_form):
    # The uniform mixture over all pure strategies is the product of uniform choices.
    strategies = pure_strategies(kuhn_form.players[1])
    conversion = kuhn_conversion(kuhn_form, strategies, np.full(64, 1 / 64))
    np.testing.assert_allclose(conversion.behaviour.probabilities[1:], 0.5, atol=1e-15)
    assert conversion.constraint_residual <= 1e-15


def test_conversion_rejects_wrong_length(kuhn_form):
    strategies = pure_strategies(kuhn_form.players[0], reduced=True)
    with pytest.raises(ValueError, match="has 64 probabilities but player 1 has 27"):
        kuhn_conversion(kuhn_form, strategies, np.full(64, 1 / 64))


def test_matrix_game_lp_on_matching_pennies():
    solution = solve_matrix_game(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert solution.value == pytest.approx(0, abs=TOL)
    np.testing.assert_allclose(solution.x, [0.5, 0.5], atol=TOL)
    np.testing.assert_allclose(solution.y, [0.5, 0.5], atol=TOL)


# --- the size limit -------------------------------------------------------------------------


def _no_enumeration(monkeypatch) -> None:
    """ "At once" means before any pure strategy is listed: the enumeration fails the test.
    (Not a timed assertion: the machines are shared, and 1.0 s bounds flaked at 1.02 s.)"""

    def enumerated(*args, **kwargs):
        raise AssertionError("pure strategies were enumerated before the size check")

    monkeypatch.setattr(normal_form_module, "pure_strategies", enumerated)


def test_limit_refuses_big_kuhn_at_once(monkeypatch):
    form = build_sequence_form(kuhn_poker(cards=40))
    _no_enumeration(monkeypatch)
    with pytest.raises(NormalFormTooLargeError, match=r"about 10\^48\.2 payoff entries"):
        build_normal_form(form)


def test_limit_refuses_leduc_at_once(monkeypatch):
    if "leduc" not in GAMES:
        pytest.skip("Leduc is not in the registry yet")
    form = build_sequence_form(GAMES["leduc"]())
    _no_enumeration(monkeypatch)
    with pytest.raises(NormalFormTooLargeError) as raised:
        solve_normal_form(GAMES["leduc"](), form=form)
    assert str(raised.value) == (
        "the normal form is too large: 10^168.4 × 10^168.4 pure strategies = about "
        "10^336.7 payoff entries, more than the limit of 10,000,000"
    )
    with pytest.raises(NormalFormTooLargeError, match="reduced normal form is too large"):
        build_normal_form(form, reduced=True)


def test_limit_is_adjustable(kuhn_form):
    with pytest.raises(
        NormalFormTooLargeError, match="4,096 payoff entries, more than the limit of 4,095"
    ):
        build_normal_form(kuhn_form, max_entries=4095)
    assert build_normal_form(kuhn_form, max_entries=4096).shape == (64, 64)
    assert build_normal_form(kuhn_form, reduced=True, max_entries=2000).shape == (27, 64)


def test_enumeration_refuses_too_many_strategies(kuhn_form):
    with pytest.raises(NormalFormTooLargeError, match="player 2 has 64 pure strategies"):
        pure_strategies(kuhn_form.players[1], max_strategies=63)


# --- property tests on random games -------------------------------------------------------

SMALL = 400  # strategies per player in the property tests, to keep them fast


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(game=games)
def test_exact_counts_equal_enumerated_counts(game):
    form = build_sequence_form(game)
    for table in form.players:
        full_count = count_pure_strategies(table)
        assume(full_count <= SMALL)
        full = pure_strategies(table)
        reduced = pure_strategies(table, reduced=True)
        assert len(full) == full_count
        assert len(reduced) == count_reduced_strategies(table)
        # The reduced strategies are exactly the distinct plans of the full ones.
        distinct = {tuple(column) for column in full.plans.toarray().T}
        assert distinct == {tuple(column) for column in reduced.plans.toarray().T}
        assert len(distinct) == len(reduced)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(game=games)
def test_normal_form_value_equals_sequence_form_value(game):
    form = build_sequence_form(game)
    counts = strategy_counts(form)
    assume(counts.profiles <= 20_000)
    sequence = solve(game)
    for reduced in (False, True):
        normal = solve_normal_form(game, reduced=reduced, form=form)
        assert normal.value == pytest.approx(sequence.value, abs=1e-7)
        assert normal.nash_conv <= 1e-7
        assert max(normal.normal.summary.payoff_gaps) <= 1e-9
        assert max(normal.normal.summary.constraint_residuals) <= 1e-9


@pytest.mark.parametrize("seed", [3, 17, 2024])
def test_mixture_is_realization_equivalent_on_the_tree(seed):
    # Kuhn (1953), checked on the tree walk rather than through A: against each pure
    # strategy of the opponent, the behavioural strategy earns what the mixture earns.
    game = random_game(seed)
    form = build_sequence_form(game)
    normal_form = build_normal_form(form, reduced=True)
    first, second = normal_form.strategies
    rng = np.random.default_rng(seed)
    mixed = rng.dirichlet(np.ones(len(first)))
    behaviour = kuhn_conversion(form, first, mixed).behaviour
    mixture_payoffs = mixed @ normal_form.matrix
    for column in range(len(second)):
        walked = expected_value(game, behaviour, second.behaviour(column))
        assert float(walked) == pytest.approx(mixture_payoffs[column], abs=1e-12)


def _exact_reduced(table):
    """The recursion of seqform.forms.normal_counts in integers, however long (the test's
    own, for the counts the library gives by their logarithm)."""
    ways = [1] * table.num_sequences
    for infoset in reversed(range(table.num_infosets)):
        total = sum(ways[sequence] for sequence in table.sequences_of(infoset))
        ways[int(table.parent_sequence[infoset])] *= total
    return ways[0]


@pytest.mark.parametrize("spec", ["kuhn(cards=2000)", "liars_dice(sides=6)"])
def test_counts_beyond_a_thousand_digits_are_their_logarithms(spec):
    # Kuhn with 2,000 cards: 4,000 sets of two actions a player, 2^4000 pure strategies
    # (1,205 digits); Liar's Dice with six sides: sets of one to twelve actions, 10^2709.9
    # pure strategies and reduced counts short enough to be exact.  The long counts are
    # their logarithms, checked against the exact integers made here.
    for table in sequence_tables(load_structured_game(spec)):
        pure = math.prod(len(actions) for actions in table.actions)
        reduced = _exact_reduced(table)
        for counted, exact in (
            (count_pure_strategies(table), pure),
            (count_reduced_strategies(table), reduced),
        ):
            if math.log10(exact) < JSON_EXACT_DIGITS:
                assert counted == exact
            else:
                assert isinstance(counted, LogCount)
                assert counted.log10 == pytest.approx(math.log10(exact), rel=1e-12)
    assert isinstance(count_pure_strategies(table), LogCount)
