"""The route policy in the library: the same
route, the same refusals and the same usage errors from ``seqform.solve(...)`` and from
``python -m seqform solve``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import seqform
from seqform.cli.main import main
from seqform.game.builtin.kuhn import kuhn_structured
from seqform.game.builtin.registry import builtin_tree_nodes
from seqform.game.public.explicit import tree_nodes
from seqform.game.public.numbering import number_public_tree
from seqform.questions import lp_reference
from seqform.questions.iterate import iterate
from seqform.routes import policy as route
from seqform.routes.policy import OptionsError, check_options, choose_route
from seqform.routes.sizing import memory
from seqform.routes.sizing.memory import MemoryAvailable, MemoryRefusedError
from seqform.routes.sizing.planned import planned_size
from seqform.routes.structured import StructuredSolution
from seqform.routes.tree import Solution

ROOT = Path(__file__).resolve().parents[1]

# --- flag combinations that cannot run: one check, a usage error --------------------------

IMPOSSIBLE = [
    pytest.param(["--method", "structured", "--solver", "pdlp"], "not pdlp", id="structured-pdlp"),
    pytest.param(
        ["--method", "structured", "--backend", "cvxpy"], "--backend", id="structured-cvxpy"
    ),
    pytest.param(["--exact", "--solver", "pdlp"], "simplex basis", id="exact-pdlp"),
    pytest.param(
        ["--method", "structured", "--fix", "K:b=1"], "--method tree", id="structured-fix"
    ),
    pytest.param(["--method", "structured", "--refine"], "--method tree", id="structured-refine"),
    pytest.param(["--method", "tree", "--solver", "clarabel"], "structured LP", id="tree-clarabel"),
]


def _options(argv: list[str]) -> dict[str, object]:
    """The library's keywords for the same flags."""
    options: dict[str, object] = {}
    for flag, value in zip(argv, [*argv[1:], None], strict=True):
        if flag in ("--exact", "--refine"):
            options[flag[2:]] = True
        elif flag == "--fix":
            options["fix"] = [value]
        elif flag.startswith("--"):
            options[flag[2:]] = value
    return options


@pytest.mark.parametrize(("argv", "says"), IMPOSSIBLE)
def test_impossible_flags_are_usage_errors_from_cli_and_library(argv, says, capsys):
    assert main(["solve", "kuhn", *argv]) == 2  # a usage error
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    with pytest.raises(OptionsError) as raised:
        seqform.solve("kuhn", **_options(argv))  # type: ignore[arg-type]
    assert f"seqform: error: {raised.value}\n" == err


def test_check_options_accepts_what_runs():
    check_options("auto")
    check_options("structured", solver="simplex", exact=True)
    check_options("tree", solver="ipm", fix=True)
    check_options("normal", backend="cvxpy")
    check_options("structured", solver="clarabel")


@pytest.mark.parametrize("old", ["sequence", "sparsified"])
def test_an_old_method_spelling_is_a_usage_error(old, capsys):
    # one spelling per route: the four are listed, the old names are not among them
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "kuhn", "--method", old])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"invalid choice: '{old}'" in err
    assert "'auto', 'tree', 'structured', 'normal'" in err
    with pytest.raises(OptionsError, match="choose from auto, tree, structured, normal"):
        seqform.solve("kuhn", method=old)


def test_an_existing_file_is_not_taken_by_the_structured_route(tmp_path, capsys):
    path = tmp_path / "X.efg"
    path.write_text('EFG 2 R "x" { "1" "2" }\nt "" 1 "" { 0, 0 }\n', encoding="utf-8")
    assert main(["solve", str(path), "--method", "structured"]) == 2
    err = capsys.readouterr().err
    assert "is a file: the structured route takes built-in games by name" in err
    assert "unknown game" not in err
    with pytest.raises(OptionsError, match="not files"):
        seqform.solve(path, method="structured")


# --- the route: same choice from Python and from the command line --------------------------


def test_auto_route_is_the_same_from_python_and_the_cli(capsys):
    # kuhn(cards=150): at most 223,501 tree nodes > AUTO_TREE_NODES, so the structured route
    big = seqform.solve("kuhn(cards=150)")
    assert isinstance(big, StructuredSolution) and big.route == "structured"
    assert main(["solve", "kuhn(cards=150)", "--format", "json", "--quiet"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["route"] == "structured"
    # the value of N-card Kuhn computed by the tree route of the same library, N = 150, is
    # checked against the structured route in tests/test_sparsified.py; here both entry
    # points give the same number
    assert document["value"] == pytest.approx(big.value, abs=1e-9)
    small = seqform.solve("kuhn")
    assert isinstance(small, Solution) and small.route == "tree"
    assert main(["solve", "kuhn", "--format", "json"]) == 0
    assert (
        json.loads(capsys.readouterr().out)["method"] == "tree"
    )  # JSON names the route as the CLI does


def test_solve_from_python_refuses_as_the_cli_does(monkeypatch, capsys):
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(2**30, "a test limit"))
    with pytest.raises(MemoryRefusedError) as refused:
        seqform.solve("leduc(ranks=13, suits=4)", method="tree")
    assert main(["solve", "leduc(ranks=13, suits=4)", "--method", "tree"]) == 1
    assert capsys.readouterr().err == f"seqform: error: {refused.value}\n"
    assert "9,984,833 nodes" in str(refused.value)  # seqform.game.builtin.leduc's count


@pytest.mark.parametrize("method", ["auto", "tree", "structured", "normal"])
@pytest.mark.parametrize("cards", ["100000000", "99999999999999999999999"])
def test_huge_kuhn_is_refused_from_its_parameters_on_every_route(method, cards, capsys):
    # 10^8 labels were built before the check (100 s, 14 GB), and 10^23
    # cards ended in numpy's "Maximum allowed size exceeded"
    spec = f"kuhn(cards={cards})"
    start = time.perf_counter()
    with pytest.raises(MemoryRefusedError):
        seqform.solve(spec, method=method)
    assert main(["solve", spec, "--method", method]) == 1
    assert time.perf_counter() - start < 10  # nothing was built (a bound, not a benchmark)
    err = capsys.readouterr().err
    assert err.startswith(f"seqform: error: {spec}: ") and "(estimated)" in err
    assert "Maximum allowed size" not in err and err.count("\n") == 1


def test_refusal_message_is_the_same_in_a_separate_process():
    spec = "kuhn(cards=99999999999999999999999)"
    with pytest.raises(MemoryRefusedError) as refused:
        seqform.solve(spec)
    done = subprocess.run(
        [sys.executable, "-m", "seqform", "solve", spec],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    # what is available differs between processes; the estimate does not
    estimate = str(refused.value).split("more than")[0]
    assert done.stderr.startswith(f"seqform: error: {estimate}")


@pytest.mark.parametrize("cards", [2, 3, 7, 40])
def test_kuhn_sizes_from_parameters_equal_the_built_descriptions(cards):
    spec = f"kuhn(cards={cards})"
    size = planned_size(spec)
    game = kuhn_structured(cards)
    numbering = number_public_tree(game)
    assert size is not None and size.structured
    assert size.tree_bound == tree_nodes(game)
    assert size.sequences == numbering.num_sequences(0) + numbering.num_sequences(1)
    assert size.tree_nodes == builtin_tree_nodes(spec)


def test_choose_route_resolves_auto():
    assert choose_route("leduc(ranks=13)").method == "structured"  # 1,277,901 nodes at most
    assert choose_route("leduc").method == "tree"
    assert choose_route("leduc(ranks=13)", refine=True).method == "tree"  # refine: tree only
    # the tree's parameter at its default is the same game: 13x4's tree (10 M nodes) took 32 s
    # to build before a simplex that did not finish
    assert choose_route("leduc(ranks=13, suits=4, suit_isomorphism=False)").method == "structured"
    assert choose_route("leduc(ranks=13, suit_isomorphism=True)").method == "tree"  # ranks only
    assert choose_route("kuhn", "structured", exact=True).solver == "simplex"  # a basis
    with pytest.raises(OptionsError, match="clarabel"):
        choose_route("kuhn", solver="clarabel")  # auto takes the tree for Kuhn


# --- iterate's reference follows the same policy -------------------------------------------


def test_iterate_reference_follows_the_structured_route(monkeypatch):
    monkeypatch.setattr(route, "AUTO_TREE_NODES", 10)  # every Kuhn deck takes the structured route
    stages: list[str] = []
    run = iterate("kuhn(cards=4)", "cfr+", iterations=10, progress=stages.append)
    assert stages == ["LP reference: solving kuhn(cards=4) on the structured route"]
    tree = seqform.solve("kuhn(cards=4)", method="tree")  # the reference computed on the tree
    assert run.reference.value == pytest.approx(tree.value, abs=1e-8)
    assert run.reference.uniqueness_skipped is not None


def test_iterate_reference_is_skipped_where_slow_or_not_asked(monkeypatch, capsys):
    monkeypatch.setattr(lp_reference, "REFERENCE_TREE_NODES", 10)
    run = iterate("kuhn", "cfr", iterations=5)
    assert run.reference.skipped is not None and "would be slow" in run.reference.skipped
    monkeypatch.undo()
    argv = ["iterate", "kuhn", "--algorithm", "cfr", "--iterations", "5", "--no-reference"]
    assert main([*argv, "--format", "json"]) == 0
    assert "LP reference" not in capsys.readouterr().err
    assert iterate("kuhn", "cfr", iterations=5, reference=False).reference.skipped


def test_iterate_method_is_checked_by_the_route_policy():
    with pytest.raises(OptionsError, match="choose from auto, tree"):
        iterate("kuhn", "cfr", iterations=1, method="normal")


def test_the_parser_offers_every_iterative_algorithm_and_no_other() -> None:
    # the command line reads the names from seqform.routes.options (no numpy at start-up);
    # seqform.questions.iterate maps each to its function, in the same order
    from seqform.questions.algorithms import ALGORITHMS
    from seqform.routes.options import ITERATE_ALGORITHMS

    assert tuple(ALGORITHMS) == ITERATE_ALGORITHMS
