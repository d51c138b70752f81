"""Node locking: solve a game with one player's behaviour fixed at chosen nodes, beside the
game without the locks, and say what changed.

The locks (:mod:`seqform.forms.locks`) are linear equalities on the locked player's
realization plan, so the locked game is again the min-max LP: on the tree its rows go
through the restricted-players machinery of :mod:`seqform.routes.restrict` (``--fix`` with
``lo = hi``; ``exact`` re-solves its basis in rationals), on the structured route into the
structured LP (:mod:`seqform.structured.lp_locks`).  The locked player still optimises at
every other information set; the opponent best-responds to the locked nodes and exploits
them.

Certificate.  NashConv of a locked game is measured *in the locked game*: the locked
player's best response may deviate only at unlocked information sets (there it keeps the
locked mix), the opponent's anywhere.  It is the one best response of
:mod:`seqform.certify` with the locked behaviour as bounds ``lo = hi``
(:func:`seqform.certify.respond`), so it is 0 exactly at an equilibrium of the locked game.

Changes.  Each player's EV with and without the locks (a spot: in chips, EV = value + pot/2
for OOP, and as a share of the pot, :func:`seqform.holdem.report.seat_ev`; other games:
the value in the game's payoffs), and the strategy change at every node of the players who
are not locked there: on a spot the range's action frequencies at each public decision
(:func:`seqform.holdem.report.action_frequencies`), elsewhere the behaviour at each
information set reached by either solution; largest changes first.

Size: a little over 400 lines: the locks' checks against the route and against ``--fix``
bounds, and the comparison of the two solutions, read the same resolved locks and result
types; the comparison is the next part to move out if the module grows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from seqform.forms.locks import (
    Lock,
    LockError,
    ResolvedLocks,
    resolve_locks,
    structured_targets,
    tree_targets,
)
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.routes.options import OptionsError, check_options, refuse_exact_locks_off_tree

if TYPE_CHECKING:
    from seqform.routes.policy import Route

__all__ = [
    "LockedSolution",
    "NodeChange",
    "SeatChange",
    "as_locks",
    "compare_locked",
    "lock_bounds",
    "refuse_conflicting_bounds",
    "resolve_for",
]


@dataclass(frozen=True)
class SeatChange:
    """One player's EV without and with the locks.

    player : 0 or 1
    before, after : EV (a spot: chips; else the value to this player in the game's payoffs)
    before_share, after_share : a spot's EV as a share of the pot (fractions); else None
    """

    player: int
    before: float
    after: float
    before_share: float | None = None
    after_share: float | None = None

    @property
    def change(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class NodeChange:
    """A node's strategy without and with the locks.

    player : whose node
    node : a spot's public history (``""`` the first decision), else an information set
    actions : the action labels
    before, after : per action, the frequency (a spot: of the range reaching the node) or
        the probability (an information set)
    reach_before, reach_after : a spot's probability that play reaches the node (both
        players' strategies and the deal); None elsewhere
    """

    player: int
    node: str
    actions: tuple[str, ...]
    before: tuple[float, ...]
    after: tuple[float, ...]
    reach_before: float | None = None
    reach_after: float | None = None

    @property
    def largest(self) -> float:
        """The largest change of one action's frequency, in absolute value."""
        return max(abs(a - b) for a, b in zip(self.after, self.before, strict=True))


@dataclass(frozen=True)
class LockedSolution:
    """The locked game's solution beside the unlocked one (module docstring).

    locked : the solution of the locked game (its certificate: NashConv in the locked game)
    unlocked : the solution without the locks, on the same route with the same options
    locks : the locks, resolved against the game
    seats : each player's EV without and with the locks
    changes : the unlocked nodes' strategy changes, largest first
    pot : a spot's pot (chips), else None

    ``value``, ``strategies``, ``certificate``, ``timings``, ``stats`` and ``route`` are the
    locked solution's (:class:`~seqform.routes.result.Result`).
    """

    locked: Any
    unlocked: Any
    locks: ResolvedLocks
    seats: tuple[SeatChange, SeatChange]
    changes: tuple[NodeChange, ...]
    pot: float | None = None

    @property
    def value(self) -> Any:
        return self.locked.value

    @property
    def strategies(self) -> Any:
        return self.locked.strategies

    @property
    def certificate(self) -> Any:
        return self.locked.certificate

    @property
    def timings(self) -> Any:
        return self.locked.timings

    @property
    def stats(self) -> Any:
        return self.locked.stats

    @property
    def route(self) -> str:
        return str(self.locked.route)

    @property
    def game(self) -> Any:
        return self.locked.game

    @property
    def nash_conv(self) -> float:
        return float(self.locked.certificate.nash_conv)

    @property
    def exploitability(self) -> float:
        return float(self.locked.certificate.exploitability)


def as_locks(locks: Any) -> list[Lock]:
    """``locks`` as :class:`Lock`\\ s: strings in the compact notation
    (:func:`seqform.io.lock_files.parse_lock`) or locks; one string or lock alone.

    Raises
    ------
    TypeError
        For anything but a lock string, a ``Lock`` or a sequence of them (``locks=5``,
        ``locks=[None]``), naming ``locks``.
    LockError
        For a string that is not a lock.
    """
    from seqform.io.lock_files import parse_lock

    if isinstance(locks, str | Lock):
        locks = [locks]
    accepted = "locks takes node locks: text such as 'IP@x: b5=1', a Lock, or a sequence of them"
    if isinstance(locks, bytes | Mapping) or not isinstance(locks, Iterable):
        raise TypeError(f"{accepted}; not {type(locks).__name__} {locks!r:.60}")
    found = []
    for item in locks:
        if isinstance(item, str):
            found.append(parse_lock(item))
        elif isinstance(item, Lock):
            found.append(item)
        else:
            raise TypeError(f"{accepted}; not {type(item).__name__} {item!r:.60} among them")
    return found


def check_locked_route(route: Route, *, exact: bool, refine: bool, backend: str) -> None:
    """Refuse what locks cannot run with (an :class:`OptionsError`, exit 2).

    Raises
    ------
    OptionsError
        For ``refine``, the normal form, the structured route with ``exact``, or on the
        tree a backend or solver the restricted LP does not take.
    """
    if refine:
        raise OptionsError("--lock cannot be combined with --refine")
    if route.method == "normal":
        raise OptionsError("--lock solves the sequence form: drop --method normal")
    if route.structured is not None and exact:
        refuse_exact_locks_off_tree(route.solver, backend)
    if route.structured is None:
        check_options("tree", solver=route.solver, backend=backend, exact=exact, lock=True)


def _spot_expander(route: Route) -> Callable[[str, int], Sequence[str]] | None:
    if route.spot is None:
        return None
    from seqform.holdem import HandSelectionError, lock_hand_labels

    spot = route.spot

    def expand(item: str, player: int) -> list[str]:
        try:
            return lock_hand_labels(item, spot, player)
        except HandSelectionError as exc:
            raise LockError(str(exc).replace("--hand", "hands")) from None

    return expand


def resolve_for(
    game: Game | StructuredGame, route: Route | None, locks: Sequence[Lock]
) -> ResolvedLocks:
    """Resolve ``locks`` against the game solved on ``route`` (:func:`resolve_locks`); the
    route names a spot's hands (``hands=AA,KK``), None for a game without a spot.

    Raises
    ------
    LockError
        Naming the lock that does not fit the game.
    """
    if isinstance(game, StructuredGame):
        from seqform.structured.responses import sequence_tables

        targets = structured_targets(game, None if route is None else _spot_expander(route))
        return resolve_locks(sequence_tables(game), locks, targets)
    return resolve_locks(game.flat.tables, locks, tree_targets)


def lock_bounds(game: Game, locks: ResolvedLocks) -> list[Any]:
    """The locks as ``--fix`` bounds ``lo = hi`` (:class:`~seqform.routes.restrict.ActionBound`)."""
    from seqform.routes.restrict import ActionBound

    bounds = []
    for player in (0, 1):
        table = game.flat.tables[player]
        for index, mix in sorted(locks.fixed[player].items()):
            for action, probability in zip(table.actions[index], mix, strict=True):
                bounds.append(ActionBound(table.infosets[index], action, probability, probability))
    return bounds


def refuse_conflicting_bounds(game: Game, fix: Any, locks: ResolvedLocks) -> None:
    """Refuse a ``fix`` bound (``ActionBound``\\ s, or ``Restrictions``) excluding the
    probability a lock gives its action: both bound one restricted LP (:func:`lock_bounds`).

    Raises
    ------
    LockError
        Naming the lock and the bound, a usage error as any lock that does not fit.
    """
    locked = {(bound.infoset, bound.action): bound.lower for bound in lock_bounds(game, locks)}
    for bound in getattr(fix, "bounds", fix) or ():
        probability = locked.get((bound.infoset, bound.action))
        if probability is None or bound.lower <= probability <= bound.upper:
            continue
        at = [lock.where for lock in locks.locks if lock.node.strip() == bound.infoset]
        raise LockError(
            f"{at[-1] if at else 'a lock'} and --fix {bound.text()} disagree: the lock gives "
            f"{bound.infoset}:{bound.action} probability {probability}; drop one of them"
        )


def _seats(unlocked: Any, locked: Any, pot: float | None) -> tuple[SeatChange, SeatChange]:
    values = float(unlocked.value), float(locked.value)
    if pot is None:
        return (
            SeatChange(0, values[0], values[1]),
            SeatChange(1, -values[0], -values[1]),
        )
    from seqform.holdem import seat_ev

    seats = []
    for seat in (0, 1):
        before, after = seat_ev(values[0], pot, seat), seat_ev(values[1], pot, seat)
        seats.append(SeatChange(seat, before, after, before / pot, after / pot))
    return seats[0], seats[1]


REACH_TOLERANCE = 1e-9
"""A public decision reached with at most this probability in both solutions is not listed."""


def _spot_changes(
    game: StructuredGame,
    player: int,
    before: BehaviouralStrategy,
    after: BehaviouralStrategy,
    reach: tuple[dict[str, float], dict[str, float]],
    locked: set[str],
) -> list[NodeChange]:
    """The frequencies of ``player``'s reached decisions before and after, but at the
    ``locked`` nodes (a history, as in an information set's name after its combo)."""
    from seqform.game.public.numbering import number_public_tree
    from seqform.holdem import action_frequencies

    found = []
    for history in number_public_tree(game).node_histories[player]:
        node = history.lstrip("|")
        if node in locked:
            continue
        reached = reach[0].get(history, 0.0), reach[1].get(history, 0.0)
        if max(reached) <= REACH_TOLERANCE:
            continue
        old = action_frequencies(game, before, node)
        new = action_frequencies(game, after, node)
        if old is None or new is None:
            continue
        found.append(
            NodeChange(
                player,
                node,
                old.actions,
                tuple(0.0 if np.isnan(f) else f for f in old.frequencies),
                tuple(0.0 if np.isnan(f) else f for f in new.frequencies),
                *reached,
            )
        )
    return found


def _infoset_changes(
    player: int, before: BehaviouralStrategy, after: BehaviouralStrategy, skip: set[int]
) -> list[NodeChange]:
    old, new = before.to_float(), after.to_float()
    table = old.table
    found = []
    for index, name in enumerate(table.infosets):
        if index in skip or (old.unreached[index] and new.unreached[index]):
            continue
        sequences = table.sequences_of(index)
        found.append(
            NodeChange(
                player,
                name,
                table.actions[index],
                tuple(float(p) for p in old.probabilities[sequences.start : sequences.stop]),
                tuple(float(p) for p in new.probabilities[sequences.start : sequences.stop]),
            )
        )
    return found


def _reached(change: NodeChange) -> bool:
    """Whether play reaches the node with the locks (always, for an information set)."""
    return change.reach_after is None or change.reach_after > REACH_TOLERANCE


CHANGE_TOLERANCE = 1e-6
"""A node whose frequencies all move by at most this much is not listed as changed (a
float LP's round-off)."""


def compare_locked(
    unlocked: Any, locked: Any, locks: ResolvedLocks, pot: float | Fraction | None = None
) -> LockedSolution:
    """The :class:`LockedSolution` of two solutions of one game, without and with ``locks``
    (module docstring)."""
    pot_chips = None if pot is None else float(pot)
    changes: list[NodeChange] = []
    game = locked.game
    spot = pot_chips is not None and isinstance(game, StructuredGame)
    if spot:
        from seqform.holdem import public_reach

        reach = public_reach(game, unlocked.strategies), public_reach(game, locked.strategies)
    for player in (0, 1):
        before, after = unlocked.strategies[player], locked.strategies[player]
        if spot:
            # at a node where some of its combos are locked, the locked player's frequency
            # moves by the locks themselves: its other nodes are compared as the opponent's
            names = before.table.infosets
            nodes = {names[index].partition("|")[2] for index in locks.fixed[player]}
            changes += _spot_changes(game, player, before, after, reach, nodes)
        else:
            changes += _infoset_changes(player, before, after, set(locks.fixed[player]))
    changes = [change for change in changes if change.largest > CHANGE_TOLERANCE]
    changes.sort(key=lambda change: (not _reached(change), -change.largest))
    return LockedSolution(
        locked=locked,
        unlocked=unlocked,
        locks=locks,
        seats=_seats(unlocked, locked, pot_chips),
        changes=tuple(changes),
        pot=pot_chips,
    )
