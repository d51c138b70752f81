"""A light pre-pass over a Gambit ``.efg`` file, before pygambit parses it.

pygambit (16.7) reads the format well but reports some faults poorly or not at all; this
pass reads the file's tokens the way Gambit's lexer does (:mod:`seqform.game.formats.efg_tokens`)
and follows the grammar of the tree without building it::

    EFG 2 R "title" { "P1" "P2" } ["description"]
    p "label" player infoset ["infoset" { "a" "b" ... }] outcome ["name" { payoffs }]
    c "label" infoset ["infoset" { "a" prob "b" prob ... }] outcome [...]
    t "label" outcome [...]

in pre-order, a ``p`` or ``c`` node followed by one subtree per action of its information
set (the actions are listed at the set's first node).  It checks what pygambit does not
report well, each with the file's line and column:

* the file must be UTF-8 (a decoding error gives the line and the byte);
* a decision node's player must be one of the players declared in the header (pygambit
  says ``vector::_M_range_check``);
* nothing may follow the last node of the tree (pygambit ignores it);
* a character outside ASCII may appear only inside a quoted label;
* nodes must agree with the file and themselves (:mod:`seqform.game.formats.efg_checks`):
  chance probabilities non-negative and summing to one, each outcome defined (name and
  payoffs) at its first use and never differently after, the members of an information set
  declaring the same name and actions (pygambit gives no line, a line late, or the wrong
  player; and it never sees information-set names, blanked below).

pygambit refuses labels that are not printable ASCII with single inner spaces ("Invalid
label", without a line), and cannot return a non-ASCII title or description.  So every
quoted string it would refuse, or that holds the ``U+XXXX`` codes seqform writes for such
text (read by :func:`~seqform.game.formats.efg_tokens.tokenize`, returned unread by
pygambit), is swapped for an ASCII placeholder in the text handed to pygambit, and
:meth:`ScannedEfg.restore` turns the labels pygambit returns back into the file's own
(including pygambit's renamings of repeated labels, ``placeholder_1``).

When the file does not follow the grammar, the pass stops quietly and leaves the report
to pygambit, whose messages give the line of the fault.

Size: the walk over the grammar and the bytes it prepares for pygambit (labels and outcomes
kept aside) are one idea, what pygambit is handed, and split they would share every field.
"""

from __future__ import annotations

import bisect
import dataclasses
import heapq
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import count
from operator import itemgetter

from seqform.base.progress import Step, report
from seqform.game.errors import GameFormatError
from seqform.game.formats.efg_checks import (
    Declared,
    chance_problem,
    outcome_problem,
    redeclared,
)
from seqform.game.formats.efg_tokens import Token, TokenKind, decode, position, tokenize

__all__ = ["ScannedEfg", "scan_efg"]

_INTEGER_PREFIX = re.compile(r"[-+]?[0-9]+")
# The payoffs kept aside from pygambit: spellings that Fraction reads as Gambit reads them
# (integers, fractions, decimals with a short exponent); any other is left to pygambit.
_PLAIN_NUMBER = re.compile(
    r"-?(?:[0-9]+(?:/[0-9]+)?|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE]-?[0-9]{1,4})?)"
)
_NOT_NEWLINE = re.compile(r"[^\n]")
_PLACEHOLDER_BASE = "seqform-label-"
_REPORT_EVERY = (1 << 14) - 1  # progress every 16,384 nodes
_REPORT_TOKENS = (1 << 17) - 1  # and every 131,072 tokens


@dataclass(frozen=True)
class ScannedEfg:
    """A file after the pre-pass.

    Attributes
    ----------
    data : the bytes to hand to pygambit: the file with each label pygambit refuses
        swapped for a placeholder and, when the walk followed the whole tree, every node
        and information-set label blanked (pygambit's reader takes time proportional to
        the tree for each such label it sets)
    depth : the levels of the tree (an upper bound when the walk stopped early):
        pygambit's reader recurses once per level
    node_labels : every node's label in pre-order, when blanked in ``data``
    infoset_labels : (player index, information set's order of first appearance) → its
        label, when blanked in ``data``; that order is pygambit's ``Infoset.number``
    originals : placeholder → the file's label, for each swapped label
    outcomes : every node's outcome number in pre-order (0 for none), when the outcomes
        are blanked in ``data`` (pygambit 16.7 checks each new outcome's label against
        every earlier one, time quadratic in the outcomes: seconds already on a long chain,
        see ``benchmarks/results/measurements.md``); ``None`` when pygambit reads them
    payoffs : outcome number → its payoffs (player 1's, player 2's), when blanked
    """

    data: bytes
    depth: int
    node_labels: tuple[str, ...] | None = None
    infoset_labels: Mapping[tuple[int, int], str] | None = None
    outcomes: tuple[int, ...] | None = None
    payoffs: Mapping[int, tuple[Fraction, Fraction]] = field(default_factory=dict)
    originals: Mapping[str, str] = field(default_factory=dict)
    pattern: re.Pattern[str] | None = None

    def restore(self, label: str) -> str:
        """The file's own text for a label pygambit returns (placeholders put back)."""
        if self.pattern is None or self.pattern.search(label) is None:
            return label
        return self.pattern.sub(lambda match: self.originals[match[0]], label)


class _Stop(Exception):
    """The file leaves the grammar here; pygambit will say where and why."""


@dataclass
class _Walk:
    """Gambit's grammar followed over the tokens, without building the tree.

    ``actions`` counts the actions of each information set, keyed by (player, number),
    player 0 for chance, as given at the set's first node; ``declared`` keeps that
    declaration, which every later one must repeat (:func:`~.efg_checks.redeclared`).
    """

    path: str
    text: str
    tokens: list[Token]
    index: int = 0
    players: list[str] = field(default_factory=list)
    actions: dict[tuple[int, int], int] = field(default_factory=dict)
    declared: dict[tuple[int, int], Declared] = field(default_factory=dict)
    depth: int = 0
    node_labels: list[Token] = field(default_factory=list)  # in pre-order
    infoset_labels: list[Token] = field(default_factory=list)  # every one given
    first_labels: dict[tuple[int, int], str] = field(default_factory=dict)  # see ScannedEfg
    infoset_counts: dict[int, int] = field(default_factory=dict)  # per player
    outcomes: list[int] = field(default_factory=list)  # each node's, in pre-order
    outcome_spans: list[tuple[int, int, Token | None]] = field(default_factory=list)
    outcome_texts: dict[int, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    outcome_starts: dict[int, int] = field(default_factory=dict)  # each definition's offset
    plain_outcomes: bool = True  # every outcome as pygambit takes it: kept aside
    breaks: list[int] | None = None  # the line breaks' offsets, found at the first `line`

    def take(self, kind: TokenKind, value: str | None = None) -> Token:
        if self.index >= len(self.tokens):
            raise _Stop
        token = self.tokens[self.index]
        if token.kind != kind or (value is not None and token.value != value):
            raise _Stop
        self.index += 1
        return token

    def peek(self, kind: TokenKind) -> bool:
        return self.index < len(self.tokens) and self.tokens[self.index].kind == kind

    def integer(self, what: str) -> tuple[int, Token]:
        """A number token read as C's ``stoi`` reads it (its leading integer), which
        fails (pygambit says only "stoi") without one or beyond 32 bits."""
        token = self.take("number")
        match = _INTEGER_PREFIX.match(token.value)
        if match is None or abs(int(match[0])) >= 2**31:
            problem = "is not a whole number" if match is None else "is too large"
            raise self.error(f"{what} {token.value!r} {problem}", token)
        return int(match[0]), token

    def rational(self, what: str) -> str:
        """A payoff or probability; pygambit refuses ``p/0`` without saying where."""
        token = self.take("number")
        _, slash, denominator = token.value.partition("/")
        if slash and not denominator.strip("0"):
            raise self.error(f"{what} {token.value!r} divides by zero", token)
        return token.value

    def error(self, reason: str, token: Token) -> GameFormatError:
        return GameFormatError(self.path, reason, *position(self.text, token.start))

    def line(self, offset: int) -> int:
        """The one-based line of ``offset``, by a binary search in the line breaks, which
        are found once: counting the breaks before each offset anew (``position``) made a
        file with many information sets quadratic to read (every node of a set names its
        first declaration's line; ``leduc(ranks=6)``'s 3.4 MB took 22 of its 35 s)."""
        if self.breaks is None:
            self.breaks = [match.start() for match in re.finditer("\n", self.text)]
        return bisect.bisect_left(self.breaks, offset) + 1

    def declare(self, player: int, number: int, infoset: Token, labels: list[str]) -> None:
        """Note an information set's declaration at ``infoset`` (its name); a later one
        that contradicts the first is refused here, with the player and the set."""
        again = Declared(infoset.value, tuple(labels), infoset.start)
        first = self.declared.setdefault((player, number), again)
        if first is not again:
            reason = redeclared(player, number, first, again, self.line(first.offset))
            if reason is not None:
                raise self.error(reason, infoset)

    def header(self) -> None:
        self.take("symbol", "EFG")
        self.take("number", "2")
        if self.take("symbol").value not in ("D", "R"):
            raise _Stop
        self.take("text")
        self.take("{")
        while self.peek("text"):
            self.players.append(self.take("text").value)
        self.take("}")
        if self.peek("text"):
            self.take("text")  # the description

    def tree(self) -> None:
        """Walk the nodes in pre-order, keeping the count of subtrees still to read."""
        phase, total = f"checking {self.path}", len(self.tokens)
        try:
            self.nodes(phase, total)
        finally:
            report(Step(phase, total, total, "tokens", finished=True))

    def nodes(self, phase: str, total: int) -> None:
        pending = [1]
        while pending:
            if pending[-1] == 0:
                pending.pop()
                continue
            pending[-1] -= 1
            self.depth = max(self.depth, len(pending))
            if len(self.node_labels) & _REPORT_EVERY == 0:
                report(Step(phase, self.index, total, "tokens"))
            node = self.take("symbol")
            kind = node.value
            if kind == "p":
                pending.append(self.decision())
            elif kind == "c":
                pending.append(self.chance(node))
            elif kind == "t":
                self.node_labels.append(self.take("text"))
                self.outcome()
            else:
                raise _Stop

    def decision(self) -> int:
        label = self.take("text")
        self.node_labels.append(label)
        player, token = self.integer("player number")
        if not 1 <= player <= len(self.players):
            raise self.player_error(player, label.value, token)
        number, _ = self.integer("information set number")
        if self.peek("text"):
            infoset = self.take("text")
            self.infoset_labels.append(infoset)
            self.take("{")
            labels = []
            while not self.peek("}"):
                labels.append(self.take("text").value)
            self.take("}")
            self.declare(player, number, infoset, labels)
            if (player, number) not in self.actions:
                self.actions[player, number] = len(labels)
                order = self.infoset_counts.get(player, 0)
                self.infoset_counts[player] = order + 1
                self.first_labels[player - 1, order] = infoset.value
        self.outcome()
        return self.children((player, number))

    def chance(self, node: Token) -> int:
        label = self.take("text")
        self.node_labels.append(label)
        number, _ = self.integer("information set number")
        if self.peek("text"):
            infoset = self.take("text")
            self.infoset_labels.append(infoset)
            self.take("{")
            labels, odds = [], []
            while not self.peek("}"):
                labels.append(self.take("text").value)
                odds.append(self.rational("probability"))
            self.take("}")
            reason = chance_problem(label.value, number, labels, odds)
            if reason is not None:
                raise self.error(reason, node)
            self.declare(0, number, infoset, labels)
            self.actions.setdefault((0, number), len(labels))
        self.outcome()
        return self.children((0, number))

    def children(self, infoset: tuple[int, int]) -> int:
        if infoset not in self.actions:
            raise _Stop  # an information set used before it is defined
        return self.actions[infoset]

    def outcome(self) -> None:
        number, token = self.integer("outcome number")
        self.outcomes.append(number)
        if not self.peek("text"):
            if number != 0:
                if number not in self.outcome_texts:
                    raise self.error(
                        f"outcome {number} is not defined: the first node to use an outcome "
                        f'gives its name and payoffs, e.g. {number} "name" {{ 1, -1 }}',
                        token,
                    )
                self.outcome_spans.append((token.start, token.end, None))
            return
        label = self.take("text")
        if not self.peek("{"):
            raise self.error(
                f"outcome {number}'s name {label.value!r} is not followed by its payoffs in "
                "braces, e.g. { 1, -1 }; a node that uses an outcome defined earlier gives "
                "only its number",
                token,
            )
        self.take("{")
        payoffs = []
        while not self.peek("}"):
            payoffs.append(self.rational("payoff"))
            if self.peek(","):
                self.take(",")
        end = self.take("}").end
        self.outcome_spans.append((token.start, end, label))
        self.define_outcome(number, label.value, tuple(payoffs), token)

    def define_outcome(
        self, number: int, label: str, payoffs: tuple[str, ...], token: Token
    ) -> None:
        """Note an outcome's definition; a second one that differs from a first that
        pygambit takes is refused here (:func:`~.efg_checks.outcome_problem`), and any
        other that pygambit would refuse (the null outcome given payoffs, other than one
        payoff a player, a spelling :data:`_PLAIN_NUMBER` does not cover) leaves all
        outcomes to it."""
        start = self.outcome_starts.setdefault(number, token.start)
        known = self.outcome_texts.setdefault(number, (label, payoffs))
        if number != 0 and known != (label, payoffs) and self.readable(known[1]):
            first, again = Declared(*known, start), Declared(label, payoffs, token.start)
            reason = outcome_problem(number, first, again, self.line(start))
            if reason is not None:
                raise self.error(reason, token)
        self.plain_outcomes &= (
            number != 0
            and known == (label, payoffs)
            and len(self.players) == 2
            and self.readable(payoffs)
        )

    def readable(self, payoffs: tuple[str, ...]) -> bool:
        """Whether pygambit takes an outcome's payoffs: one a player, spelt plainly."""
        return len(payoffs) == len(self.players) and all(
            _PLAIN_NUMBER.fullmatch(payoff) for payoff in payoffs
        )

    def player_error(self, player: int, label: str, token: Token) -> GameFormatError:
        node = f"decision node {label!r}" if label else "a decision node"
        declared = ", ".join(f'{number} "{name}"' for number, name in enumerate(self.players, 1))
        count = len(self.players)
        return self.error(
            f"{node} belongs to player {token.value}, but the header declares "
            f"{count} player{'s' if count != 1 else ''} ({declared or 'none'}); "
            "players are numbered from 1, chance nodes are 'c' lines",
            token,
        )


def scan_efg(path: str, data: bytes) -> ScannedEfg:
    """Check the file's bytes and prepare them for pygambit (see the module docstring).

    Raises
    ------
    GameFormatError
        If the file is not UTF-8, holds non-ASCII text outside quoted labels, gives a
        decision node to a player the header does not declare, has a node that contradicts
        the file (see the module docstring) or anything after the last node of its tree;
        the message gives the file, the line and the column.
    """
    text = decode(path, data)
    tokens: list[Token] = []
    append, phase = tokens.append, f"reading {path}"
    for token in tokenize(text, path):
        append(token)
        if len(tokens) & _REPORT_TOKENS == 0:
            report(Step(phase, token.end, len(text), "characters"))
    walk = _Walk(path, text, tokens)
    try:
        walk.header()
        walk.tree()
    except _Stop:
        # pygambit reports the fault; labels stay (pygambit's line numbers must hold).
        nodes = sum(1 for token in tokens if token.kind == "symbol" and token.value in ("p", "c"))
        return _prepare(text, tokens, [], depth=nodes + 1)
    if walk.index < len(tokens):
        raise _junk_error(path, text, tokens[walk.index - 1], tokens[walk.index])
    spans = walk.outcome_spans if walk.plain_outcomes else []
    blanks = walk.node_labels + walk.infoset_labels
    scanned = _prepare(text, tokens, blanks, walk.depth, spans)
    outcomes = None
    payoffs: dict[int, tuple[Fraction, Fraction]] = {}
    if walk.plain_outcomes:
        outcomes = tuple(walk.outcomes)
        for number, (_, (first, second)) in walk.outcome_texts.items():
            payoffs[number] = (Fraction(first), Fraction(second))
    return dataclasses.replace(
        scanned,
        node_labels=tuple(token.value for token in walk.node_labels),
        infoset_labels=walk.first_labels,
        outcomes=outcomes,
        payoffs=payoffs,
    )


def _junk_error(path: str, text: str, last: Token, extra: Token) -> GameFormatError:
    last_line, _ = position(text, last.start)
    line, column = position(text, extra.start)
    shown = extra.value if len(extra.value) <= 40 else extra.value[:37] + "..."
    return GameFormatError(
        path,
        f"{shown!r} after the end of the game tree (its last node ends on line {last_line}); "
        "remove it, or check the action counts of the nodes above",
        line,
        column,
    )


def _null_outcome(text: str, start: int, end: int, label: Token | None) -> str:
    """``0`` padded to the outcome's span; a label spanning lines is dropped, since
    pygambit does not count line breaks inside strings (its line numbers stay the same)."""
    if label is not None and "\n" in text[label.start : label.end]:
        body = text[start + 1 : label.start] + text[label.end : end]
    else:
        body = text[start + 1 : end]
    return "0" + _NOT_NEWLINE.sub(" ", body)


def _acceptable(label: str) -> bool:
    """Whether pygambit 16.7 takes ``label``: printable ASCII, single inner spaces."""
    return (
        label.isascii() and label.isprintable() and label == label.strip(" ") and "  " not in label
    )


def _prepare(
    text: str,
    tokens: list[Token],
    blanks: list[Token],
    depth: int,
    outcomes: Sequence[tuple[int, int, Token | None]] = (),
) -> ScannedEfg:
    """The bytes for pygambit: ``blanks`` emptied, each outcome of ``outcomes`` (its
    span, from its number to its closing brace, and its label) made the null outcome
    ``0``, and each other string pygambit would refuse swapped for a placeholder.

    A blanked label or outcome is padded with spaces to its length, so that pygambit's
    columns stay the file's.  The same string always gets the same placeholder (pygambit
    compares the labels of an information set's nodes); the placeholders' stem occurs
    nowhere in the file.
    """
    blanked = {token.start for token in blanks}
    inside = {label.start for _, _, label in outcomes if label is not None}
    changed = [
        token
        for token in tokens
        if token.kind == "text"
        and token.start not in inside
        and (
            token.start in blanked
            or not _acceptable(token.value)
            or "U+" in text[token.start : token.end]  # codes pygambit would return unread
        )
    ]
    if not changed and not outcomes and text.isascii():
        return ScannedEfg(text.encode("ascii"), depth)
    edits = heapq.merge(
        ((token.start, token.end, token) for token in changed), outcomes, key=itemgetter(0)
    )
    base = _PLACEHOLDER_BASE
    while base in text:
        base += "x"
    numbers = count(1)
    placeholders: dict[str, str] = {}
    pieces, done = [], 0
    for start, end, token in edits:
        pieces.append(text[done:start])
        done = end
        if token is None or token.start != start:  # an outcome, ``token`` its label
            pieces.append(_null_outcome(text, start, end, token))
            continue
        if token.start in blanked:
            source = text[token.start : token.end]
            pieces.append('""' + ("" if "\n" in source else " " * (len(source) - 2)))
            continue
        placeholder = placeholders.get(token.value)
        if placeholder is None:
            placeholder = placeholders[token.value] = f"{base}{next(numbers)}z"
        pieces.append(f'"{placeholder}"')
    pieces.append(text[done:])
    originals = {placeholder: value for value, placeholder in placeholders.items()}
    pattern = re.compile(re.escape(base) + r"[0-9]+z") if originals else None
    data = "".join(pieces).encode("utf-8")
    return ScannedEfg(data, depth, originals=originals, pattern=pattern)
