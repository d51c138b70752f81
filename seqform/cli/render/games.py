"""``games``: the built-in games and their label grammars, as text.

Its JSON document, ``seqform.games/1``, is :func:`seqform.documents.games.games_document`;
the games and the words about them are :mod:`seqform.game.builtin.catalogue`'s.
"""

from __future__ import annotations

import textwrap

from seqform.game.builtin.catalogue import BuiltinGame

__all__ = ["games_text"]

WIDTH = 100  # text lines are wrapped here


def games_text(games: list[BuiltinGame]) -> str:
    """Each game: name and parameters, what it is, its information-set labels and actions."""
    lines = ['Built-in games (write parameters inside the name, quoted: "kuhn(cards=5)")']
    for game in games:
        parameters = ", ".join(game.parameters)
        grammar = game.grammar
        example = f"e.g. {grammar.example} = {grammar.explain(grammar.example)}"
        lines += ["", f"{game.name}({parameters})" if parameters else game.name]
        texts = (
            game.summary,
            *(f"parameter {text}" for text in game.parameter_help),
            f"information sets: {grammar.grammar}",
            example,
        )
        for text in texts:
            lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="    ")
        lines += textwrap.wrap(
            f"actions: {grammar.actions}", WIDTH, initial_indent="  ", subsequent_indent="    "
        )
    lines += [
        "",
        "Also: a Gambit .efg file, or openspiel:NAME; these keep the labels of their source.",
        "Under every strategy table, a legend reads one of its labels aloud.",
    ]
    return "\n".join(lines)
