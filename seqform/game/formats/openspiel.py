"""OpenSpiel games as seqform games, by walking every history of the game tree.

``load_openspiel_game("leduc_poker")`` loads the game with ``pyspiel.load_game`` (the spec is
in OpenSpiel's own syntax, e.g. ``"liars_dice(dice_sides=3)"``), checks that it is a
two-player zero-sum sequential game with explicit chance, and converts it:

* **Players.**  OpenSpiel's players 0 and 1 are seqform's players 0 and 1, displayed as
  ``"Player 1"`` and ``"Player 2"`` like every seqform game (and in validation messages).
* **Information sets** are named ``"P<player>:<information state string>"`` with the
  displayed (one-based) player number, e.g. ``"P1:0pb"`` for OpenSpiel's player 0 in
  Kuhn poker; the prefix keeps the two players' sets apart when their strings coincide,
  and runs of whitespace (some games put newlines in the string) become one space.
* **Actions and chance outcomes** are labelled by ``state.action_to_string``; repeated
  labels at one node are made distinct by appending the action id (``"Roll 1#3"``).
* **Chance probabilities** become exact: each float ``p`` is replaced by
  ``Fraction(p).limit_denominator(10**6)`` when that fraction is within ``1e-12 * p`` of
  ``p`` (so 1/3 stays 1/3), otherwise by the exact binary value of ``p``.  If the
  fractions at a node do not sum to exactly one but are within ``1e-9`` of it, they are
  normalised exactly (each divided by their sum); further off, the game is refused.
* **Payoffs** come from ``state.returns()`` made exact the same way; when the two exact
  payoffs at a terminal miss summing to zero only by float noise (``1e-9``), the second
  player's payoff is taken as the negation of the first player's.

The walk is iterative (no recursion limit) and keeps only the current path of states, so
memory grows with the tree being built, not with OpenSpiel's states.  The result is a
plain :class:`~seqform.game.Game` sharing nothing with OpenSpiel.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import ModuleType
from typing import Any

from seqform.base.interrupt import interrupt_held
from seqform.base.limits import LIMITS
from seqform.base.progress import Step, report
from seqform.game.errors import InvalidGameError, UnknownGameError
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal, history_text

__all__ = [
    "DEFAULT_MAX_NODES",
    "OpenSpielUnavailableError",
    "distinct_labels",
    "exact_number",
    "exact_probabilities",
    "import_pyspiel",
    "load_openspiel_game",
]

DEFAULT_MAX_NODES = LIMITS.openspiel_histories  # why: seqform.base.limits
LIMIT_DENOMINATOR = 10**6
MATCH_TOLERANCE = 1e-12  # relative: a float's nearby small fraction is used if this close
NOISE_TOLERANCE = 1e-9  # chance sums off 1 and payoffs off zero-sum by float noise

_WHITESPACE = re.compile(r"\s+")


class OpenSpielUnavailableError(ImportError):
    """open_spiel (pyspiel) is not installed."""


@contextlib.contextmanager
def _stderr_silenced() -> Iterator[None]:
    """Hide what OpenSpiel's C++ writes to the process's stderr (on an unknown game it
    prints every game it knows, besides raising the error we report in one line)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def import_pyspiel() -> ModuleType:
    """The pyspiel module, or :class:`OpenSpielUnavailableError` if it is not installed."""
    try:
        with interrupt_held():
            import pyspiel
    except ImportError as exc:
        raise OpenSpielUnavailableError(
            "OpenSpiel games need the open_spiel package; install it with "
            'pip install "seqform[openspiel]"'
        ) from exc
    return pyspiel


def exact_number(value: float) -> Fraction:
    """The exact fraction meant by a float from OpenSpiel.

    ``Fraction(value).limit_denominator(10**6)`` if it is within ``1e-12 * |value|`` of
    ``value`` (a relative tolerance, so that a tiny number never becomes zero), otherwise
    the float's exact binary value.

    Raises
    ------
    ValueError
        If ``value`` is not finite.
    """
    if not math.isfinite(value):
        raise ValueError(f"{value!r} is not a finite number")
    nearby = Fraction(value).limit_denominator(LIMIT_DENOMINATOR)
    if abs(float(nearby) - value) <= MATCH_TOLERANCE * abs(value):
        return nearby
    return Fraction(value)


def exact_probabilities(values: Sequence[float]) -> tuple[Fraction, ...]:
    """Exact probabilities summing to exactly one, from OpenSpiel's floats.

    Each value is made exact by :func:`exact_number`; if the results do not sum to exactly
    one but are within ``1e-9`` of it, each is divided by their sum (exact normalisation).

    Raises
    ------
    ValueError
        If a value is negative or not finite, or the values sum to more than ``1e-9`` away
        from one.
    """
    probabilities = [exact_number(value) for value in values]
    if any(probability < 0 for probability in probabilities):
        raise ValueError(f"negative probability among {list(values)}")
    total = sum(probabilities, Fraction(0))
    if total == 1:
        return tuple(probabilities)
    if abs(total - 1) > NOISE_TOLERANCE:
        raise ValueError(f"probabilities sum to {float(total)!r}, not 1")
    return tuple(probability / total for probability in probabilities)


def load_openspiel_game(spec: str, *, max_nodes: int = DEFAULT_MAX_NODES) -> Game:
    """Convert the OpenSpiel game ``spec`` into a seqform :class:`~seqform.game.Game`.

    Parameters
    ----------
    spec
        A game in OpenSpiel's syntax, as ``pyspiel.load_game`` takes it: ``"kuhn_poker"``,
        ``"leduc_poker"``, ``"liars_dice(dice_sides=3)"``.
    max_nodes
        Refuse games with more histories than this (the walk visits every one).

    Returns
    -------
    Game
        The game tree, named ``"openspiel:<spec>"``, with exact numbers; see the module
        docstring for names, labels and how floats are made exact.

    Raises
    ------
    OpenSpielUnavailableError
        If open_spiel is not installed (an ``ImportError``).
    UnknownGameError
        If OpenSpiel does not know the game or its parameters.
    InvalidGameError
        If the game does not have two players, is not zero-sum (general-sum, identical
        interest, or constant-sum with a non-zero constant), is not sequential, has
        sampled rather than explicit chance, provides no information state strings, has
        more than ``max_nodes`` histories, or lacks perfect recall.
    """
    pyspiel = import_pyspiel()
    try:
        with _stderr_silenced():
            game = pyspiel.load_game(spec)
    except pyspiel.SpielError as exc:
        reason = _first_sentence(str(exc))
        raise UnknownGameError(f"OpenSpiel cannot load {spec!r}: {reason}") from exc
    _check_game_type(pyspiel, game, spec)
    walk = _Walk(pyspiel, spec, max_nodes)
    root = walk.run(game.new_initial_state())
    game_type = game.get_type()
    return Game(
        name=f"openspiel:{spec}",
        root=root,
        player_names=("Player 1", "Player 2"),
        description=f"{game_type.long_name} from OpenSpiel ({game})",
    )


def _first_sentence(message: str) -> str:
    """``"Unknown game 'x'. Available games are:\\n2048\\n..."`` -> ``"Unknown game 'x'"``."""
    lines = message.strip().splitlines()
    first = lines[0] if lines else "unknown error"
    if first.endswith(":") and ". " in first:  # a list of names follows; leave it out
        first = first.rsplit(". ", 1)[0]
    return first


def _check_game_type(pyspiel: ModuleType, game: Any, spec: str) -> None:
    game_type = game.get_type()
    kind = pyspiel.GameType
    players = game.num_players()
    if players != 2:
        built_in = (
            " (three-player Kuhn poker is built in: kuhn3)"
            if players == 3 and (spec.partition("(")[0].strip() == "kuhn_poker")
            else ""
        )
        raise InvalidGameError(
            f"OpenSpiel game {spec!r} has {players} players; seqform converts two-player "
            f"OpenSpiel games only{built_in}"
        )
    if game_type.dynamics != kind.Dynamics.SEQUENTIAL:
        hint = ""
        if game_type.dynamics == kind.Dynamics.SIMULTANEOUS:
            hint = f"; load turn_based_simultaneous_game(game={_as_argument(spec)}) instead"
        raise InvalidGameError(
            f"OpenSpiel game {spec!r} has {game_type.dynamics.name.lower()} dynamics; "
            f"seqform solves sequential (extensive-form) games{hint}"
        )
    if game_type.chance_mode == kind.ChanceMode.SAMPLED_STOCHASTIC:
        raise InvalidGameError(
            f"OpenSpiel game {spec!r} samples its chance events; seqform needs explicit "
            "chance probabilities"
        )
    utility = game_type.utility
    if utility == kind.Utility.CONSTANT_SUM:
        constant = game.utility_sum()
        if constant != 0:
            raise InvalidGameError(
                f"OpenSpiel game {spec!r} is constant-sum with payoffs summing to {constant}, "
                "not zero-sum; seqform solves zero-sum games"
            )
    elif utility != kind.Utility.ZERO_SUM:
        words = {
            kind.Utility.GENERAL_SUM: "general-sum",
            kind.Utility.IDENTICAL: "identical-interest",
        }.get(utility, utility.name)
        raise InvalidGameError(
            f"OpenSpiel game {spec!r} is {words}, not zero-sum; seqform solves zero-sum games"
        )
    if not game_type.provides_information_state_string:
        raise InvalidGameError(
            f"OpenSpiel game {spec!r} provides no information state strings, which name "
            "information sets"
        )


def _as_argument(spec: str) -> str:
    """``"matrix_rps"`` -> ``"matrix_rps()"``, as OpenSpiel wants a game parameter."""
    return spec if spec.rstrip().endswith(")") else f"{spec.strip()}()"


def distinct_labels(labels: Sequence[str], actions: Sequence[int]) -> tuple[str, ...]:
    """Append ``#<action id>`` to labels that occur more than once at a node."""
    if len(set(labels)) == len(labels):
        return tuple(labels)
    seen: dict[str, int] = {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
    return tuple(
        f"{label}#{action}" if seen[label] > 1 else label
        for label, action in zip(labels, actions, strict=True)
    )


@dataclass
class _Frame:
    """A node of the current path whose children are being built."""

    state: Any
    actions: list[int]
    labels: tuple[str, ...]
    history: tuple[str, ...]
    player: int  # -1 for chance
    infoset: str = ""
    probabilities: tuple[Fraction, ...] = ()
    children: list[Node] = field(default_factory=list)


class _Walk:
    """One conversion: the iterative depth-first walk and its information-set names."""

    def __init__(self, pyspiel: ModuleType, spec: str, max_nodes: int) -> None:
        self.chance_player = int(pyspiel.PlayerId.CHANCE)
        self.spec = spec
        self.max_nodes = max_nodes
        self.nodes = 0
        self.infoset_names: dict[tuple[int, str], str] = {}
        self.used_names: set[str] = set()

    def run(self, initial_state: Any) -> Node:
        first = self.visit(initial_state, ())
        if isinstance(first, Terminal):
            return first
        stack = [first]
        while True:
            frame = stack[-1]
            position = len(frame.children)
            if position < len(frame.actions):
                child_state = frame.state.child(frame.actions[position])
                child = self.visit(child_state, (*frame.history, frame.labels[position]))
                if isinstance(child, _Frame):
                    stack.append(child)
                else:
                    frame.children.append(child)
                continue
            stack.pop()
            node = self.close(frame)
            if not stack:
                return node
            stack[-1].children.append(node)

    def visit(self, state: Any, history: tuple[str, ...]) -> _Frame | Terminal:
        self.nodes += 1
        if self.nodes % 10_000 == 0:
            report(Step("OpenSpiel histories", self.nodes, None))
        if self.nodes > self.max_nodes:
            raise InvalidGameError(
                f"OpenSpiel game {self.spec!r} has more than {self.max_nodes:,} histories; "
                "raise the limit to convert it: --max-nodes N on the command line, "
                "load_openspiel_game(spec, max_nodes=N) in Python"
            )
        if state.is_terminal():
            return self.terminal(state, history)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [action for action, _ in outcomes]
            labels = [state.action_to_string(self.chance_player, action) for action in actions]
            probabilities = self.exact_probabilities(
                [probability for _, probability in outcomes], history
            )
            return _Frame(
                state,
                actions,
                distinct_labels(labels, actions),
                history,
                self.chance_player,
                probabilities=probabilities,
            )
        player = state.current_player()
        if player not in (0, 1):
            raise InvalidGameError(
                f"OpenSpiel game {self.spec!r}: node {history_text(history)!r} belongs to "
                f"player {player}, not to player 0, player 1 or chance"
            )
        actions = list(state.legal_actions())
        labels = [state.action_to_string(player, action) for action in actions]
        return _Frame(
            state,
            actions,
            distinct_labels(labels, actions),
            history,
            player,
            infoset=self.infoset_name(player, state.information_state_string(player)),
        )

    def close(self, frame: _Frame) -> Node:
        children = tuple(frame.children)
        if frame.player == self.chance_player:
            return Chance(frame.labels, frame.probabilities, children)
        return Decision(frame.player, frame.infoset, frame.labels, children)

    def infoset_name(self, player: int, text: str) -> str:
        key = (player, text)
        name = self.infoset_names.get(key)
        if name is None:
            name = f"P{player + 1}:{_WHITESPACE.sub(' ', text).strip()}"
            while name in self.used_names:  # only if collapsing whitespace merged two strings
                name += "'"
            self.used_names.add(name)
            self.infoset_names[key] = name
        return name

    def exact_probabilities(
        self, floats: Sequence[float], history: tuple[str, ...]
    ) -> tuple[Fraction, ...]:
        try:
            return exact_probabilities(floats)
        except ValueError as exc:
            raise InvalidGameError(
                f"OpenSpiel game {self.spec!r}: chance node {history_text(history)!r}: {exc}"
            ) from exc

    def terminal(self, state: Any, history: tuple[str, ...]) -> Terminal:
        returns = state.returns()
        try:
            payoffs = (exact_number(returns[0]), exact_number(returns[1]))
        except ValueError as exc:
            raise InvalidGameError(
                f"OpenSpiel game {self.spec!r}: terminal node {history_text(history)!r}: {exc}"
            ) from exc
        noise = NOISE_TOLERANCE * max(1.0, abs(returns[0]))
        if payoffs[0] + payoffs[1] != 0 and abs(returns[0] + returns[1]) <= noise:
            payoffs = (payoffs[0], -payoffs[0])
        return Terminal(payoffs)
