"""The certificate of a compiled vector CFR run on hand classes, from the run's own arrays.

:func:`~seqform.structured.reductions.suit_classes.certify_on_classes` certifies a class-symmetric
profile of ``G'`` given as behavioural strategies: their plans in the table's order, the
leaf products (the compiled one copies each plan into the run's internal order and each
product back), then a best response on each player's class table.  On a flop each of those
arrays is as long as a player's 57 or 78 million sequences, and together they were more
than the run itself keeps.  A run's average is already in its arrays: here the plans, the
products and the class sums stay in the run's internal order, in the run's idle scratch
where it fits, and each best response over class plans is one compiled backward pass in
place for its value alone (:func:`~seqform.structured.responses.certify_run`), so the
certificate adds one array as long as player 1's sequences and nothing as long as the
classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seqform.certify import Certificate
from seqform.structured.reductions.suit_classes import CanonicalBoards
from seqform.structured.responses import certify_run, payoff_range

if TYPE_CHECKING:
    from seqform.structured.compiled_cfr import CompiledRegrets

__all__ = ["certify_run_on_classes"]


def certify_run_on_classes(boards: CanonicalBoards, run: CompiledRegrets) -> Certificate:
    """:func:`~seqform.structured.reductions.suit_classes.certify_on_classes` of a compiled run's
    average on ``G'``, from the run's own arrays (:func:`~seqform.structured.responses.
    certify_run`, over class plans): equal to it up to the order of the sums, in less
    memory, judged against the payoff range of the game ``G``.

    Raises
    ------
    ValueError
        When ``run`` is not a run on ``boards``' canonical game with the hand classes'
        shared regrets.
    """
    if run.game is not boards.canonical or run.classes is None:
        raise ValueError("the run is not one on these canonical boards' hand classes")
    return certify_run(run, float(payoff_range(boards.game)))
