"""The certificate of a compiled vector CFR run on hand classes, from the run's own arrays.

:func:`~seqform.structured.reductions.suit_classes.certify_on_classes` certifies a class-symmetric
profile of ``G'`` given as behavioural strategies: their plans in the table's order, the
leaf products (the compiled one copies each plan into the run's internal order and each
product back), then a best response on each player's class table.  On a flop each of those
arrays is as long as a player's 57 or 78 million sequences, and together they were more
than the run itself keeps.  A run's average is already in its arrays: here the plans, the
products and the class sums stay in the run's internal order, in the run's idle scratch
where it fits, and each best response over class plans is one compiled backward pass in
place for its value alone, so the certificate adds one array as long as player 1's
sequences and nothing as long as the classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from seqform.certify import Certificate
from seqform.iterative.passes import average_plan
from seqform.structured.reductions.suit_classes import CanonicalBoards
from seqform.structured.responses import payoff_range

if TYPE_CHECKING:
    from seqform.structured.compiled_cfr import CompiledRegrets

__all__ = ["certify_run_on_classes"]


def certify_run_on_classes(boards: CanonicalBoards, run: CompiledRegrets) -> Certificate:
    """:func:`~seqform.structured.reductions.suit_classes.certify_on_classes` of a compiled run's
    average on ``G'``, from the run's own arrays: equal to it up to the order of the sums,
    in less memory.

    The average plans are computed on the run's internal order from its cumulative weights
    (:func:`~seqform.iterative.passes.average_plan`, the same plans bit for bit) and the leaf
    products read them there: no behaviour, plan or payoff in the table's order and no copy
    between the orders.  The run's ``values`` (float64 scratch as long as the longer
    player's sequences, which each step overwrites) holds ``ȳ``, then ``x̄``, then
    ``Aᵀ x̄``; the one array added is ``A ȳ``, as long as player 1's sequences, which holds
    ``x̄`` once its own best response has consumed it.  Each best response over class plans
    is taken in place on its payoffs, the class sums in the first members' entries
    (:func:`_class_response`): no array as long as the classes.

    Raises
    ------
    ValueError
        When ``run`` is not a run on ``boards``' canonical game with the hand classes'
        shared regrets.
    """
    if run.game is not boards.canonical or run.classes is None:
        raise ValueError("the run is not one on these canonical boards' hand classes")
    layout, values = run.layout.players, run.values
    y = average_plan(layout[1], run.cumulative[1], out=values[1])
    to_first = run.product(0, y, np.empty(layout[0].num_sequences))  # A ȳ
    x = average_plan(layout[0], run.cumulative[0], out=values[0])  # over ȳ, read
    value = float(x @ to_first)  # x̄ A ȳ, before the best response sums A ȳ in place
    best_first = _class_response(run, 0, to_first)
    np.copyto(to_first, x)  # A ȳ is consumed, and Aᵀ x̄ is written over `values`
    x = to_first
    to_second = run.product(1, x, values[1])  # Aᵀ x̄, player 1's payoff negated
    del x, to_first
    payoffs = np.negative(to_second, out=to_second)
    best_second = _class_response(run, 1, payoffs)
    return Certificate.from_best_responses(
        value, best_first, best_second, float(payoff_range(boards.game))
    )


def _class_response(run: CompiledRegrets, player: int, payoffs: np.ndarray) -> float:
    """The value of ``player``'s best response over class plans, given the leaf payoff of
    each sequence of ``G'`` in the run's internal order (overwritten): the backward
    induction of :func:`~seqform.certify.respond` on :func:`~seqform.structured.reductions.
    suit_classes.class_tables`' table, compiled, for the value alone and in place
    (:func:`~seqform.structured.cfr_kernels.class_response_value`), so that no strategy,
    level index, class sum or per-level temporary is allocated (on a flop the class sums
    and the class table's indices were the certificate's peak)."""
    from seqform.structured import cfr_kernels  # numba: imported only for a run

    own = run.layout.players[player]
    value = float(
        cfr_kernels.class_response_value(
            payoffs, run.class_offset[player], own.infoset_first, own.sequence_parent
        )
    )
    if not np.isfinite(value):
        raise ValueError(
            f"player {player + 1}'s best response on hand classes: a payoff is not finite"
        )
    return value
