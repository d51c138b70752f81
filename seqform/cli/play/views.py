"""What the terminal shows of a hand: one view for Kuhn poker, one for Leduc and Rhode Island
hold'em (the private card, the public cards, the pot and the amount to call at each of the
human's decisions), one for a hold'em spot.

The engine (:mod:`seqform.play`) plays both the same way; a view only words what it reports —
cards as the game names them or as players write them (``Ah Kh``, the board ``Ks 7h 2d 9c
4s``), actions in words (check, bet 5, call, raise to 20, all-in marked), and on a spot the pot
and the chips behind at each of the human's decisions and both hands named at a showdown
(eval7's hand types).  A spot's values are EVs in chips, beside their share of the pot.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol

from seqform.base.numbers import value_text
from seqform.cli.play.console import (
    Console,
    below_round_off,
    move_menu,
    parse_choice,
    parse_spot_choice,
    signed,
)
from seqform.holdem import amount_text, card_text, hand_name
from seqform.play.cards import CardGameTable
from seqform.play.kuhn import KuhnTable
from seqform.play.session import HandResult, Step, auto_move, infoset, legal_actions
from seqform.play.spot import SpotTable, action_word
from seqform.play.state import HandState, PlaySession

__all__ = ["CardGameView", "KuhnView", "SpotView", "View", "cards_text", "view_of"]


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    """``"Ks 7h 2d"``: cards as players write them, a space between."""
    return " ".join(card_text(card) for card in cards)


class View(Protocol):
    def header(self, console: Console) -> None: ...

    def choose(self, state: HandState) -> str: ...

    def step(self, step: Step) -> None: ...

    def result(self, result: HandResult) -> None: ...


class KuhnView:
    """Kuhn poker on the console."""

    def __init__(self, session: PlaySession, console: Console) -> None:
        assert isinstance(session.table, KuhnTable)
        self.session, self.table, self.console = session, session.table, console

    def header(self, console: Console) -> None:
        seat, session = self.session.seat, self.session
        order = " < ".join(self.table.order)
        position = "you act first" if seat == 0 else "the bot acts first"
        who = f"The {session.auto_name} strategy plays" if session.auto_name else "You play"
        console.say(
            f"Kuhn poker against seqform's equilibrium bot. {who} seat {seat + 1} ({position})."
        )
        console.say(f"Both ante 1; a bet or a call puts in 1 more; {order}. Type q to quit.")
        console.say(
            f"The game is worth {_value(session, session.seat_value)} a hand to seat {seat + 1}: "
            "that is what good play expects against the bot."
        )

    def _word(self, state: HandState, action: str) -> str:
        return self.table.game.describe_action(infoset(state), action)

    def choose(self, state: HandState) -> str:
        if self.table.has_auto:
            return auto_move(state)
        game, at, actions = self.table.game, infoset(state), legal_actions(state)
        menu = move_menu(game, at, actions)
        while True:
            chosen = parse_choice(self.console.ask(f"  Your move: {menu}? "), game, at, actions)
            if chosen is not None:
                return chosen
            letters = " or ".join(game.describe_action(at, a)[0] for a in actions)
            self.console.say(f"  Please type {letters} (q quits).")

    def step(self, step: Step) -> None:
        state = step.state
        if step.kind == "deal":
            mine = state.deal.labels[self.session.seat]
            self.console.say(f"Hand {state.number}: your card is {mine}.")
            return
        word = self._word(step.before, str(step.action))
        if step.kind == "bot":
            self.console.say(f"  Bot {word}s.")
        elif self.table.has_auto:
            self.console.say(f"  You ({self.session.auto_name}) {word}.")

    def result(self, result: HandResult) -> None:
        seat = self.session.seat
        mine, theirs = result.cards[seat], result.cards[1 - seat]
        payoff = result.payoff
        said = f"You win {payoff}." if payoff > 0 else f"You lose {-payoff}."
        if result.folded is not None:
            self.console.say(f"  No showdown (the bot held {theirs}). {said}")
        else:
            relation = "beats" if payoff > 0 else "loses to"
            self.console.say(f"  Showdown: your {mine} {relation} the bot's {theirs}. {said}")
        if not self.table.has_auto and _costly(self.session, result):
            self.console.say(
                f"  Those choices expect {_value(self.session, -result.cost)} compared with "
                f"equilibrium play with a {mine}."
            )


class CardGameView:
    """Leduc or Rhode Island hold'em on the console."""

    def __init__(self, session: PlaySession, console: Console) -> None:
        assert isinstance(session.table, CardGameTable)
        self.session, self.table, self.console = session, session.table, console

    def header(self, console: Console) -> None:
        seat, session, game = self.session.seat, self.session, self.table.game
        position = "you act first" if seat == 0 else "the bot acts first"
        who = f"The {session.auto_name} strategy plays" if session.auto_name else "You play"
        console.say(f"{game.description}.")
        console.say(
            f"Against seqform's equilibrium bot, {who.lower()} seat {seat + 1} ({position}). "
            "One private card each, public cards "
            "between the rounds. Type fold, check, call, bet or raise (or the first "
            "letter); q quits."
        )
        console.say(
            f"The game is worth {_value(session, session.seat_value)} a hand to seat {seat + 1}: "
            "that is what good play expects against the bot."
        )

    def _public(self, state: HandState) -> str:
        return " ".join(self.table.card_name(card) for card in state.board) or "none yet"

    def choose(self, state: HandState) -> str:
        if self.table.has_auto:
            return auto_move(state)
        game, at, actions = self.table.game, infoset(state), legal_actions(state)
        pot, facing = self.table.pot(state.node), self.table.to_call(state.node)
        where = f"  Your card {state.deal.labels[self.session.seat]}, public {self._public(state)}"
        self.console.say(f"{where}; pot {pot}" + (f", {facing} to call." if facing else "."))
        menu = move_menu(game, at, actions)  # type: ignore[arg-type]
        while True:
            answer = self.console.ask(f"  Your move: {menu}? ")
            chosen = parse_choice(answer, game, at, actions)  # type: ignore[arg-type]
            if chosen is not None:
                return chosen
            self.console.say(f"  Please type one of: {menu} (q quits).")

    def step(self, step: Step) -> None:
        state = step.state
        if step.kind == "deal":
            mine = state.deal.labels[self.session.seat]
            pot = self.table.pot(state.node)
            self.console.say(f"Hand {state.number}: your card is {mine}; pot {pot} (the antes).")
        elif step.kind == "card":
            card = self.table.card_name(int(step.action))
            self.console.say(f"  Public card {card}: public cards {self._public(state)}.")
        elif step.kind == "bot":
            word = self.table.word(step.before, str(step.action))
            self.console.say(f"  Bot {_third_person(word)}.")
        elif self.table.has_auto:
            word = self.table.word(step.before, str(step.action))
            self.console.say(f"  You ({self.session.auto_name}) {word}.")

    def result(self, result: HandResult) -> None:
        seat, state = self.session.seat, result.state
        mine, theirs = result.cards[seat], result.cards[1 - seat]
        payoff = result.payoff
        said = f"You lose {-payoff}." if payoff < 0 else f"You win {payoff}."
        said = "Split pot: you win 0." if payoff == 0 else said
        if result.folded is not None:
            self.console.say(f"  No showdown (the bot held {theirs}). {said}")
        else:
            relation = "beats" if payoff > 0 else "ties with" if payoff == 0 else "loses to"
            self.console.say(
                f"  Showdown with public cards {self._public(state)}: your {mine} {relation} "
                f"the bot's {theirs}. {said}"
            )
        if not self.table.has_auto and _costly(self.session, result):
            self.console.say(
                f"  Those choices expect {_value(self.session, -result.cost)} compared with "
                f"equilibrium play with {mine}."
            )


def _value(session: PlaySession, value: float) -> str:
    """A value of the session (:func:`value_text`) beside its scale: the same text in any
    unit of chips."""
    return value_text(value, scale=session.scale)


def _costly(session: PlaySession, result: HandResult) -> bool:
    """Whether the human's choices gave up more than round-off against equilibrium play
    (beside the session's scale: :func:`~seqform.cli.play.console.below_round_off`)."""
    return result.cost > 0 and not below_round_off(result.cost, session.scale)


def _third_person(word: str) -> str:
    """``"bet 8"`` -> ``"bets 8"``."""
    verb, _, rest = word.partition(" ")
    return f"{verb}s{' ' + rest if rest else ''}"


class SpotView:
    """A hold'em spot on the console."""

    def __init__(self, session: PlaySession, console: Console) -> None:
        assert isinstance(session.table, SpotTable)
        self.session, self.table, self.console = session, session.table, console

    def header(self, console: Console) -> None:
        spot, seat, session = self.table.spot, self.session.seat, self.session
        position = "OOP, you act first" if seat == 0 else "IP, the bot acts first"
        who = f"The {session.auto_name} strategy plays" if session.auto_name else "You play"
        console.say(
            f"A {spot.street} spot on {cards_text(list(spot.board))} against seqform's "
            f"equilibrium bot. {who} seat {seat + 1} ({position})."
        )
        console.say(
            f"Pot {amount_text(spot.pot)}, {amount_text(spot.effective_stack)} behind each. "
            "Type an action as the menu writes it, or check, call, fold; q quits."
        )
        console.say(
            f"EV of seat {seat + 1}: {_value(session, session.seat_value)} chips a hand "
            f"({pot_share(session.seat_value, spot.pot)} of the pot): the pot share it expects "
            "to win less the chips it expects to put in."
        )

    def _menu(self, state: HandState) -> str:
        """``x check, b5 bet 5, b30 bet 30 (all-in)``."""
        assert state.chips is not None
        stack = state.chips.stack - state.chips.before
        words = []
        for action in legal_actions(state):
            all_in = action[0] in "br" and Fraction(action[1:]) == stack
            words.append(f"{action} {action_word(action)}{' (all-in)' if all_in else ''}")
        return ", ".join(words)

    def choose(self, state: HandState) -> str:
        if self.table.has_auto:
            return auto_move(state)
        chips, seat = state.chips, self.session.seat
        assert chips is not None
        behind, facing = chips.behind(seat), chips.to_call(seat)
        where = f"  Pot {amount_text(chips.pot)}, you have {amount_text(behind)} behind"
        self.console.say(where + (f", {amount_text(facing)} to call." if facing else "."))
        menu, actions = self._menu(state), legal_actions(state)
        while True:
            chosen = parse_spot_choice(self.console.ask(f"  Your move ({menu})? "), actions)
            if chosen is not None:
                return chosen
            self.console.say(f"  Please type one of {', '.join(actions)} (q quits).")

    def step(self, step: Step) -> None:
        state = step.state
        if step.kind == "deal":
            mine = state.deal.cards[self.session.seat]
            self.console.say(f"Hand {state.number}: you hold {cards_text(mine)}.")
            pot = amount_text(self.table.spot.pot)
            self.console.say(f"  Board {cards_text(list(state.board))}, pot {pot}.")
        elif step.kind == "card":
            board = cards_text(list(state.board))
            self.console.say(f"  River {card_text(int(step.action))}: board {board}.")
        elif step.kind == "bot":
            verb, _, rest = action_word(str(step.action)).partition(" ")
            self.console.say(f"  Bot {verb}s{' ' + rest if rest else ''}.")
        elif self.table.has_auto:
            self.console.say(f"  You ({self.session.auto_name}) {action_word(str(step.action))}.")

    def result(self, result: HandResult) -> None:
        seat, state = self.session.seat, result.state
        mine, theirs = state.deal.cards[seat], state.deal.cards[1 - seat]
        said = f"Your net: {signed(result.payoff, self.session.scale)}."
        if result.folded is not None:
            self.console.say(f"  No showdown (the bot held {cards_text(theirs)}). {said}")
        else:
            board = list(state.board)
            names = [hand_name(board, (combo[0], combo[1])) for combo in (mine, theirs)]
            won = result.won
            relation = "beats" if won > 0 else "ties with" if won == 0 else "loses to"
            self.console.say(
                f"  Showdown on {cards_text(board)}: your {cards_text(mine)} ({names[0]}) "
                f"{relation} the bot's {cards_text(theirs)} ({names[1]}). {said}"
            )
        if not self.table.has_auto and _costly(self.session, result):
            self.console.say(
                f"  Those choices expect {_value(self.session, -result.cost)} chips compared with "
                f"equilibrium play with {cards_text(mine)}."
            )


def pot_share(chips: float, pot: Fraction) -> str:
    """``75.82%``: chips as a share of the pot, as ``solve``'s spot summary writes it."""
    return f"{100 * chips / float(pot):.2f}%"


def view_of(session: PlaySession, console: Console) -> View:
    """The view for the session's game."""
    if session.is_spot:
        return SpotView(session, console)
    if isinstance(session.table, CardGameTable):
        return CardGameView(session, console)
    return KuhnView(session, console)
