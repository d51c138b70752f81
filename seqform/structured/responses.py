"""Sequence tables, best responses and the certificate of a structured game, without the tree.

The tables are the game room's hand-major numbering
(:func:`seqform.game.public.numbering.structured_tables`): information set (hand ``h``,
public node ``k``) is named ``labels[h] + history[k]``, as the explicit tree names it, so
strategies are the one :class:`~seqform.forms.strategies.BehaviouralStrategy` and carry
over by name.  A best response is :func:`seqform.certify.respond` — the backward induction
over the responder's information sets (KMvS 1996, the inner LP on the treeplex) — given the
leaf payoffs ``A y`` (player 0) or ``−Aᵀ x`` (player 1) computed by the running sums of
:mod:`seqform.structured.products`: the public-tree walk with vectorised private states of
Johanson et al. (IJCAI 2011).  Exact when the strategies are exact (Fractions, small games).

A compiled vector CFR run's average is certified from the run's own arrays
(:func:`certify_run`): :func:`certify` would build the average's strategies in the table's
order, their plans, and a best response on each table by :func:`seqform.certify.respond`
in numpy over the table's levels; here the plans come from the cumulative weights in the
run's internal order (:func:`~seqform.iterative.passes.average_plan`, the plans of the
average behaviour bit for bit), the products are the run's own kernel, and each best
response is one compiled backward pass in place for its value alone
(:func:`~seqform.structured.cfr_kernels.response_value`).  The numbers are those of
:func:`certify` on the run's average up to the order of the sums in the best responses.
On the full-range turn of ``benchmarks/vcfr_speed.py`` (3,076,057 sequences a player) a
measurement took 1.7 s the first way and 0.3 s the second
(``benchmarks/results/measurements.md``); a run on hand classes
(:mod:`seqform.structured.reductions.class_certificate`) takes the second with its
classes, where the table's arrays of a flop were more than the run itself keeps.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from seqform.certify import BestResponse, Certificate, LocalBounds, require_finite, respond
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.public.numbering import structured_tables
from seqform.game.public.tree import (
    Constant,
    PublicChance,
    PublicDecision,
    PublicNode,
    Sign,
    StructuredGame,
)
from seqform.game.sequences import PlayerSequences
from seqform.iterative.passes import average_plan
from seqform.structured.products import payoff_to_first, payoff_to_second

if TYPE_CHECKING:
    from seqform.structured.compiled_cfr import CompiledRegrets

__all__ = [
    "best_response",
    "certified_payoffs",
    "certify",
    "certify_run",
    "leaf_payoffs",
    "payoff_range",
    "sequence_tables",
]


def sequence_tables(game: StructuredGame) -> tuple[PlayerSequences, PlayerSequences]:
    """Both players' sequence tables, built once per game (module docstring)."""
    return structured_tables(game)


def leaf_payoffs(game: StructuredGame, player: int, opponent_plan: np.ndarray) -> np.ndarray:
    """The responder's payoff per own sequence against the opponent's plan, as
    :func:`seqform.certify.leaf_payoffs` gives it on the tree: ``A y`` for player 0,
    ``−Aᵀ x`` for player 1 (exact for an object array of Fractions)."""
    if player == 0:
        return payoff_to_first(game, opponent_plan)
    payoffs = payoff_to_second(game, opponent_plan)
    return np.negative(payoffs, out=payoffs)  # a new array: negated in place


_RANGES: weakref.WeakKeyDictionary[StructuredGame, Fraction] = weakref.WeakKeyDictionary()


def _leaf_payoffs(node: PublicNode) -> set[Fraction]:
    """Every payoff to player 0 the public leaves under ``node`` can give: a fold's
    constant, a showdown's ``±stake``, a bid's two outcomes."""
    found: set[Fraction] = set()
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, PublicDecision | PublicChance):
            stack.extend(node.children)
        elif isinstance(node.rule, Constant):
            found.add(Fraction(node.rule.payoff))
        elif isinstance(node.rule, Sign):
            found.update((Fraction(node.rule.stake), -Fraction(node.rule.stake)))
        else:
            found.update((Fraction(node.rule.if_reached), Fraction(node.rule.otherwise)))
    return found


def payoff_range(game: StructuredGame) -> Fraction:
    """Player 0's largest payoff at a public leaf less the smallest, exactly (computed once
    per game).  A showdown counts as both ``+stake`` and ``−stake``; for a hold'em spot the
    range follows the stacks (an all-in showdown), not the pot."""
    found = _RANGES.get(game)
    if found is None:
        payoffs = _leaf_payoffs(game.root)
        found = max(payoffs) - min(payoffs)
        _RANGES[game] = found
    return found


def _checked(game: StructuredGame, strategy: BehaviouralStrategy) -> BehaviouralStrategy:
    expected = sequence_tables(game)[strategy.player].num_sequences
    if strategy.table.num_sequences != expected:
        raise ValueError(
            f"{game.name}: a strategy of player {strategy.player + 1} has "
            f"{strategy.table.num_sequences:,} sequences, the game {expected:,}"
        )
    return strategy


def _profile(
    game: StructuredGame, first: BehaviouralStrategy, second: BehaviouralStrategy
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """Both strategies as one number kind: exact if both are exact, else float."""
    first, second = _checked(game, first), _checked(game, second)
    if first.exact and second.exact:
        return first, second
    return first.to_float(), second.to_float()


def best_response(game: StructuredGame, player: int, opponent: BehaviouralStrategy) -> BestResponse:
    """A best response of ``player`` to the opponent's strategy, without the tree (exact
    for an exact opponent)."""
    plan = plan_from_behaviour(_checked(game, opponent))
    return respond(sequence_tables(game)[player], leaf_payoffs(game, player, plan))


def certified_payoffs(game: StructuredGame, player: int, plan: np.ndarray) -> np.ndarray:
    """:func:`leaf_payoffs`, by the compiled leaf product where a compiled run built the
    game's flat tables (:func:`~seqform.structured.compiled_cfr.compiled_leaf_payoffs`):
    the same sums in another order."""
    from seqform.structured.compiled_cfr import compiled_leaf_payoffs

    found = compiled_leaf_payoffs(game, player, plan)
    return leaf_payoffs(game, player, plan) if found is None else found


def certify(
    game: StructuredGame,
    first: BehaviouralStrategy,
    second: BehaviouralStrategy,
    bounds: tuple[Mapping[int, LocalBounds] | None, Mapping[int, LocalBounds] | None] | None = None,
) -> Certificate:
    """Expected value, both best-response values and NashConv of a profile, without the tree.

    The plans are rebuilt from the behaviour, player 0's payoff per sequence is ``A y`` and
    player 1's ``−Aᵀ x``; nothing here reads the LP.  Exact (Fractions) when both strategies
    are exact, else floats.  ``bounds``: per player, behaviour a best response must keep
    (locked nodes, :mod:`seqform.forms.locks`), as :func:`seqform.certify.certify` takes it.
    """
    limits = bounds or (None, None)
    first, second = _profile(game, first, second)
    x, y = plan_from_behaviour(first), plan_from_behaviour(second)
    tables = sequence_tables(game)
    to_first = certified_payoffs(game, 0, y)
    best_first = respond(tables[0], to_first, limits[0]).value
    best_second = respond(tables[1], certified_payoffs(game, 1, x), limits[1]).value
    scale: Fraction | float = payoff_range(game)
    if first.exact:
        value: Fraction | float = Fraction(x @ to_first)
    else:
        value, scale = float(x @ to_first), float(scale)
    return Certificate.from_best_responses(value, best_first, best_second, scale)


def certify_run(run: CompiledRegrets, scale: float) -> Certificate:
    """The certificate (value, both best responses, NashConv judged against the payoff
    range ``scale``) of ``run``'s average strategies, from its arrays (the module
    docstring's last paragraph); over hand-class plans where the run shares one regret per
    class (``run.classes``).

    Memory: the run's ``values`` (float64 scratch as long as the longer player's
    sequences, which each step overwrites) holds ``ȳ``, then ``x̄``, then ``−Aᵀ x̄``; the one
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
    np.copyto(to_first, x)  # A ȳ is consumed, and −Aᵀ x̄ is written over `values`
    x = to_first
    payoffs = run.product(1, x, values[1])  # −Aᵀ x̄, player 1's own payoff
    del x, to_first
    best_second = _response(run, 1, payoffs)
    return Certificate.from_best_responses(value, best_first, best_second, scale)


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
