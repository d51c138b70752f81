"""The certificate of a compiled vector CFR run on hand classes, from the run's own arrays.

:func:`~seqform.structured.reductions.suit_classes.certify_on_classes` certifies a class-symmetric
profile of ``G'`` given as behavioural strategies: their plans in the table's order, the
leaf products (the compiled one copies each plan into the run's internal order and each
product back), then a best response on each player's class table.  On a flop each of those
arrays is as long as a player's 57 or 78 million sequences, and together they were more
than the run itself keeps.  A run's average is already in its arrays: here the plans, the
products and the class sums stay in the run's internal order, and each best response over
class plans is one compiled backward pass for its value alone, so the certificate adds one
array as long as player 2's sequences and a few as long as the classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from seqform.certify import Certificate
from seqform.iterative.passes import average_plan
from seqform.structured.reductions.suit_classes import CanonicalBoards, first_members
from seqform.structured.responses import payoff_range, sequence_tables

if TYPE_CHECKING:
    from seqform.structured.compiled_cfr import CompiledRegrets

__all__ = ["certify_run_on_classes"]


def certify_run_on_classes(boards: CanonicalBoards, run: CompiledRegrets) -> Certificate:
    """:func:`~seqform.structured.reductions.suit_classes.certify_on_classes` of a compiled run's
    average on ``G'``, from the run's own arrays: equal to it up to the order of the sums,
    in less memory.

    The average plans are computed on the run's internal order from its cumulative weights
    (:func:`~seqform.iterative.passes.average_plan`, the same plans bit for bit), the leaf
    products read them there and write into the run's ``values`` (scratch that each step
    overwrites; both players' are views of one array), and the class sums are taken there
    with the run's own class numbers: no behaviour, plan or payoff in the table's order and
    no copy between the orders.  One plan is added at a time, during the products alone
    (``ȳ`` is read by ``A ȳ`` alone, and the value ``x̄ A ȳ`` is read off ``A ȳ`` before
    ``Aᵀ x̄`` is written over it), so the best responses, taken in turn over class plans
    for their values alone (:func:`_class_response`), run beside no plan.

    Raises
    ------
    ValueError
        When ``run`` is not a run on ``boards``' canonical game with the hand classes'
        shared regrets.
    """
    if run.game is not boards.canonical or run.classes is None:
        raise ValueError("the run is not one on these canonical boards' hand classes")
    layout, values = run.layout.players, run.values
    classes = run.classes
    y = average_plan(layout[1], run.cumulative[1])
    to_first = run.product(0, y, values[0])  # A ȳ
    del y  # freed before each best response, whose class sums are the peak
    best_first = _class_response(boards, 0, classes[0], layout[0].order, to_first)
    x = average_plan(layout[0], run.cumulative[0])
    value = float(x @ to_first)  # x̄ A ȳ, before Aᵀ x̄ is written over A ȳ
    to_second = run.product(1, x, values[1])  # Aᵀ x̄, player 1's payoff negated
    del x
    payoffs = np.negative(to_second, out=to_second)
    best_second = _class_response(boards, 1, classes[1], layout[1].order, payoffs)
    return Certificate.from_best_responses(
        value, best_first, best_second, float(payoff_range(boards.game))
    )


def _class_response(
    boards: CanonicalBoards,
    player: int,
    classes: np.ndarray,
    order: np.ndarray,
    payoffs: np.ndarray,
) -> float:
    """The value of ``player``'s best response over class plans, given the leaf payoff of
    each sequence of ``G'`` in a run's internal order (``order``: per internal sequence its
    table sequence; ``classes``: per table sequence its class; summed per class through
    the order, with no copy of either): the
    backward induction of :func:`~seqform.certify.respond` on :func:`class_tables`' table,
    compiled and for the value alone, so that no strategy, level index or per-level
    temporary is as long as the classes (on a flop these were four times the payoffs).
    A class's parent comes before its sequences, as in ``G'``'s table: the classes are
    numbered by their first member, and a member's parent is of the same hand."""
    from seqform.structured import cfr_kernels  # numba: imported only for a run

    table = sequence_tables(boards.canonical)[player]
    own = boards.classes[player]
    totals = np.zeros(own.num_sequences)
    cfr_kernels.class_sums(payoffs, classes, order, totals)
    member = first_members(own.infosets, own.num_infosets)
    first = own.sequences[table.first_sequence[member]]
    parent = own.sequences[table.parent_sequence[member]]
    del member
    order = np.argsort(first, kind="stable")
    value = float(cfr_kernels.best_response_value(totals, first, parent, order))
    if not np.isfinite(value):
        raise ValueError(
            f"player {player + 1}'s best response on hand classes: a payoff is not finite"
        )
    return value
