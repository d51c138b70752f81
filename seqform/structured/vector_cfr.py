"""The CFR family on the public tree × private hands: vector CFR, without the game tree.

Tree CFR (:mod:`seqform.iterative.cfr`) gets each sequence's payoff against the others by
summing its terminals: ``v(σ) = Σ_z chance(z) · reach_{−i}(z) · u_i(z)``, which for two
players is the sequence form's ``A y`` for player 0 and ``−Aᵀ x`` for player 1 (KMvS 1996).
Here those two vectors come from the structured products (:mod:`seqform.structured.products`):
at each public leaf the opponent's range vector is summed by hand strength (a running sum
over sorted levels, with card removal), ``O(H)`` per leaf instead of ``O(H²)`` deals — the
range-vector form of CFR of Johanson, Bard, Lanctot, Gibson and Bowling (AAMAS 2012,
"Efficient Nash equilibrium approximation through Monte Carlo counterfactual regret
minimization", public-chance sampling without sampling), which DeepStack and Libratus also
use on the public tree.  Everything after those vectors — the bottom-up pass to
counterfactual values, the regrets, the variant's rule, regret matching, the average — is the
tree's own code on the same sequence tables (:func:`~seqform.iterative.layout.sequence_layout`),
so the iterates are the tree's, in the same order (alternating updates, player 0 first), up to
the summation order of floating point.

NashConv of the average is measured by the structured best response
(:func:`seqform.structured.responses.certify`), also without the tree.  The algorithms are the
deterministic rules of :data:`seqform.iterative.rules.RULES` (cfr, cfr+, dcfr, lcfr, pcfr+,
dcfr+, pdcfr+ and the hyperparameter schedules hs-*); XFP, RCFR and MCCFR run on the tree
only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

from seqform.certify import LocalBounds
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public.tree import StructuredGame
from seqform.iterative.cfr import FullTreeRegrets
from seqform.iterative.layout import (
    TIE_TOLERANCE,
    TreeLayout,
    largest_magnitude,
    realization_plan,
    sequence_counterfactual_values,
    sequence_layout,
    ties_cleared,
    to_table_order,
)
from seqform.iterative.rules import LAST_ITERATE, RULES
from seqform.iterative.run import IterativeResult, OnSample, Stopping, run_iterations
from seqform.structured.responses import certify, leaf_payoffs, sequence_tables

__all__ = ["ENGINES", "VECTOR_ALGORITHMS", "VectorRegrets", "structured_nash_conv", "vector_cfr"]

VECTOR_ALGORITHMS = tuple(RULES)
"""The algorithms vector CFR runs: every deterministic rule of the CFR family."""


class VectorRegrets(FullTreeRegrets):
    """:class:`~seqform.iterative.cfr.FullTreeRegrets` whose sequence payoffs come from the
    structured products instead of the tree's terminals (module docstring)."""

    def __init__(
        self,
        game: StructuredGame,
        rule_name: str,
        horizon: int | None = None,
        locks: Sequence[Mapping[int, Sequence[Fraction]]] | None = None,
    ) -> None:
        tables = sequence_tables(game)
        layout = TreeLayout(players=tuple(sequence_layout(table) for table in tables))
        rules = [RULES[rule_name]] * 2
        super().__init__(layout, rules, tie_tolerance=TIE_TOLERANCE, horizon=horizon, locks=locks)
        self.game = game
        self.table_plan = [np.zeros(player.num_sequences) for player in layout.players]

    def _accumulate(self, player: int, iteration: int) -> None:
        own, other = self.layout.players[player], self.layout.players[1 - player]
        reach = realization_plan(other, self.behaviour[1 - player], self.work[1 - player])
        plan = to_table_order(other, reach, out=self.table_plan[1 - player])
        payoffs = leaf_payoffs(self.game, player, plan)  # A y, or −Aᵀ x, in table order
        own_payoffs = np.take(payoffs, own.order, out=self.work[player])  # internal order
        values = sequence_counterfactual_values(
            own, self.behaviour[player], own_payoffs, in_place=True
        )
        self.scale[player] = largest_magnitude(values.sequences)
        instant = values.regrets(own, out=self.instant[player])
        ties_cleared(instant, self.scale[player], TIE_TOLERANCE, out=instant)
        self._average(player, iteration)


def _stepper(
    game: StructuredGame,
    algorithm: str,
    horizon: int | None,
    engine: str,
    storage: str,
    locks: Sequence[Mapping[int, Sequence[Fraction]]] | None = None,
) -> FullTreeRegrets:
    """The stepper of ``engine`` (:func:`vector_cfr`'s checks); node locks are kept by the
    numpy stepper only, so a locked run takes it under ``"auto"``."""
    from seqform.structured.compiled_cfr import STORAGE, CompiledRegrets, compiled_available

    if engine not in ENGINES:
        raise ValueError(f"engine is one of {', '.join(ENGINES)}, not {engine!r}")
    if storage not in STORAGE:
        raise ValueError(f"storage is one of {', '.join(STORAGE)}, not {storage!r}")
    available = compiled_available() and locks is None
    if engine == "compiled" and locks is not None:
        raise ValueError("node locks run on the numpy engine (engine='numpy' or 'auto')")
    if engine == "compiled" and not available:
        raise ValueError(
            "the compiled vector CFR needs numba: pip install 'seqform[fast]' (or engine='numpy')"
        )
    if engine == "numpy" or not available:
        if storage != "float64":
            raise ValueError("float32 storage needs the compiled engine (numba)")
        return VectorRegrets(game, algorithm, horizon=horizon, locks=locks)
    return CompiledRegrets(game, RULES[algorithm], horizon=horizon, storage=storage)


def structured_nash_conv(
    game: StructuredGame,
    strategies: tuple[BehaviouralStrategy, ...],
    bounds: tuple[Mapping[int, LocalBounds], Mapping[int, LocalBounds]] | None = None,
) -> float:
    """NashConv of a profile by the structured best responses (no tree); ``bounds``: the
    behaviour each player's best response keeps (locked nodes)."""
    return float(certify(game, strategies[0], strategies[1], bounds).nash_conv)


ENGINES = ("auto", "compiled", "numpy")
"""How vector CFR steps: ``"compiled"`` by the numba kernels
(:mod:`seqform.structured.compiled_cfr`), ``"numpy"`` by :class:`VectorRegrets`, ``"auto"``
the compiled kernels where numba is installed, else numpy."""


def vector_cfr(
    game: StructuredGame,
    algorithm: str,
    stopping: Stopping,
    on_sample: OnSample | None = None,
    locks: Sequence[Mapping[int, Sequence[Fraction]]] | None = None,
    *,
    engine: str = "auto",
    storage: str = "float64",
) -> IterativeResult:
    """Run ``algorithm`` (a key of :data:`~seqform.iterative.rules.RULES`) on ``game``'s
    public tree × hands under ``stopping``, measured by the structured certificate; the
    predictive rules (pcfr+, pdcfr+) also measure their last iterate.  ``locks``: per
    player, locked information sets' probabilities, kept by every iterate and by the
    certificate's best responses (NashConv of the locked game).

    ``engine`` is one of :data:`ENGINES`; ``storage`` (``"float64"`` or ``"float32"``) the
    compiled engine's storage of the regrets, the average's weights and the behaviour
    (float32: half the memory, every sum still in float64; the certificate is float64
    either way).

    Raises
    ------
    ValueError
        For an algorithm vector CFR does not run (XFP, RCFR, MCCFR: the tree only), an
        engine not in :data:`ENGINES`, float32 storage on the numpy engine, or the compiled
        engine without numba (install the ``fast`` extra).
    """
    if algorithm not in RULES:
        raise ValueError(
            f"{algorithm} runs on the game tree only; on the public tree (--method "
            f"structured): {', '.join(VECTOR_ALGORITHMS)}"
        )
    stepper = _stepper(game, algorithm, stopping.iterations, engine, storage, locks)
    bounds = None
    if locks is not None:
        bounds = tuple({i: tuple((p, p) for p in mix) for i, mix in own.items()} for own in locks)
    return run_iterations(
        None,
        stepper,
        stopping,
        algorithm,
        on_sample,
        last_iterate=algorithm in LAST_ITERATE,
        nash_conv=lambda strategies: structured_nash_conv(game, strategies, bounds),  # type: ignore[arg-type]
    )
