"""``play SPOT.toml``: hands of a hold'em spot played on the console against its equilibrium.

A hand deals both players a combo of their range (card removal included), then walks the
spot's public tree: the bot samples its actions from the structured LP's equilibrium, the
human types them (or ``--auto`` plays), a turn spot deals its river card, and the hand ends
in a fold or a showdown.  Cards are written as players write them (``Ah Kh``, the board
``Ks 7h 2d 9c 4s``), actions in words (check, bet 5, call, raise to 20, all-in marked), the
pot and the chips behind shown at each of the human's decisions, and the showdown names
both hands (eval7's hand types).  The running total and the summary are the Kuhn session's
(:mod:`seqform.cli.play.session`), in chips: a hand's net is the pot share won less the
chips put in, so a seat expects its ``solve`` summary's EV a hand
(:mod:`seqform.cli.play.spot_engine`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TextIO

from seqform.cli.play.console import QUIT_KEYS, Console, SessionEnded, choose_seat, signed
from seqform.cli.play.engine import HandRecord, sample_index
from seqform.cli.play.session import SessionSummary, running_line, write_summary
from seqform.cli.play.spot_engine import (
    Deals,
    SpotExpectations,
    SpotSetup,
    action_word,
    check_spot_strategy,
    net_of,
    spot_strategy,
)
from seqform.cli.render.numbers import value_text
from seqform.game.public.tree import Constant, PublicChance, PublicDecision, PublicLeaf, Sign
from seqform.holdem.betting import amount_text
from seqform.holdem.cards import card_text
from seqform.holdem.spot import read_spot
from seqform.holdem.spot_game import spot_game
from seqform.holdem.strength import hand_name

__all__ = ["cards_text", "parse_spot_choice", "play_spot", "spot_setup"]


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    """``"Ks 7h 2d"``: cards as players write them, a space between."""
    return " ".join(card_text(card) for card in cards)


def spot_setup(path: str, seat: int, auto: str | None) -> SpotSetup:
    """Read the spot, solve it on the structured route, seat the human.

    Raises
    ------
    SpotFileError, CardError, OSError
        For a file that is not a spot.
    ValueError
        For an ``--auto`` strategy that is not one of
        :data:`~seqform.cli.play.spot_engine.SPOT_STRATEGY_NAMES` (before solving).
    """
    from seqform.routes.structured import solve_structured

    spot = read_spot(path)
    if auto is not None:
        check_spot_strategy(auto)
    game = spot_game(spot)
    solution = solve_structured(game)
    strategies = tuple(strategy.to_float() for strategy in solution.strategies)
    automatic = None
    if auto is not None:
        automatic = spot_strategy(auto, strategies[seat].table, strategies[seat])
    return SpotSetup(
        spot=spot,
        game=game,
        seat=seat,
        bot=strategies[1 - seat],
        equilibrium=strategies[seat],
        value=float(solution.value),
        auto=automatic,
        auto_name=auto or "",
    )


def parse_spot_choice(text: str, actions: tuple[str, ...]) -> str | None:
    """The action ``text`` names: its label (``b5``), its word (check, call, fold; ``c``
    checks where there is nothing to call, as in Kuhn's session), ``bet``
    or ``raise`` (``b``, ``r``) when there is one size, ``all-in`` (``a``) when the largest
    size is all-in; None otherwise.

    Raises
    ------
    SessionEnded
        If ``text`` is ``q`` (or ``quit``, ``exit``).
    """
    key = text.strip().lower().replace(" ", "")
    if key in QUIT_KEYS:
        raise SessionEnded("quit")
    if key in actions:
        return key
    words = {"check": "x", "call": "c", "fold": "f"}
    if words.get(key) in actions:
        return words[key]
    if key in ("c", "k") and "x" in actions:  # Kuhn's key: c checks when there is no call
        return "x"
    for kind, names in (("b", ("b", "bet")), ("r", ("r", "raise"))):
        sized = [a for a in actions if a.startswith(kind)]
        if key in names and len(sized) == 1:
            return sized[0]
    return None


@dataclass
class _Hand:
    """What a hand has done so far: the chips each put in before this street and on it."""

    before: Fraction = Fraction(0)
    street: list[Fraction] = field(default_factory=lambda: [Fraction(0), Fraction(0)])
    board: list[int] = field(default_factory=list)

    def act(self, player: int, action: str) -> None:
        if action == "c":
            self.street[player] = self.street[1 - player]
        elif action[0] in "br":
            self.street[player] = Fraction(action[1:])

    def pot(self, start: Fraction) -> Fraction:
        return start + 2 * self.before + self.street[0] + self.street[1]


def _menu(setup: SpotSetup, hand: _Hand, player: int, actions: tuple[str, ...]) -> str:
    """``x check, b5 bet 5, b30 bet 30 (all-in)``."""
    stack = setup.spot.effective_stack - hand.before
    words = []
    for action in actions:
        all_in = action[0] in "br" and Fraction(action[1:]) == stack
        words.append(f"{action} {action_word(action)}{' (all-in)' if all_in else ''}")
    return ", ".join(words)


def _human_action(
    setup: SpotSetup,
    console: Console,
    hand: _Hand,
    node: PublicDecision,
    infoset: str,
    rng: random.Random,
) -> str:
    if setup.auto is not None:
        odds = list(setup.auto.at(infoset).values())
        action = node.actions[sample_index([float(p) for p in odds], rng)]
        console.say(f"  You ({setup.auto_name}) {action_word(action)}.")
        return action
    behind = setup.spot.effective_stack - hand.before - hand.street[setup.seat]
    facing = hand.street[1 - setup.seat] - hand.street[setup.seat]
    where = f"  Pot {amount_text(hand.pot(setup.spot.pot))}, you have {amount_text(behind)} behind"
    console.say(where + (f", {amount_text(facing)} to call." if facing else "."))
    menu = _menu(setup, hand, setup.seat, node.actions)
    while True:
        chosen = parse_spot_choice(console.ask(f"  Your move ({menu})? "), node.actions)
        if chosen is not None:
            return chosen
        console.say(f"  Please type one of {', '.join(node.actions)} (q quits).")


def _showdown_text(setup: SpotSetup, hand: _Hand, combos: tuple[tuple[int, int], ...]) -> str:
    """``Showdown on Ks 7h 2d 9c 4s: your Ah Kh (pair) loses to the bot's Kd Kc (trips).``"""
    mine, theirs = combos[setup.seat], combos[1 - setup.seat]
    names = [hand_name(hand.board, combo) for combo in (mine, theirs)]
    return (
        f"  Showdown on {cards_text(hand.board)}: your {cards_text(mine)} ({names[0]}) "
        f"{{relation}} the bot's {cards_text(theirs)} ({names[1]})."
    )


def _leaf_payoff(leaf: PublicLeaf, deal: tuple[int, int]) -> Fraction:
    """The leaf's zero-sum payoff to OOP for the deal (:mod:`seqform.game.public.tree`)."""
    if isinstance(leaf.rule, Constant):
        return Fraction(leaf.rule.payoff)
    assert isinstance(leaf.rule, Sign) and leaf.levels is not None
    first, second = int(leaf.levels[0][deal[0]]), int(leaf.levels[1][deal[1]])
    return Fraction(leaf.rule.stake) * ((first > second) - (first < second))


def _combo(setup: SpotSetup, player: int, hand: int) -> tuple[int, int]:
    cards = setup.game.hands[player].cards[hand]
    return int(cards[0]), int(cards[1])


def _play_hand(
    setup: SpotSetup,
    console: Console,
    rng: random.Random,
    number: int,
    context: tuple[Deals, SpotExpectations],
) -> HandRecord:
    """Deal and play one hand; write it to the console; return its record (in chips).

    Length: one walk down the public tree — decisions, the river card, the leaf — with the
    few lines each writes; split, the hand's state would be passed around in pieces.

    Raises
    ------
    SessionEnded
        If the human quits or the input ends during the hand (the hand is not counted).
    """
    deals, expectations = context
    seat, game = setup.seat, setup.game
    deal = deals.draw(rng)
    combos = (_combo(setup, 0, deal[0]), _combo(setup, 1, deal[1]))
    labels = tuple(game.hands[p].labels[deal[p]] for p in (0, 1))
    hand = _Hand(board=list(setup.spot.board))
    console.say(f"Hand {number}: you hold {cards_text(combos[seat])}.")
    console.say(f"  Board {cards_text(hand.board)}, pot {amount_text(setup.spot.pot)}.")
    node = game.root
    chosen: dict[str, str] = {}
    actions: list[str] = []
    folded: int | None = None
    while not isinstance(node, PublicLeaf):
        if isinstance(node, PublicChance):
            seen = set(combos[0]) | set(combos[1]) | set(hand.board)
            cards = [card for card in node.cards if card not in seen]
            card = cards[sample_index([1.0] * len(cards), rng)]
            node = node.children[node.cards.index(card)]
            hand.before += hand.street[0]
            hand.street = [Fraction(0), Fraction(0)]
            hand.board.append(card)
            console.say(f"  River {card_text(card)}: board {cards_text(hand.board)}.")
            continue
        infoset = labels[node.player] + node.history  # "AhKh" + "|x-b5"
        if node.player == seat:
            action = _human_action(setup, console, hand, node, infoset, rng)
            chosen[infoset] = action
        else:
            odds = [float(p) for p in setup.bot.at(infoset).values()]
            action = node.actions[sample_index(odds, rng)]
            verb, _, rest = action_word(action).partition(" ")
            console.say(f"  Bot {verb}s{' ' + rest if rest else ''}.")
        folded = node.player if action == "f" else None
        hand.act(node.player, action)
        actions.append(action)
        node = node.children[node.actions.index(action)]
    payoff = _leaf_payoff(node, deal)
    net = net_of(payoff, seat, setup.spot.pot)
    result = f"Your net: {signed(net)}."
    if folded is not None:
        console.say(f"  No showdown (the bot held {cards_text(combos[1 - seat])}). {result}")
    else:
        won = payoff if seat == 0 else -payoff
        relation = "beats" if won > 0 else "ties with" if won == 0 else "loses to"
        console.say(f"{_showdown_text(setup, hand, combos).format(relation=relation)} {result}")
    record = HandRecord(
        cards=(labels[0], labels[1]),
        actions=tuple(actions),
        payoff=net,
        choices_expectation=expectations.choices(deal[seat], chosen),
        equilibrium_expectation=expectations.equilibrium(deal[seat]),
    )
    cost = record.equilibrium_expectation - record.choices_expectation
    if setup.auto is None and cost > 1e-9:
        console.say(
            f"  Those choices expect {value_text(-cost)} chips compared with equilibrium play "
            f"with {cards_text(combos[seat])}."
        )
    return record


def _write_header(setup: SpotSetup, console: Console) -> None:
    spot = setup.spot
    position = "OOP, you act first" if setup.seat == 0 else "IP, the bot acts first"
    who = f"The {setup.auto_name} strategy plays" if setup.auto is not None else "You play"
    console.say(
        f"A {spot.street} spot on {cards_text(list(spot.board))} against seqform's "
        f"equilibrium bot. {who} seat {setup.seat + 1} ({position})."
    )
    console.say(
        f"Pot {amount_text(spot.pot)}, {amount_text(spot.effective_stack)} behind each. Type "
        "an action as the menu writes it, or check, call, fold; q quits."
    )
    console.say(
        f"The spot is worth {value_text(setup.seat_value)} chips a hand to seat "
        f"{setup.seat + 1} (its EV: the pot share won less the chips put in)."
    )


def play_spot(
    path: str,
    *,
    seat: int | None,
    seed: int | None,
    hands: int | None,
    auto: str | None,
    source: TextIO,
    out: TextIO,
    echo: bool,
    summary_only: bool = False,
) -> SessionSummary | None:
    """``play SPOT.toml``: solve the spot once, then play hands until ``hands`` are done,
    the human types ``q`` or the input ends (the arguments are :func:`~seqform.cli.play.
    run.run_play`'s); None if the human quit before sitting down."""
    index = choose_seat(seat, auto, source, out, echo)
    if index is None:
        return None
    setup = spot_setup(path, index, auto)
    console = Console(None if auto is not None else source, out, echo, quiet=summary_only)
    summary = SessionSummary(seat=index, seat_value=setup.seat_value)
    context = (Deals(setup.game), SpotExpectations(setup))
    rng = random.Random(seed)
    _write_header(setup, console)
    while hands is None or len(summary.hands) < hands:
        console.say("")
        try:
            record = _play_hand(setup, console, rng, len(summary.hands) + 1, context)
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
