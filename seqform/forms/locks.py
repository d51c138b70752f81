"""Node locks: one player's behaviour fixed at chosen nodes, for all hands or chosen ones.

A *lock* says "at this node, with these hands, ``player`` plays this mix" — the node
locking of PioSOLVER, GTO+ and Desktop Postflop.  A node is a public history (a hold'em
spot's ``"x-b5"``, ``""`` for the first decision) on a game with private hands (public tree
× hands, :mod:`seqform.game.public.tree`), where each hand's information set is the hand's
label followed by the history; on a game tree without that shape a node is an information
set's name (Kuhn's ``"J"``, ``"Kpb"``) and a lock takes no hands.  The mix gives a
probability per action label; an action left out has probability 0, and the probabilities
must add up to exactly 1 (they are exact: ``0.5``, ``1/3``).

Resolved against a game's sequence tables (:func:`resolve_locks`) a lock fixes
``b(a | h) = p_a`` at each information set ``h`` it covers, which on realization plans
(KMvS 1996, §3) is the linear equality ``x[h, a] = p_a · x[parent(h)]``: the locked game is
again an LP (:mod:`seqform.routes.restrict` adds such rows on the tree,
:mod:`seqform.structured.lp_locks` on the structured LP), and the CFR family keeps those
behaviours fixed.  Locks are applied in order, so a later lock overrides an earlier one at
the information sets both cover (lock a node for all hands, then ``AA`` differently).

The text notation and the lock files are read by :mod:`seqform.io.lock_files`; every
mistake raises :class:`LockError` naming the lock as the user wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences

__all__ = [
    "ACTION_WORDS",
    "Lock",
    "LockError",
    "ResolvedLocks",
    "normal_history",
    "player_index",
    "player_names",
    "resolve_locks",
    "structured_targets",
    "tree_targets",
]

ACTION_WORDS = {"check": "x", "call": "c", "fold": "f", "pass": "p", "bet": "b"}
"""Words a mix may use for a label the node does not have literally (``check`` for ``x``)."""

_PLAYERS = {
    "oop": 0,
    "ip": 1,
    "p1": 0,
    "p2": 1,
    "1": 0,
    "2": 1,
    "player 1": 0,
    "player 2": 1,
    "player1": 0,
    "player2": 1,
}


class LockError(ValueError):
    """A lock that cannot be applied; the message names the lock as it was written."""


def player_index(text: object, where: str) -> int:
    """``"OOP"``/``"P1"``/``"1"``/``1`` → 0, ``"IP"``/``"P2"``/``"2"``/``2`` → 1.

    Raises
    ------
    LockError
        For any other player, naming ``where``.
    """
    key = str(text).strip().lower()
    if isinstance(text, bool) or key not in _PLAYERS:
        raise LockError(f"{where}: unknown player {text!r}; write OOP or IP (P1 or P2)")
    return _PLAYERS[key]


def player_names(text: object) -> tuple[str, str]:
    """``("OOP", "IP")`` for a player written as a seat, else ``("P1", "P2")``."""
    return ("OOP", "IP") if str(text).strip().lower() in ("oop", "ip") else ("P1", "P2")


@dataclass(frozen=True)
class Lock:
    """One lock, as written (module docstring).

    player : 0 (OOP, player 1) or 1 (IP, player 2)
    node : the public history, or on a game tree an information set's name
    mix : ``(action, probability)`` pairs, exact, adding up to 1
    hands : the hands it covers, as written (``"AA"``, ``"KQs"``, ``"AhKh"``); empty: all
    source : how the user wrote it, for messages (``--lock "IP@x: b5=1"``, ``locks.toml,
        lock 2``)
    names : how messages name the two players: ``("OOP", "IP")``, or ``("P1", "P2")`` when
        the lock was written so (:func:`player_names`)
    """

    player: int
    node: str
    mix: tuple[tuple[str, Fraction], ...]
    hands: tuple[str, ...] = ()
    source: str = field(default="", compare=False)
    names: tuple[str, str] = field(default=("OOP", "IP"), compare=False)

    def __post_init__(self) -> None:
        where = self.where
        if self.player not in (0, 1):
            raise LockError(f"{where}: player must be 0 or 1, not {self.player!r}")
        if not self.mix:
            raise LockError(f"{where}: give the mix, e.g. x=1 or b5=0.5,x=0.5")
        seen: set[str] = set()
        for action, probability in self.mix:
            if action in seen:
                raise LockError(f"{where}: action {action!r} is given twice")
            seen.add(action)
            if not isinstance(probability, Fraction) or not 0 <= probability <= 1:
                raise LockError(f"{where}: {action}={probability} is not a probability in [0, 1]")
        total = sum((p for _, p in self.mix), Fraction(0))
        if total != 1:
            raise LockError(f"{where}: the probabilities add up to {total}, not 1")

    @property
    def where(self) -> str:
        """How messages name this lock."""
        return self.source or f"lock {self.text()!r}"

    def text(self) -> str:
        """The compact notation of :mod:`seqform.io.lock_files` (``IP@x: b5=1/2,x=1/2``)."""
        who = self.names[self.player]
        mix = ",".join(f"{action}={probability}" for action, probability in self.mix)
        hands = f"; hands={','.join(self.hands)}" if self.hands else ""
        return f"{who}@{self.node}: {mix}{hands}"


@dataclass(frozen=True)
class ResolvedLocks:
    """Locks resolved against a game's sequence tables.

    locks : the locks, in the order applied
    fixed : per player, information-set index → the fixed probability of each action
    """

    locks: tuple[Lock, ...]
    fixed: tuple[Mapping[int, tuple[Fraction, ...]], Mapping[int, tuple[Fraction, ...]]]

    def players(self) -> list[int]:
        """The locked players."""
        return [player for player in (0, 1) if self.fixed[player]]

    def bounds(
        self,
    ) -> tuple[
        dict[int, tuple[tuple[Fraction, Fraction], ...]],
        dict[int, tuple[tuple[Fraction, Fraction], ...]],
    ]:
        """Per player, the locked behaviour as bounds ``lo = hi`` per action (the form the
        restricted best response of :func:`seqform.certify.respond` takes)."""
        return (
            {index: tuple((p, p) for p in mix) for index, mix in self.fixed[0].items()},
            {index: tuple((p, p) for p in mix) for index, mix in self.fixed[1].items()},
        )

    @property
    def count(self) -> int:
        """The information sets locked."""
        return len(self.fixed[0]) + len(self.fixed[1])


def normal_history(text: str) -> str:
    """A node as written (``"x b5"``, ``"x-b5"``, ``"root"``) in the spots' notation
    (``"x-b5"``; ``""`` for the first decision)."""
    stripped = text.strip()
    if stripped.lower() in ("", "root", "-"):
        return ""
    return re.sub(r"[\s,]+", "-", stripped)


Targets = Callable[[Lock], Sequence[str]]
"""A lock → the names of the information sets it covers (:func:`tree_targets`,
:func:`structured_targets`)."""


def tree_targets(lock: Lock) -> list[str]:
    """On a game tree a node is one information set's name; hands are not taken."""
    if lock.hands:
        raise LockError(
            f"{lock.where}: hands= needs a game of private hands on a public tree (a spot "
            "file, or --method structured); on a game tree name the information set as the node"
        )
    return [lock.node.strip()]


def structured_targets(
    game: StructuredGame, expand: Callable[[str, int], Sequence[str]] | None = None
) -> Targets:
    """The information sets a lock covers on ``game``: its hands' (all when it names none)
    at the public node whose history is the lock's node (:func:`normal_history`; a spot's
    leading ``|`` may be left out).  ``expand(item, player)`` turns one written hand into
    labels (a spot's ``"AKs"`` into its combos); by default an item is one hand's label.
    A hand that cannot be at the node (its card is public there) is skipped."""
    numbering = number_public_tree(game)

    def nodes(player: int) -> dict[str, str]:
        found = {}
        for history in numbering.node_histories[player]:
            found[history] = history
            found.setdefault(normal_history(history.lstrip("|")), history)
        return found

    by_player = (nodes(0), nodes(1))

    def targets(lock: Lock) -> list[str]:
        wanted = normal_history(lock.node)
        for key in (lock.node.strip(), wanted):
            if key in by_player[lock.player]:
                history = by_player[lock.player][key]
                break
        else:
            if wanted in by_player[1 - lock.player] or lock.node in by_player[1 - lock.player]:
                raise LockError(
                    f"{lock.where}: {lock.names[1 - lock.player]} acts at node "
                    f"{wanted or 'root'!r}, not {lock.names[lock.player]}"
                )
            known = [h.lstrip("|") or "root" for h in numbering.node_histories[lock.player]]
            shown = ", ".join(known[:10]) + (", …" if len(known) > 10 else "")
            raise LockError(
                f"{lock.where}: no node {wanted or 'root'!r} where "
                f"{lock.names[lock.player]} acts (its nodes: {shown})"
            )
        labels = game.hands[lock.player].labels
        chosen: list[str] = []
        for item in lock.hands or labels:
            try:
                found = list(expand(item, lock.player)) if expand and lock.hands else [item]
            except LockError as exc:
                raise LockError(f"{lock.where}: {exc}") from None
            found = [label for label in found if label in labels]
            if not found:
                raise LockError(
                    f"{lock.where}: hand {item!r} is not in {lock.names[lock.player]}'s range"
                )
            chosen += [label for label in found if label not in chosen]
        return [label + history for label in chosen]

    return targets


def _action(lock: Lock, action: str, offered: tuple[str, ...], node: str) -> int:
    if action in offered:
        return offered.index(action)
    word = ACTION_WORDS.get(action.lower())
    matches = [i for i, label in enumerate(offered) if word and label.startswith(word)]
    if word and len(matches) == 1:
        return matches[0]
    raise LockError(
        f"{lock.where}: no action {action!r} at {node!r} (its actions: {', '.join(offered)})"
    )


def resolve_locks(
    tables: Sequence[PlayerSequences], locks: Sequence[Lock], targets: Targets
) -> ResolvedLocks:
    """Check ``locks`` against the game's sequence tables and fix their behaviour per
    information set (later locks override earlier ones).

    Raises
    ------
    LockError
        For an unknown node, hand or action, an action given twice (``x`` and ``check``),
        or a node where the other player acts; the message names the lock.
    """
    lookup = [table.index_of_infoset() for table in tables]
    fixed: tuple[dict[int, tuple[Fraction, ...]], dict[int, tuple[Fraction, ...]]] = ({}, {})
    for lock in locks:
        names = [name for name in targets(lock) if name]
        covered = 0
        for name in names:
            owner = next((p for p in (0, 1) if name in lookup[p]), None)
            if owner is None:
                if lock.hands or len(names) > 1:
                    continue  # a hand that cannot be at the node
                raise LockError(f"{lock.where}: no information set {lock.node!r} in this game")
            if owner != lock.player:
                raise LockError(
                    f"{lock.where}: {name!r} is {lock.names[owner]}'s (player {owner + 1}), "
                    f"not {lock.names[lock.player]}'s"
                )
            index = lookup[owner][name]
            offered = tables[owner].actions[index]
            mix = [Fraction(0)] * len(offered)
            written: dict[int, str] = {}
            for action, probability in lock.mix:
                at = _action(lock, action, offered, lock.node.strip() or "root")
                if at in written:  # "x" and "check": one action given twice
                    raise LockError(
                        f"{lock.where}: {written[at]!r} and {action!r} are the same action "
                        f"{offered[at]!r}; give it once"
                    )
                written[at] = action
                mix[at] = probability
            fixed[owner][index] = tuple(mix)
            covered += 1
        if not covered:
            raise LockError(f"{lock.where}: none of its hands can be at node {lock.node!r}")
    return ResolvedLocks(locks=tuple(locks), fixed=fixed)
