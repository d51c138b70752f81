"""The compiled kernels of vector CFR (numba): one product, one update, per player and iteration.

These are the passes of :mod:`seqform.structured.vector_cfr` written as loops over the flat
tables of :mod:`seqform.structured.compiled_cfr`, compiled once by numba (``cache=True``: a
later process loads them from disk), so that an iteration costs its arithmetic and nothing
per public node.  Every sequence index here is the *internal* one of
:mod:`seqform.iterative.layout` (information sets by depth), so the tree passes are single
loops:

* :func:`leaf_product` — ``A y`` (player 0) or ``Aᵀ x`` (player 1) added onto the own
  sequences, one public leaf at a time: the opponent's range ``v[h'] = plan[s(h', z)] ·
  w[h'] valid_z(h')`` is walked in level order beside the own hands in level order (two
  pointers), and the running sums ``P[m] = Σ_{l(h') < m} v[h']`` are kept whole and per card,
  so that every opponent hand sharing a card with the own hand is left out (inclusion and
  exclusion: a two-card hand's twin, sharing both cards, is subtracted twice and added back
  once).  A sign rule reads ``P[l] + P[l + 1] − T`` (below − above), a threshold
  ``a T − (a − b) P[q − l]`` (Johanson et al. IJCAI 2011 §4.2; the formulas of
  :mod:`seqform.structured.products`).  ``O(H)`` per leaf with no sorting: the level orders
  are built once per game.
* :func:`update_player` — the bottom-up counterfactual values, the instantaneous regrets with
  ties cleared, the average's ``S += w_t x``, the rule's steps 1–5 of
  :mod:`seqform.iterative.rules` given as numbers for this ``t`` (:class:`RuleStep` of the
  caller), and regret matching; the order of
  :class:`~seqform.iterative.cfr.FullTreeRegrets`.
* :func:`own_plan` — the realization plan ``x[s] = x[parent] · b[s]``, top down.

Sums are accumulated in float64 whatever the storage (float32 storage halves the memory of
the regrets, the average and the behaviour; the certificate reads the average in float64).
This module imports numba at import time: import it only where a run uses it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["leaf_product", "own_plan", "update_player"]

CONSTANT, SIGN, THRESHOLD = 0, 1, 2  # as seqform.structured.leaf_groups


@njit(cache=True, nogil=True)
def own_plan(behaviour, sequence_parent, out):  # type: ignore[no-untyped-def]
    """``out[s] = out[parent(s)] · behaviour[s]``, ``out[0] = 1`` (parents come first)."""
    out[0] = 1.0
    for s in range(1, len(out)):
        out[s] = out[sequence_parent[s]] * behaviour[s]


@njit(cache=True, nogil=True)
def leaf_product(  # type: ignore[no-untyped-def]
    player,
    plan,
    out,
    leaf_kind,
    leaf_sequences,
    leaf_key,
    leaf_levels,
    leaf_chance,
    leaf_first,
    leaf_second,
    leaf_quantity,
    own_index,
    other_index,
    own_factor,
    other_factor,
    own_levels,
    other_levels,
    own_order,
    other_order,
    own_cards,
    other_cards,
    twin,
    num_cards,
):
    """Add player ``player``'s payoff per own sequence against the opponent's ``plan`` onto
    ``out`` (to player 0: ``A y`` for player 0, ``Aᵀ x`` for player 1), leaf by leaf (module
    docstring).  ``*_index``: (public sequences, hands) -> internal sequence or -1;
    ``*_factor``: (card keys, hands) -> weight times validity; ``*_levels`` and ``*_order``:
    (level sets, hands) -> level, and the hands in level order; ``twin``: per own hand the
    opponent hand of the same two cards, or -1.

    Length: one pass per leaf with its three rules, read as one.
    """
    other_hands = other_index.shape[1]
    v = np.zeros(other_hands)
    card_total = np.zeros(num_cards)
    card_low = np.zeros(num_cards)
    card_high = np.zeros(num_cards)
    for z in range(len(leaf_kind)):
        own_seq = leaf_sequences[z, player]
        other_seq = leaf_sequences[z, 1 - player]
        key = leaf_key[z]
        total = 0.0
        card_total[:] = 0.0
        for h in range(other_hands):
            at = other_index[other_seq, h]
            value = 0.0
            if at >= 0:
                value = plan[at] * other_factor[key, h]
            v[h] = value
            if value != 0.0:
                total += value
                for k in range(other_cards.shape[1]):
                    card = other_cards[h, k]
                    if card >= 0:
                        card_total[card] += value
        kind = leaf_kind[z]
        chance = leaf_chance[z]
        first = leaf_first[z]
        if kind == CONSTANT:
            for h in range(own_index.shape[1]):
                at = own_index[own_seq, h]
                factor = own_factor[key, h]
                if at < 0 or factor == 0.0:
                    continue
                excluded = total
                for k in range(own_cards.shape[1]):
                    card = own_cards[h, k]
                    if card >= 0:
                        excluded -= card_total[card]
                if twin[h] >= 0:
                    excluded += v[twin[h]]
                out[at] += factor * chance * first * excluded
            continue
        levels_set = leaf_levels[z]
        mine = own_levels[levels_set]
        theirs = other_levels[levels_set]
        order = own_order[levels_set]
        their_order = other_order[levels_set]
        card_low[:] = 0.0
        card_high[:] = 0.0
        low, high = 0, 0
        low_total, high_total = 0.0, 0.0
        hands = len(order)
        columns = other_cards.shape[1]
        sign = kind == SIGN
        quantity = leaf_quantity[z]
        second = leaf_second[z]
        for i in range(hands):
            # sign: own levels rising; threshold: the needed level q − l rising
            h = order[i] if sign else order[hands - 1 - i]
            level = mine[h]
            bound = level if sign else quantity - level
            while low < other_hands and theirs[their_order[low]] < bound:
                mate = their_order[low]
                value = v[mate]
                low_total += value
                for k in range(columns):
                    card = other_cards[mate, k]
                    if card >= 0:
                        card_low[card] += value
                low += 1
            if sign:
                while high < other_hands and theirs[their_order[high]] <= level:
                    mate = their_order[high]
                    value = v[mate]
                    high_total += value
                    for k in range(columns):
                        card = other_cards[mate, k]
                        if card >= 0:
                            card_high[card] += value
                    high += 1
            at = own_index[own_seq, h]
            factor = own_factor[key, h]
            if at < 0 or factor == 0.0:
                continue
            excluded, below, through = total, low_total, high_total
            for k in range(own_cards.shape[1]):
                card = own_cards[h, k]
                if card >= 0:
                    excluded -= card_total[card]
                    below -= card_low[card]
                    through -= card_high[card]
            mate = twin[h]
            if mate >= 0:  # the twin holds both cards: subtracted twice, added back once
                excluded += v[mate]
                if theirs[mate] < bound:
                    below += v[mate]
                if theirs[mate] <= level:
                    through += v[mate]
            if sign:
                signed = below + through - excluded
                if player == 1:
                    signed = -signed
                out[at] += factor * chance * first * signed
            else:
                out[at] += factor * chance * (first * excluded - (first - second) * below)


@njit(cache=True, nogil=True)
def update_player(  # type: ignore[no-untyped-def]
    values,
    behaviour,
    regrets,
    instant,
    cumulative,
    plan,
    infoset_values,
    sequence_infoset,
    sequence_parent,
    infoset_first,
    infoset_parent,
    action_count,
    numbers,
    flags,
    tolerance,
):
    """One player's half-iteration after its sequence payoffs ``values`` (internal order,
    added to in place): counterfactual values bottom up, instantaneous regrets (ties within
    ``tolerance`` × the largest value cleared), ``S += w x`` with the current behaviour's
    plan (into ``plan``), the rule's steps and regret matching into ``behaviour``.

    ``numbers``: the weight ``w_t`` and the factors (for entries ``>= 0``, for the others)
    of the lagged discount at ``t − 1``, the discount at ``t`` and the prediction's lagged
    discount at ``t``; ``flags``: plus, predictive, and whether each of the three discounts
    applies (:func:`seqform.structured.compiled_cfr.rule_step`).

    Length: the steps of one half-iteration, in the loop's order, read as one.
    """
    weight = numbers[0]
    lag_pos, lag_neg, disc_pos, disc_neg, pred_pos, pred_neg = numbers[1:7]
    plus, predictive, lagged, discounted, predicted = (
        flags[0],
        flags[1],
        flags[2],
        flags[3],
        flags[4],
    )
    infosets = len(infoset_first)
    for i in range(infosets - 1, -1, -1):  # deeper information sets have larger numbers
        first = infoset_first[i]
        total = 0.0
        for s in range(first, first + action_count[first]):
            total += behaviour[s] * values[s]
        infoset_values[i] = total
        values[infoset_parent[i]] += total
    scale = 0.0
    for s in range(len(values)):
        scale = max(scale, abs(values[s]))
    bound = tolerance * scale
    instant[0] = 0.0
    for s in range(1, len(values)):
        r = values[s] - infoset_values[sequence_infoset[s]]
        instant[s] = 0.0 if -bound <= r <= bound else r
    plan[0] = 1.0
    cumulative[0] += weight
    for s in range(1, len(values)):
        reach = plan[sequence_parent[s]] * behaviour[s]
        plan[s] = reach
        cumulative[s] += weight * reach
    for s in range(1, len(values)):
        r = instant[s]
        total = regrets[s]
        if lagged:
            total *= lag_pos if total >= 0.0 else lag_neg
        total += r
        if plus and total < 0.0:
            total = 0.0
        if discounted:
            total *= disc_pos if total >= 0.0 else disc_neg
        if -bound <= total <= bound:
            total = 0.0
        regrets[s] = total
        matched = total
        if predictive:
            if predicted:
                matched *= pred_pos if matched >= 0.0 else pred_neg
            matched += r
            if -bound <= matched <= bound:
                matched = 0.0
        plan[s] = matched if matched > 0.0 else 0.0  # the plan is spent: reuse it
    behaviour[0] = 1.0
    for i in range(infosets):
        first = infoset_first[i]
        count = action_count[first]
        total = 0.0
        for s in range(first, first + count):
            total += plan[s]
        for s in range(first, first + count):
            behaviour[s] = plan[s] / total if total > 0.0 else 1.0 / count
