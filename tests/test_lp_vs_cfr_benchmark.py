"""``benchmarks.lp_vs_cfr``: time to NashConv targets read right (one small run end to end is
in benchmarks/checks/test_big_cases.py)."""

from __future__ import annotations

from benchmarks.lp_vs_cfr import time_to


def test_the_time_to_a_target_is_the_first_sample_at_or_below_it() -> None:
    history = [
        {"iteration": 10, "seconds": 0.5, "nash_conv": 2e-3},
        {"iteration": 20, "seconds": 1.0, "nash_conv": 1e-3},  # at the target: reached
        {"iteration": 30, "seconds": 1.5, "nash_conv": 2e-3},  # not monotone: the first counts
        {"iteration": 40, "seconds": 2.0, "nash_conv": 5e-4},
    ]
    assert time_to(history, 1e-3) == (1.0, 20)
    assert time_to(history, 1e-6) is None
    assert time_to([], 1e-3) is None
