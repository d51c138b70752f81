"""Regression CFR (RCFR; Waugh, Morrill, Bagnell and Bowling, AAAI 2015).

RCFR keeps no table of regrets.  A regressor ``f`` maps features ``φ(h, a)`` of an
(information set, action) pair to an estimate of its cumulative regret, and the behaviour
regret-matches the estimates (their "regression regret-matching").  Iteration ``t``, for
player ``i`` (alternating updates, as :func:`~seqform.iterative.cfr.cfr`):

1. the instantaneous counterfactual regrets ``r_t(h, a)`` of the current behaviour;
2. targets ``z(h, a) = f_{t−1}(φ(h, a)) + r_t(h, a)`` (the old estimate plus the new
   regret) and a new regressor ``f_t`` fitted to them;
3. the next behaviour ``b(a | h) ∝ max(f_t(φ(h, a)), 0)``; uniform averaging.

The regressor here is linear least squares, ``f(φ) = φ · w`` with
``w = argmin ‖Φ w − z‖²`` over all pairs, solved by the normal equations
``Φᵀ Φ w = Φᵀ z`` (the Gram matrix is factorised once per player, by SuperLU, as the
features do not change), so one fit is one sparse solve.  The paper allows any regressor
and bounds RCFR's regret by the regressor's error; least squares is the choice that makes
the finest feature set exact:

* **indicator features** (:func:`indicator_features`): one feature per (information set,
  action).  Then ``Φ = I``, the fit returns its targets, ``f_t = R_t`` and RCFR *is*
  CFR, iterate for iterate (a test checks the behaviours are identical);
* **rank features** (:func:`rank_features`, the default): one indicator per (private
  *rank*, public state, action), where the rank is the first character of the private
  part of the label — the card's rank (*card strength*), the die — and the public state
  is the rest: the *betting history* with the public cards and so the *round*.  An
  abstraction in the paper's sense (their "Relationship to Abstraction": indicators of
  abstract information sets are RCFR's special case); it merges Leduc's suits;
* **additive features** (:func:`additive_features`): ``f(h, a) = c(private(h), a) +
  p(public(h), a)``, one indicator per (private observation, action) and one per
  (public state, action) — much smaller, but a linear model without the card × history
  interaction cannot represent the regrets, and RCFR with it stays far from equilibrium
  (measured in ``docs/algorithms.md``).

Labels are split generically: at the first ``|`` into private and public parts (Leduc
``"Ks|rc|Qh|"``, Liar's Dice ``"3|1-2"``); a label without ``|`` is one private character
followed by the public history (Kuhn ``"Qpb"``).  The additive indicators are linearly
dependent, so their Gram matrix gets a ridge of :data:`RIDGE` times its largest diagonal
entry; the other two sets have one 1 per row (a diagonal Gram matrix) and none.

Defined like CFR for any number of players (it runs on three-player Kuhn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

from seqform.game.model import Game
from seqform.iterative.cfr import FullTreeRegrets
from seqform.iterative.layout import PlayerLayout, TreeLayout, build_layout
from seqform.iterative.rules import CFR, RegretRule
from seqform.iterative.run import (
    DEFAULT_EVERY,
    IterativeResult,
    OnSample,
    Stopping,
    run_iterations,
)

__all__ = [
    "FEATURE_SETS",
    "RIDGE",
    "LeastSquares",
    "RegressionRule",
    "additive_features",
    "indicator_features",
    "rank_features",
    "rcfr",
    "regression_rules",
    "split_label",
]

RIDGE = 1e-8
"""Relative ridge of the additive features' Gram matrix (their indicators are linearly
dependent: the (public, action) ones of one action sum to its (private, action) ones)."""


def split_label(label: str) -> tuple[str, str]:
    """An information-set label's private and public parts (module docstring)."""
    if "|" in label:
        private, _, public = label.partition("|")
        return private, public
    return label[:1], label[1:]


def _pairs(layout: PlayerLayout) -> tuple[list[str], list[str], list[str]]:
    """Per internal sequence 1.., its information set's private and public parts and its
    action label."""
    table = layout.table
    privates, publics, actions = [], [], []
    for position in range(1, layout.num_sequences):
        sequence = int(layout.order[position])
        private, public = split_label(table.infosets[table.sequence_infoset[sequence]])
        privates.append(private)
        publics.append(public)
        actions.append(table.sequence_action[sequence])
    return privates, publics, actions


def indicator_features(layout: PlayerLayout) -> sp.csr_array:
    """One feature per (information set, action): the identity, rows = internal sequences
    ``1, 2, ...`` (RCFR is then CFR)."""
    return sp.csr_array(sp.identity(layout.num_sequences - 1, format="csr"))


def _one_hot(layout: PlayerLayout, keys_of: Callable[[str, str, str], list[tuple]]) -> sp.csr_array:
    """A 0/1 matrix with one column per distinct key that ``keys_of(private, public,
    action)`` gives the internal sequences ``1, 2, ...``."""
    columns: dict[tuple, int] = {}
    rows, cols = [], []
    for row, pair in enumerate(zip(*_pairs(layout), strict=True)):
        for key in keys_of(*pair):
            rows.append(row)
            cols.append(columns.setdefault(key, len(columns)))
    shape = (layout.num_sequences - 1, len(columns))
    return sp.csr_array((np.ones(len(rows)), (rows, cols)), shape=shape)


def rank_features(layout: PlayerLayout) -> sp.csr_array:
    """One indicator per (private rank, public state, action): the private observation's
    first character (the card's rank in ``"Ks"``, the die) — an abstraction that merges
    the suits (lossless in Leduc, where suits never matter), CFR where it merges nothing."""
    return _one_hot(layout, lambda private, public, action: [(private[:1], public, action)])


def additive_features(layout: PlayerLayout) -> sp.csr_array:
    """One indicator per (private, action) and one per (public, action): the additive
    model ``c(private, a) + p(public, a)`` (module docstring)."""
    return _one_hot(
        layout,
        lambda private, public, action: [("private", private, action), ("public", public, action)],
    )


FEATURE_SETS: dict[str, Callable[[PlayerLayout], sp.csr_array]] = {
    "rank": rank_features,
    "additive": additive_features,
    "indicator": indicator_features,
}
"""The feature sets by name; ``rank`` is the default."""


@dataclass(frozen=True, eq=False)
class LeastSquares:
    """The least-squares fit-and-predict ``z ↦ Φ (ΦᵀΦ)⁻¹ Φᵀ z`` of one feature matrix."""

    features: sp.csr_array
    _solve: object = field(repr=False)

    @classmethod
    def of(cls, features: sp.csr_array, ridge: float = 0.0) -> LeastSquares:
        """Factorise ``ΦᵀΦ + ridge · max(diag ΦᵀΦ) · I`` once (SuperLU)."""
        gram = (features.T @ features).tocsc()
        if ridge > 0.0:
            scale = float(gram.diagonal().max(initial=1.0))
            gram = (gram + ridge * scale * sp.identity(gram.shape[0])).tocsc()
        return cls(features, splu(gram).solve)

    def __call__(self, targets: np.ndarray) -> np.ndarray:
        weights = self._solve(self.features.T @ targets)  # type: ignore[operator]
        return np.asarray(self.features @ weights)

    @property
    def num_features(self) -> int:
        return int(self.features.shape[1])


@dataclass(frozen=True, eq=False)
class RegressionRule:
    """Regression regret-matching: the base rule's regret update, then the least-squares
    fit (``R_t ← f_t(φ)`` on sequences ``1, 2, ...``)."""

    regressor: LeastSquares
    base: RegretRule = CFR

    @property
    def alternating(self) -> bool:
        return self.base.alternating

    def weight(self, iteration: int) -> float:
        return self.base.weight(iteration)

    def accumulate(self, regrets: np.ndarray, instant: np.ndarray, iteration: int) -> None:
        self.base.accumulate(regrets, instant, iteration)
        regrets[1:] = self.regressor(regrets[1:])

    def matched(self, regrets: np.ndarray, instant: np.ndarray, iteration: int) -> np.ndarray:
        return self.base.matched(regrets, instant, iteration)


def regression_rules(layout: TreeLayout, features: str) -> tuple[RegressionRule, ...]:
    """One :class:`RegressionRule` per player with the named feature set."""
    if features not in FEATURE_SETS:
        raise ValueError(f"unknown features {features!r}; choose from {', '.join(FEATURE_SETS)}")
    build, ridge = FEATURE_SETS[features], RIDGE if features == "additive" else 0.0
    return tuple(RegressionRule(LeastSquares.of(build(player), ridge)) for player in layout.players)


def rcfr(
    game: Game,
    iterations: int | None = None,
    *,
    features: str = "rank",
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """Regression CFR with least squares over ``features`` (``"rank"``, ``"additive"`` or
    ``"indicator"``, :data:`FEATURE_SETS`).  Stopping as :func:`~seqform.iterative.cfr.cfr`.

    Raises
    ------
    ValueError
        For an unknown feature set.
    """
    stopping = Stopping(iterations, target, time_limit, every)
    layout = build_layout(game)
    stepper = FullTreeRegrets(layout, regression_rules(layout, features))
    return run_iterations(game, stepper, stopping, "rcfr", on_sample)
