"""The certificate of a compiled vector CFR run's average, from the run's own arrays.

:func:`seqform.structured.responses.certify` certifies a profile given as behavioural
strategies: their plans in the table's order, the leaf products (the compiled one copies
each plan into the run's internal order and each product back), then a best response on
each player's table by :func:`seqform.certify.respond`, in numpy over the table's levels.
A run's average is already in its arrays: here the plans, the products and the best
responses stay in the run's internal order.  The average plans are computed from the
cumulative weights (:func:`~seqform.iterative.passes.average_plan`, the plans of the
average behaviour bit for bit), the products are the run's own kernel, and each best
response is one compiled backward pass in place for its value alone
(:func:`~seqform.structured.cfr_kernels.response_value`).  The numbers are those of
:func:`~seqform.structured.responses.certify` on :meth:`CompiledRegrets.average` up to the
order of the sums in the best responses.

On the full-range turn of ``benchmarks/vcfr_speed.py`` (3,076,057 sequences a player) a
measurement took 1.7 s this way round and 0.3 s here
(``benchmarks/results/measurements.md``); a run on hand classes
(:mod:`seqform.structured.reductions.class_certificate`) takes the same path with its
classes, where the table's arrays of a flop were more than the run itself keeps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from seqform.certify import Certificate, require_finite
from seqform.iterative.passes import average_plan

if TYPE_CHECKING:
    from seqform.structured.compiled_cfr import CompiledRegrets

__all__ = ["certify_run"]


def certify_run(run: CompiledRegrets, payoff_range: float) -> Certificate:
    """The certificate (value, both best responses, NashConv judged against
    ``payoff_range``) of ``run``'s average strategies, from its arrays (module docstring);
    over hand-class plans where the run shares one regret per class (``run.classes``).

    Memory: the run's ``values`` (float64 scratch as long as the longer player's
    sequences, which each step overwrites) holds ``ȳ``, then ``x̄``, then ``Aᵀ x̄``; the one
    array added is ``A ȳ``, as long as player 1's sequences, which holds ``x̄`` once its own
    best response has consumed it.

    Raises
    ------
    CertificateOverflowError
        When the value or a best response leaves the float range.
    """
    layout, values = run.layout.players, run.values
    y = average_plan(layout[1], run.cumulative[1], out=values[1])
    to_first = run.product(0, y, np.empty(layout[0].num_sequences))  # A ȳ
    x = average_plan(layout[0], run.cumulative[0], out=values[0])  # over ȳ, read
    value = float(x @ to_first)  # x̄ A ȳ, before the best response sums A ȳ in place
    require_finite(value, "the certificate")
    best_first = _response(run, 0, to_first)
    np.copyto(to_first, x)  # A ȳ is consumed, and Aᵀ x̄ is written over `values`
    x = to_first
    to_second = run.product(1, x, values[1])  # Aᵀ x̄, player 1's payoff negated
    del x, to_first
    payoffs = np.negative(to_second, out=to_second)
    best_second = _response(run, 1, payoffs)
    return Certificate.from_best_responses(value, best_first, best_second, payoff_range)


def _response(run: CompiledRegrets, player: int, payoffs: np.ndarray) -> float:
    """The value of ``player``'s best response, given the leaf payoff of each sequence in
    the run's internal order (overwritten): the backward induction of
    :func:`~seqform.certify.respond`, compiled, for the value alone and in place, over class
    plans where the run has classes (:func:`~seqform.structured.cfr_kernels.response_value`),
    so that no strategy, level index, class sum or per-level temporary is allocated (on a
    flop the class sums and the class table's indices were the certificate's peak)."""
    from seqform.structured import cfr_kernels  # numba: imported only for a run

    own = run.layout.players[player]
    value = float(
        cfr_kernels.response_value(
            payoffs, run.class_offset[player], own.infoset_first, own.sequence_parent
        )
    )
    require_finite(value, f"player {player + 1}'s best response")
    return value
