"""``games``: the built-in games and their label grammars, as text.

Read from the ``seqform.games/1`` document (:func:`seqform.documents.games.games_document`),
so that the text shows what the JSON holds; the games and the words about them are
:mod:`seqform.game.builtin.catalogue`'s.
"""

from __future__ import annotations

import textwrap

from seqform.documents.layout.parts import Document

__all__ = ["games_text"]

WIDTH = 100  # text lines are wrapped here


def games_text(document: Document) -> str:
    """Each game of a ``seqform.games/1`` document: name and parameters, what it is, its
    information-set labels and actions."""
    lines = ['Built-in games (write parameters inside the name, quoted: "kuhn(cards=5)")']
    for game in document["games"]:
        parameters = ", ".join(game["parameters"])
        example = f"e.g. {game['example']['label']} = {game['example']['meaning']}"
        lines += ["", f"{game['name']}({parameters})" if parameters else game["name"]]
        texts = (
            game["summary"],
            *(f"parameter {text}" for text in game["parameter_help"]),
            f"information sets: {game['labels']}",
            example,
        )
        for text in texts:
            lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="    ")
        lines += textwrap.wrap(
            f"actions: {game['actions']}", WIDTH, initial_indent="  ", subsequent_indent="    "
        )
    lines += [
        "",
        "Also: a Gambit .efg file, or openspiel:NAME; these keep the labels of their source.",
        "Under every strategy table, a legend reads one of its labels aloud.",
    ]
    return "\n".join(lines)
