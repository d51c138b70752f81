"""A ``play`` session: hands dealt and played on the console, running totals, the summary
(the expectations are explained in :mod:`seqform.cli.play`)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TextIO

from seqform.cli.play.cards import card_order, deal_cards
from seqform.cli.play.console import (
    Console,
    SessionEnded,
    move_menu,
    parse_choice,
    plural,
    signed,
)
from seqform.cli.play.engine import Expectations, HandRecord, PlaySetup, sample_index
from seqform.cli.render.numbers import value_text
from seqform.cli.render.tables import label_rows
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = ["SessionSummary", "play_session", "running_line", "write_summary"]


@dataclass
class SessionSummary:
    """The hands played, running totals and why the session ended.

    total : the human's winnings
    cards_expectation, choices_expectation : sums of the hands' expectations (see
        :class:`HandRecord`)
    ended_by : "quit", "end of input" or "hands" (the hand count was reached)
    """

    seat: int
    seat_value: float
    hands: list[HandRecord] = field(default_factory=list)
    total: Fraction = Fraction(0)
    cards_expectation: float = 0.0
    choices_expectation: float = 0.0
    ended_by: str = ""

    def add(self, hand: HandRecord) -> None:
        """Record a finished hand and update the running totals."""
        self.hands.append(hand)
        self.total += hand.payoff
        self.cards_expectation += hand.equilibrium_expectation
        self.choices_expectation += hand.choices_expectation

    @property
    def equilibrium_expectation(self) -> float:
        """The game's value to the human's seat times the hands played."""
        return self.seat_value * len(self.hands)


def _human_choice(setup: PlaySetup, console: Console, node: Decision, rng: random.Random) -> str:
    if setup.auto is not None:
        action = node.actions[sample_index(setup.auto[node.infoset], rng)]
        word = setup.game.describe_action(node.infoset, action)
        console.say(f"  You ({setup.auto_name}) {word}.")
        return action
    menu = move_menu(setup.game, node.infoset, node.actions)
    while True:
        answer = console.ask(f"  Your move: {menu}? ")
        chosen = parse_choice(answer, setup.game, node.infoset, node.actions)
        if chosen is not None:
            return chosen
        letters = " or ".join(setup.game.describe_action(node.infoset, a)[0] for a in node.actions)
        console.say(f"  Please type {letters} (q quits).")


def _play_hand(
    setup: PlaySetup,
    console: Console,
    rng: random.Random,
    number: int,
    expectations: Expectations,
) -> HandRecord:
    """Deal and play one hand; write it to the console; return its record.

    Raises
    ------
    SessionEnded
        If the human quits or the input ends during the hand (the hand is not counted).
    """
    game, seat = setup.game, setup.seat
    root = game.root
    assert isinstance(root, Chance)
    deal = sample_index([float(p) for p in root.probabilities], rng)
    cards = deal_cards(root.outcomes[deal])
    mine, theirs = cards[seat], cards[1 - seat]
    console.say(f"Hand {number}: your card is {mine}.")
    node: Node = root.children[deal]
    actions: list[str] = []
    chosen: dict[str, str] = {}
    last_word = ""
    while isinstance(node, Decision):
        if node.player == seat:
            action = _human_choice(setup, console, node, rng)
            chosen[node.infoset] = action
        else:
            action = node.actions[sample_index(setup.bot[node.infoset], rng)]
            word = game.describe_action(node.infoset, action)
            console.say(f"  Bot {word}s.")
        last_word = game.describe_action(node.infoset, action)
        actions.append(action)
        node = node.children[node.actions.index(action)]
    assert isinstance(node, Terminal)
    payoff = Fraction(node.payoffs[seat])
    result = f"You win {payoff}." if payoff > 0 else f"You lose {-payoff}."
    if last_word == "fold":
        console.say(f"  No showdown (the bot held {theirs}). {result}")
    else:
        relation = "beats" if payoff > 0 else "loses to"
        console.say(f"  Showdown: your {mine} {relation} the bot's {theirs}. {result}")
    card = cards[seat]
    record = HandRecord(
        cards=cards,
        actions=tuple(actions),
        payoff=payoff,
        choices_expectation=expectations.choices(card, chosen),
        equilibrium_expectation=expectations.equilibrium(card),
    )
    cost = record.equilibrium_expectation - record.choices_expectation
    if setup.auto is None and cost > 1e-9:
        console.say(
            f"  Those choices expect {value_text(-cost)} compared with equilibrium play "
            f"with a {mine}."
        )
    return record


def running_line(summary: SessionSummary) -> str:
    """``Total -2 after 1 hand; equilibrium expectation -0.0555555556 (= -1/18).``"""
    return (
        f"  Total {signed(summary.total)} after {plural(len(summary.hands), 'hand')}; "
        f"equilibrium expectation {value_text(summary.equilibrium_expectation)}."
    )


def play_session(
    setup: PlaySetup,
    source: TextIO | None,
    out: TextIO,
    rng: random.Random,
    *,
    hands: int | None = None,
    echo: bool = False,
    summary_only: bool = False,
) -> SessionSummary:
    """Play hands until ``hands`` are done, the human types ``q`` or the input ends.

    Parameters
    ----------
    setup
        The game, the seats and the strategies.
    source
        Where the human's answers come from (unused with ``setup.auto``).
    out
        Where the transcript goes.
    rng
        The one source of randomness: deals, the bot's and the auto strategy's draws.
    hands
        Stop after this many hands (None: until ``q`` or end of input).
    echo
        Write each answer after its prompt (for input that is not a terminal).
    summary_only
        Write only the final summary.
    """
    console = Console(source, out, echo, quiet=summary_only)
    summary = SessionSummary(seat=setup.seat, seat_value=setup.seat_value)
    expectations = Expectations(setup)
    _write_header(setup, console)
    while hands is None or len(summary.hands) < hands:
        console.say("")
        try:
            record = _play_hand(setup, console, rng, len(summary.hands) + 1, expectations)
        except SessionEnded as ended:
            summary.ended_by = ended.reason
            if ended.reason == "quit":
                console.say("  Hand abandoned.")
            break
        summary.add(record)
        console.say(running_line(summary))
    else:
        summary.ended_by = "hands"
    write_summary(summary, out)
    return summary


def _write_header(setup: PlaySetup, console: Console) -> None:
    cards = card_order(setup.game)
    order = " < ".join(cards)
    position = "you act first" if setup.seat == 0 else "the bot acts first"
    who = f"The {setup.auto_name} strategy plays" if setup.auto is not None else "You play"
    console.say(
        f"Kuhn poker against seqform's equilibrium bot. {who} seat {setup.seat + 1} ({position})."
    )
    console.say(f"Both ante 1; a bet or a call puts in 1 more; {order}. Type q to quit.")
    console.say(
        f"The game is worth {value_text(setup.seat_value)} a hand to seat {setup.seat + 1}: "
        "that is what good play expects against the bot."
    )


ROUND_OFF = 1e-9
"""Expectations from a float LP's strategies: a difference this small is round-off."""


def _cost(choices: float) -> float:
    """The choices' expectation less equilibrium play's: never positive (the equilibrium is
    a best response to the bot), 0 where the difference is round-off."""
    return choices if choices < -ROUND_OFF else 0.0


def write_summary(summary: SessionSummary, out: TextIO) -> None:
    played = len(summary.hands)
    reason = {"quit": "you quit", "end of input": "end of input", "hands": "all hands played"}
    lines = [
        "",
        f"Session over after {plural(played, 'hand')} ({reason.get(summary.ended_by, '')}).",
    ]
    if played:
        card_luck = summary.cards_expectation - summary.equilibrium_expectation
        choices = summary.choices_expectation - summary.cards_expectation
        other_luck = float(summary.total) - summary.choices_expectation
        rows = [
            ("your total", signed(summary.total)),
            (
                "equilibrium expectation (value × hands)",
                value_text(summary.equilibrium_expectation),
            ),
            (
                "expectation of equilibrium play with your cards",
                value_text(summary.cards_expectation),
            ),
            (
                "expectation of your choices with your cards",
                value_text(summary.choices_expectation),
            ),
            ("", ""),
            ("luck of your cards", value_text(card_luck)),
            ("your choices against equilibrium play", value_text(_cost(choices))),
            ("luck of the bot's cards and coin flips", value_text(other_luck)),
        ]
        lines += [line.rstrip() for line in label_rows(rows)]
        lines.append("  (the last three and the equilibrium expectation add up to your total)")
    out.write("\n".join(lines) + "\n")
    out.flush()
