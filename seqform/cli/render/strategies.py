"""Both players' strategies in a text report, at any size: every information set for small
games, a summary above :data:`SUMMARY_ABOVE`, and a legend that explains the labels.

``--strategies`` chooses: ``auto`` (the default) prints every information set when both
players have at most :data:`SUMMARY_ABOVE` together, else a summary; ``all`` always prints
every one; ``summary`` always summarises.  A summary gives each player's count of
information sets, how many their own play reaches and how many of those it mixes, then the
:data:`MOST_MIXED` most mixed reached ones, ranked by the entropy of their action
probabilities (``-sum p log2 p``, in bits; ties in table order), and says where the full
strategy is: ``--strategies all``, or ``--format json`` (complete at every size, best with
``--output FILE``).

Under each player's table a legend explains the longest label shown, for the built-in games
(:mod:`seqform.game.builtin.labels`): ``Labels: Qpb = holding Q, after check (p), bet (b);
p = check or fold, b = bet or call`` (on two lines when longer than :data:`LINE_WIDTH`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from seqform.cli.render.blocks import strategy_lines
from seqform.cli.render.numbers import count_text
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.labels import grammar_of
from seqform.game.builtin.showdown_poker import ShowdownPoker
from seqform.game.model import Game
from seqform.game.public_tree import StructuredGame

__all__ = [
    "CHOICES",
    "LABELS_HELP",
    "MOST_MIXED",
    "SUMMARY_ABOVE",
    "UNREACHED_FLAG",
    "StrategyTable",
    "entropy_bits",
    "legend_lines",
    "strategy_sections",
]

SUMMARY_ABOVE = 40  # information sets of both players; above, text reports summarise
MOST_MIXED = 10  # information sets shown in a summary, per player
CHOICES = ("auto", "all", "summary")  # the values of --strategies
LABELS_HELP = "README, 'Reading the output'"  # where labels and 'unreached' are explained
UNREACHED_FLAG = f"unreached by own play: {LABELS_HELP}"
LINE_WIDTH = 100  # a longer legend is split after the label
MIXED_TOLERANCE = 1e-9  # an information set is mixed when no action has probability above 1 - this


@dataclass(frozen=True)
class StrategyTable:
    """One player's strategy as a report shows it.

    strategy : the behavioural strategy (float or exact)
    title : the table's first line (``"Player 1 — behavioural strategy"``)
    flag : the note beside information sets the player's own play never reaches
    long_fractions : show long exact fractions as they are (an exact run) or as decimals
    """

    strategy: BehaviouralStrategy
    title: str
    flag: str = UNREACHED_FLAG
    long_fractions: bool = True


def entropy_bits(strategy: BehaviouralStrategy, infoset: int) -> float:
    """``-sum_a p(a) log2 p(a)`` at one information set: 0 for pure play, 1 for a fair coin."""
    probabilities = (float(strategy.probabilities[s]) for s in strategy.table.sequences_of(infoset))
    return -sum(p * math.log2(p) for p in probabilities if p > 0)


def _is_mixed(strategy: BehaviouralStrategy, infoset: int) -> bool:
    sequences = strategy.table.sequences_of(infoset)
    return max(float(strategy.probabilities[s]) for s in sequences) < 1 - MIXED_TOLERANCE


def _reached(strategy: BehaviouralStrategy) -> list[int]:
    return [i for i in range(strategy.table.num_infosets) if not strategy.unreached[i]]


def _most_mixed(strategy: BehaviouralStrategy) -> list[int]:
    """The :data:`MOST_MIXED` reached mixed information sets of highest entropy, in table
    order."""
    mixed = [i for i in _reached(strategy) if _is_mixed(strategy, i)]
    return sorted(sorted(mixed, key=lambda i: -entropy_bits(strategy, i))[:MOST_MIXED])


def _summary_lines(table: StrategyTable, words: Callable[[str, str], str]) -> list[str]:
    """The count line and the :data:`MOST_MIXED` most mixed reached information sets."""
    strategy = table.strategy
    reached = _reached(strategy)
    mixed = [i for i in reached if _is_mixed(strategy, i)]
    shown = _most_mixed(strategy)
    counts = (
        f"{count_text(strategy.table.num_infosets)} information sets, "
        f"{count_text(len(reached))} reached by own play, {count_text(len(mixed))} of them mixed"
    )
    title = f"{table.title} (summary)"
    if not shown:
        return [title, f"  {counts}; pure wherever it is reached"]
    rows = strategy_lines(strategy, title, words, table.flag, table.long_fractions, only=shown)
    return [rows[0], f"  {counts}; the {len(shown)} most mixed:", *rows[1:]]


def legend_lines(
    game: Game | ShowdownPoker | StructuredGame,
    strategy: BehaviouralStrategy,
    shown: Sequence[int],
) -> list[str]:
    """``"  Labels: Qpb = holding Q, …"`` for the longest label shown, for built-in games."""
    grammar = grammar_of(game)
    if grammar is None or not shown:
        return []
    names = strategy.table.infosets
    label = names[max(shown, key=lambda i: (len(names[i]), -i))]
    line = f"  Labels: {grammar.legend(label)}"
    if len(line) <= LINE_WIDTH:
        return [line]
    return [f"  Labels: {label} = {grammar.explain(label)};", f"          {grammar.actions}"]


def strategy_sections(
    game: Game | StructuredGame, tables: Sequence[StrategyTable], choice: str = "auto"
) -> list[str]:
    """Every player's table (or summary) with its legend, each after a blank line.

    ``choice`` is the ``--strategies`` value (:data:`CHOICES`).  A summary ends with where
    the full strategies are.
    """
    total = sum(table.strategy.table.num_infosets for table in tables)
    full = choice == "all" or (choice == "auto" and total <= SUMMARY_ABOVE)
    words = game.describe_action or (lambda _infoset, action: action)
    lines: list[str] = []
    for table in tables:
        strategy = table.strategy
        if full:
            body = strategy_lines(strategy, table.title, words, table.flag, table.long_fractions)
            shown: Sequence[int] = range(strategy.table.num_infosets)
        else:
            body = _summary_lines(table, words)
            shown = _most_mixed(strategy) or _reached(strategy)
        lines += ["", *body, *legend_lines(game, strategy, shown)]
    if not full:
        lines += [
            "",
            f"Strategies summarised ({count_text(total)} information sets): "
            "--strategies all prints every one;",
            "--format json --output FILE writes the complete result.",
        ]
    return lines
