"""Export to .efg, .npz and MPS, and N-card Kuhn checked against pygambit through .efg."""

from fractions import Fraction

import highspy
import numpy as np
import pygambit
import pytest
import scipy.sparse as sp

from seqform.cli.main import main
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.formats.efg import read_efg
from seqform.io.export import export_game
from seqform.io.loader import load_game
from seqform.routes.solve import solve


def gambit_value(path) -> Fraction:
    """Value to the first player by pygambit's rational sequence-form LP (lp_solve)."""
    game = pygambit.read_efg(str(path))
    profile = pygambit.nash.lp_solve(game, rational=True).equilibria[0]
    return Fraction(profile.payoff(next(iter(game.players))))


@pytest.mark.parametrize("cards", [4, 5, 6], ids=lambda n: f"{n}-cards")
def test_n_card_kuhn_matches_pygambit(cards, tmp_path):
    game = kuhn_poker(cards=cards)
    path = export_game(game, "efg", tmp_path / f"kuhn{cards}.efg")
    reference = gambit_value(path)  # pygambit's exact lp_solve on the exported file
    assert solve(game).value == pytest.approx(float(reference), abs=1e-9)
    assert solve(read_efg(path)).value == pytest.approx(float(reference), abs=1e-9)


def test_three_card_kuhn_is_kuhn():
    # Same matrices up to the ordering of sequences: compare entries by label.
    plain, three = (build_sequence_form(g) for g in (load_game("kuhn"), kuhn_poker(cards=3)))
    for left, right in zip(plain.players, three.players, strict=True):
        assert left.labels() == right.labels()
    assert (plain.A != three.A).nnz == 0
    assert (plain.E != three.E).nnz == 0 and (plain.F != three.F).nnz == 0
    assert solve(kuhn_poker(cards=3)).value == pytest.approx(-1 / 18, abs=1e-12)  # Kuhn 1950


@pytest.mark.slow
def test_efg_round_trip_keeps_the_sequence_form(tmp_path):
    game = load_game("leduc")
    back = read_efg(export_game(game, "efg", tmp_path / "leduc.efg"))
    before, after = build_sequence_form(game), build_sequence_form(back)
    for left, right in zip(before.players, after.players, strict=True):
        assert left.num_infosets == right.num_infosets
        assert left.num_sequences == right.num_sequences
    assert sorted(before.payoff_entries[2]) == sorted(after.payoff_entries[2])
    assert solve(back).value == pytest.approx(solve(game).value, abs=1e-9)


def test_a_strategy_of_a_game_is_one_of_its_exported_file(tmp_path, capsys):
    # Leduc's description says "2 ranks × 2 suits"; the exported file read back said
    # "2 ranks U+00D7 2 suits", so a blueprint solved on the built-in game was refused as
    # a strategy of another game by resolve on the exported one, and the other way round.
    game = "leduc(ranks=2)"
    efg, blueprint = tmp_path / "leduc.efg", tmp_path / "blueprint.json"
    assert main(["export", game, "--to", "efg", "--output", str(efg)]) == 0
    assert "×" not in efg.read_text(encoding="utf-8")  # ASCII, for Gambit
    original, back = load_game(game), read_efg(efg)
    assert "×" in original.description
    assert (back.name, back.description, back.player_names) == (
        original.name,
        original.description,
        original.player_names,
    )
    assert main(["solve", game, "--format", "json", "--output", str(blueprint)]) == 0
    capsys.readouterr()
    assert main(["resolve", str(efg), "--blueprint", str(blueprint)]) == 0
    assert main(["solve", str(efg), "--format", "json", "--output", str(blueprint)]) == 0
    assert main(["exploit", game, "--strategy", str(blueprint), "--player", "1"]) == 0
    assert "cannot be exploited" in capsys.readouterr().out


def test_npz_holds_the_sequence_form(tmp_path):
    game = kuhn_poker()
    path = export_game(game, "npz", tmp_path / "kuhn.npz")
    data = np.load(path)
    A = sp.coo_array((data["A_data"], (data["A_row"], data["A_col"])), shape=data["A_shape"])
    E = sp.coo_array((data["E_data"], (data["E_row"], data["E_col"])), shape=data["E_shape"])
    assert tuple(data["E_shape"]) == (7, 13)  # KUHN_FACTS.md
    assert list(data["sequences_0"][:3]) == ["∅", "J:p", "J:b"]
    solution = solve(game)
    x, y = solution.plans
    assert x @ A @ y == pytest.approx(-1 / 18, abs=1e-9)  # Kuhn (1950)
    np.testing.assert_allclose(E @ x, data["e"], atol=1e-9)
    exact = [
        Fraction(int(n), int(d))
        for n, d in zip(data["A_numerator"], data["A_denominator"], strict=True)
    ]
    assert sum(exact) == sum(build_sequence_form(game).payoff_entries[2])


def test_mps_solves_to_the_value_in_highs(tmp_path):
    path = export_game(load_game("kuhn"), "mps", tmp_path / "kuhn.mps")
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.readModel(str(path))
    highs.run()
    assert highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
    # MPS carries the objective sense; the optimum is Kuhn's value (Kuhn 1950).
    assert highs.getInfo().objective_function_value == pytest.approx(-1 / 18, abs=1e-9)


def test_cli_export_and_errors(tmp_path, capsys):
    target = tmp_path / "k.efg"
    assert main(["export", "kuhn", "--to", "efg", str(target)]) == 0
    assert target.read_text().startswith("EFG 2 R")
    assert "wrote kuhn as efg" in capsys.readouterr().err
    assert main(["export", "kuhn", "--to", "mps", str(tmp_path / "k.lp")]) == 2  # usage
    assert "must end in .mps" in capsys.readouterr().err
    assert main(["export", "kuhn", "--to", "npz", str(tmp_path / "no" / "k.npz")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: ") and "Traceback" not in err
