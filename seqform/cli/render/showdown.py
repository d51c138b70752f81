"""Text and JSON for a :class:`~seqform.analyses.showdown.ShowdownSolution`.

With up to :data:`FULL_TABLE_CARDS` cards the strategies are printed information set by
information set; above that, per betting node and action, as the card ranges where the
action is always played and where it is mixed (cards are ranked 1 .. N, low to high).

JSON schema ``seqform.sparsified/1`` (new keys may be added, none removed or renamed)::

    {
      "schema": "seqform.sparsified/1",
      "game": {"name": str, "description": str, "cards": int, "tree_nodes": int,
               "terminals": int},
      "method": "sparsified",
      "value": float, "value_fraction": str | null,
      "sizes": {"players": [{"name": str, "infosets": int, "sequences": int}, ×2]},
      "solver": {...as in seqform.solve/1...},
      "timings": {"sequence_form", "lp", "behaviour", "certificate", "total"},
      "certificate": {...as in seqform.solve/1...},
      "strategies": [{"player": 1 | 2, "name": str,
                      "nodes": [{"history": str, "actions": [str],
                                 "always": {action: [[first, last], ...]},
                                 "mixed": {action: [[first, last], ...]},
                                 "unreached_cards": int,
                                 "probabilities": [[float, ...] per card] | null}]}, ×2]
    }

``always``/``mixed`` give inclusive card ranges (1-based).  ``probabilities`` is present
(per card, per action) up to :data:`JSON_PROBABILITY_CARDS` cards, ``null`` above.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from seqform.analyses.showdown import ShowdownSolution
from seqform.cli.render.blocks import (
    EQUILIBRIUM_TOLERANCE,
    certificate_json,
    certificate_lines,
    game_json,
    header,
    solver_json,
    strategy_lines,
    timings_json,
    value_lines,
)
from seqform.cli.render.numbers import (
    count_text,
    fraction_text,
)
from seqform.cli.render.strategies import UNREACHED_FLAG, legend_lines
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.showdown_poker import ShowdownPoker
from seqform.structured.showdown import card_matrix, node_matrix

__all__ = [
    "FULL_TABLE_CARDS",
    "JSON_PROBABILITY_CARDS",
    "SCHEMA",
    "card_ranges",
    "showdown_json",
    "showdown_text",
]

SCHEMA = "seqform.sparsified/1"
FULL_TABLE_CARDS = 13
JSON_PROBABILITY_CARDS = 2000
PURE = 1e-6  # a probability within this of 0 or 1 counts as pure in the summaries
NAMES = ("Player 1", "Player 2")


def card_ranges(mask: np.ndarray) -> list[tuple[int, int]]:
    """The runs of True in ``mask`` as inclusive 1-based ``(first, last)`` card ranges."""
    padded = np.concatenate([[False], np.asarray(mask, dtype=bool), [False]])
    edges = np.flatnonzero(np.diff(padded.astype(np.int8)))
    return [(int(a) + 1, int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _ranges_text(ranges: list[tuple[int, int]], limit: int = 4) -> str:
    parts = [f"{a}" if a == b else f"{a}–{b}" for a, b in ranges[:limit]]
    if len(ranges) > limit:
        parts.append(f"… ({len(ranges) - limit} more ranges)")
    return ", ".join(parts)


def _node_summaries(poker: ShowdownPoker, behaviour: BehaviouralStrategy) -> list[dict[str, Any]]:
    table = poker.betting_table
    player = behaviour.player
    by_card = card_matrix(poker, player, behaviour.probabilities)
    unreached = node_matrix(poker, player, behaviour.unreached)
    nodes = []
    for node, history in enumerate(table.nodes[player]):
        sequences = table.node_sequences[player][node]
        actions = table.node_actions[player][node]
        probabilities = by_card[:, sequences]
        always = {a: card_ranges(probabilities[:, k] >= 1 - PURE) for k, a in enumerate(actions)}
        mixed = {
            a: card_ranges((probabilities[:, k] > PURE) & (probabilities[:, k] < 1 - PURE))
            for k, a in enumerate(actions)
        }
        nodes.append(
            {
                "history": history,
                "actions": list(actions),
                "always": always,
                "mixed": mixed,
                "unreached_cards": int(unreached[:, node].sum()),
                "probabilities": (
                    probabilities.tolist() if poker.cards <= JSON_PROBABILITY_CARDS else None
                ),
            }
        )
    return nodes


def _words(poker: ShowdownPoker, player: int, node: int, action: str) -> str:
    if poker.describe_action is None:
        return action
    return poker.describe_action(poker.infoset_name(player, 0, node), action)


def _table_lines(poker: ShowdownPoker, behaviour: BehaviouralStrategy) -> list[str]:
    """Information set by information set, in the table's (card-major) order, as the tree
    route writes them (:func:`seqform.cli.render.blocks.strategy_lines`), with the legend."""
    table = behaviour.table
    nodes = poker.betting_table.num_nodes(behaviour.player)
    index = {name: infoset for infoset, name in enumerate(table.infosets)}

    def words(name: str, action: str) -> str:
        return _words(poker, behaviour.player, index[name] % nodes, action)

    title = f"{NAMES[behaviour.player]} — behavioural strategy"
    lines = strategy_lines(behaviour, title, words, UNREACHED_FLAG)
    return lines + legend_lines(poker, table.infosets)


def _strategy_lines(poker: ShowdownPoker, behaviour: BehaviouralStrategy) -> list[str]:
    player = behaviour.player
    if poker.cards <= FULL_TABLE_CARDS:
        return _table_lines(poker, behaviour)
    lines = [
        f"{NAMES[player]} — behavioural strategy by card (1 = lowest … {poker.cards} = highest)"
    ]
    for node, summary in enumerate(_node_summaries(poker, behaviour)):
        where = summary["history"] or "start"
        lines.append(f"  after {where!r}:" if summary["history"] else "  at the start:")
        for action in summary["actions"]:
            words = _words(poker, player, node, action)
            always, mixed = summary["always"][action], summary["mixed"][action]
            text = f"always {_ranges_text(always)}" if always else "never pure"
            if mixed:
                text += f"; mixed at {_ranges_text(mixed)}"
            lines.append(f"    {words:<6} {text}")
        if summary["unreached_cards"]:
            lines.append(f"    (unreached with {count_text(summary['unreached_cards'])} cards)")
    return lines


def showdown_text(solution: ShowdownSolution) -> str:
    """A human-readable report: value, sizes, solver, certificate, strategy summaries."""
    poker = solution.poker
    table = poker.betting_table
    stats = solution.stats
    timings = solution.timings
    exploitability = float(solution.certificate.exploitability)
    solver = (
        "Clarabel interior point"
        if stats.backend == "clarabel"
        else f"HiGHS {stats.algorithm} via highs"
    )
    lines = [
        header(poker.name, poker.description),
        *value_lines(f"Value to {NAMES[0]}", solution.value, solution.certificate),
        "",
        "Sparsified sequence form (Zhang and Sandholm 2020), without the game tree",
        f"  {'':<18}{NAMES[0]:>12}  {NAMES[1]:>12}",
        f"  {'information sets':<18}{poker.num_infosets(0):>12,}  {poker.num_infosets(1):>12,}",
        f"  {'sequences':<18}{poker.num_sequences(0):>12,}  {poker.num_sequences(1):>12,}",
        f"  game tree, not built: {count_text(poker.tree_nodes)} nodes, "
        f"{count_text(poker.num_leaves)} terminal "
        f"histories ({len(table.leaf_payoff)} betting leaves per deal)",
        "",
        f"Solver: {solver}, {stats.status} after {count_text(stats.iterations)} iterations",
        f"  LP {count_text(stats.variables)} variables × {count_text(stats.constraints)} "
        f"constraints, {count_text(stats.nonzeros)} non-zeros; solve {stats.seconds:.3f} s, "
        f"total {timings.total:.3f} s",
        f"  outside the solver {timings.total - stats.seconds:.3f} s (LP build "
        f"{timings.sequence_form:.3f}, hand-over {timings.lp - stats.seconds:.3f}, "
        f"strategies {timings.behaviour:.3f}, certificate {timings.certificate:.3f})",
        *certificate_lines(
            solution.certificate,
            NAMES,
            "best responses by sorted-card sums",
            failure=f"an ε-equilibrium with ε = {exploitability:.2g}, "
            f"NOT within {EQUILIBRIUM_TOLERANCE:g}",
        ),
    ]
    for behaviour in solution.strategies:
        lines.append("")
        lines += _strategy_lines(poker, behaviour)
    return "\n".join(lines)


def showdown_json(solution: ShowdownSolution) -> dict[str, Any]:
    """The ``seqform.sparsified/1`` document of the module docstring."""
    poker = solution.poker
    return {
        "schema": SCHEMA,
        "game": game_json(
            poker.name,
            poker.description,
            cards=poker.cards,
            tree_nodes=poker.tree_nodes,
            terminals=poker.num_leaves,
        ),
        "method": "sparsified",
        "value": solution.value,
        "value_fraction": fraction_text(solution.value),
        "sizes": {
            "players": [
                {
                    "name": NAMES[p],
                    "infosets": poker.num_infosets(p),
                    "sequences": poker.num_sequences(p),
                }
                for p in (0, 1)
            ]
        },
        "solver": solver_json(solution.stats),
        "timings": timings_json(solution.timings),
        "certificate": certificate_json(solution.certificate),
        "strategies": [
            {
                "player": p + 1,
                "name": NAMES[p],
                "nodes": [
                    {
                        **node,
                        "always": {a: [list(r) for r in v] for a, v in node["always"].items()},
                        "mixed": {a: [list(r) for r in v] for a, v in node["mixed"].items()},
                    }
                    for node in _node_summaries(poker, solution.strategies[p])
                ],
            }
            for p in (0, 1)
        ],
    }
