"""Both players' strategies in a text report, read from a document, at any size: every
information set for small games, a summary above :data:`SUMMARY_ABOVE`, and a legend that
explains the labels.

``--strategies`` chooses: ``auto`` (the default) prints every information set when both
players have at most :data:`SUMMARY_ABOVE` together, else a summary; ``all`` always prints
every one; ``summary`` always summarises.  A summary gives each player's count of
information sets, how many their own play reaches and how many of those it mixes, then the
:data:`MOST_MIXED` most mixed reached ones, ranked by the entropy of their action
probabilities (``-sum p log2 p``, in bits; ties in table order), and says where the full
strategy is: ``--strategies all``, or ``--format json`` (complete at every size, best with
``--output FILE``).

Every table is a :class:`DocumentSection`, printed whole or summarised by one rule
(:func:`document_sections`): a behavioural strategy (:class:`StrategySection`, one of a
document's strategy objects: ``common.schema.json``'s ``player``, ``name``, ``infosets``
with ``unreached`` and their ``actions``' ``words`` and ``probability``), a pure best
response (:class:`ResponseSection`; its summary counts the information sets reached), and
the ranges over all equilibria (``seqform.documents.text.ranges.RangesTable``).

Under each player's table a legend explains the longest label shown, for the built-in games
(:mod:`seqform.game.builtin.labels`): ``Labels: Qpb = holding Q, after check (p), bet (b);
p = check or fold, b = bet or call`` (on two lines when longer than :data:`LINE_WIDTH`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from seqform.base.counts import count_text
from seqform.base.numbers import exact_probability_text, probability_text
from seqform.documents.layout.summary import (
    MIXED_TOLERANCE,
    MOST_MIXED,
    SUMMARY_ABOVE,
    MixedSets,
    mixed_of,
    most_mixed,
    summarises,
)
from seqform.documents.layout.summary import STRATEGY_CHOICES as CHOICES
from seqform.documents.layout.tables import left_table
from seqform.game.builtin.labels import LABEL_GRAMMARS

__all__ = [
    "CHOICES",
    "LABELS_HELP",
    "MIXED_TOLERANCE",
    "MOST_MIXED",
    "SUMMARY_ABOVE",
    "UNREACHED_FLAG",
    "DocumentSection",
    "Rendered",
    "ResponseSection",
    "StrategySection",
    "document_sections",
    "document_strategy_sections",
    "document_tables",
    "legend_of",
]

Document = Mapping[str, Any]

LABELS_HELP = "docs/output.md"  # where labels and 'unreached' are explained
UNREACHED_FLAG = f"unreached by own play: {LABELS_HELP}"
LINE_WIDTH = 100  # a longer legend is split after the label


@dataclass(frozen=True)
class Rendered:
    """One player's table as text: its lines (title first) and the information-set labels
    they show, which the legend explains."""

    lines: tuple[str, ...]
    labels: Sequence[str]


def _probability(value: Any, long_fractions: bool) -> str:
    """A probability of a strategy object: a string fraction as it is (a long one as a
    decimal unless ``long_fractions``), a float by
    :func:`~seqform.base.numbers.probability_text` (``null``: a run that overflowed)."""
    if isinstance(value, str):
        return exact_probability_text(Fraction(value), long_fractions)
    return probability_text(float("nan") if value is None else float(value))


def _float(probability: Any) -> float:
    """A strategy object's probability as a float: a string fraction read exactly, then
    rounded; a float as it is (not through a Fraction: the same float, far faster)."""
    if probability is None:
        return float("nan")
    if isinstance(probability, str):
        return float(Fraction(probability))
    return float(probability)


def mixed_sets(reached: Sequence[Document]) -> MixedSets:
    """Which of ``reached`` (a document's information-set objects) mix, and their entropies
    (:func:`seqform.documents.layout.summary.mixed_of`), reading the probabilities of all
    their actions at once."""
    sizes = np.fromiter((len(i["actions"]) for i in reached), dtype=np.int64, count=len(reached))
    raw = [a["probability"] for i in reached for a in i["actions"]]
    try:  # floats and nulls (nan): numpy reads them at once
        probabilities = np.array(raw, dtype=np.float64)
    except (TypeError, ValueError):  # exact fractions as strings
        probabilities = np.array([_float(p) for p in raw], dtype=np.float64)
    return mixed_of(sizes, probabilities)


def _rows(
    infosets: Sequence[Document], title: str, flag: str, long_fractions: bool = True
) -> list[str]:
    width = max([len("infoset"), *(len(infoset["name"]) for infoset in infosets)])
    lines = [title, f"  {'infoset':<{width}}  action probabilities"]
    for infoset in infosets:
        parts = [
            f"{a['words']} {_probability(a['probability'], long_fractions)}"
            for a in infoset["actions"]
        ]
        mark = f"   ({flag})" if infoset["unreached"] else ""
        lines.append(f"  {infoset['name']:<{width}}  {'  '.join(parts)}{mark}")
    return lines


@dataclass(frozen=True)
class StrategySection:
    """One player's strategy object as a report shows it: every information set, or a
    summary (the count line and the :data:`MOST_MIXED` most mixed reached ones).

    strategy : the document's strategy object
    title : the table's first line (``"Player 1 — behavioural strategy"``)
    flag : the note beside information sets the player's own play never reaches
    long_fractions : show long exact fractions as they are (an exact run's answer) or as
        decimals (a strategy read exactly from a file's decimals)
    """

    strategy: Document
    title: str
    flag: str = UNREACHED_FLAG
    long_fractions: bool = True

    @property
    def infoset_count(self) -> int:
        summary = self.strategy.get("summary")
        return len(self.strategy["infosets"]) if summary is None else summary["infosets"]

    def render(self, full: bool) -> Rendered:
        summary = self.strategy.get("summary")
        if summary is not None:  # a text report's summary object: already chosen
            if full:
                raise ValueError(
                    f"{self.title}: a summarised strategy object cannot be printed in full"
                )
            return self._summary(summary)
        infosets = self.strategy["infosets"]
        if full:
            return Rendered(
                tuple(_rows(infosets, self.title, self.flag, self.long_fractions)),
                [i["name"] for i in infosets],
            )
        reached = [i for i in infosets if not i["unreached"]]
        mixed = mixed_sets(reached)
        longest = max((i["name"] for i in reached), key=len, default=None)
        return self._summary(
            {
                "infosets": len(infosets),
                "reached": len(reached),
                "mixed": len(mixed.positions),
                "most_mixed": [reached[k] for k in most_mixed(mixed)],
                "longest_reached": longest,
            }
        )

    def _summary(self, summary: Document) -> Rendered:
        """The count line and the most mixed sets, from a summary object
        (:func:`seqform.documents.objects.strategy_summary_json`'s ``"summary"``)."""
        shown = summary["most_mixed"]
        counts = (
            f"{count_text(summary['infosets'])} information sets, "
            f"{count_text(summary['reached'])} reached by own play, "
            f"{count_text(summary['mixed'])} of them mixed"
        )
        title = f"{self.title} (summary)"
        if not shown:
            longest = summary["longest_reached"]
            labels = [] if longest is None else [longest]
            return Rendered((title, f"  {counts}; pure wherever it is reached"), labels)
        rows = _rows(shown, title, self.flag, self.long_fractions)
        labels = [i["name"] for i in shown]
        return Rendered((rows[0], f"  {counts}; the {len(shown)} most mixed:", *rows[1:]), labels)


@dataclass(frozen=True)
class ResponseSection:
    """A pure best response as a report shows it: one action per information set.

    chosen : the document's ``[{"infoset", "action", "words"}]``, in table order
    title : the table's first line (``"Pure best response of Player 2"``)
    unreached : the information sets the fixed strategy never lets arise; they carry ``flag``
    """

    chosen: Sequence[Document]
    title: str
    unreached: frozenset[str] = frozenset()
    flag: str = "never reached against this strategy: any action is best"

    @property
    def infoset_count(self) -> int:
        return len(self.chosen)

    def render(self, full: bool) -> Rendered:
        names = [row["infoset"] for row in self.chosen]
        if not full:
            reached = sum(1 for name in names if name not in self.unreached)
            counts = (
                f"  {count_text(len(names))} information sets, {count_text(reached)} reached "
                "against this strategy; one action at each"
            )
            return Rendered((f"{self.title} (summary)", counts), ())
        rows = [
            (
                row["infoset"],
                row["words"],
                f"({self.flag})" if row["infoset"] in self.unreached else "",
            )
            for row in self.chosen
        ]
        return Rendered((self.title, *left_table([("infoset", "action", ""), *rows])), names)


def legend_of(labels_name: str | None, labels: Sequence[str]) -> list[str]:
    """``"  Labels: Qpb = holding Q, …"`` for the longest label shown, for a game whose
    document names its label grammar (``"game"."labels"``)."""
    grammar = None if labels_name is None else LABEL_GRAMMARS.get(labels_name)
    if grammar is None or not labels:
        return []
    label = max(labels, key=len)  # the first of the longest
    line = f"  Labels: {grammar.legend(label)}"
    if len(line) <= LINE_WIDTH:
        return [line]
    return [f"  Labels: {label} = {grammar.explain(label)};", f"          {grammar.actions}"]


class DocumentSection(Protocol):
    """One player's table that :func:`document_sections` prints in full or summarised."""

    @property
    def infoset_count(self) -> int:
        """The player's information sets (the total decides ``auto``)."""
        ...

    def render(self, full: bool) -> Rendered:
        """The table in full (``full``) or its summary."""
        ...


def document_sections(
    labels_name: str | None,
    tables: Sequence[DocumentSection],
    choice: str = "auto",
    what: str = "Strategies",
) -> list[str]:
    """Every table (or summary) with its legend, each after a blank line, : ``choice`` is
    ``--strategies``; ``labels_name`` the document's ``"game"."labels"``."""
    total = sum(table.infoset_count for table in tables)
    full = not summarises(choice, total)
    lines: list[str] = []
    for table in tables:
        shown = table.render(full)
        lines += ["", *shown.lines, *legend_of(labels_name, shown.labels)]
    if not full:
        lines += [
            "",
            f"{what} summarised ({count_text(total)} information sets): "
            "--strategies all prints every one;",
            "--format json --output FILE writes the complete result.",
        ]
    return lines


def document_tables(
    strategies: Sequence[Document], kind: str = "behavioural strategy"
) -> list[StrategySection]:
    """The tables of a document's ``"strategies"``: each titled ``"<player name> — <kind>"``."""
    return [StrategySection(s, f"{s['name']} — {kind}") for s in strategies]


def document_strategy_sections(
    document: Document,
    tables: Sequence[DocumentSection],
    choice: str = "auto",
    what: str = "Strategies",
) -> list[str]:
    """:func:`document_sections` with the legend of ``document``'s ``"game"`` labels."""
    return document_sections(document["game"].get("labels"), tables, choice, what)
