"""Re-solving on canonical boards (``resolve_structured(..., boards=...)``): each subgame of
``G'`` is re-solved on hand classes, and must answer as the game's own re-solve does.

The reference is the unreduced structured re-solve (:mod:`seqform.resolving.structured_resolve`,
itself checked against the tree path in tests/test_resolve_structured.py) of the same
blueprint lifted to the game (:func:`~seqform.structured.reductions.suit_classes.lift_behaviour`).
A gadget LP's optimum value is unique where its answer need not be, so the comparison is
subgame by subgame: the subgame of ``G'`` at a canonical board has the value (and the
smallest margin, per hand; for ``reach``, whose margins are not its optimum's, the gifts and
targets per hand) of the game's subgame at that board; and the combined profile, certified
on hand classes, has its lift's certificate in the game.
"""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pytest

from seqform.abstraction.solve import abstract
from seqform.forms.strategies import plan_from_behaviour
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.iterative.run import Stopping
from seqform.resolving.public_subgames import find_public_subgames
from seqform.resolving.structured_resolve import resolve_structured
from seqform.resolving.subgames import ResolveError
from seqform.structured.reductions.suit_classes import lift_behaviour
from seqform.structured.responses import certify
from seqform.structured.vector_cfr import canonical_vector_cfr
from tests.cli_runs import run_main
from tests.subgames_named import subgames_named

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
    """The re-solve on canonical boards and the game's own of the lifted blueprint, on the
    subgames at canonical boards (all of them for ``reach``: :func:`subgames_named`)."""
    reduced = resolve_structured(
        boards.game, strategies, gadget=gadget, boards=boards, round_number=round_number
    )
    lifted = [lift_behaviour(boards, strategy) for strategy in strategies]
    restricted = nullcontext() if gadget == "reach" else subgames_named(reduced.subgames)
    with restricted:
        unreduced = resolve_structured(
            boards.game, lifted, gadget=gadget, round_number=round_number
        )
    return reduced, unreduced


def _matched(mine, theirs):
    """Every value per hand of the game on one side is, within ``AGREE``, one on the other
    (a root class reports one value for its hands, the game one per hand)."""
    return all(min(abs(a - b) for b in theirs) < AGREE for a in mine) and all(
        min(abs(a - b) for b in mine) < AGREE for a in theirs
    )


def _same_gadget_values(reduced, unreduced):
    assert reduced.blueprint_exploitability == pytest.approx(
        unreduced.blueprint_exploitability, abs=AGREE
    )
    theirs = _runs(unreduced)
    for key, run in _runs(reduced).items():
        other = theirs[key]  # the game's subgame at the canonical board
        # relative too: a margin per unit of weight is 7e11 where the blueprint barely
        # reaches a Rhode Island subgame
        assert run.value == pytest.approx(other.value, rel=AGREE, abs=AGREE), key
        assert run.nash_conv <= AGREE * max(1.0, abs(run.value)), key
        if reduced.gadget == "reach":
            # the gifts and targets depend on the blueprint alone: the game's, per hand;
            # the margins T_J - cbv(J) do not: the optimum is min (T_J + g_J - cbv(J)) / W_J,
            # and the margins move within the optimal face (Leduc 3×3 'c c': -0.00225 on
            # classes, -0.00526 in the game, both at the optimum)
            assert _matched(run.gifts, other.gifts), key
            assert _matched(run.targets, other.targets), key
        elif run.margins:  # reported per hand of the game: the smallest is the optimum's
            assert min(run.margins) == pytest.approx(min(other.margins), abs=AGREE), key


def _never_worse(result):
    """The safe gadgets' guarantee: never more exploitable than the blueprint (Burch et al.
    2014, Thm 1; Brown and Sandholm 2017, Thm 1 for reach with its gifts divided among the
    subgames), and every margin >= 0 but reach's, which may spend its gifts."""
    assert result.exploitability <= result.blueprint_exploitability + AGREE
    if result.gadget != "reach":
        assert result.min_margin >= -AGREE


@pytest.mark.parametrize("gadget", ["unsafe", "resolve", "maxmargin", "reach"])
def test_each_subgame_on_canonical_boards_has_the_games_gadget_value(blueprint, gadget):
    boards, strategies = blueprint
    reduced, unreduced = _compare(boards, strategies, gadget)
    _same_gadget_values(reduced, unreduced)
    if gadget != "unsafe":
        _never_worse(reduced)


def re_solved_one_board_orbit_at_a_time(gadget):
    """Rhode Island 2×4's round 3 on canonical boards against the game's re-solve: round 3
    starts after the flop card, so G' has one subgame per flop orbit (18 of 72 here), whose
    turn cards are canonical under the flop's stabilizer."""
    boards, strategies = _abstraction(rhode_island_structured(2, 4, max_bets=1), (1, 2, 3))
    reduced, unreduced = _compare(boards, strategies, gadget, round_number=3)
    assert 4 * len(reduced.subgames) == len(find_public_subgames(boards.game, 3))
    _same_gadget_values(reduced, unreduced)
    if gadget == "reach":  # its gifts are the trunk's, after the flop card here
        assert any(any(run.gifts) for run in reduced.runs)
        _never_worse(reduced)


@pytest.mark.slow  # 3 s each
@pytest.mark.parametrize("gadget", ["unsafe", "maxmargin"])
def test_rhode_islands_last_round_is_re_solved_one_board_orbit_at_a_time(gadget):
    # reach, whose gifts come from the trunk here, is a big case in
    # benchmarks/checks/test_big_cases.py: the game's re-solve has all 144 gadget LPs (9 s)
    re_solved_one_board_orbit_at_a_time(gadget)


@pytest.mark.parametrize("gadget", ["unsafe", "maxmargin", "reach"])
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
    with pytest.raises(ResolveError, match="boards: the canonical boards of"):
        resolve_structured(leduc_structured(3, 2), strategies, boards=boards)
    with pytest.raises(ResolveError, match=r"blueprint of player 1: .* within a hand class"):
        resolve_structured(game, _broken(boards, strategies), boards=boards)


# --- the command line: seqform resolve GAME --blueprint FILE [--no-suit-isomorphism] ----------

LEDUC_3X3 = "leduc(ranks=3, suits=3)"


@pytest.fixture(scope="module")
def blueprint_file(tmp_path_factory):
    """CFR+ on canonical boards lifted to the game: a blueprint of the game, unchanged by its
    suit permutations, in a file as ``--blueprint`` reads it (both players' information sets
    in one mapping)."""
    import json

    boards, strategies = _cfr(leduc_structured(3, 3), 30)
    first, second = (lift_behaviour(boards, strategy).as_dict() for strategy in strategies)
    path = tmp_path_factory.mktemp("canonical") / "blueprint.json"
    path.write_text(json.dumps({**first, **second}))
    return path


def _resolved(tmp_path, blueprint, *argv):
    import json

    from seqform.io.documents import validate_document

    written = tmp_path / f"resolved{len(list(tmp_path.iterdir()))}.json"
    options = ("--path", "structured", "--format", "json", "--output", str(written))
    assert run_main("resolve", LEDUC_3X3, "--blueprint", str(blueprint), *options, *argv) == 0
    built = json.loads(written.read_text())
    validate_document(built)
    return built, written


def _gadget_values(built):
    return {(run["subgame"], run["player"]): run["value"] for run in built["gadgets"]}


@pytest.mark.parametrize("gadget", ["maxmargin", "reach"])
def test_cli_re_solves_on_canonical_boards_unless_told_and_writes_the_games_strategies(
    blueprint_file, tmp_path, gadget
):
    from seqform.questions.exploit import load_strategy

    reduced, written = _resolved(tmp_path, blueprint_file, "--gadget", gadget)
    unreduced, _ = _resolved(tmp_path, blueprint_file, "--gadget", gadget, "--no-suit-isomorphism")
    assert reduced["suit_isomorphism"] == {"permutations": 6, "subgames": 5}
    assert unreduced["suit_isomorphism"] is None
    assert reduced["notes"] == unreduced["notes"] == []
    theirs = _gadget_values(unreduced)
    for key, value in _gadget_values(reduced).items():
        assert value == pytest.approx(theirs[key], rel=AGREE, abs=AGREE), key
    # the same exploitability both ways: the gadgets' optima are the game's, and for this
    # blueprint both routes' optimal answers leave the profile equally exploitable (not so
    # in general: where a gadget has many optima the routes may keep different ones)
    for measured in ("blueprint", "resolved"):
        assert reduced[measured]["exploitability"] == pytest.approx(
            unreduced[measured]["exploitability"], rel=AGREE
        )
    # the strategies written are the game's, lifted: the game's best responses measure them
    game = leduc_structured(3, 3)
    lifted = [load_strategy(game, str(written), player) for player in (0, 1)]
    assert float(certify(game, *lifted).exploitability) == pytest.approx(
        reduced["resolved"]["exploitability"], abs=AGREE
    )


def test_cli_re_solves_the_game_itself_for_a_blueprint_a_suit_permutation_changes(
    blueprint_file, tmp_path, capsys
):
    import json

    changed = json.loads(blueprint_file.read_text())
    name = "Qs|"  # player 1's first decision with the queen of spades, not with Qh or Qc
    least = min(changed[name], key=changed[name].__getitem__)
    changed[name] = {action: float(action == least) for action in changed[name]}
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(changed))
    built, _ = _resolved(tmp_path, path, "--gadget", "maxmargin")
    assert built["suit_isomorphism"] is None
    (note,) = built["notes"]
    assert note.startswith("suit isomorphism: blueprint of player 1: its realization plan differs")
    assert note.endswith("; the game itself is re-solved")
    assert run_main("resolve", LEDUC_3X3, "--blueprint", str(path), "--path", "structured") == 0
    assert f"note: {note}" in capsys.readouterr().out


def test_the_exact_re_solve_projects_a_fraction_blueprint_exactly(blueprint_file):
    from fractions import Fraction

    from seqform.resolving.blueprints import blueprint_on
    from seqform.resolving.paths import canonical_route, read_blueprint

    game = leduc_structured(3, 3)
    blueprint = read_blueprint(game, blueprint_file)
    # a blueprint with probabilities no float holds (1/3), the same in every suit
    first, second = blueprint_on(game, blueprint)
    thirds = first.probabilities.copy()
    for name in ("Js|", "Jh|", "Jd|"):  # the jacks' first decisions, one orbit
        start = first.table.first_sequence[first.table.infosets.index(name)]
        thirds[start : start + 2] = [Fraction(1, 3), Fraction(2, 3)]
    fractions = (type(first)(first.table, thirds, first.unreached), second)
    route = canonical_route(game, fractions, exact=True)
    assert route.boards is not None and route.notes == ()
    projected = route.blueprint[0]
    start = projected.table.first_sequence[projected.table.infosets.index("Js|")]
    assert list(projected.probabilities[start : start + 2]) == [Fraction(1, 3), Fraction(2, 3)]
    # the float re-solve projects the same blueprint in floats
    assert not canonical_route(game, fractions).blueprint[0].exact
    assert canonical_route(game, blueprint, suit_isomorphism=False) == type(route)(None, blueprint)


def test_exact_re_solve_of_a_file_runs_on_canonical_boards(blueprint_file, tmp_path):
    from fractions import Fraction

    from seqform.resolving.paths import resolve

    built, _ = _resolved(tmp_path, blueprint_file, "--gadget", "maxmargin", "--exact")
    assert built["suit_isomorphism"] == {"permutations": 6, "subgames": 5}
    assert built["notes"] == []
    result = resolve(LEDUC_3X3, blueprint_file, gadget="maxmargin", exact=True, path="structured")
    assert result.boards is not None and result.notes == ()
    resolved, blueprint = (
        result.certificate.exploitability,
        result.blueprint_certificate.exploitability,
    )
    assert isinstance(resolved, Fraction) and isinstance(blueprint, Fraction)
    # the safety theorem, exactly (Moravcik et al. 2016): no worse than the blueprint
    assert resolved <= blueprint
    assert float(resolved) == pytest.approx(built["resolved"]["exploitability"], rel=1e-12)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(("--path", "tree"), "is re-solved on its tree, which has none", id="tree"),
        pytest.param(
            ("--off-tree", "translate", "--abstract", "leduc"),
            "--no-suit-isomorphism belongs to re-solving a round",
            id="off-tree",
        ),
    ],
)
def test_cli_refuses_no_suit_isomorphism_where_it_does_nothing(
    blueprint_file, capsys, argv, message
):
    blueprint = ("--blueprint", str(blueprint_file))
    assert run_main("resolve", LEDUC_3X3, *blueprint, "--no-suit-isomorphism", *argv) == 2
    assert message in capsys.readouterr().err
