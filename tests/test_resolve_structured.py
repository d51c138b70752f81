"""The structured path of re-solving: the gadget LPs on the public tree × hands.

The reference is the tree path (:mod:`seqform.resolving.gadgets`, the gadget games written
as trees and solved by the sequence-form LP): on Leduc 2×2 both paths must give the same
targets, gifts and gadget values (the LP optimum is unique even where the answer is not).
"""

from __future__ import annotations

import json
import os
import re
import sys
from fractions import Fraction

import numpy as np
import pytest

from seqform.cli.main import main
from seqform.forms.strategies import uniform_behaviour
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.game.public.numbering import structured_tables
from seqform.questions.iterate import iterate
from seqform.resolving.blueprints import blueprint_on
from seqform.resolving.exact_gadgets import exact_blueprint
from seqform.resolving.paths import choose_path, resolve
from seqform.resolving.resolve import GADGETS
from seqform.resolving.resolve import resolve as resolve_tree
from seqform.resolving.structured_resolve import resolve_structured
from seqform.resolving.subgames import ResolveError
from seqform.routes.many import TooManyWorkersError


@pytest.fixture(scope="module")
def leduc22():
    tree = leduc_poker(2, 2)
    blueprint = iterate(tree, algorithm="cfr", iterations=10).result.strategies
    return tree, leduc_structured(2, 2), blueprint


def _by_key(result):
    return {(run.subgame, run.player): run for run in result.runs}


@pytest.mark.slow
@pytest.mark.parametrize("gadget", GADGETS)
def test_structured_gadget_equals_tree_gadget_certified_and_safe(leduc22, gadget):
    tree, structured, blueprint = leduc22
    on_tree = _by_key(resolve_tree(tree, blueprint, gadget=gadget))
    result = resolve_structured(structured, blueprint, gadget=gadget)
    on_lp = _by_key(result)
    assert result.path == "structured"
    assert on_tree.keys() == on_lp.keys()
    for key, run in on_tree.items():
        other = on_lp[key]
        assert other.value == pytest.approx(run.value, abs=1e-9)
        # root information sets are listed in a different order on the two paths
        assert sorted(other.targets) == pytest.approx(sorted(run.targets), abs=1e-9)
        assert sorted(other.gifts) == pytest.approx(sorted(run.gifts), abs=1e-9)
        if gadget in ("maxmargin", "reach"):  # the optimum itself: the smallest margin
            assert min(other.margins) == pytest.approx(min(run.margins), abs=1e-9)
    assert result.max_gadget_nash_conv < 1e-9
    if gadget != "unsafe":  # safe gadgets: every margin >= 0, never worse than the blueprint
        assert result.min_margin >= -1e-9
        assert result.exploitability <= result.blueprint_exploitability + 1e-9


@pytest.mark.parametrize(
    ("blueprint", "says"),
    [
        pytest.param(
            "kuhn",
            "blueprint of player 1 for leduc(ranks=2, suits=2): the strategy of player 1 has "
            "no information set 'Qs|'",
            id="another-game",
        ),
        pytest.param(
            [{}, {}],
            "blueprint of player 1 for leduc(ranks=2, suits=2): the strategy of player 1 has "
            "no information set 'Qs|'",
            id="empty",
        ),
        pytest.param([{}], "blueprint: need both players' strategies, got 1", id="one"),
    ],
)
def test_a_blueprint_not_of_the_game_is_refused_alike_on_both_paths(leduc22, blueprint, says):
    # the structured path had its own copy of the check, whose message did not name the
    # game ("blueprint of player 1: ..."); both now go through blueprint_on
    tree, structured, _ = leduc22
    if blueprint == "kuhn":
        blueprint = iterate("kuhn", algorithm="cfr", iterations=2).result.strategies
    with pytest.raises(ResolveError, match=f"^{re.escape(says)}$"):
        resolve_tree(tree, blueprint)
    with pytest.raises(ResolveError, match=f"^{re.escape(says)}$"):
        resolve_structured(structured, blueprint)


def test_a_strategy_on_the_game_s_own_tables_is_not_read_by_name(leduc22, monkeypatch):
    # a structured game's blueprint can have millions of information sets: one on the
    # game's own tables is taken as its arrays (the tables compare as arrays), on both paths
    tree, structured, blueprint = leduc22

    def by_name(*_: object) -> None:
        raise AssertionError("read by name")

    monkeypatch.setattr("seqform.resolving.resolve.behaviour_from_mapping", by_name)
    on_tree = blueprint_on(tree, blueprint)
    assert [s.probabilities.tolist() for s in on_tree] == [
        s.probabilities.tolist() for s in blueprint
    ]
    uniform = [uniform_behaviour(table) for table in structured_tables(structured)]
    on_lp = blueprint_on(structured, uniform)
    assert [s.probabilities.tolist() for s in on_lp] == [s.probabilities.tolist() for s in uniform]
    assert not any(s.unreached.any() for s in on_lp)  # uniform play reaches everything


def test_the_path_is_chosen_by_the_tree_size():
    assert choose_path(leduc_structured(2, 2)) == "tree"
    assert choose_path(leduc_structured(13, 4)) == "structured"
    assert choose_path(leduc_poker(2, 2)) == "tree"
    with pytest.raises(ResolveError, match="refine"):
        choose_path(leduc_structured(13, 4), refine=True)
    with pytest.raises(ResolveError, match="structured path needs"):
        choose_path(leduc_poker(2, 2), "structured")


@pytest.mark.slow
def test_a_structured_game_asked_for_the_structured_path_takes_it(leduc22):
    _, structured, blueprint = leduc22
    result = resolve(structured, blueprint, gadget="unsafe", path="structured")
    assert result.path == "structured"
    assert result.exploitability < result.blueprint_exploitability


def test_progress_hears_each_gadget_lp(leduc22):
    # a long re-solve (minutes per gadget LP at Leduc 13×4) says which LP it is solving
    _, structured, blueprint = leduc22
    heard: list[str] = []
    result = resolve(
        structured, blueprint, gadget="resolve", path="structured", progress=heard.append
    )
    assert len(heard) == len(result.runs) > 0
    assert heard[0].startswith("player 1 re-solved subgame 1 of ")
    assert any(line.startswith("player 2 ") for line in heard)


@pytest.mark.slow  # 1.2 s each
@pytest.mark.parametrize("path", ["tree", "structured"])
def test_a_game_name_and_a_blueprint_file_are_read_as_the_command_line_reads_them(
    leduc22, tmp_path, path
):
    # seqform.resolve("leduc", ...) failed ('str' object has no attribute 'hands') and a
    # blueprint path was read as a sequence of characters ("need both players' strategies,
    # got 11"), where `seqform resolve GAME --blueprint FILE` takes both.  The reference is
    # the tree path on the built game with the strategies themselves.
    tree, _, blueprint = leduc22
    file = tmp_path / "bp.json"  # one mapping holding both players' information sets
    file.write_text(json.dumps({**blueprint[0].as_dict(), **blueprint[1].as_dict()}))
    reference = resolve_tree(tree, blueprint, gadget="unsafe")
    result = resolve("leduc(ranks=2, suits=2)", file, gadget="unsafe", path=path)
    assert result.path == path
    assert result.blueprint_exploitability == pytest.approx(
        reference.blueprint_exploitability, abs=1e-9
    )
    assert result.exploitability == pytest.approx(reference.exploitability, abs=1e-9)


def _nearly_never_checks(game, tiny):
    """Uniform play, except that player 1 checks first with probability ``tiny``: the
    subgames after a check are reached with ``tiny`` (an interior point's zero)."""
    blueprint = []
    for player, table in enumerate(structured_tables(game)):
        mapping = {}
        for name, actions in zip(table.infosets, table.actions, strict=True):
            mapping[name] = {action: 1 / len(actions) for action in actions}
            if player == 0 and name.endswith("|"):  # a first decision: "Qs|"
                mapping[name] = {"c": tiny, "r": 1 - tiny}
        blueprint.append(mapping)
    return blueprint


@pytest.mark.parametrize(
    "gadget",
    ["unsafe", pytest.param("maxmargin", marks=pytest.mark.slow)],  # 1.4 s
)
def test_a_subgame_reached_with_a_tiny_probability_is_solved_as_the_tree_solves_it(gadget):
    structured = leduc_structured(2, 2)
    blueprint = _nearly_never_checks(structured, 1e-11)
    result = resolve_structured(structured, blueprint, gadget=gadget)
    # each gadget LP's answer is an equilibrium of its game, however small the range
    assert result.max_gadget_nash_conv < 1e-9
    on_tree = resolve_tree(leduc_poker(2, 2), blueprint, gadget=gadget)
    assert result.exploitability == pytest.approx(on_tree.exploitability, abs=1e-9)


def test_the_exact_blueprint_takes_a_float_solver_s_dust_as_zero():
    # DUST (2^-30): below it a float probability is rounding, taken as 0; above, exactly
    structured = leduc_structured(2, 2)
    for tiny, kept in ((1e-11, Fraction(0)), (2.0**-29, Fraction(2) ** -29)):
        first = blueprint_on(structured, _nearly_never_checks(structured, tiny))[0].to_float()
        exact = exact_blueprint(first)
        table = exact.table
        for infoset, name in enumerate(table.infosets):
            sequences = list(table.sequences_of(infoset))
            assert sum(exact.probabilities[s] for s in sequences) == 1
            if name.endswith("|"):
                assert exact.at(name)["c"] == kept


@pytest.mark.slow  # 2 s: two exact re-solves
def test_the_exact_re_solve_of_a_dusty_blueprint_is_the_clean_one_s():
    # the subgames after a check are reached with 1e-11 (an interior point's zero): exactly
    # they are not reached at all, and every exact number is the blueprint's without them
    structured = leduc_structured(2, 2)
    dusty, clean = (_nearly_never_checks(structured, tiny) for tiny in (1e-11, 0.0))
    one = resolve_structured(structured, dusty, gadget="maxmargin", exact=True)
    two = resolve_structured(structured, clean, gadget="maxmargin", exact=True)
    assert one.blueprint_certificate == two.blueprint_certificate
    assert one.certificate == two.certificate
    assert one.max_gadget_nash_conv == 0


@pytest.mark.slow  # 1 to 3 s each: every gadget LP solved twice, certificates in Fractions
@pytest.mark.parametrize("gadget", ["unsafe", "maxmargin", "reach"])
def test_the_exact_re_solve_agrees_with_the_float_one(leduc22, gadget, monkeypatch):
    # Without the dense exact solver, as at Leduc 6x4 where the bases exceed its 3,000 rows:
    # the 121- to 141-row gadget bases here must come from the sparse refinement.
    monkeypatch.setattr("seqform.lp.exact.linear_solver.DENSE_LIMIT", 0)
    _, structured, blueprint = leduc22
    floats = resolve_structured(structured, blueprint, gadget=gadget)
    exact = resolve_structured(structured, blueprint, gadget=gadget, exact=True)
    assert exact.exact and isinstance(exact.certificate.nash_conv, Fraction)
    # the same vertex, the same combined profile: within the float certificate's tolerance
    assert float(exact.certificate.nash_conv) == pytest.approx(
        float(floats.certificate.nash_conv), abs=1e-9
    )
    assert exact.max_gadget_nash_conv < 1e-12  # each answer's proven gap to its optimum
    if gadget != "unsafe":
        assert exact.min_margin >= 0  # exact margins: safe, not to within a tolerance


@pytest.mark.slow  # 1.4 s
def test_the_exact_re_solve_of_resolve_is_never_worse_than_the_blueprint(leduc22):
    _, structured, blueprint = leduc22
    exact = resolve_structured(structured, blueprint, gadget="resolve", exact=True)
    assert exact.certificate.nash_conv <= exact.blueprint_certificate.nash_conv  # exactly


@pytest.mark.slow  # 2 s: three re-solves
def test_a_large_gadget_lp_goes_to_the_interior_point_and_is_certified(leduc22, monkeypatch):
    # Above SIMPLEX_COLUMNS HiGHS's interior point with crossover solves the gadget LPs (a
    # vertex, as simplex's); every LP is made "large" here to run that path on Leduc 2x2.
    from seqform.resolving import public_gadgets

    _, structured, blueprint = leduc22
    small = resolve_structured(structured, blueprint, gadget="maxmargin")
    assert max(run.nodes for run in small.runs) <= public_gadgets.SIMPLEX_COLUMNS
    used: list[str] = []
    solve = public_gadgets.solve_structured_lp

    def spy(lp, *, solver, **options):
        used.append(solver)
        return solve(lp, solver=solver, **options)

    monkeypatch.setattr(public_gadgets, "solve_structured_lp", spy)
    monkeypatch.setattr(public_gadgets, "SIMPLEX_COLUMNS", 0)
    large = resolve_structured(structured, blueprint, gadget="maxmargin")
    assert set(used) == {"ipm"}
    assert large.max_gadget_nash_conv < 1e-9
    for key, run in _by_key(small).items():  # the optimum, the smallest margin, is unique
        assert min(_by_key(large)[key].margins) == pytest.approx(min(run.margins), abs=1e-9)
    exact = resolve_structured(structured, blueprint, gadget="maxmargin", exact=True)
    assert exact.max_gadget_nash_conv < 1e-12 and exact.min_margin >= 0  # the basis, exactly


def test_the_exact_re_solve_is_refused_on_the_tree_path(capsys):
    assert main(["resolve", "leduc", "--blueprint", "x.json", "--exact", "--path", "tree"]) == 2
    assert "structured path" in capsys.readouterr().err


def test_a_gadget_without_an_exact_answer_is_named_not_a_traceback(leduc22, monkeypatch):
    # The exact re-solve of a gadget LP can fail (a basis the rational solver cannot factor,
    # or one that is not exactly optimal: Leduc 6x4's safe gadgets); the failure names the
    # player, gadget and subgame as a ResolveError, which the CLI prints in one line.
    from seqform.lp.exact.linear_solver import ExactSolveError
    from seqform.resolving import subgame_runs

    def fail(*args, **kwargs):
        raise ExactSolveError("the optimal basis is not exactly dual feasible")

    monkeypatch.setattr(subgame_runs, "solve_exact_gadget", fail)
    _, structured, blueprint = leduc22
    with pytest.raises(ResolveError, match=r"player 1's maxmargin gadget on subgame .*: no exact"):
        resolve_structured(structured, blueprint, gadget="maxmargin", exact=True)


def _same_answers(one, two):
    assert one.runs == two.runs and one.skipped == two.skipped
    for mine, theirs in zip(one.strategies, two.strategies, strict=True):
        assert np.array_equal(mine.probabilities, theirs.probabilities)
    assert one.certificate == two.certificate


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked")
@pytest.mark.parametrize("gadget", ["unsafe", "maxmargin", "reach"])
def test_workers_give_one_processs_answers_bit_for_bit(leduc22, gadget):
    # each subgame's LP in a forked worker, the answers taken in the subgames' order: the
    # same runs, strategies and certificate as one process (reach: its gifts too)
    _, structured, blueprint = leduc22
    heard: list[str] = []
    alone = resolve_structured(structured, blueprint, gadget=gadget)
    pooled = resolve_structured(
        structured, blueprint, gadget=gadget, workers=2, progress=heard.append
    )
    _same_answers(alone, pooled)
    assert len(heard) == len(pooled.runs)


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked")
def test_workers_give_the_exact_answers_of_one_process(leduc22):
    _, structured, blueprint = leduc22
    alone = resolve_structured(structured, blueprint, gadget="resolve", exact=True)
    pooled = resolve_structured(structured, blueprint, gadget="resolve", exact=True, workers=2)
    _same_answers(alone, pooled)
    assert pooled.exact and isinstance(pooled.certificate.nash_conv, Fraction)


def test_workers_are_checked_before_any_starts(leduc22, monkeypatch):
    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started")

    monkeypatch.setattr("seqform.base.pool.ProcessPoolExecutor", no_pool)
    _, structured, blueprint = leduc22
    for wrong in (0, -1, 1.5, True):
        with pytest.raises(ResolveError, match=r"workers: .* is not a whole number of at least 1"):
            resolve_structured(structured, blueprint, workers=wrong)
    with pytest.raises(TooManyWorkersError, match="--workers 100,000: at most"):
        resolve_structured(structured, blueprint, workers=100_000)


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked")
def test_cli_workers_write_the_same_document_and_are_refused_where_they_do_not_apply(
    leduc22, tmp_path, capsys
):
    _, _, blueprint = leduc22
    file = tmp_path / "bp.json"
    file.write_text(json.dumps({**blueprint[0].as_dict(), **blueprint[1].as_dict()}))
    common = ["resolve", "leduc(ranks=2, suits=2)", "--blueprint", str(file), "--gadget"]
    common += ["maxmargin", "--path", "structured", "--format", "json", "--output"]
    for workers in ("1", "2"):
        out = tmp_path / f"workers{workers}.json"
        assert main([*common, str(out), "--workers", workers]) == 0
    documents = [json.loads((tmp_path / f"workers{n}.json").read_text()) for n in "12"]
    for document in documents:
        document.pop("seconds", None)
        document.get("run", {}).pop("seconds", None)
    assert documents[0] == documents[1]
    capsys.readouterr()
    tree = ["resolve", "leduc(ranks=2, suits=2)", "--blueprint", str(file), "--path", "tree"]
    assert main([*tree, "--workers", "2"]) == 2
    assert "the tree path re-solves in one process" in capsys.readouterr().err
    off = ["resolve", "leduc", "--blueprint", str(file), "--off-tree", "translate"]
    assert main([*off, "--abstract", "leduc", "--workers", "2"]) == 2
    assert "--workers belongs to re-solving a round" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked")
def test_a_worker_that_dies_is_a_resolve_error_not_a_traceback(leduc22, monkeypatch):
    from seqform.resolving import subgame_runs

    parent, real = os.getpid(), subgame_runs.prepare

    def dying(*args, **kwargs):
        if os.getpid() != parent:
            os._exit(1)  # as the kernel's out-of-memory kill ends a worker
        return real(*args, **kwargs)

    monkeypatch.setattr(subgame_runs, "prepare", dying)
    _, structured, blueprint = leduc22
    with pytest.raises(ResolveError, match="a re-solve worker process ended without an answer"):
        resolve_structured(structured, blueprint, gadget="maxmargin", workers=2)
