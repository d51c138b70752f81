"""The compiled tree rearranged once for counterfactual regret minimisation.

CFR (Zinkevich et al. 2007) needs, per player ``i`` and iteration, three sums over the
tree.  On the sequence form they are passes over the player's own information-set tree
plus one sum over terminals, so the nodes themselves are never visited:

* the realization plan of a behavioural strategy, top down (KMvS 1996, §3),

      x[empty] = 1,    x[h, a] = x[parent(h)] * b(a | h);

* the counterfactual value of each own sequence ``(h, a)`` against the opponent's plan
  ``y``, bottom up: with ``w(z) = chance(z) * y[s_-i(z)] * u_i(z)`` the counterfactual
  weight of terminal ``z``,

      v(h, a) = sum_{z with s_i(z) = (h, a)} w(z) + sum_{h' after (h, a)} v(h'),
      v(h)    = sum_a b(a | h) v(h, a);

  ``v(h, a)`` is Zinkevich's counterfactual value summed over the histories of ``h``
  (eq. 7 of the CFR paper: opponent and chance reach times the value below), and the
  instantaneous regret of ``(h, a)`` is ``v(h, a) - v(h)``;
* regret matching, per information set: ``b(a | h) = R+(h, a) / sum_b R+(h, b)`` where
  that sum is positive, uniform otherwise (Hart and Mas-Colell 2000).

Internal order
--------------
Each player's sequences are renumbered so that the information sets of one depth of the
player's own information-set tree, and their sequences, are contiguous slices (index 0
stays the empty sequence).  A level-by-level pass is then one slice per depth: the
number of numpy calls per iteration is proportional to the depth, and the work and the
memory to the size of the tree.  :func:`to_table_order` maps an internal array back to
the sequence indices of :class:`~seqform.game.compiled.PlayerSequences`.

Size: the internal numbering and every pass that relies on it (plans, counterfactual values,
per-infoset sums, ties, regret matching, averages) are read together; split, each pass would
import the numbering's invariants from elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from seqform.forms.strategies import REACH_TOLERANCE, BehaviouralStrategy, infoset_depths
from seqform.game.model import Game
from seqform.game.sequences import PlayerSequences

__all__ = [
    "CHUNK",
    "TIE_TOLERANCE",
    "CounterfactualValues",
    "Level",
    "PlayerLayout",
    "TreeLayout",
    "average_profile",
    "average_strategy",
    "build_layout",
    "counterfactual_values",
    "infoset_sums",
    "largest_magnitude",
    "normalise",
    "others_reach",
    "realization_plan",
    "regret_matching",
    "sequence_counterfactual_values",
    "sequence_layout",
    "ties_cleared",
    "to_table_order",
]


@dataclass(frozen=True)
class Level:
    """One depth of a player's information-set tree, in internal indices.

    sequences : the slice of internal sequence positions at this depth
    infosets : the slice of internal information-set indices at this depth
    starts : the first sequence of each of these information sets, relative to
        ``sequences.start`` (the offsets ``np.add.reduceat`` needs)
    actions : the number of actions of each of these information sets when they all have
        the same number (Kuhn poker: 2), else 0; then a per-infoset sum is ``actions``
        strided additions (:func:`infoset_sums`), several times faster than ``reduceat``
        over many short segments
    """

    sequences: slice
    infosets: slice
    starts: np.ndarray
    actions: int = 0


@dataclass(frozen=True, eq=False)
class PlayerLayout:
    """One player's sequences in internal order (see the module docstring).

    table : the player's label table, in the compiled tree's numbering
    order : per internal position, the table's sequence index (``order[0] == 0``)
    sequence_infoset : per internal position, its internal information set (-1 at 0)
    sequence_parent : per internal position, the parent sequence of its information set
        (0 at 0), so that ``x[s] = x[sequence_parent[s]] * b[s]``
    infoset_parent : per internal information set, its parent sequence (internal)
    infoset_first : per internal information set, its first sequence (internal)
    action_count : per internal position, the number of actions of its information set
    levels : the depths of the information-set tree, shallowest first
    terminal_sequence : per terminal of the tree, the player's internal sequence there
    terminal_utility : per terminal, chance probability times the player's payoff
    """

    table: PlayerSequences
    order: np.ndarray
    sequence_infoset: np.ndarray
    sequence_parent: np.ndarray
    infoset_parent: np.ndarray
    infoset_first: np.ndarray
    action_count: np.ndarray
    levels: tuple[Level, ...]
    terminal_sequence: np.ndarray
    terminal_utility: np.ndarray

    @property
    def num_sequences(self) -> int:
        return len(self.order)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_first)


@dataclass(frozen=True, eq=False)
class TreeLayout:
    """Every player's layout of one game, computed once by :func:`build_layout`."""

    players: tuple[PlayerLayout, ...]


def build_layout(game: Game) -> TreeLayout:
    """Renumber every player's sequences by depth and attach the terminals' data
    (the utility of player ``i`` is chance times ``i``'s own payoff, so general-sum and
    n-player games need nothing else)."""
    flat = game.flat
    return TreeLayout(
        players=tuple(
            _player_layout(
                flat.tables[player],
                flat.terminal_sequences[player],
                flat.terminal_reach * flat.terminal_payoffs[player],
            )
            for player in range(flat.num_players)
        )
    )


def _infoset_order(depth: np.ndarray, within_depth: np.ndarray | None) -> np.ndarray:
    """Internal information set -> table information set: by depth, then by the key, then
    as the table numbers them."""
    if within_depth is None:
        return np.argsort(depth, kind="stable")
    return np.lexsort((within_depth, depth))


CHUNK = 1 << 22
"""Sequences per slice where a per-sequence index is computed piecewise: the temporaries of
one slice (a few tens of MB) instead of arrays as long as the table (on a flop, gigabytes)."""


def _player_layout(
    table: PlayerSequences,
    terminal_sequences: np.ndarray,
    utility: np.ndarray,
    within_depth: np.ndarray | None = None,
    index: type[np.signedinteger] = np.int64,
) -> PlayerLayout:
    """The layout of ``table`` with its index arrays in ``index`` (int32 where every index
    fits), built without a per-sequence temporary longer than :data:`CHUNK`."""
    counts = table.action_counts()
    depth = infoset_depths(table)
    infoset_order = _infoset_order(depth, within_depth)
    sorted_depth = depth[infoset_order]
    del depth
    internal_counts = counts[infoset_order].astype(index)
    infoset_first = np.ones(table.num_infosets, dtype=index)
    infoset_first[1:] += np.cumsum(internal_counts, dtype=index)[:-1]
    position, order = _positions(table, infoset_order, infoset_first)
    sequence_infoset = np.repeat(
        np.arange(-1, table.num_infosets, dtype=index),
        np.concatenate([np.ones(1, dtype=index), internal_counts]),
    )
    infoset_parent = position[table.parent_sequence[infoset_order]]
    sequence_parent = np.zeros(table.num_sequences, dtype=index)
    np.take(infoset_parent, sequence_infoset[1:], out=sequence_parent[1:], mode="clip")
    action_count = np.ones(table.num_sequences, dtype=index)
    np.take(internal_counts, sequence_infoset[1:], out=action_count[1:], mode="clip")

    levels = _levels(sorted_depth, infoset_first, internal_counts)
    return PlayerLayout(
        table=table,
        order=order,
        sequence_infoset=sequence_infoset,
        sequence_parent=sequence_parent,
        infoset_parent=infoset_parent,
        infoset_first=infoset_first,
        action_count=action_count,
        levels=levels,
        terminal_sequence=position[terminal_sequences].astype(np.int64),
        terminal_utility=utility,
    )


def _positions(
    table: PlayerSequences, infoset_order: np.ndarray, infoset_first: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per table sequence its internal position, and its inverse ``order``, in
    ``infoset_first``'s integer type: the empty sequence stays at 0, the actions of each
    information set follow its internal first position in action order.  A table
    information set's sequences are contiguous, so each shifts by one number per set."""
    index = infoset_first.dtype
    rank = np.empty(table.num_infosets, dtype=index)
    rank[infoset_order] = np.arange(table.num_infosets, dtype=index)
    shift = infoset_first[rank] - table.first_sequence.astype(index)
    del rank
    position = np.zeros(table.num_sequences, dtype=index)
    order = np.zeros(table.num_sequences, dtype=index)
    for low in range(1, table.num_sequences, CHUNK):
        high = min(low + CHUNK, table.num_sequences)
        part = position[low:high]
        np.take(shift, table.sequence_infoset[low:high], out=part, mode="clip")
        part += np.arange(low, high, dtype=index)
        order[part] = np.arange(low, high, dtype=index)
    return position, order


def _levels(
    sorted_depth: np.ndarray, infoset_first: np.ndarray, internal_counts: np.ndarray
) -> tuple[Level, ...]:
    """The :class:`Level` of each depth, from the internal information sets' depths."""
    levels = []
    for level in range(int(sorted_depth.max()) + 1 if len(sorted_depth) else 0):
        low, high = np.searchsorted(sorted_depth, [level, level + 1])
        first = int(infoset_first[low])
        last = int(infoset_first[high - 1] + internal_counts[high - 1])
        level_counts = np.unique(internal_counts[low:high])
        levels.append(
            Level(
                sequences=slice(first, last),
                infosets=slice(int(low), int(high)),
                starts=infoset_first[low:high] - first,
                actions=int(level_counts[0]) if len(level_counts) == 1 else 0,
            )
        )
    return tuple(levels)


def sequence_layout(table: PlayerSequences, within_depth: np.ndarray | None = None) -> PlayerLayout:
    """A player's layout from the sequence table alone, without terminals: for the
    structured route, whose sequence payoffs come from products
    (:func:`sequence_counterfactual_values`).  ``within_depth``: per table information set,
    a key that orders the information sets of one depth (stable; by default the table's
    order) — the public node, say, so that one node's hands sit side by side.  The index
    arrays are int32 where every index fits: a public tree × hands game has tens of millions
    of sequences (a flop: 221 million), and these arrays are most of what vector CFR keeps
    beside its own state."""
    index = np.int32 if table.num_sequences < 2**31 else np.int64
    return _player_layout(table, np.zeros(0, dtype=np.int64), np.zeros(0), within_depth, index)


def to_table_order(
    layout: PlayerLayout, values: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """An array on internal positions, rearranged onto the table's sequence indices (into
    ``out`` when given)."""
    result = np.empty_like(values) if out is None else out
    result[layout.order] = values
    return result


def largest_magnitude(values: np.ndarray) -> float:
    """``max |v|`` (0 for an empty array), without an array of magnitudes."""
    return float(max(np.max(values, initial=0.0), -np.min(values, initial=0.0)))


def realization_plan(
    layout: PlayerLayout, behaviour: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """``x[s] = x[parent] * b[s]``, one slice per depth, shallowest first (into ``out``
    when given: an iteration's passes reuse their arrays)."""
    plan = np.ones(layout.num_sequences) if out is None else out
    plan[0] = 1.0
    parent = layout.sequence_parent
    for level in layout.levels:
        part = level.sequences
        np.multiply(plan[parent[part]], behaviour[part], out=plan[part])
    return plan


@dataclass(frozen=True)
class CounterfactualValues:
    """Counterfactual values of one player's sequences and information sets.

    sequences : ``v(h, a)`` per internal sequence; index 0 is the value of the whole game
        to the player (against the weights given)
    infosets : ``v(h)`` per internal information set
    """

    sequences: np.ndarray
    infosets: np.ndarray

    def regrets(self, layout: PlayerLayout, out: np.ndarray | None = None) -> np.ndarray:
        """Instantaneous regrets ``v(h, a) - v(h)`` per internal sequence (0 at index 0),
        into ``out`` when given."""
        regret = np.empty_like(self.sequences) if out is None else out
        regret[0] = 0.0
        np.subtract(self.sequences[1:], self.infosets[layout.sequence_infoset[1:]], out=regret[1:])
        return regret


def counterfactual_values(
    layout: PlayerLayout, behaviour: np.ndarray, terminal_weights: np.ndarray
) -> CounterfactualValues:
    """The bottom-up pass of the module docstring.

    Parameters
    ----------
    layout
        The player's layout.
    behaviour
        The player's own behaviour ``b`` on internal positions.
    terminal_weights
        ``w(z)`` per terminal: for CFR, chance times opponent reach times the payoff.
    """
    values = np.bincount(
        layout.terminal_sequence, weights=terminal_weights, minlength=layout.num_sequences
    )
    return sequence_counterfactual_values(layout, behaviour, values, in_place=True)


def sequence_counterfactual_values(
    layout: PlayerLayout, behaviour: np.ndarray, values: np.ndarray, *, in_place: bool = False
) -> CounterfactualValues:
    """The bottom-up pass from each sequence's own payoff ``values`` (internal order): for
    two players ``A y`` (player 0) or ``−Aᵀ x`` (player 1) of the sequence form, KMvS 1996,
    which the structured route computes without the tree (vector CFR,
    :mod:`seqform.structured.vector_cfr`).  A copy of ``values`` is added to, or with
    ``in_place`` (a float array the caller no longer needs) ``values`` itself."""
    values = values if in_place else np.array(values, dtype=float)
    infoset_values = np.zeros(layout.num_infosets)
    for level in reversed(layout.levels):
        part = level.sequences
        weighted = behaviour[part] * values[part]
        totals = infoset_sums(weighted, level.starts, level.actions)
        infoset_values[level.infosets] = totals
        np.add.at(values, layout.infoset_parent[level.infosets], totals)
    return CounterfactualValues(sequences=values, infosets=infoset_values)


def infoset_sums(values: np.ndarray, starts: np.ndarray | None, actions: int = 0) -> np.ndarray:
    """Per information set, the sum of ``values`` over its sequences (``starts``: where each
    begins); with ``actions`` > 0 every one has that many (``starts`` is not read), and the
    sums are ``actions`` strided additions, in the order ``np.add.reduceat`` adds."""
    if not actions:
        assert starts is not None, "infoset_sums needs the starts of mixed information sets"
        return np.add.reduceat(values, starts)
    columns = values.reshape(-1, actions)
    totals = columns[:, 0].copy()
    for column in range(1, actions):
        totals += columns[:, column]
    return totals


TIE_TOLERANCE = 1e-12
"""Instant regrets within this fraction of the largest sequence value are ties (set to 0)."""


def ties_cleared(
    regrets: np.ndarray, scale: float, tolerance: float, out: np.ndarray | None = None
) -> np.ndarray:
    """``regrets`` with those within ``tolerance × scale`` (``scale``: the largest sequence
    value) set to exactly 0: ties, where two actions of equal value differ only by the order
    of a sum.  Regret matching is discontinuous there (every regret 0: uniform; one at 1e-17:
    all on it), so round-off alone can send two implementations of one algorithm far apart:
    the structured route's running sums leave such noise where the tree's terminal sums often
    give exact zeros, and the tree's own sums are not always exact either.  ``tolerance`` 0
    (the tree's default, as OpenSpiel's solvers do) clears nothing; vector CFR uses
    :data:`TIE_TOLERANCE`, and the tree run with the same tolerance has the same iterates.
    Into ``out`` when given (``out`` may be ``regrets``: cleared in place)."""
    if tolerance == 0.0:
        if out is None or out is regrets:
            return regrets
        np.copyto(out, regrets)
        return out
    cleared = np.array(regrets, dtype=float) if out is None else out
    if cleared is not regrets:
        np.copyto(cleared, regrets)
    bound = tolerance * scale  # |r| <= bound, without a float temporary
    np.copyto(cleared, 0.0, where=(cleared <= bound) & (cleared >= -bound))
    return cleared


def normalise(
    layout: PlayerLayout, weights: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """Behaviour proportional to non-negative ``weights`` per information set.

    Uniform where an information set's weights sum to 0; index 0 is 1.  Into ``out`` when
    given (``out`` may be ``weights``).
    """
    behaviour = np.ones(layout.num_sequences) if out is None else out
    behaviour[0] = 1.0
    if not layout.num_infosets:
        behaviour[1:] = 1.0
        return behaviour
    actions = {level.actions for level in layout.levels}
    if len(actions) == 1 and 0 not in actions:  # every information set has k actions
        return _normalise_blocks(weights, actions.pop(), behaviour)
    sums = np.add.reduceat(weights[1:], layout.infoset_first - 1)
    per_sequence = sums[layout.sequence_infoset[1:]]
    positive = per_sequence > 0.0
    np.divide(weights[1:], per_sequence, out=behaviour[1:], where=positive)
    np.divide(1.0, layout.action_count[1:], out=behaviour[1:], where=~positive)
    return behaviour


def _normalise_blocks(weights: np.ndarray, actions: int, behaviour: np.ndarray) -> np.ndarray:
    """:func:`normalise` where every information set has ``actions`` actions: the sequences
    after index 0 are a ``(infosets, actions)`` array, and each row is divided by its sum
    without gathering the sums onto the sequences."""
    rows = weights[1:].reshape(-1, actions)
    sums = infoset_sums(weights[1:], None, actions)
    empty = sums <= 0.0  # weights are non-negative: every weight of the row is 0
    sums[empty] = 1.0  # so the row divides to zeros, then becomes uniform
    out = behaviour[1:].reshape(-1, actions)
    np.divide(rows, sums[:, None], out=out)
    if empty.any():
        out[empty] = 1.0 / actions
    return behaviour


def regret_matching(
    layout: PlayerLayout, regrets: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """Behaviour proportional to positive regrets, uniform where none is positive (into
    ``out`` when given).

    Ties need no rule: the behaviour is a function of the positive parts only, as in
    OpenSpiel's ``cfr._regret_matching``.
    """
    return normalise(layout, np.maximum(regrets, 0.0, out=out), out=out)


def average_strategy(layout: PlayerLayout, cumulative: np.ndarray) -> BehaviouralStrategy:
    """The average behaviour ``S(h, a) / sum_b S(h, b)`` of cumulative weights ``S``.

    Uniform where an information set's weights sum to 0, as OpenSpiel's
    ``cfr._update_average_policy``.  ``cumulative[0]`` is the sum of the iterations'
    weights, so ``S / S[0]`` is the average realization plan; information sets whose
    average own reach ``S[parent] / S[0]`` is at most
    :data:`~seqform.forms.strategies.REACH_TOLERANCE`, or that never got any weight,
    are flagged unreached.

    The sums are float64 whatever the storage of ``S`` (a float32 run's average is read
    in float64 by its certificate); the probabilities are written onto the table's order a
    slice at a time, so the one array as long as the table is the answer itself.
    """
    table = layout.table
    probabilities = np.ones(layout.num_sequences)
    if not layout.num_infosets:
        return BehaviouralStrategy(table, probabilities, np.zeros(0, dtype=bool))
    mass = np.add.reduceat(cumulative[1:], layout.infoset_first - 1, dtype=np.float64)
    for low in range(1, layout.num_sequences, CHUNK):
        high = min(low + CHUNK, layout.num_sequences)
        sums = mass[layout.sequence_infoset[low:high]]
        positive = sums > 0.0
        part = np.divide(cumulative[low:high], sums, out=np.empty(high - low), where=positive)
        np.divide(1.0, layout.action_count[low:high], out=part, where=~positive)
        probabilities[layout.order[low:high]] = part
    # the average own reach of each information set, S[parent] / S[0], in float64
    reach = cumulative[layout.infoset_parent].astype(np.float64) / float(cumulative[0])
    unreached = np.zeros(table.num_infosets, dtype=bool)
    unreached[table.sequence_infoset[layout.order[layout.infoset_first]]] = (
        reach <= REACH_TOLERANCE
    ) | (mass <= 0.0)
    return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=unreached)


def average_profile(
    layout: TreeLayout, cumulative: list[np.ndarray]
) -> tuple[BehaviouralStrategy, ...]:
    """Every player's :func:`average_strategy`."""
    return tuple(
        average_strategy(player, weights)
        for player, weights in zip(layout.players, cumulative, strict=True)
    )


def others_reach(layout: TreeLayout, plans: list[np.ndarray], player: int) -> np.ndarray:
    """Per terminal, ``prod_{j != player} x_j[s_j(z)]`` (plans on internal positions);
    the counterfactual weight of ``z`` is this times ``player``'s terminal utility."""
    reach = None
    for other, (own, plan) in enumerate(zip(layout.players, plans, strict=True)):
        if other != player:
            part = plan[own.terminal_sequence]
            reach = part if reach is None else reach * part
    assert reach is not None  # a game has at least two players
    return reach
