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
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from seqform.certify import BestResponse, Certificate, LocalBounds, respond
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
from seqform.structured.products import payoff_to_first, payoff_to_second

__all__ = [
    "best_response",
    "certified_payoffs",
    "certify",
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
