"""The rules that make a CFR variant: one loop, many rules.

Every algorithm of the regret-matching family here runs the same loop
(:mod:`seqform.iterative.cfr`): per player, the instantaneous counterfactual regrets
``r_t(h, a) = v(h, a) − v(h)`` of the current behaviour, then a *rule* turns the
cumulative regrets ``R_{t−1}`` and ``r_t`` into ``R_t``, says which array the next
behaviour regret-matches, and how much iteration ``t`` weighs in the average.  A rule
sees flat arrays and ``t`` only — never a tree — so the same rule object runs on the
full-tree :class:`~seqform.iterative.layout.TreeLayout` and on any other layout whose
regrets are arrays (e.g. the public tree's vectors).

One iteration ``t`` of a rule, for one player (arrays elementwise, ``[·]^+ = max(·, 0)``,
``d_{α,β}(τ)`` the factor ``τ^α / (τ^α + 1)`` on entries ``>= 0`` and ``τ^β / (τ^β + 1)``
on the others):

1. ``R ← d_lag(t − 1) · R`` if the rule has a *lagged* discount (DCFR+, PDCFR+);
2. ``R ← R + r_t``;
3. ``R ← [R]^+`` if the rule is a *plus* rule (regret matching+, Tammelin 2014);
4. ``R ← d(t) · R`` if the rule has a discount (DCFR, LCFR; HS-DCFR with ``α(t), β(t)``);
5. the next behaviour regret-matches ``R`` — or, for a *predictive* rule, ``R̃ + m`` with
   the prediction ``m = r_t`` (the last instantaneous regret) and ``R̃ = d_lag(t) · R``
   (``R`` without a lagged discount);
6. the average weighs iteration ``t`` by ``t^γ`` (``γ = None``: weight 1; a scheduled
   ``γ(t)``: below).

==========  ====  ==================  =======  ==========  =========
name        plus  discount            lagged   predictive  γ
==========  ====  ==================  =======  ==========  =========
cfr         no    —                   —        no          —
cfr+        yes   —                   —        no          1
dcfr        no    α = 1.5, β = 0      —        no          2
lcfr        no    α = β = 1           —        no          1
pcfr+       yes   —                   —        yes         2
dcfr+       yes   —                   α = 1.5  no          4
pdcfr+      yes   —                   α = 2.3  yes         5
hs-dcfr30   no    α(t), β(t) (below)  —        no          30 − 5t/n
hs-dcfr15   no    α(t), β(t)          —        no          15 − 5t/n
hs-pcfr+30  yes   —                   —        yes         30 − 5t/n
hs-pcfr+15  yes   —                   —        yes         15 − 5t/n
==========  ====  ==================  =======  ==========  =========

Sources and their parameters:

* CFR (Zinkevich et al. 2007), CFR+ (Tammelin 2014), DCFR(1.5, 0, 2) and Linear CFR
  (= DCFR(1, 1, 1)) (Brown and Sandholm, AAAI 2019, §3 and §4);
* PCFR+ (Farina, Kroer and Sandholm, AAAI 2021, "Faster game solving via predictive
  Blackwell approachability"): predictive regret matching+ with the last instantaneous
  regret as the prediction; **quadratic averaging** (γ = 2), the averaging of the
  paper's extensive-form experiments and the default of Xu et al.'s code;
* DCFR+ and PDCFR+ (Xu, Li, Liu, Fu, Fu, Xing and Cheng, IJCAI 2024, "Minimizing weighted
  counterfactual regret with optimistic online mirror descent"):
  ``R_t = [R_{t−1} (t−1)^α / ((t−1)^α + 1) + r_t]^+``; PDCFR+ regret-matches the
  prediction ``[R_t t^α / (t^α + 1) + r_t]^+``; the paper's defaults DCFR+ α = 1.5, γ = 4
  and PDCFR+ α = 2.3, γ = 5 (their scripts pass exactly these).  Their public code for
  DCFR+ writes ``+ 1.5`` where the paper has ``+ 1`` in the denominator; seqform follows
  the paper.

Hyperparameter schedules (Zhang, McAleer and Sandholm, "Faster game solving via
hyperparameter schedules", arXiv 2404.09097 v2, AAAI 2026, eq. 4): over a run of ``n``
iterations the exponents move linearly with ``t / n``,

    α(t) = 1 + 3 t/n,    β(t) = −1 − 2 t/n,    γ(t) = γ₀ − 5 t/n  (γ₀ = 30 or 15),

HS-DCFR(γ₀) is DCFR with all three scheduled; HS-PCFR+(γ₀) is PCFR+ with γ scheduled (its
only parameter).  The schedule needs the run's length ``n`` before it starts: such a rule
runs only with a number of iterations (:func:`for_run`).

**Two readings of a scheduled γ.** DCFR's averaging has two forms that are the same for a
constant ``γ`` and differ once ``γ`` moves:

* *power* (``averaging="power"``, seqform's ``hs-*``): iteration ``t`` weighs ``t^{γ(t)}``,
  the form of OpenSpiel's DCFR (``discounted_cfr.py``: "multiplying the contribution to the
  average strategy by t^gamma", its ``_iteration ** gamma``) and of PCFR+'s ``t²``;
* *factor* (``averaging="factor"``, the ``*_FACTOR`` rules): the old sum is multiplied by
  ``((t−1)/t)^{γ(t−1)}`` before ``x_t`` is added, Brown and Sandholm's wording and Xu et
  al.'s code, so iteration ``t`` weighs ``Π_{s=t}^{n−1} (s/(s+1))^{γ(s)}`` against the last.

The pages of the paper at hand were its opening only, and four public implementations of
eq. 4 take the factor reading.  The power reading is the default because it is the one that
reproduces what the paper reports (docs/algorithms.md): with it HS-DCFR(30) is ahead of DCFR
and of HS-DCFR(15) on Kuhn and Leduc at 500, 1,000 and 2,000 iterations (γ₀ = 30 is the
variant public implementations call the paper's default and later work benchmarks); with
the factor reading HS-DCFR is behind DCFR on all of them and γ₀ = 15 beats 30.
OpenSpiel's own ``DCFRSolver`` with the schedule set before each iteration gives the same
averages to 1e-12 on Kuhn (``tests/test_schedules.py``).

Numbers: the averaging weights ``t^γ`` are computed in floats; with γ = 5 they reach
``1e25`` at ``t = 1e5``, far from overflow.  A schedule's weights are computed as
logarithms and taken relative to the largest (so at most 1): with γ₀ = 30 and the factor
reading the first of 1,000 weighs ``1.5e-88``, the 500th ``1.1e-8``; the power reading's
weights peak before the end (near ``t = 790`` of 1,000, ``d/dt [γ(t) log t] = 0``) and the
first weighs about ``3e-76``: far from underflow, and an iteration that underflows to 0 would
weigh nothing anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal, Protocol

import numpy as np

__all__ = [
    "CFR",
    "CFR_PLUS",
    "DCFR",
    "DCFR_PLUS",
    "FACTOR_READINGS",
    "HS_DCFR_15",
    "HS_DCFR_15_FACTOR",
    "HS_DCFR_30",
    "HS_DCFR_30_FACTOR",
    "HS_PCFR_PLUS_15",
    "HS_PCFR_PLUS_15_FACTOR",
    "HS_PCFR_PLUS_30",
    "HS_PCFR_PLUS_30_FACTOR",
    "LAST_ITERATE",
    "LCFR",
    "PCFR_PLUS",
    "PDCFR_PLUS",
    "RULES",
    "SCHEDULED",
    "Discount",
    "Linear",
    "RegretRule",
    "Rule",
    "ScheduledRule",
    "for_run",
]


class Rule(Protocol):
    """What the loop asks of a rule (:class:`RegretRule` and regression CFR's rule)."""

    @property
    def alternating(self) -> bool: ...

    def weight(self, iteration: int) -> float: ...

    def accumulate(self, regrets: np.ndarray, instant: np.ndarray, iteration: int) -> None: ...

    def matched(self, regrets: np.ndarray, instant: np.ndarray, iteration: int) -> np.ndarray: ...


@dataclass(frozen=True)
class Discount:
    """The factor ``τ^α / (τ^α + 1)`` on non-negative entries and ``τ^β / (τ^β + 1)`` on
    negative ones (Brown and Sandholm 2019, DCFR); ``τ = 0`` gives 0 (the first iteration
    forgets nothing, there is nothing yet)."""

    alpha: float
    beta: float

    def factors(self, regrets: np.ndarray, tau: int) -> np.ndarray | float:
        positive = _fraction(tau, self.alpha)
        if self.alpha == self.beta:
            return positive
        return np.where(regrets >= 0, positive, _fraction(tau, self.beta))


def _fraction(tau: int, power: float) -> float:
    if tau == 0:
        return 0.0  # also for a negative power (a schedule's β), where 0^β is not defined
    grown = float(tau) ** power
    return grown / (grown + 1.0)


@dataclass(frozen=True)
class RegretRule:
    """One CFR variant's choices (see the module docstring for the order of the steps).

    alternating : update the players in turn (else both from the same profile)
    plus : clip cumulative regrets at 0 after adding (regret matching+)
    discount : DCFR's factor of ``t``, applied after adding
    lagged : DCFR+'s factor of ``t − 1``, applied before adding
    predictive : regret-match ``R + r_t`` (optimistic: the last regret predicts the next)
    gamma : the average weighs iteration ``t`` by ``t^γ``; None: weight 1
    """

    alternating: bool = True
    plus: bool = False
    discount: Discount | None = None
    lagged: Discount | None = None
    predictive: bool = False
    gamma: float | None = None

    def weight(self, iteration: int) -> float:
        """The weight of iteration ``t`` in the average strategy."""
        return 1.0 if self.gamma is None else float(iteration) ** self.gamma

    def accumulate(self, regrets: np.ndarray, instant: np.ndarray, iteration: int) -> None:
        """Steps 1–4: ``R_{t−1}`` to ``R_t``, in place."""
        if self.lagged is not None:
            regrets *= self.lagged.factors(regrets, iteration - 1)
        regrets += instant
        if self.plus:
            np.maximum(regrets, 0.0, out=regrets)
        if self.discount is not None:
            regrets *= self.discount.factors(regrets, iteration)

    def matched(self, regrets: np.ndarray, instant: np.ndarray, iteration: int) -> np.ndarray:
        """Step 5: the array whose positive part gives the next behaviour."""
        if not self.predictive:
            return regrets
        base = regrets if self.lagged is None else regrets * self.lagged.factors(regrets, iteration)
        return base + instant


@dataclass(frozen=True)
class Linear:
    """A parameter moving linearly over a run of ``n`` iterations: ``start + change · t/n``."""

    start: float
    change: float

    def at(self, iteration: int, horizon: int) -> float:
        return self.start + self.change * iteration / horizon


@dataclass(frozen=True)
class ScheduledRule:
    """A rule whose exponents follow a hyperparameter schedule over ``horizon`` iterations
    (Zhang, McAleer and Sandholm 2024, eq. 4; module docstring).

    plus, predictive : as :class:`RegretRule`
    gamma : the averaging exponent ``γ(t)``
    alpha, beta : the discount exponents ``α(t), β(t)`` of DCFR's ``d(t)``, applied after
        adding (step 4); None: no discount
    horizon : the run's number of iterations ``n``; None until :func:`for_run` binds it
    averaging : how ``γ(t)`` weighs iteration ``t`` (module docstring): ``"power"``,
        ``t^{γ(t)}`` (OpenSpiel's DCFR), or ``"factor"``, DCFR's per-iteration factor
        ``((t−1)/t)^{γ(t−1)}`` on the old sum
    """

    plus: bool
    predictive: bool
    gamma: Linear
    alpha: Linear | None = None
    beta: Linear | None = None
    horizon: int | None = None
    alternating: bool = True
    averaging: Literal["power", "factor"] = "power"

    def __post_init__(self) -> None:
        if self.averaging not in ("power", "factor"):
            raise ValueError(f"averaging is 'power' or 'factor', not {self.averaging!r}")

    def over(self, horizon: int) -> ScheduledRule:
        """This schedule over a run of ``horizon`` iterations."""
        return replace(self, horizon=horizon)

    def _length(self, iteration: int) -> int:
        if self.horizon is None or not 1 <= iteration <= self.horizon:
            raise ValueError(
                f"iteration {iteration} is outside the schedule's run of {self.horizon} "
                "iterations (bind the run's length with for_run)"
            )
        return self.horizon

    @cached_property
    def _log_weights(self) -> np.ndarray:
        """``log w_t`` for ``t = 0..n`` (entry 0 unused), the largest 0.  Power: ``log w_t
        = γ(t) log t``.  Factor: ``w_{t+1} / w_t = ((t+1)/t)^{γ(t)}`` — DCFR's recurrence
        with ``γ`` read at ``t``."""
        horizon = self._length(1)
        if self.averaging == "power":
            steps = np.arange(1, horizon + 1, dtype=float)
            gammas = self.gamma.start + self.gamma.change * steps / horizon
            logs = np.concatenate(([0.0], gammas * np.log(steps)))
        else:
            steps = np.arange(1, horizon, dtype=float)
            gammas = self.gamma.start + self.gamma.change * steps / horizon
            logs = np.concatenate(([0.0, 0.0], np.cumsum(gammas * np.log1p(1.0 / steps))))
        return logs - logs[1:].max()

    def weight(self, iteration: int) -> float:
        """The weight of iteration ``t`` in the average, relative to the largest."""
        self._length(iteration)
        return float(np.exp(self._log_weights[iteration]))

    def accumulate(self, regrets: np.ndarray, instant: np.ndarray, iteration: int) -> None:
        """Steps 2–4 with the discount's exponents read at ``t``."""
        horizon = self._length(iteration)
        regrets += instant
        if self.plus:
            np.maximum(regrets, 0.0, out=regrets)
        if self.alpha is not None and self.beta is not None:
            alpha, beta = self.alpha.at(iteration, horizon), self.beta.at(iteration, horizon)
            regrets *= Discount(alpha, beta).factors(regrets, iteration)

    def matched(self, regrets: np.ndarray, instant: np.ndarray, iteration: int) -> np.ndarray:
        """Step 5: ``R`` or, predictive, ``R + r_t``."""
        return regrets + instant if self.predictive else regrets


def for_run(rule: Rule, iterations: int | None) -> Rule:
    """``rule`` ready for a run of ``iterations``: a schedule bound to that length, any other
    rule unchanged.

    Raises
    ------
    ValueError
        For a schedule and no number of iterations (a target or a time limit alone).
    """
    if not isinstance(rule, ScheduledRule):
        return rule
    if iterations is None:
        raise ValueError(
            "a hyperparameter schedule (hs-dcfr30, hs-dcfr15, hs-pcfr+30, hs-pcfr+15) moves "
            "with t/n over a run of n iterations: give the number of iterations"
        )
    return rule.over(iterations)


CFR = RegretRule()
CFR_PLUS = RegretRule(plus=True, gamma=1.0)
DCFR = RegretRule(discount=Discount(1.5, 0.0), gamma=2.0)
LCFR = RegretRule(discount=Discount(1.0, 1.0), gamma=1.0)
PCFR_PLUS = RegretRule(plus=True, predictive=True, gamma=2.0)
DCFR_PLUS = RegretRule(plus=True, lagged=Discount(1.5, 1.5), gamma=4.0)
PDCFR_PLUS = RegretRule(plus=True, lagged=Discount(2.3, 2.3), predictive=True, gamma=5.0)
_ALPHA, _BETA = Linear(1.0, 3.0), Linear(-1.0, -2.0)
HS_DCFR_30 = ScheduledRule(False, False, Linear(30.0, -5.0), _ALPHA, _BETA)
HS_DCFR_15 = ScheduledRule(False, False, Linear(15.0, -5.0), _ALPHA, _BETA)
HS_PCFR_PLUS_30 = ScheduledRule(True, True, Linear(30.0, -5.0))
HS_PCFR_PLUS_15 = ScheduledRule(True, True, Linear(15.0, -5.0))
HS_DCFR_30_FACTOR = replace(HS_DCFR_30, averaging="factor")
HS_DCFR_15_FACTOR = replace(HS_DCFR_15, averaging="factor")
HS_PCFR_PLUS_30_FACTOR = replace(HS_PCFR_PLUS_30, averaging="factor")
HS_PCFR_PLUS_15_FACTOR = replace(HS_PCFR_PLUS_15, averaging="factor")
FACTOR_READINGS: Mapping[str, ScheduledRule] = {
    "hs-dcfr30": HS_DCFR_30_FACTOR,
    "hs-dcfr15": HS_DCFR_15_FACTOR,
    "hs-pcfr+30": HS_PCFR_PLUS_30_FACTOR,
    "hs-pcfr+15": HS_PCFR_PLUS_15_FACTOR,
}
"""The schedules with the factor reading of ``γ(t)`` (module docstring), by the name of the
power reading they stand beside; the library's, not the command line's."""

RULES: Mapping[str, RegretRule | ScheduledRule] = {
    "cfr": CFR,
    "cfr+": CFR_PLUS,
    "dcfr": DCFR,
    "lcfr": LCFR,
    "pcfr+": PCFR_PLUS,
    "dcfr+": DCFR_PLUS,
    "pdcfr+": PDCFR_PLUS,
    "hs-dcfr30": HS_DCFR_30,
    "hs-dcfr15": HS_DCFR_15,
    "hs-pcfr+30": HS_PCFR_PLUS_30,
    "hs-pcfr+15": HS_PCFR_PLUS_15,
}
"""Each deterministic variant's rule with its paper's default parameters (a schedule
unbound: :func:`for_run` binds it to the run's length)."""

SCHEDULED = frozenset(name for name, rule in RULES.items() if isinstance(rule, ScheduledRule))
"""Variants whose parameters follow a schedule over the run: they need its length."""

LAST_ITERATE = frozenset({"pcfr+", "pdcfr+", "hs-pcfr+30", "hs-pcfr+15"})
"""Variants known for their last iterate: runs report its NashConv beside the average's."""
