"""Big cases of the test suite, run by ``pytest benchmarks/checks`` and by ``.ci/run``, not by
plain ``pytest`` (kept under its eight minutes): each checks at a larger size what a test in
tests/ checks on a small game, or runs a benchmark end to end.

- Rhode Island 2×4's last round re-solved exactly on canonical boards, against the game's own
  exact re-solve (tests/test_resolve_canonical_exact.py checks the same on Leduc 3×3, whose
  round starts before its public card; here the round starts after one, and the turn cards
  are canonical under the flop card's stabilizer).
- That Leduc 3×3 check for the ``unsafe`` and ``resolve`` gadgets (tests/ runs ``maxmargin``).
- Rhode Island 2×3's abstraction on canonical boards against the game's own abstraction
  (tests/test_abstraction_suits.py checks the same on Leduc).
- Rhode Island 2×4's last round on canonical boards with the ``reach`` gadget, whose gifts come
  from the trunk there, against the game's float re-solve (tests/test_resolve_canonical.py runs
  ``unsafe`` and ``maxmargin``).
- ``benchmarks.lp_vs_cfr`` on one small game end to end (tests/test_lp_vs_cfr_benchmark.py
  checks how it reads its samples).
"""

from __future__ import annotations

import json

import pytest

from benchmarks.lp_vs_cfr import TARGETS, main
from seqform.abstraction.solve import abstract
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.resolving.structured_resolve import resolve_structured
from seqform.structured.responses import certify
from tests.subgames_named import subgames_named
from tests.test_abstraction_suits import answers_the_games_abstraction
from tests.test_resolve_canonical import re_solved_one_board_orbit_at_a_time
from tests.test_resolve_canonical_exact import (
    _lifted,
    _reduced,
    _same_exact_gadgets,
    leduc_blueprint,
    same_as_the_games_exact_re_solve,
)


@pytest.mark.slow  # 19 CPU s: the blueprint, G's 18 exact gadgets, the game's for 6 of them
def test_rhode_islands_last_round_exactly_on_classes():
    # round 3 of RI 2×4 (tests/test_resolve_canonical.py): 18 subgames of G' for the game's
    # 72; the game's exact re-solve is run on every third of the 18 (at their canonical
    # boards) alone, as it costs about 1.6 CPU s a subgame (all 18 were compared once)
    game = rhode_island_structured(2, 4, max_bets=1)
    abstraction = abstract(game, (1, 2, 3), suit_isomorphism=True)
    reduced = _reduced(abstraction, "maxmargin", round_number=3)
    assert len(reduced.subgames) == 18
    names = set(sorted(reduced.subgames)[::3])
    with subgames_named(names):
        unreduced = resolve_structured(
            game, _lifted(reduced), gadget="maxmargin", exact=True, round_number=3
        )
    assert len(unreduced.subgames) == len(names) == 6
    _same_exact_gadgets(reduced, unreduced, names)
    assert reduced.certificate == certify(game, *reduced.game_strategies())
    assert reduced.certificate.nash_conv <= reduced.blueprint_certificate.nash_conv


@pytest.mark.slow  # the unreduced exact re-solve: 4 to 9 CPU s a gadget
@pytest.mark.parametrize("gadget", ["unsafe", "resolve"])
def test_each_exact_gadget_on_leducs_classes_has_the_games_exact_value(gadget):
    same_as_the_games_exact_re_solve(leduc_blueprint(), gadget)


@pytest.mark.slow  # 7 s: the unreduced abstraction
def test_rhode_islands_abstraction_on_canonical_boards_answers_the_games():
    answers_the_games_abstraction(rhode_island_structured(ranks=2, suits=3), (1, 2, 3))


@pytest.mark.slow  # 9 s: the game's re-solve has all 144 gadget LPs (reach's gifts need them)
def test_rhode_islands_last_round_with_reach_one_board_orbit_at_a_time():
    re_solved_one_board_orbit_at_a_time("reach")


@pytest.mark.slow
def test_a_small_game_measured_end_to_end(tmp_path, capsys) -> None:
    # kuhn(cards=4): the LP is exact in well under a second; how far CFR+ gets in its cap of
    # 0.5 s depends on the machine, so only the rows' consistency is asserted (a target
    # reached is reached at a measured iteration of the run).
    # One CFR variant: cfr and dcfr take the same child and row path as cfr+ (only the
    # --algorithm word differs), each a process of its own spending the whole cap.
    path = tmp_path / "rows.json"
    methods = ["--methods", "lp", "lp-exact", "cfr+"]
    assert main(["--games", "kuhn(cards=4)", *methods, "--cap", "0.5", "--json", str(path)]) == 0
    rows = {row["method"]: row for row in json.loads(path.read_text())}
    assert set(rows) == {"lp", "lp-exact", "cfr+"}
    assert all(row["outcome"] == "ok" for row in rows.values())
    assert rows["lp"]["nash_conv"] <= 1e-9
    assert rows["lp"]["reach"] == [rows["lp"]["reach"][0]] * len(TARGETS)  # one certified time
    assert rows["lp-exact"]["nash_conv"] == 0 and rows["lp-exact"]["exact"] is not None
    for name in ("cfr+",):
        row = rows[name]
        assert row["exact"] is None  # an iterative method never certifies an exact answer
        for target, seconds, iteration in zip(
            TARGETS, row["reach"], row["iterations"], strict=True
        ):
            if row["nash_conv"] > target:  # not reached by the end: never reached before
                continue
            assert seconds is not None and 0 < iteration <= row["iterations_run"]
    assert rows["cfr+"]["iterations_run"] > 0
    assert "| kuhn(cards=4) | lp-exact |" in capsys.readouterr().out
