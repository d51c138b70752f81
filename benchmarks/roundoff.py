"""Where a 1,000-iteration exploitability lands across rounding.

On Leduc regret matching amplifies rounding: two correct codes that sum the same numbers in
different orders agree to 1e-16 for 20 iterations and differ by 5-20 % at 1,000
(docs/algorithms.md, "Against Xu et al.'s code"), so one run's number is one draw.  Run
``python -m benchmarks.roundoff --runs 50``: each method of :data:`ALGORITHMS` runs
``RUNS`` times on Leduc with its instantaneous regrets multiplied by ``1 + 1e-15·N(0, 1)``
(seeds 0, 1, ...; a relative perturbation of one rounding), and the median, the range and
the share of draws under DDCFR's published 1.20e-4 are printed: the distribution any
implementation's single number is drawn from, beside the issue's goal.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from benchmarks.algorithms import PUBLISHED

__all__ = ["ALGORITHMS", "Spread", "roundoff_spread"]

ALGORITHMS = ("hs-dcfr30", "hs-dcfr15", "dcfr", "dcfr+", "cfr+")
"""The methods measured: the best at 1,000 iterations on Leduc, and the published rows."""


@dataclass(frozen=True)
class Spread:
    """Exploitability (NashConv / 2) after ``iterations`` over ``runs`` round-off
    perturbations of one algorithm (:func:`roundoff_spread`)."""

    algorithm: str
    iterations: int
    values: tuple[float, ...]

    @property
    def median(self) -> float:
        import numpy as np

        return float(np.median(self.values))

    def share_below(self, bound: float) -> float:
        return sum(value < bound for value in self.values) / len(self.values)


class _Jittered:
    """A rule whose instantaneous regrets are multiplied by ``1 + scale·N(0, 1)`` before
    the rule sees them: a perturbation of the size of the rounding two codes differ by."""

    def __init__(self, base, seed: int, scale: float) -> None:
        import numpy as np

        self.base, self.rng, self.scale = base, np.random.default_rng(seed), scale

    @property
    def alternating(self) -> bool:
        return self.base.alternating

    def weight(self, iteration: int) -> float:
        return self.base.weight(iteration)

    def accumulate(self, regrets, instant, iteration: int) -> None:
        instant *= 1 + self.scale * self.rng.standard_normal(instant.shape)
        self.base.accumulate(regrets, instant, iteration)

    def matched(self, regrets, instant, iteration: int):
        return self.base.matched(regrets, instant, iteration)


def roundoff_spread(
    game_name: str, algorithm: str, runs: int, iterations: int = 1000, scale: float = 1e-15
) -> Spread:
    """Where a 1,000-iteration exploitability lands across rounding.  On Leduc regret
    matching amplifies rounding (docs/algorithms.md: two correct codes agree to 1e-16 for
    20 iterations and differ by 5-20 % at 1,000), so one run is one draw.  Each of ``runs``
    runs multiplies the instantaneous regrets by ``1 + scale·N(0, 1)`` (seeds 0, 1, ...),
    a relative perturbation of one rounding: the spread of the results is the spread any
    implementation's single number is drawn from."""
    from seqform.io.loader import load_game
    from seqform.iterative.cfr import solve_with_rule
    from seqform.iterative.rules import RULES, for_run
    from seqform.iterative.run import Stopping

    game, stopping = load_game(game_name), Stopping(iterations, None, None, iterations)
    rule = for_run(RULES[algorithm], iterations)
    values = tuple(
        solve_with_rule(game, _Jittered(rule, seed, scale), algorithm, stopping).nash_conv / 2
        for seed in range(runs)
    )
    return Spread(algorithm, iterations, values)


def _print_spread(runs: int) -> None:
    print(f"Leduc, NashConv / 2 at 1,000 iterations over {runs} round-off perturbations")
    ddcfr = PUBLISHED["leduc"]["ddcfr"]
    for name in ALGORITHMS:
        spread = roundoff_spread("leduc", name, runs)
        print(
            f"    {name:10} median {spread.median:.3e}  min {min(spread.values):.3e}  "
            f"max {max(spread.values):.3e}  under DDCFR's {ddcfr:.2e}: "
            f"{spread.share_below(ddcfr):.0%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="perturbed runs per method")
    _print_spread(parser.parse_args().runs)


if __name__ == "__main__":
    main()
