"""``python -m benchmarks.rhode_island``: the ladder's size formula, fit and verdict, checked
on the smallest deck and on made-up rows so the benchmark cannot rot (its real runs take
minutes to hours and live in ``benchmarks/results/rhode_island.md``)."""

from __future__ import annotations

import pytest

from benchmarks import rhode_island as ladder


@pytest.mark.slow
def test_the_reduced_size_formula_is_the_reductions_own_count(tmp_path):
    # the smallest deck, solved by the benchmark's own child process: the formula's reduced
    # sequences equal those the suit reduction built, and the rung is certified
    assert ladder.main(["--only", "rhode_island(ranks=2, suits=2)", "--out", str(tmp_path)]) == 0
    import json

    (row,) = json.loads((tmp_path / "rhode_island.json").read_text())["rows"]
    assert row["status"] == "certified"
    assert row["reduced_sequences"] == row["formula"]["reduced_sequences"] == 6321
    assert row["sequences"] == row["formula"]["sequences"]
    assert row["peak_mib"] > 0 and "lp" in row["phases"]
    assert "rhode_island(ranks=2, suits=2)" in (tmp_path / "rhode_island.md").read_text()


def test_a_deck_without_repeated_suits_is_not_reduced():
    # one suit: no suit permutation but the identity, so the orbits are the deals themselves
    sizes = ladder.reduced_sizes(4, 1)
    assert sizes.reduced_sequences == sizes.sequences


def test_the_ladder_takes_only_decks_it_can_count():
    assert ladder.deck_of("rhode_island") == (13, 4)
    assert ladder.deck_of("rhode_island(ranks=3, suits=2)") == (3, 2)
    with pytest.raises(ValueError, match="ranks=R, suits=S"):
        ladder.deck_of("rhode_island(ranks=3, max_bets=1)")


def test_a_power_law_is_recovered_and_the_verdict_follows_it():
    law = ladder.fit([1e3, 1e4, 1e5], [2.0, 2.0 * 10**1.5, 2.0 * 10**3])
    assert law is not None and law.exponent == pytest.approx(1.5)
    assert law.at(1e3) == pytest.approx(2.0)
    assert ladder.fit([1e3, 1e3], [1.0, 2.0]) is None

    def row(ranks: int, seconds: float) -> dict:
        sizes = ladder.reduced_sizes(ranks, 4)
        return {
            "game": f"rhode_island(ranks={ranks})",
            "suits": 4,
            "status": "certified",
            "formula": {"sequences": sizes.sequences, "reduced_sequences": sizes.reduced_sequences},
            "phases": {"sequence_form": 1.0, "lp": seconds, "certificate": 1.0},
            "peak_mib": 100.0,
            "value": -0.5,
        }

    fast = ladder.extrapolate([row(2, 1.0), row(3, 1.0)])
    assert fast["fits"] and fast["seconds"] < 10
    slow = ladder.extrapolate([row(2, 1.0), row(3, 100.0)])  # a steep law: hours
    assert not slow["fits"]
    assert "does not fit" in ladder.render([row(2, 1.0), row(3, 100.0)], _machine())


def _machine() -> dict:
    return {"cpu": "test", "usable_cores": 2, "memory_gb": 1.0, "commit": "test"}


def test_a_rung_stopped_by_its_parent_keeps_the_phases_it_finished(monkeypatch):
    # the parent interrupts a rung at its wall-clock limit as Ctrl-C would: the rung writes
    # a row with the progress it had made, not a traceback and no row
    import seqform

    def interrupted(game, *, progress, **options):
        progress("solving with clarabel: 10 variables")
        raise KeyboardInterrupt

    monkeypatch.setattr(seqform, "solve", interrupted)
    report = ladder.solve_rung("rhode_island(ranks=2, suits=2)", 60.0, force=False)
    assert report["status"] == "stopped"
    assert report["progress"][-1].endswith("solving with clarabel: 10 variables")
    assert "last: [" in report["detail"]
    assert report["game"] == "rhode_island(ranks=2, suits=2)"


def test_a_rung_stopped_while_its_route_is_sized_writes_a_row(monkeypatch):
    # the limit can fall while choose_route sizes the game, before the solve: that too is
    # a "stopped" row, not a traceback
    from seqform.routes import policy

    def interrupted(game, method):
        raise KeyboardInterrupt

    monkeypatch.setattr(policy, "choose_route", interrupted)
    report = ladder.solve_rung("rhode_island(ranks=2, suits=2)", 60.0, force=False)
    assert report["status"] == "stopped"
    assert report["detail"].endswith("last: before the first phase")
    assert report["progress"] == []
