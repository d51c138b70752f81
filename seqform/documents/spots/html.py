"""A solved hold'em spot as one static HTML page, as solvers show a spot: per decision, the
13 × 13 grid of hand classes, each cell coloured by its action mix (GTO+ and PioSOLVER
split a cell into bands, one per action, as wide as the action's share), with the range's
frequencies; at the top the spot, each player's EV in chips and share of the pot, and the
exploitability (NashConv / 2) in chips and % of the pot.

The page is rendered from data alone: the saved document's ``"spot"`` object
(:func:`seqform.documents.spots.spot.spot_json`) and each decision's view
(:func:`seqform.documents.spots.spot.node_json`); :func:`saved_spot_html` computes the views of a
reopened result (:mod:`seqform.io.spot_results`).  It is self-contained: inline CSS, no
script, no image, no font or stylesheet fetched, so it opens offline and can be mailed.
Colours follow the solvers' convention: fold blue, check and call green, bets and raises
red, darker for larger sizes; a class not in the range is grey.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seqform.documents.spots.spot import node_json

if TYPE_CHECKING:
    from seqform.io.spot_results import SavedSpot

__all__ = ["action_colour", "saved_spot_html", "spot_html"]

_RANKS = "AKQJT98765432"
_FOLD, _PASSIVE, _EMPTY = "#5b8fd6", "#5aa469", "#d9d9d9"
_AGGRESSIVE = ("#f0a0a0", "#e06666", "#cc3333", "#a61c1c", "#7a0f0f")
_SUIT_COLOURS = {"s": "#222", "h": "#c0392b", "d": "#2760b0", "c": "#2e8540"}

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
h2 { font-size: 1.1em; margin: 0 0 0.4em 0; }
table.summary td { padding: 0.1em 0.8em 0.1em 0; }
.cards span { font-weight: bold; }
.legend span { display: inline-block; padding: 0.1em 0.5em; margin-right: 0.3em;
  border-radius: 3px; color: #fff; font-size: 0.9em; }
nav a { margin-right: 0.6em; }
section.node { display: inline-block; vertical-align: top; margin: 1em 1.5em 1em 0; }
table.grid { border-collapse: collapse; table-layout: fixed; }
table.grid td { width: 2.6em; height: 2.1em; border: 1px solid #fff; font-size: 0.72em;
  text-align: center; color: #111; padding: 0; text-shadow: 0 0 2px #fff; }
table.grid td.out { color: #888; text-shadow: none; }
div.mix { display: flex; height: 1.2em; width: 34.5em; margin: 0.3em 0; }
div.mix div { height: 100%; }
p.freq { margin: 0.2em 0 0.5em 0; font-size: 0.95em; }
p.unreached { color: #888; }
p.reach { margin: 0; font-size: 0.85em; color: #555; }
""".strip()


def action_colour(action: str, actions: Sequence[str]) -> str:
    """The colour of ``action`` at a decision offering ``actions`` (module docstring): the
    bets and raises get reds from light to dark in the order offered (smallest first)."""
    if action == "f":
        return _FOLD
    if action in ("x", "c"):
        return _PASSIVE
    sizes = [a for a in actions if a not in ("f", "x", "c")]
    if len(sizes) <= 1:
        return _AGGRESSIVE[2]
    step = (len(_AGGRESSIVE) - 1) / (len(sizes) - 1)
    return _AGGRESSIVE[round(sizes.index(action) * step)]


def _class_name(row: int, column: int) -> str:
    """``"AKs"``, ``"AKo"``, ``"QQ"``: the class in a grid cell (suited above the
    diagonal, row the higher rank)."""
    if row == column:
        return _RANKS[row] * 2
    if row < column:
        return f"{_RANKS[row]}{_RANKS[column]}s"
    return f"{_RANKS[column]}{_RANKS[row]}o"


def _bands(shares: Sequence[float], colours: Sequence[str]) -> str:
    """A CSS ``linear-gradient`` with hard stops: one band per action, its share wide."""
    stops, start = [], 0.0
    for share, colour in zip(shares, colours, strict=True):
        end = start + 100 * max(share, 0.0)
        stops.append(f"{colour} {start:.2f}% {end:.2f}%")
        start = end
    return "linear-gradient(to right, " + ", ".join(stops) + ")"


def _where(history: str) -> str:
    """``"root"``, ``"after x-b5"``; a turn spot's river card written out."""
    if not history:
        return "first decision"
    shown = re.sub(r"\|([2-9TJQKA][cdhs])\|", r", river \1, ", history)
    return "after " + shown.rstrip(", ")


def _grid(node: dict[str, Any], colours: list[str]) -> list[str]:
    actions = list(node["actions"])
    rows = ['<table class="grid">']
    for row, cells in enumerate(node["classes"]):
        parts = []
        for column, cell in enumerate(cells):
            name = _class_name(row, column)
            if cell is None:
                parts.append(f'<td class="out" style="background:{_EMPTY}">{name}</td>')
                continue
            shares = [share or 0.0 for share in cell]
            weight = node["weights"][row][column]
            tip = ", ".join(f"{a} {100 * s:.1f}%" for a, s in zip(actions, shares, strict=True))
            tip += f"; {100 * weight:.1f}% of the range here"
            parts.append(
                f'<td title="{html.escape(name + ": " + tip)}" '
                f'style="background:{_bands(shares, colours)}">{name}</td>'
            )
        rows.append("<tr>" + "".join(parts) + "</tr>")
    rows.append("</table>")
    return rows


def _node(node: dict[str, Any], number: int) -> list[str]:
    player = node["player"]
    title = html.escape(f"{player} {_where(node['history'])}")
    lines = [f'<section class="node" id="node-{number}">', f"<h2>{title}</h2>"]
    if not node["reached"]:
        return [*lines, '<p class="unreached">never reached by its own strategy</p>', "</section>"]
    lines.append(f'<p class="reach">{100 * node["reach"]:.1f}% of {player}\'s range gets here</p>')
    actions = list(node["actions"])
    colours = [action_colour(action, actions) for action in actions]
    shares = [node["actions"][action] or 0.0 for action in actions]
    bar = "".join(
        f'<div style="width:{100 * share:.2f}%;background:{colour}"></div>'
        for share, colour in zip(shares, colours, strict=True)
    )
    text = " ".join(
        f'<span style="color:{colour}">■</span> {html.escape(action)} {100 * share:.1f}%'
        for action, share, colour in zip(actions, shares, colours, strict=True)
    )
    return [
        *lines,
        f'<div class="mix">{bar}</div>',
        f'<p class="freq">{text}</p>',
        *_grid(node, colours),
        "</section>",
    ]


def _cards(text: str) -> str:
    """A board's cards, each in its suit's colour."""
    pairs = [text[i : i + 2] for i in range(0, len(text), 2)]
    return "".join(
        f'<span style="color:{_SUIT_COLOURS.get(card[1:], "#222")}">{html.escape(card)}</span>'
        for card in pairs
    )


def _summary(document: dict[str, Any]) -> list[str]:
    spot = document["spot"]
    definition = spot.get("definition", {})
    ev, share = spot["ev"], spot["ev_share"]
    if "algorithm" in document:
        how = f"{document['algorithm']}, {document['iterations']:,} iterations (average strategy)"
    else:
        how = "sequence-form LP (structured route)"
    rows = [
        ("Board", f'<span class="cards">{_cards(definition.get("board", ""))}</span>'),
        ("Pot", f"{spot['pot']:g} chips; stack {definition.get('effective_stack', '?')}"),
        ("OOP range", html.escape(str(definition.get("oop_range", "")))),
        ("IP range", html.escape(str(definition.get("ip_range", "")))),
        ("Combos", f"{spot['combos'][0]} OOP / {spot['combos'][1]} IP"),
        (
            "EV",
            f"OOP {ev['oop']:.4f} chips ({100 * share['oop']:.2f}% of the pot), "
            f"IP {ev['ip']:.4f} chips ({100 * share['ip']:.2f}%)",
        ),
        (
            "Exploitability",
            f"{spot['exploitability']:.3g} chips ({100 * spot['exploitability_pot']:.4f}% "
            "of the pot; NashConv / 2)",
        ),
        ("Solved by", html.escape(how)),
    ]
    return [
        '<table class="summary">',
        *(f"<tr><td><b>{name}</b></td><td>{value}</td></tr>" for name, value in rows),
        "</table>",
    ]


def spot_html(document: dict[str, Any], nodes: Sequence[dict[str, Any]]) -> str:
    """The HTML page (module docstring) of a spot's saved ``document`` and the views of
    its decisions ``nodes``, in order."""
    game = document["game"]
    title = html.escape(f"{game['name']}: {game['description']}")
    links = " ".join(
        f'<a href="#node-{number}">{html.escape(node["player"])} '
        f"{html.escape(node['history'] or 'root')}</a>"
        for number, node in enumerate(nodes)
    )
    legend = " ".join(
        f'<span style="background:{colour}">{name}</span>'
        for name, colour in (
            ("fold", _FOLD),
            ("check / call", _PASSIVE),
            ("bet / raise (darker: larger)", _AGGRESSIVE[2]),
            ("not in the range", _EMPTY),
        )
    )
    body = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{title}</title>",
        f"<style>\n{_STYLE}\n</style>",
        "</head>",
        "<body>",
        f"<h1>{title}</h1>",
        *_summary(document),
        f'<p class="legend">{legend}</p>',
        f"<nav>Decisions: {links}</nav>",
    ]
    for number, node in enumerate(nodes):
        body += _node(node, number)
    body += ["</body>", "</html>"]
    return "\n".join(body) + "\n"


def saved_spot_html(saved: SavedSpot, histories: Sequence[str] | None = None) -> str:
    """The HTML page of a reopened spot result: every decision, or those after
    ``histories`` (``""`` or ``"root"`` for the first).

    Raises
    ------
    ValueError
        For a history where nobody acts (the message lists the decisions).
    """
    from seqform.holdem import decision_histories, decision_mix

    if histories is None:
        histories = [history for _, history in decision_histories(saved.strategies)]
    nodes = [node_json(decision_mix(saved.game, saved.strategies, h)) for h in histories]
    return spot_html(saved.document, nodes)
