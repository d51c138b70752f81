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
4. ``R ← d(t) · R`` if the rule has a discount (DCFR, LCFR);
5. the next behaviour regret-matches ``R`` — or, for a *predictive* rule, ``R̃ + m`` with
   the prediction ``m = r_t`` (the last instantaneous regret) and ``R̃ = d_lag(t) · R``
   (``R`` without a lagged discount);
6. the average weighs iteration ``t`` by ``t^γ`` (``γ = None``: weight 1).

==========  ======  ==========================  ===============  ==========  ========
name        plus    discount                    lagged           predictive  γ
==========  ======  ==========================  ===============  ==========  ========
cfr         no      —                           —                no          —
cfr+        yes     —                           —                no          1
dcfr        no      α = 1.5, β = 0              —                no          2
lcfr        no      α = β = 1                   —                no          1
pcfr+       yes     —                           —                yes         2
dcfr+       yes     —                           α = 1.5          no          4
pdcfr+      yes     —                           α = 2.3          yes         5
==========  ======  ==========================  ===============  ==========  ========

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

Not implemented: the hyperparameter schedules of Zhang, McAleer and Sandholm (2024,
"Faster game solving via hyperparameter schedules", HS-DCFR / HS-PCFR+).  The abstract
and the two arXiv versions found while building this module describe the idea (the
discounting exponents change with ``t``) without a schedule seqform could copy in full
and check against a published number; a guessed schedule would not be theirs.  A rule
with ``t``-dependent parameters is a small change here once the schedule is pinned down.

Numbers: the averaging weights ``t^γ`` are computed in floats; with γ = 5 they reach
``1e25`` at ``t = 1e5``, far from overflow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import numpy as np

__all__ = [
    "CFR",
    "CFR_PLUS",
    "DCFR",
    "DCFR_PLUS",
    "LAST_ITERATE",
    "LCFR",
    "PCFR_PLUS",
    "PDCFR_PLUS",
    "RULES",
    "Discount",
    "RegretRule",
    "Rule",
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


CFR = RegretRule()
CFR_PLUS = RegretRule(plus=True, gamma=1.0)
DCFR = RegretRule(discount=Discount(1.5, 0.0), gamma=2.0)
LCFR = RegretRule(discount=Discount(1.0, 1.0), gamma=1.0)
PCFR_PLUS = RegretRule(plus=True, predictive=True, gamma=2.0)
DCFR_PLUS = RegretRule(plus=True, lagged=Discount(1.5, 1.5), gamma=4.0)
PDCFR_PLUS = RegretRule(plus=True, lagged=Discount(2.3, 2.3), predictive=True, gamma=5.0)

RULES: Mapping[str, RegretRule] = {
    "cfr": CFR,
    "cfr+": CFR_PLUS,
    "dcfr": DCFR,
    "lcfr": LCFR,
    "pcfr+": PCFR_PLUS,
    "dcfr+": DCFR_PLUS,
    "pdcfr+": PDCFR_PLUS,
}
"""Each deterministic variant's rule with its paper's default parameters."""

LAST_ITERATE = frozenset({"pcfr+", "pdcfr+"})
"""Variants known for their last iterate: runs report its NashConv beside the average's."""
