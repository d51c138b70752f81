"""The passes of counterfactual regret minimisation over a player's internal order.

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

Each pass runs one slice per depth of :class:`~seqform.iterative.layout.PlayerLayout`'s
internal order, shallowest first (plans) or deepest first (values).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from seqform.forms.strategies import REACH_TOLERANCE, BehaviouralStrategy
from seqform.iterative.layout import CHUNK, PlayerLayout, TreeLayout

__all__ = [
    "TIE_TOLERANCE",
    "CounterfactualValues",
    "average_plan",
    "average_profile",
    "average_strategy",
    "counterfactual_values",
    "infoset_sums",
    "largest_magnitude",
    "normalise",
    "others_reach",
    "realization_plan",
    "regret_matching",
    "sequence_counterfactual_values",
    "ties_cleared",
]


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
    starts = layout.level_starts if any(not level.actions for level in layout.levels) else None
    for index in range(len(layout.levels) - 1, -1, -1):
        level = layout.levels[index]
        part = level.sequences
        weighted = behaviour[part] * values[part]
        totals = infoset_sums(weighted, None if starts is None else starts[index], level.actions)
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
    # each set's sum repeated over its actions, which sit side by side: no per-sequence
    # index of the information sets (a compiled run's initial behaviour comes here)
    per_sequence = np.repeat(sums, layout.action_count[layout.infoset_first])
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


def _infoset_mass(layout: PlayerLayout, cumulative: np.ndarray) -> np.ndarray:
    """Per information set the float64 sum of its sequences' ``cumulative``, a slice of
    information sets at a time: ``np.add.reduceat`` into float64 of a float32 array first
    copies the whole array into float64 (on a flop 8 bytes a sequence, the peak of a
    certificate), and a slice's sums are the same sums, bit for bit."""
    first = layout.infoset_first
    mass = np.empty(layout.num_infosets)
    step = max(1, CHUNK // 4)
    for low in range(0, layout.num_infosets, step):
        high = min(low + step, layout.num_infosets)
        start = int(first[low])
        stop = int(first[high]) if high < layout.num_infosets else layout.num_sequences
        np.add.reduceat(
            cumulative[start:stop], first[low:high] - start, dtype=np.float64, out=mass[low:high]
        )
    return mass


def _sequence_mass(
    layout: PlayerLayout, cumulative: np.ndarray
) -> Iterator[tuple[int, int, np.ndarray]]:
    """Per slice of information sets (:data:`~seqform.iterative.layout.CHUNK` / 16 at a
    time: a slice's temporaries are some 12 MB), its sequences ``start:stop`` and each
    one's information set's float64 sum of ``cumulative`` (:func:`_infoset_mass`'s sums,
    bit for bit): no per-information-set array as long as the table's, and no per-sequence
    index of the information sets (the sequences of a slice are its information sets' in
    turn)."""
    first = layout.infoset_first
    step = max(1, CHUNK // 16)
    for low in range(0, layout.num_infosets, step):
        high = min(low + step, layout.num_infosets)
        start = int(first[low])
        stop = int(first[high]) if high < layout.num_infosets else layout.num_sequences
        offsets = first[low:high] - start
        mass = np.add.reduceat(cumulative[start:stop], offsets, dtype=np.float64)
        yield start, stop, np.repeat(mass, np.diff(offsets, append=stop - start))


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
    for start, stop, sums in _sequence_mass(layout, cumulative):
        positive = sums > 0.0
        part = np.divide(cumulative[start:stop], sums, out=np.empty(stop - start), where=positive)
        np.divide(1.0, layout.action_count[start:stop], out=part, where=~positive)
        probabilities[layout.order[start:stop]] = part
        del sums, positive, part
    mass = _infoset_mass(layout, cumulative)
    # the average own reach of each information set, S[parent] / S[0], in float64
    reach = cumulative[layout.infoset_parent].astype(np.float64) / float(cumulative[0])
    unreached = np.zeros(table.num_infosets, dtype=bool)
    unreached[table.sequence_infoset[layout.order[layout.infoset_first]]] = (
        reach <= REACH_TOLERANCE
    ) | (mass <= 0.0)
    return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=unreached)


def average_plan(
    layout: PlayerLayout, cumulative: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """The realization plan of :func:`average_strategy`'s behaviour, in float64 on the
    internal order (into ``out`` when given): ``x[h, a] = x[parent(h)] * b(a | h)`` with
    ``b`` the average behaviour, the same products as
    :func:`~seqform.forms.strategies.plan_from_behaviour` of the average, so the same plan
    bit for bit, without the behaviour or the plan in the table's order (two arrays as long
    as the table, which a run's certificate need not hold).  Written a slice at a time:
    first the behaviour, then, depth by depth, each slice times its parents' plan (a
    parent is at a shallower depth, so it is final when read)."""
    plan = np.ones(layout.num_sequences) if out is None else out
    plan[0] = 1.0
    if not layout.num_infosets:
        plan[1:] = 1.0
        return plan
    for start, stop, sums in _sequence_mass(layout, cumulative):
        positive = sums > 0.0
        part = plan[start:stop]
        np.divide(cumulative[start:stop], sums, out=part, where=positive)
        np.divide(1.0, layout.action_count[start:stop], out=part, where=~positive)
        del sums, positive
    step = max(1, CHUNK // 16)  # the parents' plans gathered: 8 bytes a sequence of a slice
    for level in layout.levels:
        for low in range(level.sequences.start, level.sequences.stop, step):
            high = min(low + step, level.sequences.stop)
            part = plan[low:high]
            np.multiply(plan[layout.sequence_parent[low:high]], part, out=part)
    return plan


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
