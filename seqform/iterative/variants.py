"""Linear CFR, predictive CFR+, DCFR+, PDCFR+ and the hyperparameter schedules: the loop of
:mod:`seqform.iterative.cfr` with the rules of :mod:`seqform.iterative.rules` (each rule's
steps and sources are there).

Every solver here runs alternating updates, player 0 first, on the full tree, and measures
NashConv of the average strategies with the same certificate as CFR. ``pcfr_plus`` and
``pdcfr_plus`` (and the scheduled ``hs_pcfr_plus30``, ``hs_pcfr_plus15``) also measure the
last iterate (the current behaviour), which for these optimistic methods is itself a good
strategy: each sample carries ``last_nash_conv`` and the result ``last_strategies``.

They are regret minimisers at every information set, so they are defined for any number of
players and general-sum games (they run on three-player Kuhn); their convergence guarantees
(to a Nash equilibrium) are for two-player zero-sum games only, as for CFR.

The entry points repeat one signature on purpose: each is a real function with its own
docstring (the paper and the equation), which the API reference, the type checker and
``seqform iterate --algorithm`` see; what they share is the one call to ``_run``.
"""

from __future__ import annotations

from seqform.game.model import Game
from seqform.iterative.cfr import solve_with_rule
from seqform.iterative.rules import LAST_ITERATE, RULES
from seqform.iterative.run import DEFAULT_EVERY, IterativeResult, OnSample, Stopping

__all__ = [
    "dcfr_plus",
    "hs_dcfr15",
    "hs_dcfr30",
    "hs_pcfr_plus15",
    "hs_pcfr_plus30",
    "lcfr",
    "pcfr_plus",
    "pdcfr_plus",
]


def _run(
    name: str,
    game: Game,
    iterations: int | None,
    target: float | None,
    time_limit: float | None,
    every: int,
    on_sample: OnSample | None,
) -> IterativeResult:
    stopping = Stopping(iterations, target, time_limit, every)
    return solve_with_rule(
        game, RULES[name], name, stopping, on_sample, last_iterate=name in LAST_ITERATE
    )


def lcfr(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """Linear CFR (Brown and Sandholm 2019, §4): DCFR with α = β = γ = 1, i.e. iteration
    ``t``'s regrets and strategy weigh ``t``.  Stopping as :func:`~seqform.iterative.cfr.cfr`."""
    return _run("lcfr", game, iterations, target, time_limit, every, on_sample)


def pcfr_plus(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """Predictive CFR+ (Farina, Kroer and Sandholm, AAAI 2021): regret matching+ on
    ``R_t + r_t`` (the last instantaneous regret predicts the next), quadratic averaging
    (weight ``t²``, the paper's experiments).  Measures the last iterate too."""
    return _run("pcfr+", game, iterations, target, time_limit, every, on_sample)


def dcfr_plus(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """DCFR+ (Xu et al., IJCAI 2024): ``R_t = [R_{t−1} (t−1)^α/((t−1)^α+1) + r_t]^+``,
    weight ``t^γ``; the paper's α = 1.5, γ = 4."""
    return _run("dcfr+", game, iterations, target, time_limit, every, on_sample)


def pdcfr_plus(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """Predictive DCFR+ (Xu et al., IJCAI 2024): DCFR+'s regrets, behaviour by regret
    matching of the prediction ``[R_t t^α/(t^α+1) + r_t]^+``; the paper's α = 2.3, γ = 5.
    Measures the last iterate too."""
    return _run("pdcfr+", game, iterations, target, time_limit, every, on_sample)


def hs_dcfr30(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """HS-DCFR(30) (Zhang, McAleer and Sandholm 2024, eq. 4): DCFR whose exponents follow
    ``α = 1 + 3t/n``, ``β = −1 − 2t/n``, ``γ = 30 − 5t/n`` over the ``n = iterations`` of
    the run, which must therefore be given; iteration ``t`` weighs ``t^{γ(t)}`` in the
    average (the power reading, :mod:`seqform.iterative.rules`)."""
    return _run("hs-dcfr30", game, iterations, target, time_limit, every, on_sample)


def hs_dcfr15(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """HS-DCFR(15): as :func:`hs_dcfr30` with ``γ = 15 − 5t/n``."""
    return _run("hs-dcfr15", game, iterations, target, time_limit, every, on_sample)


def hs_pcfr_plus30(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """HS-PCFR+(30) (Zhang, McAleer and Sandholm 2024, eq. 4): predictive CFR+ whose
    averaging exponent follows ``γ = 30 − 5t/n`` over the ``n = iterations`` of the run,
    which must therefore be given.  Measures the last iterate too."""
    return _run("hs-pcfr+30", game, iterations, target, time_limit, every, on_sample)


def hs_pcfr_plus15(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """HS-PCFR+(15): as :func:`hs_pcfr_plus30` with ``γ = 15 − 5t/n``."""
    return _run("hs-pcfr+15", game, iterations, target, time_limit, every, on_sample)
