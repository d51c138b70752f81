"""``iterate``: an iterative run as text, read from the ``seqform.iterate/2`` document
(:func:`seqform.documents.iterate.iterate_document`), so that the text shows what the JSON
holds.

Players are numbered from 1 in every output (index 0 in the library).  A NashConv the run
could not measure is ``null`` in the document and ``nan`` in the text.  Values, gains and
NashConvs are judged beside the game's payoff range (the certificate's, in a two-player
zero-sum game): round-off as ``≈ 0`` (:func:`~seqform.base.numbers.scaled_text`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from seqform.base.counts import count_text
from seqform.base.numbers import scaled_text, value_text
from seqform.documents.layout.blocks import document_certificate_lines
from seqform.documents.layout.parts import Document, header_of
from seqform.documents.layout.strategies import (
    document_strategy_sections,
    document_tables,
)
from seqform.documents.layout.tables import aligned_table
from seqform.documents.text.spots.spot import spot_block

__all__ = ["ALGORITHM_TEXT", "iterate_text", "stopped_text"]

ALGORITHM_TEXT = {
    "cfr": "CFR (Zinkevich et al. 2007: regret matching, alternating updates, uniform average)",
    "cfr+": "CFR+ (Tammelin 2014: regret matching+, alternating updates, linear average)",
    "dcfr": "DCFR (Brown and Sandholm 2019: α = 1.5, β = 0, γ = 2)",
    "lcfr": "Linear CFR (Brown and Sandholm 2019: DCFR with α = β = γ = 1)",
    "pcfr+": "predictive CFR+ (Farina, Kroer and Sandholm 2021: quadratic average)",
    "dcfr+": "DCFR+ (Xu et al. 2024: α = 1.5, γ = 4)",
    "pdcfr+": "PDCFR+ (Xu et al. 2024: α = 2.3, γ = 5)",
    "hs-dcfr30": "HS-DCFR(30) (Zhang et al. 2024: α = 1 + 3t/n, β = −1 − 2t/n, weight t^(30−5t/n))",
    "hs-dcfr15": "HS-DCFR(15) (Zhang et al. 2024: α = 1 + 3t/n, β = −1 − 2t/n, weight t^(15−5t/n))",
    "hs-pcfr+30": "HS-PCFR+(30) (Zhang et al. 2024: predictive CFR+, weight t^(30−5t/n))",
    "hs-pcfr+15": "HS-PCFR+(15) (Zhang et al. 2024: predictive CFR+, weight t^(15−5t/n))",
    "xfp": "extensive-form fictitious play (Heinrich, Lanctot and Silver 2015)",
    "rcfr": "regression CFR (Waugh et al. 2015: least-squares regrets over features)",
    "mccfr": "external-sampling MCCFR (Lanctot et al. 2009, simple average)",
}

HISTORY_ROWS = 25  # the text shows at most about this many samples; JSON has them all


def _measured(number: float | None) -> float:
    """A document's NashConv as the run held it: ``null`` (not measured) is ``nan``."""
    return math.nan if number is None else number


def _scale(document: Document) -> float | None:
    """The game's payoff range, from the certificate (None without one: more players)."""
    certificate = document["certificate"]
    return None if certificate is None else certificate["payoff_range"]


def _names(document: Document) -> list[str]:
    """The players' names, in order, from the average strategies (one per player)."""
    return [s["name"] for s in sorted(document["strategies"], key=lambda s: s["player"])]


def _on(document: Document, tree: str) -> str:
    """Where the best responses were computed: the public tree × hands or ``tree``."""
    return "the public tree × hands" if document["method"] == "structured" else tree


_SIGNAL_WORDS = {"SIGINT": "Ctrl-C"}
"""How the stop reason names a signal (``interrupted_by``); others by their names."""


def stopped_text(document: Document) -> str:
    """Which rule stopped the run, in words."""
    stopped, stopping = document["stopped"], document["stopping"]
    if stopped == "target":
        return (
            f"the target: exploitability (NashConv / 2) "
            f"{scaled_text(_measured(document['nash_conv']) / 2, _scale(document), digits=3)} "
            f"≤ {stopping['target_exploitability']:g}"
        )
    if stopped == "time limit":
        return f"the time limit of {stopping['time_limit']:g} s of solver time"
    if stopped == "interrupted":
        received = document.get("interrupted_by") or "SIGINT"
        return f"an interrupt ({_SIGNAL_WORDS.get(received, received)}), at an iteration boundary"
    if stopped == "iterations":
        return (
            f"the iteration limit of {count_text(stopping['iterations'] or document['iterations'])}"
        )
    if stopped == "measurement failed":
        return "a NashConv measurement that failed (no target can be checked without it)"
    return str(stopped)


def _measurement_lines(document: Document, names: list[str]) -> list[str]:
    """Each player's value estimate, best response and gain; the certificate if 2p0s."""
    players = document["players"]  # empty when the profile could not be measured
    if not players:
        failed = document["certificate_failed"] or document["measurement_failed"]
        return [f"Average strategies: certificate failed: {failed}"]
    scale = _scale(document)
    rows = [("", "value estimate", "best response", "gain")]
    rows += [
        (
            player["name"],
            value_text(player["value"], scale=scale),
            value_text(player["best_response_value"], scale=scale),
            scaled_text(player["gain"], scale, digits=4),
        )
        for player in players
    ]
    lines = [f"Average strategies, measured by best responses on {_on(document, 'the game tree')}"]
    lines += aligned_table(rows)
    certificate = document["certificate"]
    if certificate is None:
        nash_conv = float(sum(player["gain"] for player in players))  # NashConv's definition
        lines.append(f"  NashConv (the sum of the gains) {nash_conv:.3g}")
        return lines
    how = f"best responses on {_on(document, 'the tree')}"
    return [*lines, "", *document_certificate_lines(certificate, names, how)]


def _reference_lines(reference: Document, names: list[str], scale: float | None) -> list[str]:
    """The LP's value beside the estimate, and each player's distance to a unique
    equilibrium strategy; values judged beside the payoff range ``scale``."""
    if reference["skipped"] is not None:
        return [f"LP reference {reference['status']}: {reference['skipped']}"]
    exact = value_text(reference["value"], scale=scale)
    lines = [
        "Against the sequence-form LP",
        f"  exact value to {names[0]} {exact}; the estimate is "
        f"{scaled_text(reference['value_distance'], scale, digits=3)} away",
    ]
    if reference["uniqueness_skipped"] is not None:
        lines.append(f"  equilibrium strategies: not compared ({reference['uniqueness_skipped']})")
        return lines
    for player in reference["players"]:
        name = names[player["player"] - 1]
        if player["distance"] is None:
            lines.append(
                f"  {name}: many equilibrium strategies (a set of dimension "
                f"{player['dimension']}); no single one to compare with"
            )
        else:
            lines.append(
                f"  {name}: unique equilibrium strategy; largest probability difference at "
                f"the {player['infosets']} information sets it reaches: {player['distance']:.3g}"
            )
    return lines


def _history_lines(document: Document) -> list[str]:
    """The NashConv samples: all of them, or about :data:`HISTORY_ROWS` spread evenly on a
    log scale of the iteration (always the first and the last)."""
    history = document["history"]
    shown = list(range(len(history)))
    if len(history) > HISTORY_ROWS:
        spread = np.geomspace(1, len(history), HISTORY_ROWS).round().astype(int) - 1
        shown = sorted(set(spread.tolist()) | {0, len(history) - 1})
    every = document["stopping"]["every"]
    title = "NashConv history (every " + (
        f"{count_text(every)} iterations" if every > 1 else "iteration"
    )
    title += " and at the end" if every > 1 else ""
    title += (
        ")"
        if len(shown) == len(history)
        else f"; {len(shown)} of {count_text(len(history))} shown)"
    )
    rows = [("", "iteration", "solver s", "NashConv")]
    rows += [
        (
            "",
            f"{count_text(sample['iteration'])}",
            f"{sample['seconds']:.3f}",
            scaled_text(_measured(sample["nash_conv"]), _scale(document), digits=4),
        )
        for sample in (history[i] for i in shown)
    ]
    lines = [title, *aligned_table(rows, indent="")]
    if document["measurement_failed"] is not None:
        lines.append(f"NashConv not measured (nan): {document['measurement_failed']}")
    return lines


def _last_iterate_lines(document: Document) -> list[str]:
    if not document["measures_last_iterate"]:
        return []
    last, average = (
        scaled_text(_measured(document[key]), _scale(document), digits=4)
        for key in ("last_iterate_nash_conv", "nash_conv")
    )
    return [f"Last iterate: NashConv {last} (the average's: {average})"]


def _lock_lines(document: Document) -> list[str]:
    """The locks a locked run kept, and what its measurements then mean."""
    if "locks" not in document:
        return []
    locks = document["locks"]
    count = locks["locked_infosets"]
    plural = "" if count == 1 else "s"
    return [
        f"Node locks ({count:,} information set{plural} locked; the LP reference is the "
        "locked LP):",
        *(f"  {lock}" for lock in locks["locks"]),
        f"  measured below: {locks['certificate']}",
    ]


def _suit_lines(document: Document) -> list[str]:
    """The sizes vector CFR ran at on canonical boards and hand classes, if it did."""
    reduction = document.get("suit_isomorphism")
    if reduction is None:
        return []
    steps = [
        f"  {step['step']}: {' + '.join(count_text(n) for n in step['sequences'])} sequences"
        for step in reduction["steps"]
    ]
    return [
        "Suit isomorphism: run on canonical boards, one regret per hand class "
        f"({reduction['permutations']} suit permutations); lifted, certified on the game:",
        *steps,
    ]


def iterate_text(document: dict[str, Any], strategies: str = "auto") -> str:
    """The run for people, from a ``seqform.iterate/2`` document: what ran and why it
    stopped, the measurements, the LP beside them, the NashConv history, the average
    strategies and, for a spot, the players' report of them (as ``solve SPOT.toml``)."""
    algorithm = ALGORITHM_TEXT.get(document["algorithm"], document["algorithm"])
    seed = "" if document["seed"] is None else f", seed {document['seed']}"
    names = _names(document)
    lines = [
        header_of(document["game"]),
        f"Algorithm: {algorithm}{seed}",
        f"Run: {count_text(document['iterations'])} iterations in {document['seconds']:.3f} s "
        f"of solver time; stopped by {stopped_text(document)}",
        *_last_iterate_lines(document),
        *_lock_lines(document),
        *_suit_lines(document),
        "",
        *_measurement_lines(document, names),
        "",
        *_reference_lines(document["reference"], names, _scale(document)),
        "",
        *_history_lines(document),
    ]
    tables = document_tables(document["strategies"])
    lines += document_strategy_sections(document, tables, strategies)
    if "spot" in document:
        lines += spot_block(document["spot"])
    return "\n".join(lines)
