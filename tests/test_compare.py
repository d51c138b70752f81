"""`seqform compare` and `seqform solve --method normal`, called as functions."""

import dataclasses
import json
import math

import pytest

import seqform
from seqform.cli.main import main
from seqform.documents.compare import comparison_document
from seqform.forms.normal_counts import NormalFormTooLargeError
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.registry import GAMES
from seqform.io.loader import load_game
from seqform.questions.compare import compare

KUHN_VALUE = -1 / 18  # Kuhn (1950)
TOL = 1e-9
needs_leduc = pytest.mark.skipif("leduc" not in GAMES, reason="Leduc is not in the registry yet")


@pytest.fixture(scope="module")
def kuhn_comparison():
    return compare(kuhn_poker())


def test_compare_kuhn_text(capsys):
    assert main(["compare", "kuhn"]) == 0
    out = capsys.readouterr().out
    # KUHN_FACTS "Sizes": 6 deals × 5 histories, 6 + 6 information sets, 64 × 64 profiles.
    assert (
        "Summary: 30 terminal histories, 12 information sets (6 + 6), "
        "4,096 pure strategy profiles (64 × 64)"
    ) in out
    lines = out.splitlines()
    assert "information sets                6         6       12" in lines
    assert "sequences                      13        13       26" in lines
    assert "pure strategies                64        64    4,096" in lines
    assert "reduced pure strategies        27        64    1,728" in lines  # KUHN_FACTS
    assert any(line.startswith("  full matrix M") and "64 × 64" in line for line in lines)
    assert any(line.startswith("  reduced matrix M") and "27 × 64" in line for line in lines)
    assert any(line.startswith("  E (Player 1 constraints)") and "7 × 13" in line for line in lines)
    for name in ("sequence form", "normal form", "reduced normal form"):
        row = next(line for line in lines if line.startswith(name + " "))
        assert "-0.0555555556 (= -1/18)" in row
    assert "Values agree" in out and "all exploitabilities ≤ 1e-09" in out
    assert "Player 1 (normal-form LP, via Kuhn's theorem) — behavioural strategy" in out
    assert "Player 2 (sequence-form LP) — behavioural strategy" in out


def test_compare_kuhn_json(capsys):
    assert main(["compare", "kuhn", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "seqform.compare/2"
    assert document["game"]["terminals"] == 30
    players = document["players"]
    assert [p["infosets"] for p in players] == [6, 6]
    assert [p["sequences"] for p in players] == [13, 13]
    assert [p["pure_strategies"]["exact"] for p in players] == ["64", "64"]
    assert [p["reduced_pure_strategies"]["exact"] for p in players] == ["27", "64"]
    assert document["overall"]["pure_strategy_profiles"]["exact"] == "4096"
    assert document["overall"]["infosets"] == 12
    full = document["normal_form"]["full"]
    assert [side["exact"] for side in full["shape"]] == ["64", "64"]
    assert full["entries"]["exact"] == "4096" and full["fits"] is True
    assert document["sequence_form"]["E"] == {"shape": [7, 13], "nonzeros": 19}
    assert document["sequence_form"]["A"]["shape"] == [13, 13]
    formulations = {f["name"]: f for f in document["formulations"]}
    assert formulations["sequence"]["variables"]["exact"] == "20"
    assert formulations["normal"]["variables"]["exact"] == "65"
    for formulation in formulations.values():
        assert formulation["solved"] is True
        assert formulation["value"] == pytest.approx(KUHN_VALUE, abs=TOL)
        assert formulation["value_fraction"] == "-1/18"
        assert formulation["nash_conv"] <= TOL
    assert max(formulations["normal"]["kuhn_theorem"]["payoff_gaps"]) <= TOL
    assert document["values_agree"] is True
    assert set(document["strategies"]) == {"sequence", "normal"}


def test_compare_takes_a_game_name_as_solve_does(kuhn_comparison):
    # compare("kuhn") was refused ("the sequence-form LP needs a seqform Game, not str")
    # where solve, exploit and ranges read the name with load_game.
    named = compare("kuhn", solve_lps=False)
    assert named.game.name == "kuhn"
    assert named.counts == kuhn_comparison.counts
    assert named.form.A.shape == kuhn_comparison.form.A.shape == (13, 13)  # as the JSON above


def test_predicted_lp_sizes_are_the_solvers(kuhn_comparison):
    # The sizes in the table come from formulas; the solver counts its own LP.
    for formulation in kuhn_comparison.formulations:
        stats = formulation.solution.stats
        assert (formulation.variables, formulation.constraints, formulation.nonzeros) == (
            stats.variables,
            stats.constraints,
            stats.nonzeros,
        )


def test_compare_limit_skips_only_what_does_not_fit(capsys):
    assert main(["compare", "kuhn", "--max-entries", "2000", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    formulations = {f["name"]: f for f in document["formulations"]}
    assert formulations["normal"]["fits"] is False and formulations["normal"]["solved"] is False
    assert formulations["reduced_normal"]["solved"] is True  # 27 × 64 = 1 728 entries
    assert document["values_agree"] is True


def test_compare_sizes_only(capsys):
    assert main(["compare", "kuhn", "--no-solve"]) == 0
    out = capsys.readouterr().out
    assert "not solved" in out and "Values agree" not in out


def test_compare_sizes_only_of_a_file_builds_its_tree_and_solves_nothing(tmp_path, capsys):
    # a game with no structured description is sized from its tree, as before
    file = tmp_path / "kuhn.efg"
    assert main(["export", "kuhn", "--to", "efg", "--output", str(file)]) == 0
    capsys.readouterr()
    assert main(["compare", str(file), "--no-solve"]) == 0
    out = capsys.readouterr().out
    assert "30 terminal histories" in out  # Kuhn (1950): 6 deals × 5 betting lines
    assert "not solved" in out and "Values agree" not in out


@pytest.mark.parametrize(
    "spec", ["kuhn(cards=300)", "leduc(ranks=13, suits=4)", "liars_dice(sides=7)"]
)
def test_compare_sizes_only_never_builds_a_tree_its_public_tree_sizes(spec, monkeypatch, capsys):
    # compare --no-solve built the tree of a game that fits only to count its sizes: 2 min 26 s
    # and 3.4 GB for Leduc 13×4, 33 s for Liar's Dice with 7 sides (/usr/bin/time -v), against
    # 4 s and 5 s from the public tree × hands (test_sizes_without_the_tree_equal_the_trees)
    def not_built(*args, **kwargs):
        raise AssertionError("the tree was built")

    monkeypatch.setattr("seqform.cli.progress.load_game", not_built)
    monkeypatch.setattr("seqform.questions.compare.build_sequence_form", not_built)
    if spec != "kuhn(cards=300)":  # the numbering is measured above; here the route is checked
        monkeypatch.setattr("seqform.questions.formula_sizes.sizes_without_tree", _sizes_of_kuhn)
    assert main(["compare", spec, "--no-solve", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["schema"].startswith("seqform.compare-sizes/")


def _sizes_of_kuhn(spec, *, max_entries, force):
    """Kuhn's sizes, standing in for a large game's numbering (4 s; measured above)."""
    from seqform.game.builtin.registry import load_structured_game
    from seqform.questions.compare import compare_sizes

    return compare_sizes(load_structured_game("kuhn"), max_entries=max_entries)


def test_compare_sizes_only_of_a_small_game_reports_its_tree(capsys):
    # Kuhn's tree (55 nodes by its formula, at most SMALL_TREE_NODES) builds at once, and its
    # report says more than the public tree's: the terminal histories (30, KUHN_FACTS.md)
    assert main(["compare", "kuhn", "--no-solve"]) == 0
    out = capsys.readouterr().out
    assert "Summary: 30 terminal histories" in out and "not built" not in out


def test_compare_sizes_only_with_parameters_only_the_tree_takes_builds_the_tree(capsys):
    # leduc(suit_isomorphism=True) has no structured description: its tree is sized
    assert main(["compare", "leduc(suit_isomorphism=True)", "--no-solve"]) == 0
    assert "terminal histories" in capsys.readouterr().out


def test_a_comparison_whose_answers_are_not_certified_is_written_and_exits_3(capsys):
    # HiGHS's PDLP stops at its own tolerance, about 1e-7 here: above the certificate's 1e-9
    # of the payoff range, as `solve kuhn --solver pdlp` (tests/test_cli.py) exits 3 for it.
    assert main(["compare", "kuhn", "--solver", "pdlp"]) == 3
    captured = capsys.readouterr()
    assert "Player 1 (sequence-form LP) — behavioural strategy" in captured.out  # the report
    assert captured.err.startswith("seqform: error: the comparison is not certified: ")
    assert "exploitability (NashConv / 2) above 1e-09 of the payoff range: " in captured.err
    assert len(captured.err.strip().splitlines()) == 1


def test_a_comparison_holds_when_its_values_agree_and_its_answers_are_certified(
    kuhn_comparison,
):
    assert kuhn_comparison.shortfall is None
    sizes_only = compare(kuhn_poker(), solve_lps=False)
    assert sizes_only.shortfall is None  # nothing solved: nothing to hold


def test_values_that_disagree_are_the_comparisons_shortfall(kuhn_comparison):
    # each answer still certified, but the normal form's value moved by 1e-6: more than
    # 1e-9 of Kuhn's payoff range 4 (payoffs -2 to 2)
    normal = kuhn_comparison.formulations[1]
    moved = dataclasses.replace(normal.solution, value=normal.solution.value + 1e-6)
    formulations = (
        kuhn_comparison.formulations[0],
        dataclasses.replace(normal, solution=moved),
        kuhn_comparison.formulations[2],
    )
    disagreeing = dataclasses.replace(kuhn_comparison, formulations=formulations)
    assert disagreeing.values_agree is False
    assert disagreeing.shortfall == (
        "the values differ by 1e-06 (more than 1e-09 of the payoff range 4)"
    )


@pytest.mark.parametrize(
    ("options", "named"),
    [
        pytest.param(["--solver", "pdlp"], "--solver pdlp", id="solver"),
        pytest.param(["--backend", "cvxpy"], "--backend cvxpy", id="backend"),
        pytest.param(["--time-limit", "1"], "--time-limit", id="time-limit"),
        pytest.param(["--strategies", "all"], "--strategies all", id="strategies"),
        pytest.param(
            ["--solver", "pdlp", "--time-limit", "1", "--backend", "cvxpy", "--strategies", "all"],
            "--backend cvxpy, --solver pdlp, --time-limit or --strategies all",
            id="all-four",
        ),
    ],
)
@pytest.mark.parametrize("game", ["kuhn", "leduc(ranks=13)"], ids=["tree", "too-large"])
def test_no_solve_refuses_the_options_of_the_lps_it_does_not_solve(game, options, named, capsys):
    # leduc(ranks=13) is sized without its tree: refused before anything is built
    assert main(["compare", game, "--no-solve", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"seqform: error: --no-solve takes no {named} (it gives the sizes")
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("options", "named"),
    [
        pytest.param({"solver": "pdlp"}, "solver='pdlp'", id="solver"),
        pytest.param({"backend": "cvxpy"}, "backend='cvxpy'", id="backend"),
        pytest.param({"time_limit": 1}, "time_limit=1.0", id="time-limit"),
        pytest.param(
            {"solver": "ipm", "time_limit": 1, "backend": "cvxpy"},
            "backend='cvxpy' or solver='ipm' or time_limit=1.0",
            id="all-three",
        ),
    ],
)
def test_sizes_only_refuses_the_options_of_the_lps_it_does_not_solve(options, named):
    # as `compare --no-solve --solver pdlp` is refused (above), not ignored
    with pytest.raises(seqform.OptionsError) as refused:
        compare("kuhn", solve_lps=False, **options)
    assert str(refused.value) == (
        f"solve_lps=False takes no {named} (it gives the sizes only: no LP)"
    )


def test_sizes_only_takes_the_lp_options_at_their_defaults():
    sizes = compare("kuhn", solve_lps=False, backend="highs", solver="simplex", time_limit=None)
    assert all(formulation.solution is None for formulation in sizes.formulations)


@needs_leduc
def test_compare_leduc_refuses_the_normal_form_but_solves_the_sequence_form(capsys):
    assert main(["compare", "leduc", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    full = document["normal_form"]["full"]
    assert full["fits"] is False and full["nonzeros"] is None
    assert full["entries"]["log10"] == pytest.approx(336.7, abs=0.05)
    assert len(full["entries"]["exact"]) == 337  # the exact integer, as a string
    sequence, normal, reduced = document["formulations"]
    assert sequence["value"] == pytest.approx(-0.085606424078, abs=TOL)  # Lanctot et al. 2017
    assert normal["solved"] is False and reduced["solved"] is False


@needs_leduc
def test_compare_leduc_text_prints_powers_of_ten(capsys):
    assert main(["compare", "leduc", "--no-solve"]) == 0
    out = capsys.readouterr().out
    assert "pure strategies          ≈ 10^168.4  ≈ 10^168.4  ≈ 10^336.7" in out
    assert "over the limit, not built" in out


def test_solve_normal_kuhn_text(capsys):
    assert main(["solve", "kuhn", "--method", "normal"]) == 0
    out = capsys.readouterr().out
    assert "Value to Player 1: -0.0555555556 (= -1/18)" in out  # Kuhn (1950)
    assert "Normal form (Kuhn 1953), solved as a matrix game" in out
    assert "payoff matrix (full): 64×64, 4,096 entries" in out
    assert "LP 65 variables × 65 constraints" in out
    assert "equilibrium (≤ 1e-09)" in out
    assert "Kb       fold 0.0000  call 1.0000" in out  # player 2 always calls with K


def test_solve_normal_kuhn_json(capsys):
    assert main(["solve", "kuhn", "--method", "normal", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "seqform.solve/2"
    assert document["method"] == "normal"
    assert document["value_fraction"] == "-1/18"
    assert document["certificate"]["equilibrium"] is True
    normal_form = document["normal_form"]
    assert normal_form["matrix_shape"] == [64, 64]
    assert normal_form["reduced"] is False
    assert [p["reduced_pure_strategies"]["exact"] for p in normal_form["players"]] == ["27", "64"]
    assert max(normal_form["kuhn_theorem"]["constraint_residuals"]) <= TOL


def test_solve_sequence_json_has_no_normal_form(capsys):
    assert main(["solve", "kuhn", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["method"] == "tree" and "normal_form" not in document


def test_solve_normal_refuses_big_kuhn_in_one_line(capsys):
    assert main(["solve", "kuhn(cards=40)", "--method", "normal"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("seqform: error: kuhn(cards=40): the normal form is too large")
    # far beyond the limit: the way out is the sequence form, not a higher limit
    assert captured.err.endswith("--method tree or auto (method='tree' or 'auto')\n")
    assert captured.err.count("\n") == 1


@needs_leduc
def test_solve_normal_refuses_leduc(capsys):
    assert main(["solve", "leduc", "--method", "normal"]) == 1
    assert capsys.readouterr().err == (
        "seqform: error: leduc: the normal form is too large: 10^168.4 × 10^168.4 pure "
        "strategies = about 10^336.7 payoff entries, more than the limit of 10,000,000; "
        "the sequence form solves this game without the matrix: --method tree or auto "
        "(method='tree' or 'auto')\n"
    )


@pytest.mark.parametrize(
    "limit", ["4095", "4.095e3", "4095.0"], ids=["integer", "scientific", "float"]
)
def test_max_entries_forms(limit, capsys):
    assert main(["solve", "kuhn", "--method", "normal", "--max-entries", limit]) == 1
    assert "more than the limit of 4,095" in capsys.readouterr().err


def test_max_entries_power_form(capsys):
    assert main(["solve", "kuhn", "--method", "normal", "--max-entries", "10^4"]) == 0


@pytest.mark.parametrize(
    "limit",
    [
        "0",
        "ten",
        "1.5",
        "-3",
        "1.0000001^1000000000",  # exactly, a fraction of 7,000,000,000 digits
        "1e-100000000",  # exactly, 10 to the power -10^8
        "3e-50",
        "2^-3",
    ],
)
def test_bad_max_entries_is_a_usage_error(limit, capsys):
    with pytest.raises(SystemExit) as raised:
        main(["compare", "kuhn", "--max-entries", limit])
    assert raised.value.code == 2
    assert "--max-entries" in capsys.readouterr().err


def test_the_comparison_is_computed_below_the_cli_and_rendered_in_it():
    import ast
    from pathlib import Path

    import seqform.questions.compare as computing

    tree = ast.parse(Path(computing.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(module.startswith("seqform.cli") for module in imported if module)


@pytest.mark.parametrize("limit", ["10^5000", "1e5000"], ids=["power", "scientific"])
def test_a_huge_max_entries_prints_in_text_and_json(limit, capsys):
    # A limit of over 4 300 digits crashed the report ("Exceeds the limit").
    assert main(["compare", "kuhn", "--no-solve", "--max-entries", limit]) == 0
    assert "Normal form (Kuhn 1953), limit ≈ 10^5000.0 entries" in capsys.readouterr().out
    assert main(["compare", "kuhn", "--no-solve", "--max-entries", limit, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["max_entries"] is None and document["max_entries_log10"] == 5000
    assert document["normal_form"]["full"]["fits"] is True  # 4,096 entries ≤ 10^5000


def test_a_limit_beyond_any_game_is_refused_not_computed(capsys):
    with pytest.raises(SystemExit) as raised:
        main(["compare", "kuhn", "--max-entries", "1e999999999999"])
    assert raised.value.code == 2
    assert "at most 10^100000" in capsys.readouterr().err


def test_a_limit_that_divides_by_zero_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as raised:
        main(["compare", "kuhn", "--max-entries", "0^-1"])
    assert raised.value.code == 2
    assert "'0^-1', which divides by zero" in capsys.readouterr().err


@pytest.mark.slow  # about 3 s to build the tree of 2-dice Liar's Dice
def test_compare_prints_counts_of_thousands_of_digits(capsys):
    # liars_dice(dice=2, sides=3) has about 10^2710 pure strategies per player
    # (12,288 information sets; the log10 is cross-checked against the action counts below).
    game = "liars_dice(dice=2, sides=3)"
    assert main(["compare", game, "--no-solve"]) == 0
    out = capsys.readouterr().out
    assert "pure strategies          ≈ 10^2709.9  ≈ 10^2709.9  ≈ 10^5419.8" in out
    # The JSON the CLI writes (`--format json`) is this document: one tree build, not two.
    comparison = compare(load_game(game), solve_lps=False)
    document = json.loads(json.dumps(comparison_document(comparison)))
    pure = document["players"][0]["pure_strategies"]
    assert pure["exact"] is None
    form = comparison.form
    independent = sum(math.log10(len(actions)) for actions in form.players[0].actions)
    assert pure["log10"] == pytest.approx(independent, rel=1e-12)
    reduced = document["players"][0]["reduced_pure_strategies"]
    assert reduced["exact"] is not None and len(reduced["exact"]) == 276  # 10^275.6


# --- sizes without the tree -----------------------------------------------------------------


@pytest.mark.parametrize("spec", ["liars_dice(sides=3)", "leduc", "kuhn(cards=5)"])
def test_sizes_without_the_tree_equal_the_trees(spec):
    from seqform.game.builtin.registry import load_structured_game
    from seqform.questions.compare import compare_sizes

    sizes = compare_sizes(load_structured_game(spec))
    tree = compare(load_game(spec), solve_lps=False)  # the same library's tree route
    form = tree.form
    for player in (0, 1):
        assert sizes.tables[player].num_infosets == form.players[player].num_infosets
        assert sizes.tables[player].num_sequences == form.players[player].num_sequences
    assert sizes.counts == tree.counts
    assert sizes.payoff_nonzeros == form.A.nnz
    assert (sizes.constraint_nonzeros(0), sizes.constraint_nonzeros(1)) == (form.E.nnz, form.F.nnz)
    sequence = tree.formulations[0]
    assert sizes.sequence_lp == (sequence.variables, sequence.constraints, sequence.nonzeros)


@pytest.mark.slow
def test_compare_no_solve_sizes_a_game_too_large_for_its_tree(capsys):
    from seqform.io.documents import validate_document

    # kuhn(cards=2000): about 4·10^7 tree nodes, over the 3·10^7 the tree route builds; its
    # sizes come from the structured numbering: 1 + 4N sequences a player (the empty one and
    # four a card: bet, check, check-bet-fold, check-bet-call for player 1), 13 for N = 3
    # (Kuhn 1950; ../shared/KUHN_FACTS.md)
    assert main(["compare", "kuhn(cards=2000)", "--no-solve", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate_document(document)
    assert [p["sequences"] for p in document["players"]] == [1 + 4 * 2000, 1 + 4 * 2000]
    assert main(["compare", "kuhn(cards=2000)"]) == 1
    assert "--no-solve` gives both formulations' sizes" in capsys.readouterr().err


def test_a_built_in_game_s_normal_form_is_refused_before_its_tree(monkeypatch, capsys):
    # leduc(ranks=13) built its 1,179,777-node tree (15 s) to refuse a matrix of about
    # 10^7070.8 entries; its pure strategies are counted on its public tree × hands.
    import seqform.cli.commands.solve as command

    def no_tree(*args, **kwargs):
        raise AssertionError("the tree was built")

    monkeypatch.setattr(command, "load_reporting", no_tree)
    assert main(["solve", "leduc(ranks=13)", "--method", "normal"]) == 1
    assert "about 10^7070.8 payoff entries" in capsys.readouterr().err
    import seqform.routes.solve as library

    monkeypatch.setattr(library, "_tree", no_tree)
    with pytest.raises(NormalFormTooLargeError, match=r"10\^7070\.8"):
        seqform.solve("leduc(ranks=13)", method="normal")


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["compare"], id="compare"),
        pytest.param(["ranges", "--force"], id="ranges"),
        pytest.param(["solve", "--method", "tree"], id="solve"),
        pytest.param(["exploit", "--opponent", "uniform"], id="exploit"),
    ],
)
def test_the_bids_limit_is_a_usage_error_in_every_command(argv, capsys):
    # compare exited 1 where ranges, solve and exploit exit 2: Liar's Dice's tree takes at
    # most 14 bids (2 * dice * sides), a game parameter out of range (docs/cli.md, exit codes)
    # (50 dice: beyond the public tree's bids too, so nothing is numbered before the refusal)
    command, *options = argv
    assert main([command, "liars_dice(dice=50)", *options]) == 2
    err = capsys.readouterr().err
    assert "600 bids and 2**600 nodes per roll; seqform builds at most 14 bids" in err
