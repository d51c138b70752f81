"""Card abstraction with perfect recall (seqform.abstraction): buckets refine round by round,
the lossless limit is the full game, one bucket is measured as the tree measures it, and bad
bucket specs are refused as usage errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from seqform.abstraction.abstract_game import abstract_game
from seqform.abstraction.buckets import card_abstraction
from seqform.abstraction.rounds import CardBucketsError, game_rounds, parse_card_buckets
from seqform.abstraction.solve import abstract
from seqform.certify import certify as tree_certify
from seqform.cli.main import main
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.game.public.numbering import structured_tables
from seqform.routes.options import OptionsError
from seqform.routes.structured import solve_structured

LEDUC_VALUE = -0.085606424078  # Lanctot et al. (2017), App. E.2: Leduc's value to player 1
LEDUC_2X2 = "leduc(ranks=2, suits=2)"


@pytest.fixture(scope="module")
def leduc():
    return leduc_structured(3, 2)


@pytest.mark.parametrize("features", ["ehs", "ehs2", "histogram"])
def test_each_rounds_buckets_split_the_previous_rounds(features):
    game = leduc_structured(4, 2)
    abstraction = card_abstraction(game, (2, 5), features)
    rounds = abstraction.rounds
    for player in (0, 1):
        for path in rounds.paths(player, 1):
            later = abstraction.buckets[player][path]
            earlier = abstraction.buckets[player][rounds.parent(path)]
            for bucket in range(later.max() + 1):
                assert len(set(earlier[later == bucket].tolist())) == 1
            assert (later >= 0).sum() == game.num_hands(player) - 1  # the public card's holder


def test_the_abstract_game_has_perfect_recall(leduc):
    # each full information set's parent sequence maps to its abstract information set's
    # parent sequence: the abstract player remembers its own earlier bucket and actions
    built = abstract_game(leduc, card_abstraction(leduc, (2, 4)))
    for player in (0, 1):
        full = structured_tables(leduc)[player]
        table = built.tables[player]
        mapped = built.sequence_map[player][full.parent_sequence]
        assert np.array_equal(mapped, table.parent_sequence[built.infoset_map[player]])


def test_as_many_buckets_as_hands_is_the_full_game(leduc):
    result = abstract(leduc, "6,6")
    full = solve_structured(leduc)  # the full structured LP
    assert result.value == pytest.approx(full.value, abs=1e-8)
    assert result.value == pytest.approx(LEDUC_VALUE, abs=1e-9)
    assert result.abstract.tables[0].num_sequences == full.strategies[0].table.num_sequences
    assert result.exploitability == pytest.approx(0, abs=1e-8)
    assert result.abstract_exploitability == pytest.approx(0, abs=1e-8)


@pytest.mark.slow
def test_one_bucket_is_measured_as_the_tree_measures_it(leduc):
    result = abstract(leduc, [1, 1])
    tree = leduc_poker(3, 2)  # the explicit tree, its information sets named alike
    by_name = [strategy.as_dict() for strategy in result.strategies]
    independent = tree_certify(tree, by_name[0], by_name[1])
    assert result.nash_conv == pytest.approx(float(independent.nash_conv), abs=1e-9)
    assert result.nash_conv > 1  # no card seen: the lifted strategy is far from equilibrium
    assert result.abstract_exploitability == pytest.approx(0, abs=1e-8)


def test_lifted_hands_of_a_bucket_play_alike(leduc):
    result = abstract(leduc, "2,4")
    buckets = result.abstraction.buckets[0][()]
    strategy = result.strategies[0]
    same = [h for h in range(6) if buckets[h] == buckets[0]]
    labels = leduc.hands[0].labels
    assert len(same) > 1
    for history in ("|", "|cr"):
        first = strategy.at(labels[same[0]] + history)
        assert all(strategy.at(labels[h] + history) == first for h in same[1:])


def test_the_buckets_are_the_same_from_run_to_run():
    game = leduc_structured(4, 2)
    first, second = (card_abstraction(game, (3, 6), "histogram") for _ in range(2))
    for path, buckets in first.buckets[0].items():
        assert np.array_equal(buckets, second.buckets[0][path])


def test_leduc_has_two_rounds(leduc):
    assert game_rounds(leduc).lengths == (0, 1)
    assert parse_card_buckets("3, 6", leduc) == (3, 6)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("3,x", "whole bucket counts", id="not-integers"),
        pytest.param("2.5,3", "whole bucket counts", id="not-whole"),
        pytest.param("3", "2 betting round", id="too-few-rounds"),
        pytest.param("3,9,27", "2 betting round", id="too-many-rounds"),
        pytest.param("3,7", "only 6 hands", id="more-than-hands"),
        pytest.param("3,2", "cannot decrease", id="decreasing"),
        pytest.param("0,1", "at least 1", id="zero"),
    ],
)
def test_bad_card_buckets_are_refused(leduc, spec, message):
    with pytest.raises(CardBucketsError, match=message):
        parse_card_buckets(spec, leduc)
    assert issubclass(CardBucketsError, OptionsError)  # exit 2 on the command line


def test_the_command_line_refuses_bad_card_buckets_with_exit_2(capsys):
    assert main(["solve", "leduc", "--card-buckets", "3,2"]) == 2
    assert "cannot decrease" in capsys.readouterr().err


def test_the_command_line_reports_both_games(capsys):
    assert main(["solve", "leduc", "--card-buckets", "6,6", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "abstract game value" in out and "exploitability (NashConv / 2)" in out


@pytest.mark.slow  # about 1.3 s warm: a solve, a resolve and an exploit
def test_an_abstraction_document_is_a_blueprint_for_resolve_and_exploit(tmp_path, capsys):
    blueprint = tmp_path / "blueprint.json"
    solved = ["solve", LEDUC_2X2, "--card-buckets", "1,2", "--format", "json", "--quiet"]
    assert main([*solved, "--output", str(blueprint)]) == 0
    written = json.loads(blueprint.read_text())
    assert [entry["player"] for entry in written["strategies"]] == [1, 2]
    resolved = tmp_path / "resolved.json"
    again = ["resolve", LEDUC_2X2, "--blueprint", str(blueprint), "--gadget", "unsafe"]
    assert main([*again, "--format", "json", "--output", str(resolved)]) == 0
    measured = json.loads(resolved.read_text())["blueprint"]["exploitability"]
    # the file's strategies are the lifted ones: resolve measures the blueprint as solve did
    assert measured == pytest.approx(written["full_game"]["exploitability"], abs=1e-9)
    capsys.readouterr()
    assert main(["exploit", LEDUC_2X2, "--strategy", str(blueprint)]) == 0
    assert "Gain over the equilibrium" in capsys.readouterr().out


def test_clarabels_almost_solved_point_is_judged_by_the_certificate(monkeypatch):
    # Clarabel asked for gap 1e-16 on 50-card Kuhn stops "AlmostSolved" after 14 iterations
    # (tests/test_structured_lp.py); abstract() refused that point, where the structured
    # route certifies it.  With every card its own bucket the abstract LP is the game's LP.
    import seqform.abstraction.solve as solve_module
    from seqform.game.builtin.kuhn import kuhn_poker, kuhn_structured
    from seqform.routes.solve import solve

    monkeypatch.setattr(solve_module, "CLARABEL_TOLERANCE", 1e-16)
    result = abstract(kuhn_structured(50), "50")
    assert result.stats.status == "almost solved"
    assert result.abstract_exploitability <= 1e-9
    # the tree route's LP on the same game
    assert result.value == pytest.approx(float(solve(kuhn_poker(50)).value), abs=1e-9)


def test_an_almost_solved_point_the_certificate_rejects_is_refused(monkeypatch):
    import seqform.abstraction.solve as solve_module
    from seqform.certify import Certificate
    from seqform.game.builtin.kuhn import kuhn_structured
    from seqform.lp.solvers import SolverError

    monkeypatch.setattr(solve_module, "CLARABEL_TOLERANCE", 1e-16)
    # a point a best response gains 0.1 against, in a game of payoff range 4
    far = Certificate.from_best_responses(0.0, 0.1, 0.0, 4.0)
    monkeypatch.setattr(solve_module, "_abstract_certificate", lambda *args: far)
    with pytest.raises(SolverError, match=r"AlmostSolved .* not an equilibrium"):
        abstract(kuhn_structured(50), "50")


def test_a_near_miss_of_clarabel_is_polished_as_the_structured_route_polishes(monkeypatch):
    # Clarabel's point moved off the optimal face (each entry by up to 1e-6 of itself), so
    # that its certificate in the abstract game fails: abstract() polishes it on its active
    # set (seqform.lp.polish, the structured route's repair) and keeps the certified point,
    # where it refused it before (the 52-card Rhode Island 3,6,12 rung stopped this way).
    from dataclasses import replace

    import seqform.abstraction.solve as solve_module
    from seqform.game.builtin.kuhn import kuhn_structured

    real = solve_module.run_lp
    noise = np.random.default_rng(7)
    missed = []

    def near_miss(problem, **options):
        solution = real(problem, **options)
        moved = solution.primal * (1 + 1e-6 * noise.uniform(-1, 1, solution.primal.size))
        stats = replace(solution.stats, status="almost solved")
        missed.append(replace(solution, primal=moved, stats=stats))
        return missed[-1]

    monkeypatch.setattr(solve_module, "run_lp", near_miss)
    game = kuhn_structured(50)
    result = abstract(game, "50")
    assert missed, "the LP was not run"
    assert result.stats.status == "polished"
    assert result.abstract_exploitability <= 1e-9 * 4  # certified: payoff range 4
    assert any(phase.name == "repair" for phase in result.timings.phases)
    # the unpolished point was not an equilibrium: the repair was needed
    unpolished = solve_module._abstract_certificate(
        game,
        result.abstract,
        (
            solve_module.behaviour_from_plan(result.abstract.tables[0], missed[0].x, tol=1e-9),
            solve_module.behaviour_from_plan(result.abstract.tables[1], missed[0].y, tol=1e-9),
        ),
    )
    assert unpolished.relative_exploitability > 1e-9


# --- what --card-buckets takes and refuses ------------------------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--method", "normal", "--backend", "cvxpy", "--max-entries", "5"],
         "--method normal, --backend cvxpy or --max-entries"),
        (["--method", "tree"], "--method tree"),
        (["--no-ordered-isomorphism"], "--no-ordered-isomorphism"),
        (["--no-suit-isomorphism"], "--no-suit-isomorphism"),
        (["--strategies", "all"], "--strategies all"),
        (["--exact"], "--exact"),
        (["--lock", "P1@: x=1"], "--lock"),
    ],
    ids=["method-backend-entries", "tree", "ordered", "suits", "strategies", "exact", "lock"],
)  # fmt: skip
def test_options_card_buckets_cannot_use_are_usage_errors(options, named, capsys):
    # They were ignored: --method normal --backend cvxpy exited 0 with Clarabel's answer.
    assert main(["solve", LEDUC_2X2, "--card-buckets", "1,2", *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"seqform: error: --card-buckets takes no {named} (card abstraction")


def test_card_buckets_take_the_solver_and_the_structured_method(capsys):
    argv = ["solve", LEDUC_2X2, "--card-buckets", "1,2", "--method", "structured"]
    assert main([*argv, "--solver", "simplex", "--format", "json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["solver"]["solver"] == "simplex"
    assert main([*argv, "--solver", "pdlp", "--quiet"]) == 2  # the library's refusal
    assert "the abstract LP is solved with clarabel, simplex, ipm" in capsys.readouterr().err


def test_a_game_file_is_refused_saying_what_card_abstraction_takes(tmp_path, capsys):
    # The message was the structured route's "...not files; use --method tree (or auto)",
    # given even to --method tree, where it cannot help.
    efg = tmp_path / "kuhn.efg"
    assert main(["export", "kuhn", "--to", "efg", str(efg)]) == 0
    capsys.readouterr()
    assert main(["solve", str(efg), "--card-buckets", "2"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "card abstraction needs a structured game" in line
    assert "hold'em spot file (.toml), not the file" in line and "--method" not in line
    for game in (str(efg), "kuhn3", leduc_poker(2, 2)):  # a file, no structured form, a tree
        with pytest.raises(CardBucketsError, match="card abstraction needs a structured game"):
            abstract(game, "2")


def test_features_without_card_buckets_is_a_usage_error(capsys):
    # It was accepted and ignored: an ordinary solve, exit 0.
    assert main(["solve", "kuhn", "--features", "histogram"]) == 2
    assert capsys.readouterr().err == "seqform: error: --features belongs to --card-buckets\n"
