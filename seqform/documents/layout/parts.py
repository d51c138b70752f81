"""The pieces of a text report read from a JSON document (the dict ``seqform.document``
returns and ``--format json`` prints), so that the text shows what the JSON holds: the
header, counts, the constant-sum line, strategy and best-response tables with their
summaries, and the legend of the labels.

They lay out text as :mod:`seqform.documents.layout.blocks` and
:mod:`seqform.documents.layout.strategies` do from result objects, by the same rules
(:data:`~seqform.documents.layout.strategies.MOST_MIXED`,
:data:`~seqform.documents.layout.strategies.SUMMARY_ABOVE`, the legend of
:mod:`seqform.game.builtin.labels`); a strategy is a document's strategy object
(``common.schema.json``: ``player``, ``name``, ``infosets`` with ``unreached`` and their
``actions``' ``words`` and ``probability``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from seqform.base.numbers import about_text, count_text, exact_probability_text, probability_text
from seqform.documents.layout.blocks import header
from seqform.documents.layout.strategies import (
    LINE_WIDTH,
    MIXED_TOLERANCE,
    MOST_MIXED,
    SUMMARY_ABOVE,
    UNREACHED_FLAG,
    Rendered,
)
from seqform.documents.layout.tables import left_table
from seqform.game.builtin.labels import LABEL_GRAMMARS

__all__ = [
    "Document",
    "DocumentSection",
    "ResponseSection",
    "StrategySection",
    "constant_sum_line",
    "count_of",
    "document_sections",
    "header_of",
    "legend_of",
    "limit_of",
]

Document = Mapping[str, Any]
"""A JSON document or one of its objects, as parsed (``json.loads``) or built."""


def header_of(game: Document) -> str:
    """The report's first line from the document's ``"game"`` object."""
    return header(game["name"], game["description"])


def count_of(count: Document) -> str:
    """A COUNT object (``{"exact": str | null, "log10": float}``) as
    :func:`~seqform.base.numbers.count_text` writes the count."""
    exact = count["exact"]
    return about_text(count["log10"]) if exact is None else count_text(int(exact))


def limit_of(value: int | None, log10: float) -> str:
    """An integer limit written as ``json_int`` with its ``log10`` beside it (``null`` when
    over 1 000 digits), as :func:`~seqform.base.numbers.count_text` writes it."""
    return about_text(log10) if value is None else count_text(value)


def constant_sum_line(constant_sum: Document | None, names: Sequence[str]) -> list[str]:
    """The line saying a constant-sum game was solved as zero-sum (``"constant_sum"`` object
    with its ``"total"``), or none."""
    if constant_sum is None:
        return []
    total = constant_sum["total"]
    return [
        f"Constant-sum game: every terminal's payoffs sum to {total}; solved as the "
        f"zero-sum game in which {names[1]} gets {total} less (the same equilibria)"
    ]


def _probability(value: Any, long_fractions: bool) -> str:
    """A probability of a strategy object: a string fraction as it is (a long one as a
    decimal unless ``long_fractions``), a float by
    :func:`~seqform.base.numbers.probability_text` (``null``: a run that overflowed)."""
    if isinstance(value, str):
        return exact_probability_text(Fraction(value), long_fractions)
    return probability_text(float("nan") if value is None else float(value))


def _floats(infoset: Document) -> list[float]:
    return [
        float("nan") if a["probability"] is None else float(Fraction(a["probability"]))
        for a in infoset["actions"]
    ]


def _mixed(infoset: Document) -> bool:
    return max(_floats(infoset)) < 1 - MIXED_TOLERANCE


def _entropy(infoset: Document) -> float:
    return -sum(p * math.log2(p) for p in _floats(infoset) if p > 0)


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
        return len(self.strategy["infosets"])

    def render(self, full: bool) -> Rendered:
        infosets = self.strategy["infosets"]
        if full:
            return Rendered(
                tuple(_rows(infosets, self.title, self.flag, self.long_fractions)),
                [i["name"] for i in infosets],
            )
        reached = [i for i in infosets if not i["unreached"]]
        mixed = [i for i in reached if _mixed(i)]
        ranked = sorted(range(len(mixed)), key=lambda k: -_entropy(mixed[k]))[:MOST_MIXED]
        shown = [mixed[k] for k in sorted(ranked)]
        counts = (
            f"{count_text(len(infosets))} information sets, "
            f"{count_text(len(reached))} reached by own play, "
            f"{count_text(len(mixed))} of them mixed"
        )
        title = f"{self.title} (summary)"
        labels = [i["name"] for i in (shown or reached)]
        if not shown:
            return Rendered((title, f"  {counts}; pure wherever it is reached"), labels)
        rows = _rows(shown, title, self.flag, self.long_fractions)
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
    """Every table (or summary) with its legend, each after a blank line, as
    :func:`seqform.documents.layout.strategies.strategy_sections`: ``choice`` is
    ``--strategies``; ``labels_name`` the document's ``"game"."labels"``."""
    total = sum(table.infoset_count for table in tables)
    full = choice == "all" or (choice == "auto" and total <= SUMMARY_ABOVE)
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
