"""Values in text read alike in any payoff unit (base/numbers.scaled_text, value_text with a
scale): the same game with its payoffs scaled by 1e-15 or 1e15, a spot with its pot and
stacks scaled by 1e-12 or 1e12, is written with the same digits, and round-off beside the
payoff range (or the pot) is written as round-off, never as 0.0000, 20 digits or a fraction.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from scaled_games import scaled_kuhn
from spot_files import RIVER

from seqform.base.numbers import is_round_off, scaled_text, value_text
from seqform.cli.main import main


def _scaled_spot(tmp_path: Path, scale: str) -> Path:
    """The river spot of docs/spots.md (pot 10, stacks 30) in units of ``scale`` chips."""
    text = RIVER.replace("pot = 10", f"pot = 10e{scale}")
    text = text.replace("effective_stack = 30", f"effective_stack = 30e{scale}")
    path = tmp_path / f"river_{scale}.toml"
    path.write_text(text)
    return path


def _digits(text: str) -> str:
    """The significant digits of a number as written: ``-0.0556`` and ``-5.56e+13`` are
    both ``556``."""
    mantissa = text.split("e")[0]
    return mantissa.lstrip("+-").replace(".", "").lstrip("0")


def _numbers(line: str) -> list[str]:
    return re.findall(r"[+-]?\d+\.\d+(?:e[+-]\d+)?", line)


# --- the formatter -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "scale", "text"),
    [
        # Kuhn (1950): the value -1/18 over the payoff range 4, as the lock table writes it
        pytest.param(-1 / 18, 4, "-0.0556", id="ordinary"),
        pytest.param(-1 / 18 * 1e15, 4e15, "-5.56e+13", id="1e15"),
        pytest.param(-1 / 18 * 1e-15, 4e-15, "-5.56e-17", id="1e-15"),
        pytest.param(-1e-17, 4, "0.0000", id="round-off-ordinary"),  # not "-0.0000"
        pytest.param(-1e-30, 4e-15, "≈ 0", id="round-off-scaled"),
        pytest.param(0.0, 4e15, "0", id="zero-scaled"),
        pytest.param(Fraction(-1, 10**30), 4e-15, "-1e-30", id="an-exact-value-is-no-round-off"),
        pytest.param(7.5817995910, None, "7.5818", id="no-scale"),
    ],
)
def test_a_value_is_written_beside_its_scale(value, scale, text):
    assert scaled_text(value, scale) == text


def test_round_off_is_judged_beside_the_scale():
    # a gain of 1/32 is round-off in a game of payoffs 1e15, not in Kuhn poker itself
    assert is_round_off(0.03125, 4e15) and not is_round_off(0.03125, 4)
    assert not is_round_off(0.03125, None)  # no scale: nothing to judge by
    assert value_text(0.03125, scale=4) == value_text(0.03125) == "+0.0312500000 (= 1/32)"
    assert value_text(0.03125, scale=4e15) == "≈ 0"
    assert value_text(Fraction(1, 32), scale=4e15) == "+0.0312500000 (= 1/32)"  # exact
    assert value_text(0.0, scale=4e15) == "+0.0000000000"
    # Kuhn (1950): -1/18 stays the house format at its own scale
    assert value_text(-1 / 18, scale=4) == "-0.0555555556 (= -1/18)"
    # at payoffs of 1e6 a float's round-off spans fractions of denominator up to 1000
    assert value_text(1e6 + 0.5, scale=4e6) == "+1000000.50000000"


# --- the four renderers --------------------------------------------------------------------


def _lock_rows(tmp_path: Path, scale: Fraction, capsys) -> list[list[str]]:
    path = scaled_kuhn(tmp_path, scale)
    assert main(["solve", str(path), "--lock", "P1@J: b=1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("EV without and with the locks (the game's payoffs):")
    return [_numbers(line) for line in lines[start + 1 : start + 3]]


@pytest.mark.parametrize("scale", [Fraction(1, 10**15), Fraction(10**15)], ids=["1e-15", "1e15"])
def test_the_lock_table_has_the_same_digits_in_any_unit(tmp_path, scale, capsys):
    # Kuhn poker with the jack made to bet: player 1's EV goes from -1/18 to -5/18 (Kuhn
    # 1950; tests/test_locks.py).  At 1e-15 it was written -0.0000 -> -0.0000, and at 1e15
    # -55555555555555.5625 -> -277777777777777.7500.
    ordinary = _lock_rows(tmp_path, Fraction(1), capsys)
    assert ordinary[0] == ["-0.0556", "-0.2778", "-0.2222"]
    scaled = _lock_rows(tmp_path, scale, capsys)
    assert [[_digits(n) for n in row] for row in scaled] == [
        [_digits(n) for n in row] for row in ordinary
    ]
    exponent = -16 if scale < 1 else 14
    assert scaled[0][1] == f"-2.778e{exponent:+03d}"


def _spot_line(path: Path, capsys) -> str:
    assert main(["solve", str(path)]) == 0
    return next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  EV"))


@pytest.mark.parametrize("scale", ["-12", "12"])
def test_a_spot_s_ev_reads_alike_at_any_pot(tmp_path, scale, capsys):
    # The river spot's EVs (docs/spots.md): OOP 7.5818, IP 2.4182 in a pot of 10.  In a pot
    # of 1e-11 they were written 0.0000; in 1e13, 7581799591001.2773.  Four places of a pot
    # of 10 are 1e-5 of it; in another unit the digits reach 1e-4 of the pot.
    ordinary = _spot_line(_scaled_spot(tmp_path, "0"), capsys)
    assert ordinary == "  EV OOP 7.5818 chips (75.82% of the pot), IP 2.4182 (24.18%)"
    line = _spot_line(_scaled_spot(tmp_path, scale), capsys)
    power = int(scale)
    assert line == (
        f"  EV OOP 7.582e{power:+03d} chips (75.82% of the pot), IP 2.418e{power:+03d} (24.18%)"
    )


def test_solve_many_writes_chips_beside_each_pot(tmp_path, capsys):
    folder = tmp_path / "spots"
    folder.mkdir()
    for scale in ("0", "-12"):
        _scaled_spot(folder, scale)
    out = tmp_path / "many.json"
    argv = ["solve-many", str(folder), "--workers", "1", "--quiet", "--output", str(out)]
    assert main([*argv, "--format", "json"]) == 0
    from seqform.documents.text.spots.many import many_text

    text = many_text(json.loads(out.read_text()))
    # the river spot's EVs (docs/spots.md), in a pot of 10 and of 1e-11
    assert "EV OOP 7.5818 (75.82%)  IP 2.4182 (24.18%)" in text
    assert "EV OOP 7.582e-12 (75.82%)  IP 2.418e-12 (24.18%)" in text
    # the aggregate tables, two places at pot 10: "0.00" in a pot of 1e-11
    assert "7.58 (75.8%)" in text and "7.6e-12 (75.8%)" in text
    assert " 0.00 " not in text


def test_play_writes_a_total_beside_the_pot(tmp_path, capsys):
    # The seeded session of the river spot in a pot of 1e-11: the first hand's showdown wins
    # the pot, 1e-11 chips net (a pot of 10: +10).  Three places wrote +0.000.
    path = _scaled_spot(tmp_path, "-12")
    argv = ["play", str(path), "--auto", "equilibrium", "--seat", "1", "--seed", "3"]
    assert main([*argv, "--hands", "2"]) == 0
    out = capsys.readouterr().out
    assert "Your net: +1.000e-11." in out
    assert "  Total +1.000e-11 after 2 hands;" in out
    assert re.search(r"your total\s+\+1\.000e-11\n", out)
    assert not re.search(r"\+0\.000\b", out)  # three places of nothing


def test_exploit_writes_round_off_as_round_off(tmp_path, capsys):
    # Kuhn poker with payoffs of 1e15: the LP's own equilibrium for player 2, exploited,
    # gains a float's round-off (1/32 of a chip, 8e-18 of the payoff range), which was
    # written +0.0312500000 (= 1/32).
    path = scaled_kuhn(tmp_path, Fraction(10**15))
    solved = tmp_path / "solved.json"
    assert main(["solve", str(path), "--format", "json", "--output", str(solved)]) == 0
    argv = ["exploit", str(path), "--strategy", str(solved), "--player", "2"]
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["payoff_range"] == 4e15
    assert 0 < document["gain"] <= 1e-12 * document["payoff_range"]  # round-off, not 0
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Gain over the equilibrium:               ≈ 0\n" in out
    assert "1/32" not in out


def test_a_gap_is_written_to_its_digits_beside_its_scale():
    # Kuhn poker, CFR+ after 1,000 iterations: exploitability 8.74e-05 (docs/cfr.md)
    assert scaled_text(8.74e-05, 4, digits=3) == "8.74e-05"
    assert scaled_text(8.74e-05 * 1e6, 4e6, digits=3) == "8.74e+01"
    # the LP's answer: round-off, 2.78e-17 in payoffs of range 4 and 2.91e-11 at 4e6
    assert scaled_text(2.78e-17, 4, digits=3) == scaled_text(2.91e-11, 4e6, digits=3) == "≈ 0"
    # 1e-7 is round-off in payoffs of 1e6, and a gap in payoffs of 1e-6
    assert scaled_text(1e-7, 4e6, digits=3) == "≈ 0"
    assert scaled_text(1e-7, 4e-6, digits=3) == "1.00e-07"
    assert scaled_text(0.0, 4, digits=3) == "0"
    assert scaled_text(Fraction(1, 10**30), 4e6, digits=3) == "1.00e-30"  # exact: no round-off
