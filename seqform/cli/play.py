"""Play Kuhn poker in the terminal against the equilibrium that seqform computes.

The bot plays the behavioural strategy of the sequence-form LP's solution (solved once, at
the start).  A hand is a walk down the game tree: chance deals the cards, the bot samples
its actions from its strategy, and the human's actions are read from a text stream (or, with
``--auto``, sampled from a named strategy or a JSON file).  Every random draw comes from one
``random.Random(seed)``, so a seed makes a session reproducible.

Expectations shown
------------------
Besides the running total, a session reports what the total "should" be, three ways:

* the *equilibrium expectation*: the game's value to the human's seat times the hands played
  (−1/18 a hand in seat 1, +1/18 in seat 2; Kuhn 1950) — what good play expects on average;
* the *expectation of equilibrium play with your cards*: for each hand, the expected payoff of
  equilibrium play given the card the human was dealt (the bot's card and coin flips averaged
  out); the difference from the line above is the luck of the human's own cards;
* the *expectation of your choices*: for each hand, the expected payoff given the human's
  card and the actions the human actually took, against the bot's strategy and an unseen
  card.  Where the hand never asked for a decision (e.g. "what would you have done facing a
  bet?" after the bot checked behind) the human's strategy is filled in: the ``--auto``
  strategy when there is one, the equilibrium otherwise.

The equilibrium is a best response to the bot's strategy at every card, so your choices can
only lose expectation against it: *choices minus equilibrium play* is never positive (up to
solver round-off), and is reported as the cost of your decisions.  What is left over,
*total minus your choices' expectation*, is the luck of the bot's cards and coin flips.

Strategies for ``--auto`` (see :data:`STRATEGY_NAMES`) are tables information set →
action probabilities, in the information set's action order (``p`` then ``b``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from seqform.cli.render.numbers import fraction_text
from seqform.forms.sequence_form import PlayerSequences
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = [
    "STRATEGY_NAMES",
    "HandRecord",
    "PlaySetup",
    "SessionEnded",
    "SessionSummary",
    "ask_seat",
    "card_of_infoset",
    "deal_cards",
    "hand_expectation",
    "load_strategy",
    "named_strategy",
    "parse_choice",
    "play_session",
    "read_strategy_file",
    "run_play",
    "sample_index",
]

Behaviour = dict[str, tuple[float, ...]]
"""Information-set name -> action probabilities, in the information set's action order."""

STRATEGY_NAMES: dict[str, str] = {
    "equilibrium": "the LP's equilibrium for your seat (the bot plays the other half)",
    "always-bet": "bets, and calls every bet",
    "check-fold": "checks, and folds to every bet",
    "random": "every action with equal probability",
    # The named opponents of seqform.analyses.exploit (3-card Kuhn only), defined there:
    "never-bluff": "bets only with K; calls with Q and K (seqform.analyses.exploit)",
    "always-bluff": "bets with every card; calls with Q and K (seqform.analyses.exploit)",
    "calling-station": "never bets, always calls (seqform.analyses.exploit)",
}
_EXPLOIT_NAMES = ("never-bluff", "always-bluff", "calling-station")

QUIT_KEYS = frozenset({"q", "quit", "exit"})
PROBABILITY_TOLERANCE = 1e-9  # how far a strategy file's probabilities may be from summing to 1
SOLUTION_SCHEMA = "seqform.solve/1"


class SessionEnded(Exception):
    """The human typed ``q`` or the input ended; ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- cards and information sets -------------------------------------------------------------


def deal_cards(outcome: str) -> tuple[str, str]:
    """The two cards of a Kuhn deal outcome: ``"KJ" -> ("K", "J")``, ``"3,1" -> ("3", "1")``."""
    if "," in outcome:
        first, second = outcome.split(",")
        return first, second
    if len(outcome) != 2:
        raise ValueError(f"cannot read the deal {outcome!r} as two cards")
    return outcome[0], outcome[1]


def card_of_infoset(infoset: str) -> str:
    """The owner's card in a Kuhn information set name: ``"Kpb" -> "K"``, ``"12b" -> "12"``."""
    return infoset.rstrip("pb")


def _card_order(game: Game) -> tuple[str, ...]:
    """The game's cards from lowest to highest, read from the deal's outcomes."""
    root = game.root
    if not isinstance(root, Chance):
        raise ValueError(f"play: {game.name!r} does not start with a deal")
    names: list[str] = []
    for outcome in root.outcomes:
        for card in deal_cards(outcome):
            if card not in names:
                names.append(card)
    if all(card.isdigit() for card in names):
        return tuple(sorted(names, key=int))
    order = "JQK"
    return tuple(sorted(names, key=order.index))


def _check_kuhn(game: Game) -> None:
    if game.name != "kuhn" and not game.name.startswith("kuhn("):
        raise ValueError(
            f"play: only Kuhn poker is playable (kuhn or kuhn(cards=N)), not {game.name!r}"
        )


# --- strategies -------------------------------------------------------------------------------


def _behaviour_table(strategy: BehaviouralStrategy) -> Behaviour:
    table = strategy.table
    return {
        name: tuple(float(strategy.probabilities[s]) for s in table.sequences_of(index))
        for index, name in enumerate(table.infosets)
    }


def named_strategy(
    name: str, game: Game, table: PlayerSequences, equilibrium: Behaviour
) -> Behaviour:
    """The strategy called ``name`` (a key of :data:`STRATEGY_NAMES`) on ``table``'s infosets.

    ``never-bluff``, ``always-bluff`` and ``calling-station`` are the named opponents of
    :func:`seqform.analyses.exploit.named_opponent`, so that ``play`` and ``exploit`` mean the same
    player by the same name; they exist for 3-card Kuhn only.

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known ones), or one of the exploit names
        in a Kuhn game with other than 3 cards.
    """
    if name not in STRATEGY_NAMES:
        raise ValueError(
            f"unknown strategy {name!r}; choose one of {', '.join(STRATEGY_NAMES)} "
            "or give a JSON file"
        )
    if name in _EXPLOIT_NAMES:
        from seqform.analyses.exploit import named_opponent

        try:
            exact = named_opponent(game, name, table.player)
        except ValueError as exc:
            raise ValueError(
                f"strategy {name!r} is defined for Kuhn poker with 3 cards only; "
                "give a JSON file instead"
            ) from exc
        return _behaviour_table(exact)
    strategy: Behaviour = {}
    for index, infoset in enumerate(table.infosets):
        actions = table.actions[index]
        if name == "equilibrium":
            strategy[infoset] = equilibrium[infoset]
        elif name == "always-bet":
            strategy[infoset] = tuple(float(a == "b") for a in actions)
        elif name == "check-fold":
            strategy[infoset] = tuple(float(a == "p") for a in actions)
        else:  # random
            strategy[infoset] = tuple(1.0 / len(actions) for _ in actions)
    return strategy


def read_strategy_file(path: str | Path, game: Game, table: PlayerSequences) -> Behaviour:
    """Read a strategy for ``table``'s player from a JSON file.

    The file is either ``{infoset: {action: probability}}`` — actions as labels (``p``,
    ``b``) or in words (``check``, ``bet``, ``fold``, ``call``); information sets of the other
    player are ignored — or the output of ``seqform solve --format json``, whose strategy for
    the same player is taken.

    Raises
    ------
    ValueError
        If the file is not JSON of that shape, names an information set the game does not
        have, misses one of the player's, or gives probabilities that are negative or do not
        sum to 1 (within 1e-9).
    OSError
        If the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"strategy file {str(path)!r} is not JSON: {exc}") from exc
    if isinstance(document, dict) and document.get("schema") == SOLUTION_SCHEMA:
        document = _solution_strategy(document, table.player)
    if not isinstance(document, dict):
        raise ValueError(
            f"strategy file {str(path)!r} must hold an object {{infoset: {{action: probability}}}}"
        )
    known = _actions_by_infoset(game)
    mine = table.index_of_infoset()
    strategy: Behaviour = {}
    for infoset, entry in document.items():
        if infoset not in known:
            raise ValueError(
                f"strategy file {str(path)!r}: the game has no information set {infoset!r}"
            )
        if infoset not in mine:
            continue
        strategy[infoset] = _read_probabilities(path, game, table, infoset, entry)
    missing = [name for name in table.infosets if name not in strategy]
    if missing:
        raise ValueError(
            f"strategy file {str(path)!r} has no entry for information set(s) "
            f"{', '.join(missing)} of player {table.player + 1}"
        )
    return strategy


def _solution_strategy(document: dict, player: int) -> dict:
    try:
        infosets = document["strategies"][player]["infosets"]
        return {
            entry["name"]: {a["action"]: a["probability"] for a in entry["actions"]}
            for entry in infosets
        }
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(
            f"the {SOLUTION_SCHEMA} document has no strategy for player {player + 1}"
        ) from exc


def _read_probabilities(
    path: str | Path, game: Game, table: PlayerSequences, infoset: str, entry: object
) -> tuple[float, ...]:
    where = f"strategy file {str(path)!r}, information set {infoset!r}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: expected {{action: probability}}, got {entry!r}")
    actions = table.actions[table.index_of_infoset()[infoset]]
    names = {action: action for action in actions}
    names.update({game.describe_action(infoset, action): action for action in actions})
    probabilities = dict.fromkeys(actions, 0.0)
    for key, value in entry.items():
        action = names.get(key)
        if action is None:
            choices = ", ".join(f"{a} ({game.describe_action(infoset, a)})" for a in actions)
            raise ValueError(f"{where}: unknown action {key!r}; the actions are {choices}")
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ValueError(
                f"{where}: probability of {key!r} must be a number >= 0, got {value!r}"
            )
        probabilities[action] = float(value)
    total = sum(probabilities.values())
    if abs(total - 1.0) > PROBABILITY_TOLERANCE:
        raise ValueError(f"{where}: probabilities sum to {total:g}, not 1")
    return tuple(probabilities[action] for action in actions)


def load_strategy(
    spec: str, game: Game, table: PlayerSequences, equilibrium: Behaviour
) -> Behaviour:
    """A strategy by name (:data:`STRATEGY_NAMES`) or, if ``spec`` is a file, from JSON."""
    if spec in STRATEGY_NAMES:
        return named_strategy(spec, game, table, equilibrium)
    if Path(spec).is_file():
        return read_strategy_file(spec, game, table)
    return named_strategy(spec, game, table, equilibrium)  # raises, listing the names


# --- pure pieces of a hand --------------------------------------------------------------------


def sample_index(probabilities: Sequence[float], rng: random.Random) -> int:
    """Index ``i`` with probability ``probabilities[i]`` (one draw of ``rng.random()``)."""
    draw = rng.random() * sum(probabilities)
    cumulative = 0.0
    last = 0
    for index, probability in enumerate(probabilities):
        if probability <= 0:
            continue
        cumulative += probability
        last = index
        if draw < cumulative:
            return index
    return last


def _keys(game: Game, infoset: str, actions: Sequence[str]) -> dict[str, str]:
    """Accepted input -> action: the action's word, its first letter, or its label."""
    keys: dict[str, str] = {}
    clashes: set[str] = set()
    for action in actions:
        word = game.describe_action(infoset, action)
        for key in {word.lower(), word[:1].lower(), action.lower()}:
            if keys.get(key, action) != action:
                clashes.add(key)
            keys[key] = action
    return {key: action for key, action in keys.items() if key not in clashes}


def parse_choice(text: str, game: Game, infoset: str, actions: Sequence[str]) -> str | None:
    """The action that ``text`` names at ``infoset`` (``"c"`` -> ``"p"`` for check), or None.

    Raises
    ------
    SessionEnded
        If ``text`` is ``q`` (or ``quit``, ``exit``).
    """
    key = text.strip().lower()
    if key in QUIT_KEYS:
        raise SessionEnded("quit")
    return _keys(game, infoset, actions).get(key)


def _menu(game: Game, infoset: str, actions: Sequence[str]) -> str:
    words = [game.describe_action(infoset, action) for action in actions]
    return " or ".join(f"({word[0]}){word[1:]}" for word in words)


def hand_expectation(
    game: Game, seat: int, card: str, behaviours: tuple[Mapping[str, Sequence[float]], ...]
) -> float:
    """Expected payoff to ``seat`` given that it holds ``card``, both players following
    ``behaviours`` (indexed by player): the deals with that card, weighted by chance."""
    root = game.root
    assert isinstance(root, Chance)
    total = 0.0
    weight = 0.0
    for outcome, probability, child in zip(
        root.outcomes, root.probabilities, root.children, strict=True
    ):
        if deal_cards(outcome)[seat] != card:
            continue
        weight += float(probability)
        stack: list[tuple[Node, float]] = [(child, float(probability))]
        while stack:
            node, reach = stack.pop()
            if isinstance(node, Terminal):
                total += reach * float(node.payoffs[seat])
            elif isinstance(node, Chance):
                for p, grandchild in zip(node.probabilities, node.children, strict=True):
                    stack.append((grandchild, reach * float(p)))
            else:
                odds = behaviours[node.player][node.infoset]
                for p, grandchild in zip(odds, node.children, strict=True):
                    if p:
                        stack.append((grandchild, reach * p))
    return total / weight


# --- the session ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlaySetup:
    """Everything fixed during a session: the game, the seats and the strategies.

    seat : the human's player index (0 acts first)
    bot : the bot's strategy (the equilibrium)
    equilibrium : the equilibrium strategy of the human's seat
    auto : the strategy that plays for the human with ``--auto``, else None
    auto_name : how to call it in the transcript
    value : the game's value to player 0
    """

    game: Game
    seat: int
    bot: Behaviour
    equilibrium: Behaviour
    value: float
    auto: Behaviour | None = None
    auto_name: str = ""

    @property
    def seat_value(self) -> float:
        return self.value if self.seat == 0 else -self.value


@dataclass(frozen=True)
class HandRecord:
    """One finished hand, seen from the human's seat.

    cards : (player 0's card, player 1's card)
    actions : the betting, as action labels (``("p", "b", "b")``)
    payoff : to the human
    choices_expectation : expected payoff of the human's choices given the human's card
    equilibrium_expectation : expected payoff of equilibrium play given the human's card
    """

    cards: tuple[str, str]
    actions: tuple[str, ...]
    payoff: Fraction
    choices_expectation: float
    equilibrium_expectation: float


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


class _Console:
    """Reads answers from one stream and writes the transcript to another."""

    def __init__(self, source: TextIO | None, out: TextIO, echo: bool, quiet: bool) -> None:
        self.source = source
        self.out = out
        self.echo = echo
        self.quiet = quiet

    def say(self, text: str) -> None:
        if not self.quiet:
            self.out.write(text + "\n")

    def ask(self, prompt: str) -> str:
        """One line of input after ``prompt``; :class:`SessionEnded` at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.source.readline() if self.source is not None else ""
        if line == "":
            self.out.write("\n")
            raise SessionEnded("end of input")
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line


def _signed(number: float | Fraction) -> str:
    """``+2`` for whole numbers, ``-0.167`` otherwise."""
    if isinstance(number, Fraction) and number.denominator == 1:
        return f"{int(number):+d}"
    shown = round(float(number), 3)
    return f"{shown if shown else 0.0:+.3f}"  # no "-0.000"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _human_choice(setup: PlaySetup, console: _Console, node: Decision, rng: random.Random) -> str:
    if setup.auto is not None:
        action = node.actions[sample_index(setup.auto[node.infoset], rng)]
        word = setup.game.describe_action(node.infoset, action)
        console.say(f"  You ({setup.auto_name}) {word}.")
        return action
    menu = _menu(setup.game, node.infoset, node.actions)
    while True:
        answer = console.ask(f"  Your move: {menu}? ")
        action = parse_choice(answer, setup.game, node.infoset, node.actions)
        if action is not None:
            return action
        letters = " or ".join(setup.game.describe_action(node.infoset, a)[0] for a in node.actions)
        console.say(f"  Please type {letters} (q quits).")


def _play_hand(
    setup: PlaySetup,
    console: _Console,
    rng: random.Random,
    number: int,
    expectations: _Expectations,
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
            f"  (Those choices expect {cost:.3f} less than equilibrium play with a {mine}.)"
        )
    return record


class _Expectations:
    """Cached per-hand expectations of :class:`HandRecord` (a session meets few distinct
    (card, choices) pairs, so each is computed once)."""

    def __init__(self, setup: PlaySetup) -> None:
        self.setup = setup
        self.actions = _actions_by_infoset(setup.game)
        self.filler = setup.auto if setup.auto is not None else setup.equilibrium
        self.cache: dict[tuple[str, tuple[tuple[str, str], ...] | None], float] = {}

    def _profile(self, human: Mapping[str, Sequence[float]]) -> tuple[Mapping, Mapping]:
        bot = self.setup.bot
        return (human, bot) if self.setup.seat == 0 else (bot, human)

    def equilibrium(self, card: str) -> float:
        key = (card, None)
        if key not in self.cache:
            self.cache[key] = hand_expectation(
                self.setup.game, self.setup.seat, card, self._profile(self.setup.equilibrium)
            )
        return self.cache[key]

    def choices(self, card: str, chosen: Mapping[str, str]) -> float:
        key = (card, tuple(sorted(chosen.items())))
        if key not in self.cache:
            line = dict(self.filler)
            for infoset, action in chosen.items():
                line[infoset] = tuple(float(a == action) for a in self.actions[infoset])
            self.cache[key] = hand_expectation(
                self.setup.game, self.setup.seat, card, self._profile(line)
            )
        return self.cache[key]


def _actions_by_infoset(game: Game) -> dict[str, tuple[str, ...]]:
    actions: dict[str, tuple[str, ...]] = {}
    stack: list[Node] = [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Decision):
            actions[node.infoset] = node.actions
        if not isinstance(node, Terminal):
            stack.extend(node.children)
    return actions


def _value_text(value: float) -> str:
    fraction = fraction_text(value)
    return f"{value:+.3f}" + (f" = {fraction}" if fraction and "/" in fraction else "")


def _running_line(summary: SessionSummary) -> str:
    per_hand = fraction_text(summary.seat_value) or f"{summary.seat_value:+.4f}"
    return (
        f"  Total {_signed(summary.total)} after {_plural(len(summary.hands), 'hand')}; "
        f"equilibrium expectation {_signed(summary.equilibrium_expectation)} ({per_hand} a hand)."
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
    console = _Console(source, out, echo, quiet=summary_only)
    summary = SessionSummary(seat=setup.seat, seat_value=setup.seat_value)
    expectations = _Expectations(setup)
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
        console.say(_running_line(summary))
    else:
        summary.ended_by = "hands"
    _write_summary(summary, out)
    return summary


def _write_header(setup: PlaySetup, console: _Console) -> None:
    cards = _card_order(setup.game)
    order = " < ".join(cards)
    position = "you act first" if setup.seat == 0 else "the bot acts first"
    who = f"The {setup.auto_name} strategy plays" if setup.auto is not None else "You play"
    console.say(
        f"Kuhn poker against seqform's equilibrium bot. {who} seat {setup.seat + 1} ({position})."
    )
    console.say(f"Both ante 1; a bet or a call puts in 1 more; {order}. Type q to quit.")
    console.say(
        f"The game is worth {_value_text(setup.seat_value)} a hand to seat {setup.seat + 1}: "
        "that is what good play expects against the bot."
    )


def _write_summary(summary: SessionSummary, out: TextIO) -> None:
    played = len(summary.hands)
    reason = {"quit": "you quit", "end of input": "end of input", "hands": "all hands played"}
    lines = [
        "",
        f"Session over after {_plural(played, 'hand')} ({reason.get(summary.ended_by, '')}).",
    ]
    if played:
        cost = summary.cards_expectation - summary.choices_expectation
        rows = [
            ("your total", summary.total),
            ("equilibrium expectation (value × hands)", summary.equilibrium_expectation),
            ("expectation of equilibrium play with your cards", summary.cards_expectation),
            ("expectation of your choices with your cards", summary.choices_expectation),
        ]
        width = max(len(label) for label, _ in rows)
        lines += [f"  {label:<{width}}  {_signed(number):>9}" for label, number in rows]
        card_luck = summary.cards_expectation - summary.equilibrium_expectation
        other_luck = float(summary.total) - summary.choices_expectation
        lines += [
            f"  Your choices cost {max(cost, 0.0):.3f} against equilibrium play;",
            f"  luck: your cards {_signed(card_luck)}, the bot's cards and coin flips "
            f"{_signed(other_luck)}.",
        ]
    out.write("\n".join(lines) + "\n")
    out.flush()


def ask_seat(source: TextIO | None, out: TextIO, echo: bool = False) -> int:
    """Ask which seat the human takes; return the player index (0 or 1).

    Raises
    ------
    SessionEnded
        If the human types ``q`` or the input ends.
    """
    console = _Console(source, out, echo, quiet=False)
    while True:
        answer = console.ask("Choose your seat: 1 (act first) or 2 (act second)? ").strip().lower()
        if answer in QUIT_KEYS:
            raise SessionEnded("quit")
        if answer in ("1", "2"):
            return int(answer) - 1
        console.say("Please type 1 or 2 (q quits).")


def run_play(
    game_spec: str,
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
    """The ``play`` command: solve the game once, then play a session.

    ``seat`` is 1 or 2 (None asks); returns None if the human quit before sitting down.

    Raises
    ------
    ValueError
        For a game other than Kuhn poker, a bad hand count or an unknown strategy.
    """
    from seqform.analyses.solve import solve
    from seqform.game.loader import load_game

    if hands is not None and hands < 1:
        raise ValueError(f"--hands must be at least 1, got {hands}")
    game = load_game(game_spec)
    _check_kuhn(game)
    solution = solve(game)
    equilibria = tuple(_behaviour_table(strategy) for strategy in solution.behaviour)
    if seat is None:
        if auto is not None:
            index = 0
        else:
            try:
                index = ask_seat(source, out, echo)
            except SessionEnded:
                return None
    else:
        index = seat - 1
    automatic = None
    if auto is not None:
        automatic = load_strategy(auto, game, solution.form.players[index], equilibria[index])
    setup = PlaySetup(
        game=game,
        seat=index,
        bot=equilibria[1 - index],
        equilibrium=equilibria[index],
        value=solution.value,
        auto=automatic,
        auto_name=auto if auto in STRATEGY_NAMES else Path(auto).name if auto else "",
    )
    return play_session(
        setup,
        None if auto is not None else source,
        out,
        random.Random(seed),
        hands=hands,
        echo=echo,
        summary_only=summary_only,
    )
