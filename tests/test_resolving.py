"""Re-solving subgames of a blueprint with gadgets (seqform.resolving).

The safe gadgets' theorem (Burch, Johanson and Bowling, AAAI 2014, Theorem 1; Moravčík et al.,
AAAI 2016; Brown and Sandholm, NeurIPS 2017, Theorem 2 with the gift divided among subgames):
with each player's trunk kept, re-solving never makes the full game's exploitability worse than
the blueprint's.  Unsafe re-solving has no such guarantee (Ganzfried and Sandholm 2015), and a
blueprint that is an equilibrium already shows it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from seqform.abstraction.solve import abstract
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_mapping
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.game.model import Game
from seqform.questions.iterate import iterate
from seqform.resolving.resolve import GADGETS, resolve
from seqform.resolving.subgames import ResolveError, find_subgames
from seqform.routes.tree import solve_tree
from tests.cli_runs import run_main

CERTIFICATE_TOLERANCE = 1e-9  # NashConv of a float LP's answer, and the safety slack


@cache
def _leduc(ranks: int, suits: int) -> Game:
    return leduc_poker(ranks, suits)


def _mixed(strategy: BehaviouralStrategy, share: float) -> BehaviouralStrategy:
    """``strategy`` mixed with the uniform strategy, ``share`` of the latter."""
    probabilities = strategy.to_float().probabilities.copy()
    table = strategy.table
    for infoset in range(table.num_infosets):
        sequences = list(table.sequences_of(infoset))
        probabilities[sequences] = (1 - share) * probabilities[sequences] + share / len(sequences)
    return BehaviouralStrategy(table, probabilities, strategy.unreached)


@cache
def _blueprint(name: str) -> tuple[BehaviouralStrategy, ...]:
    game = _leduc(2, 2)
    if name == "cfr-10":
        return iterate(game, algorithm="cfr", iterations=10).result.strategies
    if name == "one-bucket":
        return abstract(leduc_structured(2, 2), "1,1").strategies
    return tuple(_mixed(strategy, 0.3) for strategy in solve_tree(game).strategies)


SAFE = [gadget for gadget in GADGETS if gadget != "unsafe"]
CASES = [
    pytest.param(
        blueprint,
        gadget,
        id=f"{blueprint}-{gadget}",
        marks=() if blueprint == "cfr-10" else pytest.mark.slow,
    )
    for blueprint in ("cfr-10", "one-bucket", "perturbed-equilibrium")
    for gadget in SAFE
]


@pytest.mark.parametrize(("blueprint", "gadget"), CASES)
def test_safe_gadgets_never_make_the_blueprint_more_exploitable(blueprint, gadget):
    result = resolve(_leduc(2, 2), _blueprint(blueprint), round_number=2, gadget=gadget)
    assert result.runs, "no subgame was re-solved"
    assert result.max_gadget_nash_conv <= CERTIFICATE_TOLERANCE  # every gadget LP certified
    assert result.exploitability <= result.blueprint_exploitability + CERTIFICATE_TOLERANCE
    if gadget != "reach":  # reach may spend the gifts: its margins may be negative
        assert result.min_margin >= -CERTIFICATE_TOLERANCE


def test_an_exact_blueprint_is_measured_in_floats_as_the_lps_are():
    # A strategy file's decimals are read exactly, each information set with its own
    # denominator; the float re-solve measures them as floats (in Fractions its best
    # responses took 4 of 6.7 s on leduc(ranks=5)), with the same safety.
    floats = _blueprint("cfr-10")

    def decimals(row: dict[str, float]) -> dict[str, Fraction]:  # as a file's, summing to 1
        read = {action: Fraction(f"{p:.12f}") for action, p in row.items()}
        total = sum(read.values())
        return {action: p / total for action, p in read.items()}

    exact = tuple(
        behaviour_from_mapping(
            strategy.table, {name: decimals(strategy.at(name)) for name in strategy.table.infosets}
        )
        for strategy in floats
    )
    assert all(strategy.exact for strategy in exact)
    result = resolve(_leduc(2, 2), exact, gadget="resolve")
    assert not any(strategy.exact for strategy in result.blueprint)
    assert result.blueprint_exploitability == pytest.approx(
        resolve(_leduc(2, 2), floats, gadget="resolve").blueprint_exploitability, abs=1e-9
    )
    assert result.exploitability <= result.blueprint_exploitability + CERTIFICATE_TOLERANCE


def test_maxmargin_finds_a_positive_margin_where_the_blueprint_is_exploitable():
    result = resolve(_leduc(2, 2), _blueprint("cfr-10"), gadget="maxmargin")
    assert result.min_margin > 1e-3
    assert result.exploitability < result.blueprint_exploitability - 0.1


@pytest.mark.slow
def test_unsafe_resolving_can_make_an_equilibrium_exploitable():
    game = _leduc(3, 2)
    equilibrium = solve_tree(game).strategies
    unsafe = resolve(game, equilibrium, gadget="unsafe")
    assert unsafe.blueprint_exploitability <= CERTIFICATE_TOLERANCE
    assert unsafe.max_gadget_nash_conv <= CERTIFICATE_TOLERANCE  # each subgame solved exactly
    assert unsafe.exploitability > 0.05  # 0.1168 in one run: the ranges moved under it
    safe = resolve(game, equilibrium, gadget="resolve")
    assert safe.exploitability <= CERTIFICATE_TOLERANCE


def test_leduc_round_two_has_one_subgame_per_betting_line_that_calls():
    game = _leduc(2, 2)
    subgames = find_subgames(game, _blueprint("cfr-10"), 2)
    # round 1 ends in a call after 0, 1 or 2 raises, either player opening (Southey et al. 2005)
    assert sorted(s.name for s in subgames) == sorted(["c c", "c r c", "c r r c", "r c", "r r c"])
    assert all(len(s.roots) == 4 * 3 for s in subgames)  # every deal of 2 of 4 cards


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param({"gadget": "safest"}, "is not one of", id="gadget"),
        pytest.param({"round_number": 3}, "has no round 3", id="round-3"),
        pytest.param({"round_number": 1}, "has no round 1", id="round-1"),
        pytest.param({"round_number": "2"}, "not a whole number", id="round-text"),
    ],
)
def test_bad_arguments_are_refused_by_name(arguments, message):
    with pytest.raises(ResolveError, match=message):
        resolve(_leduc(2, 2), _blueprint("cfr-10"), **arguments)


def test_a_blueprint_of_another_game_is_refused():
    kuhn = iterate("kuhn", algorithm="cfr", iterations=2).result.strategies
    with pytest.raises(ResolveError, match="blueprint of player 1"):
        resolve(_leduc(2, 2), kuhn)


@pytest.mark.slow
def test_refined_gadget_equilibria_are_certified_exactly_and_stay_safe():
    result = resolve(_leduc(2, 2), _blueprint("cfr-10"), gadget="resolve", refine=True)
    assert all(run.verified and run.nash_conv == 0 for run in result.runs)
    assert result.exploitability <= result.blueprint_exploitability + CERTIFICATE_TOLERANCE
    plain = resolve(_leduc(2, 2), _blueprint("cfr-10"), gadget="resolve")
    # the LP's vertex and the refined equilibrium differ in the full game (0.743 and 0.201
    # in one run); the comparison over games is benchmarks/resolve_table.py's
    assert not np.isclose(result.exploitability, plain.exploitability)


@pytest.fixture(scope="module")
def blueprint_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("resolve") / "blueprint.json"
    assert (
        run_main(
            "iterate",
            "leduc(ranks=2, suits=2)",
            "--algorithm",
            "cfr",
            "--iterations",
            "10",
            "--format",
            "json",
            "--output",
            str(path),
            "--quiet",
        )
        == 0
    )
    return path


def test_cli_writes_a_combined_strategy_that_exploit_reads(blueprint_file, tmp_path, capsys):
    from seqform.io.documents import validate_document

    written = tmp_path / "resolved.json"
    game = "leduc(ranks=2, suits=2)"
    assert (
        run_main(
            "resolve",
            game,
            "--blueprint",
            str(blueprint_file),
            "--gadget",
            "maxmargin",
            "--format",
            "json",
            "--output",
            str(written),
        )
        == 0
    )
    import json

    built = json.loads(written.read_text())
    validate_document(built)
    assert built["resolved"]["exploitability"] <= built["blueprint"]["exploitability"]
    assert run_main("exploit", game, "--strategy", str(written), "--player", "2") == 0


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(("--gadget", "safest"), id="gadget"),
        pytest.param(("--round", "3"), id="round"),
        pytest.param(("--round", "1"), id="round-1"),
    ],
)
def test_cli_refuses_a_bad_gadget_or_round_with_exit_2(blueprint_file, argv):
    assert (
        run_main("resolve", "leduc(ranks=2, suits=2)", "--blueprint", str(blueprint_file), *argv)
        == 2
    )


def test_cli_refuses_a_bad_blueprint_file_with_exit_1_as_exploit_does(tmp_path):
    # A file that cannot be used is bad input (exit 1, EXIT_CODES_HELP), the same code
    # exploit --strategy gives it; usage errors (exit 2) are the options themselves.
    bad = tmp_path / "bad.json"
    bad.write_text('{"x": {"c": 1}}')
    game = "leduc(ranks=2, suits=2)"
    missing = str(tmp_path / "missing.json")
    assert run_main("resolve", game, "--blueprint", str(bad)) == 1
    assert run_main("exploit", game, "--strategy", str(bad)) == 1
    assert run_main("resolve", game, "--blueprint", missing) == 1
    assert run_main("exploit", game, "--strategy", missing) == 1


@pytest.fixture(scope="module")
def leduc32_blueprint(tmp_path_factory):
    path = tmp_path_factory.mktemp("resolve32") / "blueprint.json"
    argv = ("--algorithm", "cfr", "--iterations", "10", "--format", "json", "--quiet")
    assert run_main("iterate", "leduc(ranks=3, suits=2)", *argv, "--output", str(path)) == 0
    return path


@pytest.mark.slow
def test_cli_structured_path_measures_the_blueprint_as_the_tree_path(leduc32_blueprint, tmp_path):
    import json

    from seqform.io.documents import validate_document

    built = {}
    for path in ("tree", "structured"):
        written = tmp_path / f"{path}.json"
        argv = ("--blueprint", str(leduc32_blueprint), "--gadget", "maxmargin", "--path", path)
        options = ("--format", "json", "--output", str(written))
        assert run_main("resolve", "leduc(ranks=3, suits=2)", *argv, *options) == 0
        built[path] = json.loads(written.read_text())
        validate_document(built[path])
        assert built[path]["path"] == path
        safe = built[path]["blueprint"]["exploitability"] + CERTIFICATE_TOLERANCE
        assert built[path]["resolved"]["exploitability"] <= safe
    assert built["structured"]["blueprint"]["exploitability"] == pytest.approx(
        built["tree"]["blueprint"]["exploitability"], abs=CERTIFICATE_TOLERANCE
    )


def test_cli_resolve_reports_its_path(blueprint_file, capsys):
    game = "leduc(ranks=2, suits=2)"
    assert run_main("resolve", game, "--blueprint", str(blueprint_file), "--gadget", "unsafe") == 0
    assert "path: tree" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("game", "argv", "message"),
    [
        pytest.param("leduc(ranks=3, suits=2)", ("--path", "structured", "--refine"), "refine"),
        pytest.param("leduc(ranks=13, suits=4)", ("--refine",), "refine"),
        pytest.param("kuhn3", ("--path", "structured"), "structured path needs"),
    ],
)
def test_cli_refuses_a_path_it_cannot_take_with_exit_2(tmp_path, capsys, game, argv, message):
    missing = str(tmp_path / "never-read.json")  # refused before the blueprint is read
    assert run_main("resolve", game, "--blueprint", missing, *argv) == 2
    assert message in capsys.readouterr().err
