"""How many nodes a dealt game tree has, counted without building it.

Every built-in card game is a deal followed by the public betting, written once per deal
(:mod:`seqform.game.public.explicit`).  Its tree therefore has

    nodes = deal nodes + deals × nodes per deal,

where *deal nodes* are the chance nodes that deal the private hands, *deals* the ordered
pairs of hands that can be dealt together, and *nodes per deal* the nodes of the public
tree under one deal (decisions of both players, terminals, public chance nodes and what
follows them).  Each game states its three numbers where it is defined
(``game/builtin/kuhn``'s registry entry, ``game/builtin/leduc``,
``game/public_explicit``); this module holds the rule once.
"""

from __future__ import annotations

__all__ = ["dealt_tree_nodes"]


def dealt_tree_nodes(deal_nodes: int, deals: int, nodes_per_deal: int) -> int:
    """``deal_nodes + deals * nodes_per_deal``: the nodes of a tree that deals, then plays
    the same public tree under every deal (module docstring).

    Parameters
    ----------
    deal_nodes
        Chance nodes dealing the private hands: 1 for one chance node over all ordered
        deals (Kuhn), ``1 + D`` for Leduc's card-by-card deal from a deck of ``D`` cards.
    deals
        Ordered pairs of hands that can be dealt together.
    nodes_per_deal
        Nodes of the public tree below one deal.
    """
    if min(deal_nodes, deals, nodes_per_deal) < 0:
        raise ValueError(
            f"node counts must not be negative, got deal_nodes={deal_nodes}, deals={deals}, "
            f"nodes_per_deal={nodes_per_deal}"
        )
    return deal_nodes + deals * nodes_per_deal
