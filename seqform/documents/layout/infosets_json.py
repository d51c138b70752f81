"""A strategy's ``"infosets"`` written as JSON text straight from its arrays.

A strategy entry of ``common.schema.json`` (:func:`seqform.documents.objects.strategy_json`)
holds an object per information set and one per action.  A CFR average on a full-range turn
spot has 2.4 million information sets and 6.2 million actions: made as Python objects and
then written, they took about 50 s (20 to build the objects, 30 to write them) and 5 GB
beside the game, after iterations that took 10.  For a document that is only written
(``--format json`` in the command line: :func:`seqform.documents.objects.strategies_for_json`)
the list is an :class:`InfosetObjects` instead: a read-only sequence of the same objects,
each made when asked for, which :func:`seqform.io.json_text.indented_json` writes
(:meth:`InfosetObjects.json_parts`) without making them.  The text is the same, character
for character (the tests compare the two on spots and on tree games).

How: every information set's text is a fixed sequence of pieces::

    ,⏎{⏎"name": | NAME | ,⏎"unreached": false,⏎"actions": [⏎{⏎"action": "x",⏎"words": "x",⏎
    "probability": | P0 | ⏎},⏎{⏎"action": "b5", ... "probability": | P1 | ⏎}⏎]⏎}

(⏎ standing for the newline and indentation of its level).  The pieces between the
probabilities depend only on the information set's actions and their words: they are made
once per distinct list of actions (a spot's public node), not once per information set.
A probability is written as ``json.dumps`` writes it (``repr``; ``null`` for NaN): its text
is the costly part (Python's shortest round-trip digits, about a microsecond for a value of
17 digits), so where a strategy repeats few values many times (after a few iterations, or
uniform where unreached) each distinct value is written once (:data:`DISTINCT_SHARE`).  A
spot's information set ``COMBO|HISTORY`` is written as two pieces, the combo's and the
history's (:class:`~seqform.game.public.table_labels.InfosetNames`), so no name is made
either.  Then all the pieces are placed in one array, in order, by numpy's indexing, and
handed to the writer, which joins them a chunk at a time
(:func:`seqform.io.documents.document_chunks`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from json.encoder import encode_basestring_ascii
from typing import Any, overload

import numpy as np

from seqform.base.numbers import is_readable
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public.table_labels import InfosetActions, InfosetNames
from seqform.io.json_text import Prewritten, pad, scalar_texts

__all__ = ["InfosetObjects", "json_probabilities", "json_probability", "label_itself"]

Words = Callable[[str, str], str]

DISTINCT_SHARE = 4
"""A float strategy's probabilities are written value by value when more than one in this
many are distinct, else each distinct value once (module docstring)."""


def label_itself(_infoset: str, action: str) -> str:
    """The words of a game that has none: the action's label."""
    return action


def json_probabilities(strategy: BehaviouralStrategy, long_fractions: bool) -> list[Any]:
    """Per sequence, its probability as the strategy entry writes it: a float (None for
    NaN, a run whose sums overflowed), or for an exact strategy a string fraction (only the
    readable ones without ``long_fractions``, the rest floats)."""
    if not strategy.exact:
        return [None if math.isnan(p) else p for p in strategy.probabilities.tolist()]
    return [
        str(p) if long_fractions or is_readable(p) else float(p) for p in strategy.probabilities
    ]


def json_probability(strategy: BehaviouralStrategy, sequence: int, long_fractions: bool) -> Any:
    """One sequence's probability as :func:`json_probabilities` writes it."""
    probability = strategy.probabilities[sequence]
    if not strategy.exact:
        return None if math.isnan(probability) else float(probability)
    return str(probability) if long_fractions or is_readable(probability) else float(probability)


class InfosetObjects(Sequence[dict[str, Any]], Prewritten):
    """A strategy's ``"infosets"``: item ``i`` is information set ``i``'s object
    (``{"name", "unreached", "actions": [{"action", "words", "probability"}, ...]}``),
    made when asked for; :meth:`json_parts` writes them all without making them (module
    docstring).

    strategy : the player's behaviour
    words : ``(infoset, action) -> words`` (:func:`label_itself` where the game has none)
    long_fractions : as :func:`~seqform.documents.objects.strategy_json` takes it
    """

    __slots__ = ("long_fractions", "strategy", "words")

    def __init__(self, strategy: BehaviouralStrategy, words: Words, long_fractions: bool) -> None:
        self.strategy = strategy
        self.words = words
        self.long_fractions = long_fractions

    def __len__(self) -> int:
        return self.strategy.table.num_infosets

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(len(self)))]
        position = int(index)
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError(f"information set {index} out of range for {len(self)}")
        return self._item(position)

    def _item(self, index: int) -> dict[str, Any]:
        strategy, table = self.strategy, self.strategy.table
        infoset, first = table.infosets[index], int(table.first_sequence[index])
        actions = [
            {
                "action": action,
                "words": self.words(infoset, action),
                "probability": json_probability(strategy, first + k, self.long_fractions),
            }
            for k, action in enumerate(table.actions[index])
        ]
        return {"name": infoset, "unreached": bool(strategy.unreached[index]), "actions": actions}

    def json_parts(self, level: int) -> list[str]:
        """The list's text at ``level`` as pieces (module docstring): per information set
        four, the separator, its name in two and what follows the name up to the first
        probability, then two per action, its probability and what follows it."""
        table = self.strategy.table
        if not table.num_infosets:
            return ["[]"]
        counts = table.action_counts()
        groups, between = self._between(level)
        ends = np.cumsum(counts)
        starts = 4 * np.arange(len(counts), dtype=np.int64) + 2 * (ends - counts)
        pieces = np.empty(4 * len(counts) + 2 * int(ends[-1]) + 1, dtype=object)
        pieces[starts] = "," + pad(level + 1) + "{" + pad(level + 2) + '"name": '
        pieces[0] = "[" + pieces[0][1:]
        pieces[starts + 1], pieces[starts + 2] = self._names()
        unreached = np.asarray(self.strategy.unreached, dtype=np.int64)
        pieces[starts + 3] = between[0][2 * groups + unreached]
        # each action: its set, its rank at the set, its place among the pieces
        owner = np.repeat(np.arange(len(counts)), counts)
        rank = np.arange(int(ends[-1]), dtype=np.int64) - (ends - counts)[owner]
        places = starts[owner] + 4 + 2 * rank
        sequences = table.first_sequence[owner].astype(np.int64) + rank
        pieces[places] = self._probability_texts()[sequences]
        pieces[places + 1] = between[1][between[2][groups[owner]] + rank]
        pieces[-1] = pad(level) + "]"
        result: list[str] = pieces.tolist()
        return result

    def _between(self, level: int) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per information set, its group (its list of actions and their words), and per
        group the pieces between the probabilities: ``(after_name, after_probability,
        first)``; ``after_name[2 g + u]`` follows the name of a set of group ``g`` that is
        unreached (``u`` 1) or not, ``after_probability[first[g] + k]`` its ``k``-th
        probability."""
        groups, keys = self._groups()
        two, three, four = pad(level + 2), pad(level + 3), pad(level + 4)

        def action(labels: tuple[str, str]) -> str:
            label, words = map(encode_basestring_ascii, labels)
            return f'{{{four}"action": {label},{four}"words": {words},{four}"probability": '

        after_name: list[str] = []
        after_probability: list[str] = []
        first = []
        for key in keys:
            for flag in ("false", "true"):
                opening = f',{two}"unreached": {flag},{two}"actions": '
                after_name.append(
                    opening + ("[" + three + action(key[0]) if key else "[]" + pad(level + 1) + "}")
                )
            first.append(len(after_probability))
            after_probability += [f"{three}}},{three}" + action(pair) for pair in key[1:]]
            after_probability.append(three + "}" + two + "]" + pad(level + 1) + "}")
        return groups, (
            np.array(after_name, dtype=object),
            np.array(after_probability, dtype=object),
            np.array(first, dtype=np.int64),
        )

    def _groups(self) -> tuple[np.ndarray, list[tuple[tuple[str, str], ...]]]:
        """Per information set, the index of its ``((action, words), ...)`` among the
        distinct ones, and those: a spot's public nodes when the game has no words,
        else the sets' own lists, made one by one."""
        table, words = self.strategy.table, self.words
        actions = table.actions
        if words is label_itself and isinstance(actions, InfosetActions):
            keys = [tuple(zip(labels, labels, strict=True)) for labels in actions.node_actions]
            return np.asarray(actions.nodes, dtype=np.int64), keys
        found: dict[tuple[tuple[str, str], ...], int] = {}
        groups = []
        for name, labels in zip(table.infosets, actions, strict=True):
            key = tuple((label, words(name, label)) for label in labels)
            groups.append(found.setdefault(key, len(found)))
        return np.array(groups, dtype=np.int64), list(found)

    def _names(self) -> tuple[np.ndarray, np.ndarray]:
        """Per information set, its name's text in two pieces: a spot's ``"COMBO`` and
        ``|HISTORY"``, else the whole and an empty piece."""
        names = self.strategy.table.infosets
        if isinstance(names, InfosetNames):
            combos = np.array([encode_basestring_ascii(s)[:-1] for s in names.labels], object)
            histories = [encode_basestring_ascii(s)[1:] for s in names.histories]
            return combos[names.hands], np.array(histories, dtype=object)[names.nodes]
        whole = np.array(list(map(encode_basestring_ascii, names)), dtype=object)
        return whole, np.full(len(whole), "", dtype=object)

    def _probability_texts(self) -> np.ndarray:
        """Per sequence, its probability's text; where at most a quarter of the values are
        distinct, each distinct value written once (module docstring), told apart by its
        bits, so that ``-0.0`` stays itself."""
        strategy = self.strategy
        if strategy.exact:
            return np.array(scalar_texts(json_probabilities(strategy, self.long_fractions)), object)
        bits = np.ascontiguousarray(strategy.probabilities, dtype=np.float64).view(np.int64)
        ordered = np.sort(bits)
        starts = np.empty(len(ordered), dtype=bool)
        starts[:1] = True
        np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
        distinct = ordered[starts]
        if len(distinct) > len(bits) // DISTINCT_SHARE:  # a search per value costs more
            return np.array(_float_texts(bits), dtype=object)
        return np.array(_float_texts(distinct), dtype=object)[np.searchsorted(distinct, bits)]


def _float_texts(bits: np.ndarray) -> list[str]:
    """The floats whose bits are ``bits`` as JSON, NaN as ``null``."""
    return scalar_texts([None if math.isnan(p) else p for p in bits.view(np.float64).tolist()])
