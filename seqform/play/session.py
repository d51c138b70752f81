"""The play engine: a session started once, a hand stepped through, its result and the running
score — with no terminal anywhere, so a notebook, a web page or a test drives it as the
command line does (:mod:`seqform.cli.play` is one front end).

A session (:func:`seqform.play.start.start_session`) solves the game once.  A hand is a
:class:`~seqform.play.state.HandState`, stepped by free functions that return a new state:
:func:`deal_hand`, then, while ``state.player`` is not None, :func:`legal_actions` and
:func:`apply` the human's action, :func:`opponent_move` for the bot's, :func:`deal_card` for
chance (a turn spot's river).  :func:`hand_result` scores a finished hand, :meth:`Score.add`
keeps the running score.  :func:`play_hand` is that loop once, the human's choices given by
a function — the one loop both games and every front end use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from seqform.play.state import CHANCE, HandState, PlaySession, Table, sample_index

__all__ = [
    "HandResult",
    "Score",
    "Step",
    "apply",
    "auto_move",
    "deal_card",
    "deal_hand",
    "hand_result",
    "infoset",
    "legal_actions",
    "opponent_move",
    "play_hand",
]


@dataclass(frozen=True)
class HandResult:
    """A finished hand, seen from the human's seat.

    state : the hand's last state (its deal, board, actions)
    payoff : what the human won: on Kuhn poker the payoff, on a spot the net in chips (the
        pot share won less the chips put in)
    won : the zero-sum payoff to the human (``> 0`` beats, ``0`` ties, ``< 0`` loses)
    choices_expectation : the expected payoff of the human's choices, given the human's cards
    equilibrium_expectation : the expected payoff of equilibrium play, given the human's cards
    """

    state: HandState
    payoff: Fraction
    won: Fraction
    choices_expectation: float
    equilibrium_expectation: float

    @property
    def cards(self) -> tuple[str, str]:
        """Both players' private cards as the game names them."""
        return self.state.deal.labels

    @property
    def actions(self) -> tuple[str, ...]:
        return self.state.history

    @property
    def folded(self) -> int | None:
        return self.state.folded

    @property
    def cost(self) -> float:
        """What the human's choices gave up against equilibrium play with the same cards."""
        return self.equilibrium_expectation - self.choices_expectation


@dataclass(frozen=True)
class Score:
    """The running score of a session (the three expectations: :mod:`seqform.play`).

    seat_value : the seat's expectation a hand (:class:`~seqform.play.state.PlaySession`)
    hands : the hands counted
    total : the human's winnings
    cards_expectation, choices_expectation : sums of the hands' expectations
    """

    seat_value: float
    hands: int = 0
    total: Fraction = Fraction(0)
    cards_expectation: float = 0.0
    choices_expectation: float = 0.0

    def add(self, result: HandResult) -> Score:
        """The score with ``result`` counted."""
        return replace(
            self,
            hands=self.hands + 1,
            total=self.total + result.payoff,
            cards_expectation=self.cards_expectation + result.equilibrium_expectation,
            choices_expectation=self.choices_expectation + result.choices_expectation,
        )

    @property
    def equilibrium_expectation(self) -> float:
        """The seat's value times the hands played."""
        return self.seat_value * self.hands

    @property
    def average(self) -> float:
        """The winnings a hand (0 before the first hand)."""
        return float(self.total) / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class Step:
    """One step of a hand, as :func:`play_hand` reports it to an observer.

    kind : ``"deal"``, ``"you"`` (the human acted), ``"bot"`` or ``"card"`` (chance)
    action : the action's label, or the card dealt (``""`` for the deal)
    state : the state after the step
    before : the state before it (the deal's own state for the deal)
    """

    kind: str
    action: str | int
    state: HandState
    before: HandState


def deal_hand(session: PlaySession, number: int = 1) -> HandState:
    """Deal a hand (one draw of the session's random source): the state before the first
    action."""
    table: Table = session.table
    deal = table.deal(session.rng)
    return HandState(
        session=session,
        number=number,
        deal=deal,
        node=deal.node,
        board=table.board(),
        chips=table.chips(),
    )


def legal_actions(state: HandState) -> tuple[str, ...]:
    """The actions of the player to act, as the game labels them (empty at chance or once
    the hand is over)."""
    player = state.player
    if player is None or player == CHANCE:
        return ()
    return state.session.table.actions(state.node)


def infoset(state: HandState) -> str:
    """The information set of the player to act (``"Kpb"``, ``"AhKh|x-b5"``)."""
    return state.session.table.infoset(state)


def apply(state: HandState, action: str) -> HandState:
    """The state after the player to act takes ``action``.

    Raises
    ------
    ValueError
        If ``action`` is not one of :func:`legal_actions`.
    """
    actions = legal_actions(state)
    if action not in actions:
        raise ValueError(
            f"{action!r} is not an action here; the actions are {', '.join(actions) or 'none'}"
        )
    table = state.session.table
    player = state.player
    assert player is not None
    chosen = state.chosen
    if player == state.session.seat:
        chosen = (*chosen, (table.infoset(state), action))
    return replace(
        state,
        node=table.child(state.node, action),
        history=(*state.history, action),
        chosen=chosen,
        chips=None if state.chips is None else state.chips.after(player, action),
        folded=player if table.is_fold(state, action) else None,
    )


def opponent_move(state: HandState) -> str:
    """The bot's action, drawn from its equilibrium strategy (one draw of the session's
    random source)."""
    return _draw(state, "bot")


def auto_move(state: HandState) -> str:
    """The action of the session's ``auto`` strategy for the human (one draw)."""
    if not state.session.table.has_auto:
        raise ValueError("this session has no auto strategy")
    return _draw(state, "auto")


def _draw(state: HandState, who: str) -> str:
    table = state.session.table
    odds = table.odds(who, table.infoset(state))
    return legal_actions(state)[sample_index(odds, state.session.rng)]


def deal_card(state: HandState) -> HandState:
    """The state after chance deals its card (a turn spot's river; one draw)."""
    if state.player != CHANCE:
        raise ValueError("no card is dealt here")
    table = state.session.table
    card = table.draw_card(state, state.session.rng)
    return replace(
        state,
        node=table.card_child(state.node, card),
        board=(*state.board, card),
        chips=None if state.chips is None else state.chips.next_street(),
    )


def hand_result(state: HandState) -> HandResult:
    """The result of a finished hand: its payoff and expectations to the human.

    Raises
    ------
    ValueError
        If the hand is not over.
    """
    if not state.over:
        raise ValueError("the hand is not over")
    table = state.session.table
    won = table.payoff(state)
    hand = state.deal.index[state.session.seat]
    return HandResult(
        state=state,
        payoff=table.net(won),
        won=won,
        choices_expectation=table.choices_expectation(hand, dict(state.chosen)),
        equilibrium_expectation=table.equilibrium_expectation(hand),
    )


def play_hand(
    session: PlaySession,
    choose: Callable[[HandState], str],
    *,
    number: int = 1,
    observe: Callable[[Step], None] | None = None,
) -> HandResult:
    """Deal and play one hand: ``choose(state)`` gives the human's actions (:func:`auto_move`
    lets the session's ``auto`` strategy play), the bot and chance draw theirs; ``observe``,
    if given, sees each step as it happens.  An exception from ``choose`` (a human who
    quits) ends the hand uncounted."""
    state = deal_hand(session, number)
    if observe is not None:
        observe(Step("deal", "", state, state))
    while (player := state.player) is not None:
        before = state
        kind: str
        what: str | int
        if player == CHANCE:
            state = deal_card(state)
            kind, what = "card", state.board[-1]
        else:
            kind = "you" if player == session.seat else "bot"
            what = choose(state) if kind == "you" else opponent_move(state)
            state = apply(state, what)
        if observe is not None:
            observe(Step(kind, what, state, before))
    return hand_result(state)
