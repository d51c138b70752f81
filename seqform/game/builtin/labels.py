"""How each built-in game names its information sets and actions: the one text that the
README, ``seqform games`` and the legend under every strategy table read.

A label is what the owner of an information set has seen, written compactly: Kuhn's ``Qpb``
is "holding Q, after check then bet".  Each :class:`LabelGrammar` gives the grammar in one
sentence, the meaning of the action letters, and a function that reads one label aloud, so
that a report can explain a label of the very table it shows.

A game is matched to its grammar by its ``describe_action`` function (the built-in
constructors each set their own), never by its name: a ``.efg`` file called ``kuhn.efg``
keeps its own labels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from seqform.game.builtin.kuhn import poker_words
from seqform.game.builtin.kuhn3 import multiplayer_poker_words
from seqform.game.builtin.leduc import leduc_words
from seqform.game.builtin.liars_dice import LIAR, liars_dice_words
from seqform.game.builtin.rhode_island import rhode_island_words
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame

__all__ = ["LABEL_GRAMMARS", "LabelGrammar", "grammar_name", "grammar_of"]


@dataclass(frozen=True)
class LabelGrammar:
    """The labels of one built-in game.

    grammar : one sentence, how an information set is named (README, ``seqform games``)
    actions : the action letters in words (``"p = check or fold, b = bet or call"``)
    explain : one information-set label in words (``"Qpb" -> "holding Q, after check (p),
        bet (b)"``)
    words : the game's ``describe_action``, by which a game is matched to its grammar
    example : a label to explain in the README and ``seqform games``
    """

    grammar: str
    actions: str
    explain: Callable[[str], str]
    words: Callable[[str, str], str]
    example: str

    def legend(self, label: str) -> str:
        """``"Qpb = holding Q, after check (p), bet (b); p = check or fold, b = bet or
        call"``: one label of a table explained, and the action letters."""
        return f"{label} = {self.explain(label)}; {self.actions}"


def _explain_kuhn(label: str) -> str:
    """``Qpb``: a card (``J Q K``, ``1 … N``, ``T``) then the betting seen, ``p``/``b``
    (check and bet before any bet, fold and call after one)."""
    card = label.rstrip("pb")
    seen, bet = [], False
    for letter in label[len(card) :]:
        if letter == "p":
            seen.append("fold (p)" if bet else "check (p)")
        else:
            seen.append("call (b)" if bet else "bet (b)")
            bet = True
    return f"holding {card}" + (f", after {', '.join(seen)}" if seen else ", first to act")


def _explain_leduc(label: str) -> str:
    """``Js|cc|Qs|cr``: private card, round-1 betting, public card, round-2 betting."""
    fields = label.split("|")
    said = [f"private card {fields[0]}"]
    said.append(f"round 1 betting {fields[1] or 'not begun'}")
    if len(fields) > 2:
        said += [f"public card {fields[2]}", f"round 2 betting {fields[3] or 'not begun'}"]
    return ", ".join(said)


def _explain_rhode_island(label: str) -> str:
    """``Ks|rc|Qh|cc|As|r``: private card, then per round its betting, with the public
    cards turned between the rounds."""
    fields = label.split("|")
    said = [f"private card {fields[0]}"]
    for round_number, start in enumerate(range(1, len(fields), 2), start=1):
        if start > 1:
            said.append(f"public card {fields[start - 1]}")
        said.append(f"round {round_number} betting {fields[start] or 'not begun'}")
    return ", ".join(said)


def _explain_liars_dice(label: str) -> str:
    """``13|1-2,2-4``: the owner's dice (sorted), then the bids so far."""
    dice, _, bids = label.partition("|")
    own = "die" if len(dice) == 1 else "dice"
    seen = f"bids so far {bids.replace(',', ', ')}" if bids else "no bid yet"
    return f"own {own} {' '.join(dice)}, {seen}"


LABEL_GRAMMARS: dict[str, LabelGrammar] = {
    "kuhn": LabelGrammar(
        grammar=(
            "CARD then the betting the owner has seen: J, Q, K (1 … N with cards=N), then p "
            "and b in order; player 1 has J, Jpb, …, player 2 Jp, Jb, …"
        ),
        actions="p = check or fold, b = bet or call",
        explain=_explain_kuhn,
        words=poker_words,
        example="Qpb",
    ),
    "kuhn3": LabelGrammar(
        grammar=(
            "CARD then the betting the owner has seen, as in kuhn: T, J, Q, K, then p and b "
            "of every player in turn"
        ),
        actions="p = check or fold, b = bet or call",
        explain=_explain_kuhn,
        words=multiplayer_poker_words,
        example="Jpb",
    ),
    "leduc": LabelGrammar(
        grammar=(
            "CARD|ROUND1 in round 1 and CARD|ROUND1|PUBLIC|ROUND2 in round 2: the owner's "
            "private card (rank then suit, Qh; the rank alone with suit_isomorphism), the "
            "betting of round 1 in f/c/r, the public card, the betting of round 2 so far"
        ),
        actions="f = fold, c = check or call, r = bet or raise",
        explain=_explain_leduc,
        words=leduc_words,
        example="Ks|rc|Qh|cr",
    ),
    "rhode_island": LabelGrammar(
        grammar=(
            "CARD|R1, CARD|R1|PUB1|R2 and CARD|R1|PUB1|R2|PUB2|R3 in rounds 1, 2 and 3: the "
            "owner's private card (rank then suit, Ah), the betting of each round in f/c/r "
            "with the public cards turned between the rounds"
        ),
        actions="f = fold, c = check or call, r = bet or raise",
        explain=_explain_rhode_island,
        words=rhode_island_words,
        example="Ks|rc|Qh|cc|As|r",
    ),
    "liars_dice": LabelGrammar(
        grammar=(
            "DICE|BIDS: the owner's dice in increasing order, then the bids so far, comma "
            "separated, each q-f (at least q of all dice show face f)"
        ),
        actions=(
            f"q-f = bid at least q dice of face f (the highest face is wild), {LIAR} = call "
            "the last bid a lie"
        ),
        explain=_explain_liars_dice,
        words=liars_dice_words,
        example="13|1-2,2-4",
    ),
}


def grammar_of(game: Game | StructuredGame) -> LabelGrammar | None:
    """The label grammar of a built-in game (a tree, or a structured game without one),
    ``None`` for any other (a ``.efg`` file or an OpenSpiel game keeps the labels of
    its source)."""
    for grammar in LABEL_GRAMMARS.values():
        if game.describe_action is grammar.words:
            return grammar
    return None


def grammar_name(game: Game | StructuredGame) -> str | None:
    """The key of ``game``'s grammar in :data:`LABEL_GRAMMARS` (``"kuhn"``), as a document
    names it (``"game": {"labels": ...}``); ``None`` for a game of no built-in grammar."""
    grammar = grammar_of(game)
    if grammar is None:
        return None
    return next(name for name, found in LABEL_GRAMMARS.items() if found is grammar)
