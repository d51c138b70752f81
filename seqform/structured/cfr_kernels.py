"""The compiled kernels of vector CFR (numba): one product, one update, per player and iteration.

These are the passes of :mod:`seqform.structured.vector_cfr` written as loops over the flat
tables of :mod:`seqform.structured.compiled_cfr`, compiled once by numba (``cache=True``: a
later process loads them from disk), so that an iteration costs its arithmetic and nothing
per public node.  Every sequence index here is the *internal* one of
:mod:`seqform.iterative.layout` (information sets by depth), so the tree passes are single
loops:

* :func:`leaf_product` — the player's own payoff, ``A y`` (player 0) or ``−Aᵀ x``
  (player 1), added onto its sequences, one public leaf at a time: the opponent's range
  ``v[h'] = plan[s(h', z)] · w[h'] valid_z(h')`` is walked in level order beside the own
  hands in level order (two pointers), and the running sums ``P[m] = Σ_{l(h') < m} v[h']``
  are kept whole and per card, so that every opponent hand sharing a card with the own
  hand is left out (inclusion and exclusion: a two-card hand's twin, sharing both cards,
  is subtracted twice and added back once).  A sign rule reads ``P[l] + P[l + 1] − T``
  (below − above), a threshold ``a T − (a − b) P[q − l]`` (Johanson et al. IJCAI 2011
  §4.2; the formulas of :mod:`seqform.structured.products`).  ``O(H)`` per leaf with no
  sorting: the level orders are built once per game.
* :func:`counterfactual_regrets` and :func:`update_infosets` — the update: the bottom-up
  counterfactual values and the instantaneous regrets (:func:`class_regrets` sums them
  per hand class on canonical boards), then per information set, top
  down, the ties cleared, the average's ``S += w_t x``, the rule's steps 1–5 of
  :mod:`seqform.iterative.rules` given as numbers for this ``t`` (:class:`RuleStep` of the
  caller), and regret matching; the order of
  :class:`~seqform.iterative.cfr.FullTreeRegrets`.  The second half (most of the time)
  runs over a range of information sets, so that a large game cuts each depth into parts
  on threads (:class:`~seqform.structured.compiled_cfr.CompiledRegrets`), and is compiled
  once per rule, its flags constants.
* :func:`class_first_members` — a run on hand classes: per sequence its class's first
  member, which the update sums the class's regret in (read through the internal order:
  no copy of the classes in it).
* :func:`response_value` — the value of a best response (the backward induction of
  :func:`seqform.certify.respond` without its strategy), in place on the leaf payoffs,
  over the hand classes' plans where a run has them (the class sums in the first
  members' entries): the certificate of a run from its own arrays
  (:func:`seqform.structured.responses.certify_run`).

Sums are accumulated in float64 whatever the storage (float32 storage halves the memory of
the regrets, the average and the behaviour; the certificate reads the average in float64).
This module imports numba at import time: import it only where a run uses it.

Size: the kernels of an iteration and of its certificate read the same flat tables in the
same internal order (the batches' scratch, the class offsets, the ranges cut for threads);
apart, each module would restate those conventions.
"""

from __future__ import annotations

from numba import njit

__all__ = [
    "class_first_members",
    "class_regrets",
    "counterfactual_regrets",
    "leaf_product",
    "response_value",
    "update_infosets",
]

CONSTANT, SIGN, THRESHOLD = 0, 1, 2  # as seqform.structured.leaf_groups


@njit(cache=True, nogil=True)
def leaf_product(
    player,
    plan,
    out,
    batches,
    batch_start,
    batch_kind,
    batch_key,
    batch_levels,
    batch_quantity,
    leaf_sequences,
    leaf_first,
    leaf_step,
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
    v,
    sums,
    sides,
    cards,
):
    """Add player ``player``'s payoff per own sequence against the opponent's ``plan`` onto
    ``out`` (its own: ``A y`` for player 0, ``−Aᵀ x`` for player 1, negated term by term,
    so the sums are those of ``Aᵀ x`` negated, bit for bit), a batch of leaves at
    a time (module docstring), the batches numbered in ``batches`` (two calls whose batches
    write disjoint own sequences may run at once: the kernel releases the GIL).  A batch
    (``batch_start[b]`` to ``batch_start[b + 1]`` of the leaves, at most ``width``) shares
    the rule kind, the public cards ``batch_key``, the level set and a threshold's
    quantity, so one walk over the hands in level order serves all its leaves, whose sums
    sit side by side (the inner loops run over the batch's leaves).
    ``leaf_sequences``: per leaf (in batch order) its public sequences; ``leaf_first``:
    ``chance_z`` times a constant's payoff, a sign's stake or a threshold's ``if_reached``;
    ``leaf_step``: ``chance_z (if_reached − otherwise)``.  ``*_index``: (public sequences,
    hands) -> internal sequence or -1; ``*_factor``: (card keys, hands) -> weight times
    validity; ``*_levels`` and ``*_order``: (level sets, hands) -> level, and the hands in
    level order; ``twin``: per own hand the opponent hand of the same two cards, or -1.
    Scratch, kept by the caller between calls: ``v`` (opponent hands + 1, width), ``sides``
    (3, width) and ``cards`` (3, cards + 1, width), a column per leaf of a batch: the
    opponent's range and its total, below and through sums, whole and per card, each with
    a last row of zeros that nothing writes; ``sums`` (width, own hands), a row per leaf,
    so that each leaf's scatter reads its own hands' payoffs in order.  A hand holds one
    card or two (``own_cards``: one column or two, -1 for none, as
    :class:`~seqform.game.public.tree.Hands` holds them).

    Length: one walk per batch with its three rules, read as one.
    """
    other_hands = other_index.shape[1]
    other_columns = other_cards.shape[1]
    own_hands = own_index.shape[1]
    total, low_total, high_total = sides[0], sides[1], sides[2]
    nothing, nobody = cards.shape[1] - 1, v.shape[0] - 1  # the zero rows
    two_cards = own_cards.shape[1] == 2  # else one column
    card_total, card_low, card_high = cards[0], cards[1], cards[2]
    for chosen in range(len(batches)):
        b = batches[chosen]
        start = batch_start[b]
        n = batch_start[b + 1] - start
        kind, key = batch_kind[b], batch_key[b]
        total[:n] = 0.0
        card_total[:, :n] = 0.0
        for j in range(n):  # one row of the index per leaf: the node's hands side by side
            sequence = leaf_sequences[start + j, 1 - player]
            for h in range(other_hands):
                at = other_index[sequence, h]
                v[h, j] = plan[at] * other_factor[key, h] if at >= 0 else 0.0
        for h in range(other_hands):
            if other_factor[key, h] == 0.0:
                continue
            row = v[h]
            for j in range(n):
                total[j] += row[j]
            for k in range(other_columns):
                card = other_cards[h, k]
                if card >= 0:
                    for j in range(n):
                        card_total[card, j] += row[j]
        sign = kind == SIGN
        constant = kind == CONSTANT
        # the player's own payoff: player 1's is the negation of player 0's, except that a
        # sign rule already reads player 1's levels as its own
        flip = player == 1 and not sign
        levels_set = batch_levels[b]
        mine = own_levels[levels_set]
        theirs = other_levels[levels_set]
        order = own_order[levels_set]
        their_order = other_order[levels_set]
        low_total[:n] = 0.0
        high_total[:n] = 0.0
        card_low[:, :n] = 0.0
        card_high[:, :n] = 0.0
        low, high = 0, 0
        hands = len(order)
        for i in range(hands):
            # sign: own levels rising; threshold: the needed level q − l rising
            h = order[hands - 1 - i] if kind == THRESHOLD else order[i]
            level = mine[h]
            bound = batch_quantity[b] - level if kind == THRESHOLD else level
            while not constant and low < other_hands and theirs[their_order[low]] < bound:
                mate = their_order[low]
                row = v[mate]
                for j in range(n):
                    low_total[j] += row[j]
                for k in range(other_columns):
                    card = other_cards[mate, k]
                    if card >= 0:
                        for j in range(n):
                            card_low[card, j] += row[j]
                low += 1
            while sign and high < other_hands and theirs[their_order[high]] <= level:
                mate = their_order[high]
                row = v[mate]
                for j in range(n):
                    high_total[j] += row[j]
                for k in range(other_columns):
                    card = other_cards[mate, k]
                    if card >= 0:
                        for j in range(n):
                            card_high[card, j] += row[j]
                high += 1
            factor = own_factor[key, h]
            if factor == 0.0:
                continue
            mate = twin[h]
            twin_low = mate >= 0 and theirs[mate] < bound
            twin_high = mate >= 0 and theirs[mate] <= level
            # the opponent's sums without the hands that share a card with h, one loop over
            # the batch per rule (compiled to vector instructions): a missing second card or
            # twin reads the scratch's zero row, so each loop has no branch (x − 0 = x)
            first = own_cards[h, 0] if own_cards[h, 0] >= 0 else nothing
            second = own_cards[h, 1] if two_cards and own_cards[h, 1] >= 0 else nothing
            whole = mate if mate >= 0 else nobody
            lower = mate if twin_low else nobody
            upper = mate if twin_high else nobody
            if constant:
                for j in range(n):
                    excluded = total[j] - card_total[first, j] - card_total[second, j]
                    value = leaf_first[start + j] * (excluded + v[whole, j])
                    sums[j, h] = factor * (-value if flip else value)
            elif sign:
                for j in range(n):
                    excluded = total[j] - card_total[first, j] - card_total[second, j]
                    excluded += v[whole, j]
                    below = low_total[j] - card_low[first, j] - card_low[second, j]
                    below += v[lower, j]
                    through = high_total[j] - card_high[first, j] - card_high[second, j]
                    through += v[upper, j]
                    sums[j, h] = factor * (leaf_first[start + j] * (below + through - excluded))
            else:
                for j in range(n):
                    excluded = total[j] - card_total[first, j] - card_total[second, j]
                    excluded += v[whole, j]
                    below = low_total[j] - card_low[first, j] - card_low[second, j]
                    below += v[lower, j]
                    value = leaf_first[start + j] * excluded - leaf_step[start + j] * below
                    sums[j, h] = factor * (-value if flip else value)
        for j in range(n):  # one row of the index per leaf, as the gather
            sequence = leaf_sequences[start + j, player]
            for h in range(own_hands):
                at = own_index[sequence, h]
                if at >= 0 and own_factor[key, h] != 0.0:
                    out[at] += sums[j, h]


@njit(cache=True, nogil=True)
def counterfactual_regrets(
    values, behaviour, infoset_first, infoset_parent, action_count, start, stop
):
    """The first half of one player's update after its sequence payoffs ``values``
    (internal order, overwritten: scratch), for the information sets ``start <= i < stop``,
    deepest first: the counterfactual values bottom up, each sequence's value then replaced
    by its instantaneous regret ``v(s) − v(h)``; returns the largest ``|v(s)|`` of their
    sequences (the caller's tie bound is ``tolerance`` times the largest of all).

    Each set adds its value into its parent sequence's, so the sets of deeper depths must
    be done: one call over every set, or one per depth, deepest first, with the sets of a
    depth cut where no two parts share a parent sequence (:func:`~seqform.structured.
    compiled_cfr.depth_parts`), so that every parent's sum is taken in the same order, by
    one thread, bit for bit.

    No array but the arguments: once an information set's value ``v(h)`` is summed, its
    sequences' values are read by nothing but their regrets, so ``values[s]`` becomes the
    instantaneous regret in place (no array of information-set values)."""
    scale = 0.0
    for i in range(stop - 1, start - 1, -1):  # deeper information sets have larger numbers
        first = infoset_first[i]
        end = first + action_count[first]
        total = 0.0
        for s in range(first, end):  # final: the children are done
            total += behaviour[s] * values[s]
            scale = max(scale, abs(values[s]))
        for s in range(first, end):  # v(s) − v(h): no later step reads v(s)
            values[s] -= total
        values[infoset_parent[i]] += total
    return scale


@njit(cache=True, nogil=True)
def class_regrets(values, class_offset):
    """After :func:`counterfactual_regrets` on every set: each hand class's sum of regrets
    into its first member's entry.  ``class_offset``: per sequence, how far before it the
    first member of its hand class on canonical boards is (:func:`class_first_members`);
    :func:`update_infosets` reads the first member's entry for every member, so the members
    of a class keep one regret and one behaviour
    (:func:`seqform.structured.vector_cfr.canonical_vector_cfr`).  The sum is taken in
    place, in the first member's regret, which comes before the others: the members are
    added in the order of the sequences, as into a scratch entry per class, with no such
    scratch (float64 per class, on a flop 7 bytes a sequence)."""
    for s in range(1, len(values)):
        if class_offset[s] != 0:  # first < s: its regret is done, and now sums the class
            values[s - class_offset[s]] += values[s]


def update_infosets(plus, predictive, lagged, discounted, predicted):
    """The second half of one player's update, compiled for one rule's flags (plus,
    predictive, and whether each of the three discounts applies: ``RuleStep.flags`` of
    :func:`seqform.structured.compiled_cfr.rule_step`): a kernel called as ``kernel(values,
    behaviour, regrets, cumulative, plan, infoset_parent, infoset_first, action_count,
    numbers, bound, class_offset, start, stop)``.

    The flags are constants of the kernel, so each rule's loop holds only its own steps
    (a quarter less time than one kernel testing every flag at every sequence); numba
    compiles each set of flags once per machine (its cache keys a closure by its values).

    The kernel, for information sets ``start <= i < stop`` (the caller takes the root
    sequence: ``plan[0] = 1``, ``S[0] += w``), after :func:`counterfactual_regrets`: per
    sequence the instantaneous regret (ties within ``bound`` cleared), ``S += w x`` with
    ``x = plan[s]``, the current behaviour's plan, and the rule's steps; then per
    information set regret matching into ``behaviour``, and the new behaviour's plan
    ``plan[s] = plan[parent] · b[s]`` over the old, which the opponent's next product reads
    and the player's next update adds (so no plan pass is needed between steps).  The
    parents' new plans are read, so the sets of shallower depths must be done: one call
    over every set, or one per depth with the sets of a depth cut into parts on threads
    (each set reads and writes only its own sequences and its parent's plan).

    What is matched is written over ``behaviour[s]``, which the set's normalisation then
    reads (no matching scratch).  The numbers and their order of operations are those of
    the arrays they replace, bit for bit, whatever the cut: ``plan[s]`` is the product
    :meth:`~seqform.structured.compiled_cfr.CompiledRegrets.plan_of` takes.

    ``numbers``: the weight ``w_t`` and the factors (for entries ``>= 0``, for the others)
    of the lagged discount at ``t − 1``, the discount at ``t`` and the prediction's lagged
    discount at ``t``.  ``class_offset`` as :func:`class_regrets` takes it: each
    member reads its class's regret.
    """
    key = (bool(plus), bool(predictive), bool(lagged), bool(discounted), bool(predicted))
    kernel = _UPDATES.get(key)
    if kernel is None:
        kernel = _UPDATES[key] = _update_kernel(*key)
    return kernel


_UPDATES: dict[tuple[bool, ...], object] = {}


def _update_kernel(plus, predictive, lagged, discounted, predicted):
    """:func:`update_infosets`' kernel for these flags, compiled (or loaded) once.

    Length: the steps of one information set, in the loop's order, read as one.
    """

    @njit(cache=True, nogil=True)
    def update(
        values,
        behaviour,
        regrets,
        cumulative,
        plan,
        infoset_parent,
        infoset_first,
        action_count,
        numbers,
        bound,
        class_offset,
        start,
        stop,
    ):
        weight = numbers[0]
        lag_pos, lag_neg, disc_pos, disc_neg, pred_pos, pred_neg = numbers[1:7]
        tied = len(class_offset) > 0
        for i in range(start, stop):  # one pass: regret, the average, the rule, matching
            first = infoset_first[i]
            end = first + action_count[first]
            positive = 0.0
            for s in range(first, end):
                r = values[s - class_offset[s]] if tied else values[s]
                if -bound <= r <= bound:
                    r = 0.0
                cumulative[s] += weight * plan[s]
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
                behaviour[s] = matched if matched > 0.0 else 0.0  # normalised below
                positive += behaviour[s]
            count = end - first
            parent = plan[infoset_parent[i]]  # already the new behaviour's
            for s in range(first, end):
                behaviour[s] = behaviour[s] / positive if positive > 0.0 else 1.0 / count
                plan[s] = parent * behaviour[s]

    return update


@njit(cache=True, nogil=True)
def class_first_members(classes, order, first, out):
    """Per internal sequence ``s`` into ``out``, how far before it the first internal
    sequence of its class is (``classes``: per table sequence its class, ``0 .. len(first)
    − 1``; ``order``: per internal sequence its table sequence; ``first``: per class, -1,
    scratch), so the first member is ``s − out[s]``; with no ``out`` (an empty array),
    nothing is written.  Returns the largest distance, for the caller to choose ``out``'s
    type by a first call."""
    largest = 0
    write = len(out) > 0
    for s in range(len(order)):
        c = classes[order[s]]
        if first[c] < 0:
            first[c] = s
        largest = max(largest, s - first[c])
        if write:
            out[s] = s - first[c]
    return largest


@njit(cache=True, nogil=True)
def response_value(payoffs, class_offset, infoset_first, sequence_parent):
    """The value of a best response given the leaf payoff of each sequence in ``payoffs``
    (internal order, overwritten): the backward induction of
    :func:`seqform.certify.respond` without its strategy, over the information sets
    deepest first, each adding its best action's total onto its parent sequence;
    ``payoffs[0]`` ends as the value.

    ``class_offset`` (empty: none) makes it a best response over hand-class plans (a run
    on hand classes, :mod:`seqform.structured.reductions.class_certificate`): each
    member's payoff is first added onto its class's first member (``class_offset`` before
    it, :func:`class_first_members`), in the order of the sequences as the update sums a
    class's regret, and only the information sets whose sequences are their classes'
    first members are walked.  The members of a class of information sets hold the
    members of their actions' classes, each set's actions side by side, so the first
    member's actions are their classes' first members; a parent sequence (shallower)
    comes before the sequences below it.  The class totals live in the first members' own
    entries: no array per class.  NaN where a parent does not come first or a payoff is not
    finite."""
    count = len(infoset_first)
    tied = len(class_offset) > 0
    if tied:
        for s in range(1, len(payoffs)):
            if class_offset[s] != 0:  # the first member: not read until every member is added
                payoffs[s - class_offset[s]] += payoffs[s]
    for infoset in range(count - 1, -1, -1):
        first = infoset_first[infoset]
        if tied and class_offset[first] != 0:
            continue
        stop = len(payoffs) if infoset == count - 1 else infoset_first[infoset + 1]
        best = payoffs[first]
        for sequence in range(first + 1, stop):
            if payoffs[sequence] > best:
                best = payoffs[sequence]
        parent = sequence_parent[first]
        if tied:
            parent -= class_offset[parent]
        if parent >= first or not abs(best) < float("inf"):
            return float("nan")
        payoffs[parent] += best
    return payoffs[0]
