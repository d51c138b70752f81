"""What a poker player reads off a solved spot: each player's EV in chips and as a share of
the pot, the exploitability in chips and as a share of the pot, and the main action
frequencies.

Value and EV (Chen and Ankenman, *The Mathematics of Poker*, 2006, ch. 2; the commercial
solvers' reports).  The *value* of a game to a player is that player's expected payoff at
an equilibrium, in the game's own payoffs (``solve``'s "Value to Player 1").  A spot's
payoffs are net of half the pot (:func:`seqform.holdem.game.spot_game`): a
player who wins the pot gets ``+pot / 2 + the opponent's bets``.  A seat's *EV* is what a
poker player means: the chips it expects to take from the pot and the bets, its value plus
half the pot (:func:`seat_ev`; ``oop_ev + ip_ev == pot``), and its *share* of the pot is
``EV / pot``.  So on a pot of 10 a value of +2.58 to OOP is an EV of 7.58 chips, 75.8 % of
the pot.  The exploitability is NashConv / 2, the mean of the two players' best-response
gains, in chips and as a share of the pot.  Shares are fractions here and in the JSON
documents (0.758); the text reports print them as percentages (75.8 %).

A frequency at a decision is the share of the player's range, each combo weighted by its
probability in the deal (card removal against the other range included) times the
player's own probability of reaching the decision (:func:`action_frequencies`); a hand
class's mix (:func:`class_mix`, the cells of the 13 × 13 grid) is the same share over the
class's combos.  The report is built from a pair of behavioural strategies and the value
and NashConv they are certified at (:func:`spot_report`), whatever found them: the LP
(``solve``), vector CFR's average (``iterate``), or a saved document read back (``show``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.public.table_labels import InfosetNames
from seqform.game.public.tree import StructuredGame, hands_clash_free
from seqform.game.sequences import PlayerSequences
from seqform.holdem.hands import REACH_TOLERANCE
from seqform.holdem.spot import Spot

__all__ = [
    "WHO",
    "ActionFrequencies",
    "ClassGrid",
    "ClassMix",
    "SpotSummary",
    "action_frequencies",
    "class_grid",
    "class_mix",
    "decision_histories",
    "decision_mix",
    "opening_grid",
    "seat_ev",
    "spot_report",
    "spot_summary",
]

WHO = ("OOP", "IP")
"""The players as a spot's reports name them: player 0 is out of position, player 1 in."""


def seat_ev(value: Fraction | float, pot: Fraction | float, seat: int) -> float:
    """A seat's EV in chips on a spot whose value to OOP (player 0, the game's payoffs) is
    ``value``: ``pot / 2 + value`` for OOP (seat 0), ``pot / 2 − value`` for IP (seat 1).

    The one conversion from the game's payoffs to chips (module docstring); it applies to a
    payoff of one hand as well as to an expectation.
    """
    own = value if seat == 0 else -value
    return float(pot) / 2 + float(own)


@dataclass(frozen=True)
class ActionFrequencies:
    """How often a player's range takes each action at one public decision.

    player : 0 for OOP, 1 for IP
    history : the public actions before the decision (``""`` at the root, ``"x"`` after a
        check), as the spot's information sets name it
    actions : the action labels (``"x"``, ``"b5"``, ``"f"``, ``"c"``, ...)
    frequencies : per action, its share of the range (they add up to 1)
    """

    player: int
    history: str
    actions: tuple[str, ...]
    frequencies: tuple[float, ...]


@dataclass(frozen=True)
class SpotSummary:
    """A solved spot as players read it (module docstring).

    pot : chips in the pot before the street
    oop_ev, ip_ev : each player's EV in chips (:func:`seat_ev`; ``oop_ev + ip_ev == pot``)
    exploitability : NashConv / 2, in chips
    frequencies : OOP's first decision and IP's decision after a check
    combos : the combos in each range after the board's card removal
    opening : OOP's first decision as a grid of hand classes (:func:`opening_grid`), when
        asked for (``solve SPOT.toml`` shows it; ``solve-many``'s rows do not)
    definition : the spot solved, when the summary is a whole report (:func:`spot_report`):
        the document keeps its keys so that a saved result can be reopened without the
        spot file
    """

    pot: float
    oop_ev: float
    ip_ev: float
    exploitability: float
    frequencies: tuple[ActionFrequencies, ...]
    combos: tuple[int, int]
    opening: ClassGrid | None = None
    definition: Spot | None = None

    @property
    def value(self) -> float:
        """The game's value to OOP (player 0): OOP's EV less half the pot."""
        return self.oop_ev - self.pot / 2

    @property
    def exploitability_pot(self) -> float:
        """The exploitability as a share of the pot (a fraction: 0.01 is 1 %)."""
        return self.exploitability / self.pot

    def ev(self, player: int) -> float:
        """A player's EV in chips (0: OOP, 1: IP)."""
        return (self.oop_ev, self.ip_ev)[player]

    def share(self, player: int) -> float:
        """A player's EV as a share of the pot (a fraction; the two add up to 1)."""
        return self.ev(player) / self.pot


def spot_summary(
    game: StructuredGame,
    pot: Fraction | float,
    value: float,
    nash_conv: float,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
) -> SpotSummary:
    """The summary of a spot solved to ``value`` with ``strategies`` certified at
    ``nash_conv`` (module docstring)."""
    oop_ev = seat_ev(value, pot, 0)
    found = (
        action_frequencies(game, strategies[0], ""),
        action_frequencies(game, strategies[1], "x"),
    )
    return SpotSummary(
        pot=float(pot),
        oop_ev=oop_ev,
        ip_ev=seat_ev(value, pot, 1),
        exploitability=float(nash_conv) / 2,
        frequencies=tuple(f for f in found if f is not None),
        combos=(len(game.hands[0]), len(game.hands[1])),
    )


def spot_report(
    game: StructuredGame,
    spot: Spot,
    value: float,
    nash_conv: float,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
) -> SpotSummary:
    """The whole report of ``solve SPOT.toml`` and ``iterate SPOT.toml``: the
    :func:`spot_summary` of ``strategies`` (the LP's, or CFR's average) at ``value`` and
    ``nash_conv``, with OOP's opening grid and the spot itself."""
    summary = spot_summary(game, spot.pot, value, nash_conv, strategies)
    return replace(summary, opening=opening_grid(game, strategies[0]), definition=spot)


def action_frequencies(
    game: StructuredGame, strategy: BehaviouralStrategy, history: str
) -> ActionFrequencies | None:
    """The range's action frequencies at the public decision after ``history``, or None if
    the player does not act there.

    ``f(a) = Σ_h w(h) r(h) b(a | h) / Σ_h w(h) r(h)`` over the player's combos ``h``, with
    ``w(h)`` the combo's probability in the deal (its range weight times the weight of the
    other range's combos it does not clash with), ``r(h)`` the player's own reach
    probability of the decision (the realization plan of its parent sequence, KMvS 1996 §3)
    and ``b`` the behavioural strategy.
    """
    player = strategy.player
    table = strategy.table
    infosets = _infosets_at(table, game.hands[player].labels, history)
    if all(infoset is None for infoset in infosets):
        return None
    deal = _deal_marginal(game, player)
    strategy = strategy.to_float()
    plan = plan_from_behaviour(strategy)
    actions: tuple[str, ...] = ()
    totals = np.zeros(0)
    for hand, infoset in enumerate(infosets):
        if infoset is None:
            continue
        sequences = table.sequences_of(infoset)
        if not actions:
            actions, totals = table.actions[infoset], np.zeros(len(sequences))
        reach = deal[hand] * plan[int(table.parent_sequence[infoset])]
        totals += reach * strategy.probabilities[sequences.start : sequences.stop]
    mass = float(totals.sum())
    frequencies = totals / mass if mass > 0 else np.full(len(actions), np.nan)
    return ActionFrequencies(player, history, actions, tuple(float(f) for f in frequencies))


def _infosets_at(table: PlayerSequences, labels: Sequence[str], history: str) -> list[int | None]:
    """Per hand, its set ``label|history``'s index or None: by public node, else by name."""
    names, found = table.infosets, None
    if isinstance(names, InfosetNames) and tuple(names.labels) == tuple(labels):
        found = names.at_history(f"|{history}")
    if found is not None:
        return found
    index = table.index_of_infoset()
    return [index.get(f"{label}|{history}") for label in labels]


def _deal_marginal(game: StructuredGame, player: int) -> np.ndarray:
    """Each of ``player``'s combos' probability in the deal, with card removal (dense: one
    boolean per pair of combos, 1081² at most)."""
    own, other = game.hands[player], game.hands[1 - player]
    free = hands_clash_free(own, other)
    weights = np.array([float(w) for w in own.weights])
    others = np.array([float(w) for w in other.weights])
    marginal = weights * (free.astype(float) @ others)
    return marginal / marginal.sum()


@dataclass(frozen=True)
class ClassGrid:
    """The 13 × 13 hand-class grid players read a range in: row and column ranks A to 2, the
    pairs on the diagonal, suited hands above it (row the higher rank), offsuit below.

    player, history : the decision (as :class:`ActionFrequencies`)
    actions : the actions whose combined frequency each cell shows
    frequency : shape (13, 13); per class, the share of its combos (deal- and reach-weighted as
        in :func:`action_frequencies`) taking ``actions``; NaN for a class not in the range
    """

    player: int
    history: str
    actions: tuple[str, ...]
    frequency: np.ndarray


@dataclass(frozen=True)
class ClassMix:
    """One decision's strategy by hand class: per cell of the 13 × 13 grid (as
    :class:`ClassGrid`), the share of the class's combos taking each action, as solvers
    colour their range grids.

    player, history, actions : the decision (as :class:`ActionFrequencies`)
    mix : shape (13, 13, actions); per class, each action's share (deal- and reach-weighted
        as in :func:`action_frequencies`; they add up to 1), NaN for a class not in the range
        or not reached
    weight : shape (13, 13); per class, its share of the range reaching the decision (the
        weights the cells' mixes are averaged with; they add up to 1, or are all 0 when the
        player's own strategy never reaches the decision)
    reach : the share of the player's range (deal-weighted) that its own strategy brings
        to the decision (1 at its first decision)
    """

    player: int
    history: str
    actions: tuple[str, ...]
    mix: np.ndarray
    weight: np.ndarray
    reach: float

    @property
    def reached(self) -> bool:
        """Whether the player's own strategy gets here (with more than
        :data:`~seqform.holdem.hands.REACH_TOLERANCE`: a float solver's zero is a few
        1e-12, and the mixes of a decision never reached mean nothing)."""
        return self.reach > REACH_TOLERANCE


def class_mix(game: StructuredGame, strategy: BehaviouralStrategy, history: str) -> ClassMix:
    """The :class:`ClassMix` of ``strategy``'s player at the decision after ``history``.

    Raises
    ------
    ValueError
        When the player does not act there.
    """
    player = strategy.player
    table = strategy.table
    hands = game.hands[player]
    deal = _deal_marginal(game, player)
    strategy = strategy.to_float()
    plan = plan_from_behaviour(strategy)
    actions: tuple[str, ...] | None = None
    taken = np.zeros(0)
    mass = np.zeros((13, 13))
    for hand, infoset in enumerate(_infosets_at(table, hands.labels, history)):
        if infoset is None:
            continue
        if actions is None:
            actions = table.actions[infoset]
            taken = np.zeros((13, 13, len(actions)))
        sequences = table.sequences_of(infoset)
        behaviour = strategy.probabilities[sequences.start : sequences.stop]
        reach = deal[hand] * plan[int(table.parent_sequence[infoset])]
        row, column = _cell(hands.cards[hand])
        mass[row, column] += reach
        taken[row, column] += reach * behaviour
    if actions is None:
        raise ValueError(f"player {player + 1} does not act after {history!r}")
    with np.errstate(invalid="ignore", divide="ignore"):
        mix = np.where(
            mass[..., None] > 0, taken / np.where(mass > 0, mass, 1.0)[..., None], np.nan
        )
    total = float(mass.sum())
    return ClassMix(player, history, actions, mix, mass / total if total > 0 else mass, total)


def class_grid(
    game: StructuredGame, strategy: BehaviouralStrategy, history: str, actions: tuple[str, ...]
) -> ClassGrid:
    """The :class:`ClassGrid` of ``actions`` at the decision after ``history``: the sum of
    their shares in the :func:`class_mix`.

    Raises
    ------
    ValueError
        When the player does not act there, or an action is not one of the decision's.
    """
    found = class_mix(game, strategy, history)
    unknown = [a for a in actions if a not in found.actions]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not an action after {history!r}: {found.actions}")
    chosen = [found.actions.index(a) for a in actions]
    frequency = found.mix[..., chosen].sum(axis=-1) if chosen else np.zeros((13, 13))
    return ClassGrid(found.player, history, tuple(actions), frequency)


def decision_histories(
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
) -> tuple[tuple[int, str], ...]:
    """Every public decision of a spot as ``(player, history)``, each once, by the number
    of public actions before it, then by player and by the order of the player's
    information sets (``COMBO|HISTORY``)."""
    found: dict[str, tuple[int, int]] = {}
    for strategy in strategies:
        for position, name in enumerate(strategy.table.infosets):
            history = name.partition("|")[2]
            found.setdefault(history, (strategy.player, position))
    ordered = sorted(found.items(), key=lambda item: (_depth(item[0]), *item[1]))
    return tuple((player, history) for history, (player, _) in ordered)


ROOT = "root"
"""How ``show --node`` may name the first decision, whose history is ``""``."""


def decision_mix(
    game: StructuredGame,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
    history: str,
) -> ClassMix:
    """The :func:`class_mix` of whoever acts after ``history`` (``""`` or :data:`ROOT` for
    the first decision).

    Raises
    ------
    ValueError
        When nobody acts there; the message lists the decisions there are.
    """
    wanted = "" if history == ROOT else history
    for player, found in decision_histories(strategies):
        if found == wanted:
            return class_mix(game, strategies[player], found)
    known = [repr(found) if found else ROOT for _, found in decision_histories(strategies)]
    shown = ", ".join(known[:40]) + (", …" if len(known) > 40 else "")
    raise ValueError(f"no decision after {history!r}; the spot's decisions are {shown}")


def _depth(history: str) -> int:
    """How many public actions (and dealt cards) lead to a decision."""
    return 0 if not history else len(history.replace("|", "-").strip("-").split("-"))


def _cell(cards: np.ndarray) -> tuple[int, int]:
    """The grid cell of a two-card combo: ranks from A (row 0) to 2 (row 12); suited above
    the diagonal, offsuit below (card = 4 × rank + suit, rank 0 = deuce)."""
    high, low = max(int(cards[0]), int(cards[1])), min(int(cards[0]), int(cards[1]))
    first, second = 12 - high // 4, 12 - low // 4
    if first == second:
        return first, first
    suited = high % 4 == low % 4
    return (first, second) if suited else (second, first)


def opening_grid(game: StructuredGame, strategy: BehaviouralStrategy) -> ClassGrid:
    """OOP's first decision as a :class:`ClassGrid`: the share of each class that bets (any
    size; every action but the check ``x``).  ``strategy`` is OOP's."""
    first = strategy.table.actions[0]  # every OOP combo opens with the same actions
    return class_grid(game, strategy, "", tuple(a for a in first if a != "x"))
