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

Every table is a :class:`Section`, printed whole or summarised by one rule
(:func:`strategy_sections`): a behavioural strategy (:class:`StrategyTable`, or
:class:`DocumentStrategyTable` read from a document's ``"strategies"``) and a pure best
response (:class:`ResponseTable`; its summary counts the information sets reached).  The
same rule prints the tables read from documents
(:func:`seqform.documents.layout.parts.document_sections`), among them the ranges over
all equilibria (``seqform.documents.text.ranges.RangesTable``).

Under each player's table a legend explains the longest label shown, for the built-in games
(:mod:`seqform.game.builtin.labels`): ``Labels: Qpb = holding Q, after check (p), bet (b);
p = check or fold, b = bet or call`` (on two lines when longer than :data:`LINE_WIDTH`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from seqform.base.numbers import count_text, exact_probability_text, probability_text
from seqform.documents.layout.blocks import Words, strategy_lines
from seqform.documents.layout.summary import MOST_MIXED, SUMMARY_ABOVE
from seqform.documents.layout.summary import STRATEGY_CHOICES as CHOICES
from seqform.documents.layout.tables import left_table
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.labels import LABEL_GRAMMARS, grammar_of
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame

__all__ = [
    "CHOICES",
    "LABELS_HELP",
    "MIXED_TOLERANCE",
    "MOST_MIXED",
    "SUMMARY_ABOVE",
    "UNREACHED_FLAG",
    "DocumentStrategyTable",
    "Rendered",
    "ResponseTable",
    "Section",
    "StrategyTable",
    "behaviour_tables",
    "document_legend_lines",
    "document_strategy_sections",
    "document_tables",
    "entropy_bits",
    "legend_lines",
    "strategy_sections",
]

LABELS_HELP = "docs/output.md"  # where labels and 'unreached' are explained
UNREACHED_FLAG = f"unreached by own play: {LABELS_HELP}"
LINE_WIDTH = 100  # a longer legend is split after the label
MIXED_TOLERANCE = 1e-9  # an information set is mixed when no action has probability above 1 - this


@dataclass(frozen=True)
class Rendered:
    """One player's table as text: its lines (title first) and the information-set labels
    they show, which the legend explains."""

    lines: tuple[str, ...]
    labels: Sequence[str]


class Section(Protocol):
    """One player's table that :func:`strategy_sections` prints in full or summarised."""

    @property
    def infoset_count(self) -> int:
        """The player's information sets (the total decides ``auto``)."""
        ...

    def render(self, words: Words, full: bool) -> Rendered:
        """The table in full (``full``) or its summary."""
        ...


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

    @property
    def infoset_count(self) -> int:
        return self.strategy.table.num_infosets

    def render(self, words: Words, full: bool) -> Rendered:
        """Every information set, or the summary of :func:`_summary_lines`."""
        strategy = self.strategy
        if full:
            body = strategy_lines(strategy, self.title, words, self.flag, self.long_fractions)
            return Rendered(tuple(body), strategy.table.infosets)
        shown = _most_mixed(strategy) or _reached(strategy)
        labels = tuple(strategy.table.infosets[i] for i in shown)
        return Rendered(tuple(_summary_lines(self, words)), labels)


def behaviour_tables(
    strategies: Sequence[BehaviouralStrategy],
    names: Sequence[str],
    kind: str = "behavioural strategy",
) -> list[StrategyTable]:
    """Each player's table, titled ``"<player name> — <kind>"`` (the reports of solve,
    restrict, iterate, the structured route and, with ``kind="exact behavioural strategy"``,
    the exact route)."""
    return [StrategyTable(s, f"{names[s.player]} — {kind}") for s in strategies]


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


def _summary_lines(table: StrategyTable, words: Words) -> list[str]:
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


def _pure_actions(strategy: BehaviouralStrategy) -> list[str]:
    """The action each information set plays with the highest probability (all of a pure
    strategy's)."""
    table = strategy.table
    return [
        max(
            zip(table.actions[i], table.sequences_of(i), strict=True),
            key=lambda pair: float(strategy.probabilities[pair[1]]),
        )[0]
        for i in range(table.num_infosets)
    ]


@dataclass(frozen=True)
class ResponseTable:
    """A pure best response as a report shows it: one action per information set.

    strategy : the best response (pure, as a behavioural strategy)
    title : the table's first line (``"Pure best response of Player 2"``)
    unreached : the information sets the fixed strategy never lets arise; they carry ``flag``
    """

    strategy: BehaviouralStrategy
    title: str
    unreached: frozenset[str] = frozenset()
    flag: str = "never reached against this strategy: any action is best"

    @property
    def infoset_count(self) -> int:
        return self.strategy.table.num_infosets

    def render(self, words: Words, full: bool) -> Rendered:
        """Every information set and its action; summarised, how many are reached."""
        names = self.strategy.table.infosets
        if not full:
            reached = sum(1 for name in names if name not in self.unreached)
            counts = (
                f"  {count_text(len(names))} information sets, {count_text(reached)} reached "
                "against this strategy; one action at each"
            )
            return Rendered((f"{self.title} (summary)", counts), ())
        rows = [
            (name, words(name, action), f"({self.flag})" if name in self.unreached else "")
            for name, action in zip(names, _pure_actions(self.strategy), strict=True)
        ]
        return Rendered((self.title, *left_table([("infoset", "action", ""), *rows])), names)


def legend_lines(game: Game | StructuredGame, labels: Sequence[str]) -> list[str]:
    """``"  Labels: Qpb = holding Q, …"`` for the longest label shown, for built-in games."""
    grammar = grammar_of(game)
    if grammar is None or not labels:
        return []
    label = max(labels, key=len)  # the first of the longest
    line = f"  Labels: {grammar.legend(label)}"
    if len(line) <= LINE_WIDTH:
        return [line]
    return [f"  Labels: {label} = {grammar.explain(label)};", f"          {grammar.actions}"]


def strategy_sections(
    game: Game | StructuredGame,
    tables: Sequence[Section],
    choice: str = "auto",
    what: str = "Strategies",
) -> list[str]:
    """Every player's table (or summary) with its legend, each after a blank line.

    ``choice`` is the ``--strategies`` value (:data:`CHOICES`): every table is printed in
    full, or every one summarised, by the total of their information sets.  A summary ends
    with where the full ``what`` are.
    """
    words = game.describe_action or (lambda _infoset, action: action)
    return _sections(tables, words, lambda labels: legend_lines(game, labels), choice, what)


def _sections(
    tables: Sequence[Section],
    words: Words,
    legend: Callable[[Sequence[str]], list[str]],
    choice: str,
    what: str,
) -> list[str]:
    """The body of :func:`strategy_sections` and :func:`document_strategy_sections`."""
    total = sum(table.infoset_count for table in tables)
    full = choice == "all" or (choice == "auto" and total <= SUMMARY_ABOVE)
    lines: list[str] = []
    for table in tables:
        shown = table.render(words, full)
        lines += ["", *shown.lines, *legend(shown.labels)]
    if not full:
        lines += [
            "",
            f"{what} summarised ({count_text(total)} information sets): "
            "--strategies all prints every one;",
            "--format json --output FILE writes the complete result.",
        ]
    return lines


# --- the same tables read from a document's "strategies" ---------------------------------------


def _probability(shown: Any) -> float:
    """A document's probability as a float: a float, a fraction string, or ``null`` (nan)."""
    if shown is None:
        return math.nan
    return float(Fraction(shown)) if isinstance(shown, str) else float(shown)


def _probability_text(shown: Any, long_fractions: bool) -> str:
    """A document's probability as a table writes it: a fraction string (an exact strategy)
    by :func:`exact_probability_text`, a float by :func:`probability_text`."""
    if isinstance(shown, str):
        return exact_probability_text(Fraction(shown), long_fractions)
    return probability_text(_probability(shown))


@dataclass(frozen=True)
class DocumentStrategyTable:
    """One player's strategy as a report shows it, read from a document: one entry of its
    ``"strategies"`` (``{"player", "name", "infosets": [{"name", "unreached", "actions":
    [{"action", "words", "probability"}]}]}``, :func:`seqform.documents.objects.strategy_json`).
    The same table as :class:`StrategyTable` of the strategy the entry was written from.
    """

    strategy: dict[str, Any]
    title: str
    flag: str = UNREACHED_FLAG
    long_fractions: bool = True

    @property
    def infoset_count(self) -> int:
        return len(self.strategy["infosets"])

    def _rows(self, title: str, only: Sequence[int]) -> list[str]:
        infosets = self.strategy["infosets"]
        width = max([len("infoset"), *(len(infosets[i]["name"]) for i in only)])
        lines = [title, f"  {'infoset':<{width}}  action probabilities"]
        for index in only:
            infoset = infosets[index]
            parts = [
                f"{action['words']} {_probability_text(action['probability'], self.long_fractions)}"
                for action in infoset["actions"]
            ]
            mark = f"   ({self.flag})" if infoset["unreached"] else ""
            lines.append(f"  {infoset['name']:<{width}}  {'  '.join(parts)}{mark}")
        return lines

    def _entropy(self, index: int) -> float:
        actions = self.strategy["infosets"][index]["actions"]
        probabilities = (_probability(action["probability"]) for action in actions)
        return -sum(p * math.log2(p) for p in probabilities if p > 0)

    def _is_mixed(self, index: int) -> bool:
        actions = self.strategy["infosets"][index]["actions"]
        return max(_probability(a["probability"]) for a in actions) < 1 - MIXED_TOLERANCE

    def render(self, words: Words, full: bool) -> Rendered:
        """Every information set, or the count line and the :data:`MOST_MIXED` most mixed
        reached ones (as :class:`StrategyTable`); ``words`` are the document's own."""
        infosets = self.strategy["infosets"]
        names = [infoset["name"] for infoset in infosets]
        if full:
            return Rendered(tuple(self._rows(self.title, range(len(infosets)))), names)
        reached = [i for i, infoset in enumerate(infosets) if not infoset["unreached"]]
        mixed = [i for i in reached if self._is_mixed(i)]
        shown = sorted(sorted(mixed, key=lambda i: -self._entropy(i))[:MOST_MIXED])
        counts = (
            f"{count_text(len(infosets))} information sets, "
            f"{count_text(len(reached))} reached by own play, "
            f"{count_text(len(mixed))} of them mixed"
        )
        title = f"{self.title} (summary)"
        if not shown:
            lines = [title, f"  {counts}; pure wherever it is reached"]
            return Rendered(tuple(lines), tuple(names[i] for i in reached))
        rows = self._rows(title, shown)
        lines = [rows[0], f"  {counts}; the {len(shown)} most mixed:", *rows[1:]]
        return Rendered(tuple(lines), tuple(names[i] for i in shown))


def document_tables(
    strategies: Sequence[dict[str, Any]], kind: str = "behavioural strategy"
) -> list[DocumentStrategyTable]:
    """:func:`behaviour_tables` of a document's ``"strategies"``: each titled
    ``"<player name> — <kind>"``."""
    return [DocumentStrategyTable(s, f"{s['name']} — {kind}") for s in strategies]


def document_legend_lines(labels: str | None, shown: Sequence[str]) -> list[str]:
    """:func:`legend_lines` for a document's ``"game": {"labels": ...}`` (the built-in game
    whose labels the game uses, or None)."""
    grammar = None if labels is None else LABEL_GRAMMARS.get(labels)
    if grammar is None or not shown:
        return []
    label = max(shown, key=len)  # the first of the longest
    line = f"  Labels: {grammar.legend(label)}"
    if len(line) <= LINE_WIDTH:
        return [line]
    return [f"  Labels: {label} = {grammar.explain(label)};", f"          {grammar.actions}"]


def document_strategy_sections(
    document: dict[str, Any],
    tables: Sequence[Section],
    choice: str = "auto",
    what: str = "Strategies",
) -> list[str]:
    """:func:`strategy_sections` of tables read from ``document``, with the legend of its
    ``"game"``'s labels (the tables' actions are in the document's own words)."""
    labels = document["game"].get("labels")
    return _sections(
        tables,
        lambda _infoset, action: action,
        lambda shown: document_legend_lines(labels, shown),
        choice,
        what,
    )
