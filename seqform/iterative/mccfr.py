"""External-sampling Monte Carlo CFR (Lanctot et al. 2009), vectorised over the nodes.

One iteration updates player 0, then player 1, ... (the *traverser* ``i``; ``-i`` the
others, one player in a two-player game):

1. every chance node and every node of ``-i`` draws one child — chance by its
   probabilities, each other player by its current behaviour; ``i``'s nodes keep all
   children.  The
   nodes reachable through drawn children only form the sampled tree (drawing at every
   node and keeping the reachable ones samples exactly as the recursive traversal does,
   which draws once at each node it visits);
2. sampled counterfactual values: the bottom-up pass of
   :func:`seqform.iterative.passes.counterfactual_values` with terminal weight
   ``u_i(z)`` on sampled terminals and 0 elsewhere (chance and opponent probabilities
   cancel against the sampling probabilities), and regrets ``R += v(h, a) - v(h)``;
3. the average strategy of each of ``-i`` by *simple* averaging: each sampled node
   of theirs adds its current behaviour to its information set's cumulative weights (as
   OpenSpiel's ``AverageType.SIMPLE``); the visits are drawn with ``-i``'s own reach,
   so the average is reach-weighted in expectation;
4. ``i``'s behaviour by regret matching.

The random numbers come from ``numpy.random.default_rng(seed)``; the same seed gives the
same run.  Each iteration costs a few passes over all nodes (one slice per depth), so on
the small games here it is *slower* per iteration than full-tree CFR on the sequence
form; its interest is the variance-reduced estimate, not the speed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision
from seqform.iterative.layout import TreeLayout, build_layout
from seqform.iterative.passes import average_profile, counterfactual_values, regret_matching
from seqform.iterative.run import (
    DEFAULT_EVERY,
    IterativeResult,
    OnSample,
    Stopping,
    run_iterations,
)

__all__ = ["DEFAULT_SEED", "external_sampling_mccfr"]

DEFAULT_SEED = 0
"""The seed used when none is given."""


@dataclass(frozen=True, eq=False)
class NodeLayout:
    """The nodes of the compiled tree as arrays for sampling (node 0 is the root).

    owner : per node, the acting player at decision nodes, -1 at chance, -2 at terminals
    infoset : per decision node, its internal information set (see the layout), else -1
    edge_sequence : per node below a decision node, the internal sequence of the edge
        into it (in the deciding player's layout), else 0
    chance_probability : per node below a chance node, the probability of the edge
    parent_owner : per node, the owner of its parent (-3 at the root)
    siblings : the non-root nodes grouped by parent, in edge order
    first, last : per parent node (in ``parents`` order), its first and one-past-last
        position in ``siblings``
    levels : node indices by depth, root first
    """

    owner: np.ndarray
    infoset: np.ndarray
    edge_sequence: np.ndarray
    chance_probability: np.ndarray
    parent_owner: np.ndarray
    siblings: np.ndarray
    first: np.ndarray
    last: np.ndarray
    levels: tuple[np.ndarray, ...]


def build_node_layout(game: Game, layout: TreeLayout) -> NodeLayout:
    """One pass over the node objects; everything after it is arrays."""
    flat = game.flat
    count = flat.num_nodes
    owner = np.where(flat.kind == 0, -2, -1).astype(np.int64)
    infoset = np.full(count, -1, dtype=np.int64)
    internal = []
    for own in layout.players:
        table_infoset = own.table.sequence_infoset[own.order[own.infoset_first]]
        mapping = np.empty(own.num_infosets, dtype=np.int64)
        mapping[table_infoset] = np.arange(own.num_infosets)
        internal.append((own.table.index_of_infoset(), mapping))
    for index, node in enumerate(flat.nodes):
        if type(node) is Decision:
            names, mapping = internal[node.player]
            owner[index] = node.player
            infoset[index] = mapping[names[node.infoset]]
    parent = flat.parent
    below = np.arange(1, count)
    parent_owner = np.full(count, -3, dtype=np.int64)
    parent_owner[below] = owner[parent[below]]
    chance_probability = np.zeros(count)
    for index in below[parent_owner[below] == -1]:
        node = flat.nodes[int(parent[index])]
        assert isinstance(node, Chance)
        chance_probability[index] = float(node.probabilities[int(flat.edge[index])])
    edge_sequence = np.zeros(count, dtype=np.int64)
    for player in range(len(layout.players)):
        mine = below[parent_owner[below] == player]
        first_sequence = layout.players[player].infoset_first[infoset[parent[mine]]]
        edge_sequence[mine] = first_sequence + flat.edge[mine]
    siblings = below[np.argsort(parent[below], kind="stable")]
    _, first = np.unique(parent[siblings], return_index=True)
    last = np.append(first[1:], len(siblings))
    depth = np.zeros(count, dtype=np.int64)
    for index in range(1, count):  # preorder: a parent comes before its children
        depth[index] = depth[parent[index]] + 1
    by_depth = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[by_depth], np.arange(int(depth.max()) + 2))
    levels = tuple(by_depth[bounds[d] : bounds[d + 1]] for d in range(len(bounds) - 1))
    return NodeLayout(
        owner=owner,
        infoset=infoset,
        edge_sequence=edge_sequence,
        chance_probability=chance_probability,
        parent_owner=parent_owner,
        siblings=siblings,
        first=first,
        last=last,
        levels=levels,
    )


class _ExternalSampling:
    """Regrets, simple-average weights and current behaviour of every player."""

    def __init__(self, game: Game, seed: int) -> None:
        self.layout = build_layout(game)
        self.nodes = build_node_layout(game, self.layout)
        self.rng = np.random.default_rng(seed)
        self.parent = game.flat.parent
        self.terminals = game.flat.terminals
        self.payoffs = tuple(game.flat.terminal_payoffs)
        self.regrets = [np.zeros(player.num_sequences) for player in self.layout.players]
        self.cumulative = [np.zeros(player.num_sequences) for player in self.layout.players]
        self.behaviour = [
            regret_matching(player, regrets)
            for player, regrets in zip(self.layout.players, self.regrets, strict=True)
        ]

    def _sampled_tree(self, traverser: int) -> np.ndarray:
        """Which nodes the external sample reaches (step 1 of the module docstring)."""
        nodes = self.nodes
        if len(nodes.first) == 0:  # a terminal root: no choice to sample, the root alone
            return np.ones(1, dtype=bool)
        probability = nodes.chance_probability.copy()
        for other in self._others(traverser):
            theirs = nodes.parent_owner == other
            probability[theirs] = self.behaviour[other][nodes.edge_sequence[theirs]]
        cumulative = np.cumsum(probability[nodes.siblings])
        base = np.where(nodes.first > 0, cumulative[nodes.first - 1], 0.0)
        total = cumulative[nodes.last - 1] - base
        target = base + self.rng.random(len(nodes.first)) * total
        picked = np.minimum(np.searchsorted(cumulative, target, side="right"), nodes.last - 1)
        allowed = nodes.parent_owner == traverser
        allowed[nodes.siblings[picked]] = True
        kept = np.zeros(len(allowed), dtype=bool)
        kept[0] = True
        for level in nodes.levels[1:]:
            kept[level] = kept[self.parent[level]] & allowed[level]
        return kept

    def _others(self, traverser: int) -> list[int]:
        return [player for player in range(len(self.layout.players)) if player != traverser]

    def step(self, iteration: int) -> None:
        for traverser in range(len(self.layout.players)):
            kept = self._sampled_tree(traverser)
            own = self.layout.players[traverser]
            weights = np.where(kept[self.terminals], self.payoffs[traverser], 0.0)
            values = counterfactual_values(own, self.behaviour[traverser], weights)
            self.regrets[traverser] += values.regrets(own)
            for other in self._others(traverser):
                visited = kept & (self.nodes.owner == other)
                theirs = self.layout.players[other]
                visits = np.bincount(self.nodes.infoset[visited], minlength=theirs.num_infosets)
                self.cumulative[other][1:] += (
                    visits[theirs.sequence_infoset[1:]] * self.behaviour[other][1:]
                )
                self.cumulative[other][0] += 1.0
            self.behaviour[traverser] = regret_matching(own, self.regrets[traverser])

    def average(self) -> tuple[BehaviouralStrategy, ...]:
        return average_profile(self.layout, self.cumulative)


def external_sampling_mccfr(
    game: Game,
    iterations: int | None = None,
    *,
    seed: int | None = None,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """External-sampling MCCFR with simple averaging; ``seed`` defaults to
    :data:`DEFAULT_SEED` (0), and the result records the seed used.

    Stops as :func:`seqform.iterative.cfr.cfr` does.
    """
    stopping = Stopping(iterations, target, time_limit, every)
    used = DEFAULT_SEED if seed is None else seed
    if not isinstance(used, int) or isinstance(used, bool) or used < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    stepper = _ExternalSampling(game, used)
    return run_iterations(game, stepper, stopping, "mccfr", on_sample, seed=used)
