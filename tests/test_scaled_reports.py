"""The commands' reports read alike in any payoff unit: Kuhn poker with its payoffs scaled by
1e-6 and by 1e6 (tests/scaled_games.py) prints the same certificate, lock line, comparison,
run and play summary up to the scale factor, and round-off beside the payoff range as
round-off (the brief: a certificate is judged relative to the game's payoff range, never in
absolute units; base/numbers.scaled_text and value_text with a scale).

Before, the exploitability of the LP's answer was written ``2.65e-23`` in the game of payoffs
1e-6 and ``2.91e-11`` in the game of 1e6 (round-off both), the value ``-55555.5555555556
(= -500000/9)`` only in the latter (a fraction the range's round-off can fake), and ``play``
wrote a loss of 3e-10 chips as ``+0.000`` and hid a costly choice under 1e-9 chips.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

from scaled_games import scaled_kuhn

from seqform.cli.main import main

SMALL, LARGE = Fraction(1, 10**6), Fraction(10**6)
NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?(?:e[+-]\d+)?")
"""A number as the reports write it: ``-5.555555556e-08``, ``4e+06``, ``-3000000``."""
SCALE_DIGITS = 1e-6
"""Two numbers stand for the same one at their scales when they agree to this, relative: the
reports write values to ten or more digits and gaps to three or four."""


def _same_up_to_scale(first: list[str], scale_1: Fraction, second: list[str], scale_2: Fraction):
    """Assert that the lines read the same but for their numbers, and that each number is the
    same one in the other unit (equal as written, as a tolerance or a count is, or equal once
    divided by its scale); runs of spaces are one (the columns widen with the digits)."""
    assert len(first) == len(second), (first, second)
    for line_1, line_2 in zip(first, second, strict=True):
        words_1, words_2 = (" ".join(NUMBER.sub(" # ", line).split()) for line in (line_1, line_2))
        assert words_1 == words_2, (line_1, line_2)
        for number_1, number_2 in zip(NUMBER.findall(line_1), NUMBER.findall(line_2), strict=True):
            same = number_1 == number_2 or math.isclose(
                float(number_1) / float(scale_1),
                float(number_2) / float(scale_2),
                rel_tol=SCALE_DIGITS,
            )
            assert same, (line_1, line_2)


def _block(out: str, first: str, count: int) -> list[str]:
    """The ``count`` lines from the one starting with ``first``."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    return lines[start : start + count]


def _run(argv: list[str], capsys) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def _solve_lines(path: Path, capsys) -> list[str]:
    out = _run(["solve", str(path)], capsys)
    return [*_block(out, "Value to Player 1", 1), *_block(out, "Certificate (", 5)]


def test_solve_s_certificate_reads_alike_in_any_unit(tmp_path, capsys):
    # Kuhn (1950): the value -1/18 of payoff range 4, times the scale
    small = _solve_lines(scaled_kuhn(tmp_path, SMALL), capsys)
    large = _solve_lines(scaled_kuhn(tmp_path, LARGE), capsys)
    _same_up_to_scale(small, SMALL, large, LARGE)
    assert small[-1] == (
        "  exploitability (NashConv / 2)  ≈ 0; relative to the payoff range 4e-06: ≈ 0: "
        "equilibrium (≤ 1e-09)"
    )
    assert "(= " not in "".join(large)  # no fraction at a range of 4e6 (base/numbers)


def _lock_lines(path: Path, capsys) -> list[str]:
    out = _run(["solve", str(path), "--lock", "P1@J: b=1"], capsys)
    return [
        *_block(out, "Value of the restricted game", 1),
        *_block(out, "Certificate (", 5),
        *_block(out, "  without the locks", 1),
    ]


def test_the_locked_solve_reads_alike_in_any_unit(tmp_path, capsys):
    # the jack made to bet: player 1's value -5/18 (tests/test_locks.py), the unlocked -1/18
    small = _lock_lines(scaled_kuhn(tmp_path, SMALL), capsys)
    large = _lock_lines(scaled_kuhn(tmp_path, LARGE), capsys)
    _same_up_to_scale(small, SMALL, large, LARGE)
    assert small[-1] == "  without the locks: value -5.555555556e-08, exploitability ≈ 0"


def _compare_lines(path: Path, capsys) -> list[str]:
    out = _run(["compare", str(path), "--strategies", "summary"], capsys)
    rows = _block(out, "LP ", 6)
    # the value and the exploitability, not the sizes' and timings' columns
    values = [" ".join(re.split(r"\s{2,}", row)[-2:]) for row in rows[1:4]]
    gaps = [
        re.split(r"\s{2,}", row)[-1] for row in _block(out, "                       max |Ex", 3)[1:]
    ]
    return [*values, rows[5], *gaps]


def test_compare_reads_alike_in_any_unit(tmp_path, capsys):
    small = _compare_lines(scaled_kuhn(tmp_path, SMALL), capsys)
    large = _compare_lines(scaled_kuhn(tmp_path, LARGE), capsys)
    _same_up_to_scale(small, SMALL, large, LARGE)
    assert small[:3] == ["-5.555555556e-08 ≈ 0"] * 3
    assert small[3].startswith("Values agree: largest difference ≈ 0 (tolerance 1e-09")
    assert small[4:] == ["≈ 0", "≈ 0"]  # Kuhn's theorem's payoff gaps: round-off


def _iterate_lines(path: Path, capsys) -> list[str]:
    argv = ["iterate", str(path), "--algorithm", "cfr+", "--iterations", "100", "--quiet"]
    out = _run([*argv, "--every", "50"], capsys)
    history = [line.split()[::2] for line in _block(out, "NashConv history", 5)[2:]]
    return [
        *_block(out, "Average strategies, measured", 4)[2:],
        *_block(out, "Certificate (", 5),
        *_block(out, "  exact value to Player 1", 1),
        *(" ".join(row) for row in history),  # iteration and NashConv, not the seconds
    ]


def test_iterate_reads_alike_in_any_unit(tmp_path, capsys):
    # CFR+ is scale-free (regret matching), so its run is the same run in either unit
    small = _iterate_lines(scaled_kuhn(tmp_path, SMALL), capsys)
    large = _iterate_lines(scaled_kuhn(tmp_path, LARGE), capsys)
    _same_up_to_scale(small, SMALL, large, LARGE)
    assert "(= " not in "".join(large)


def _play_summary(path: Path, capsys) -> list[str]:
    argv = ["play", str(path), "--auto", "always-bet", "--seed", "3", "--hands", "5"]
    return _block(_run(argv, capsys), "  your total", 9)


def test_play_s_summary_reads_alike_in_any_unit(tmp_path, capsys):
    # The always-bet strategy for seat 1 against the equilibrium bot, five seeded hands: a loss
    # of 4 antes, and always betting costs 1/6 of a chip over them against equilibrium play
    # (payoffs of 1e-10 wrote "+0.000" for the total and hid that cost below 1e-9 chips).
    tiny = Fraction(1, 10**10)
    lines = _play_summary(scaled_kuhn(tmp_path, tiny), capsys)
    large = _play_summary(scaled_kuhn(tmp_path, LARGE), capsys)
    _same_up_to_scale(lines, tiny, large, LARGE)
    assert lines[0] == "  your total                                       -4.000e-10"
    assert lines[6] == "  your choices against equilibrium play            -1.666666667e-11"
