"""How a seqform game is its OpenSpiel original: information sets, actions, chance draws.

A seqform game that exists in OpenSpiel (:func:`openspiel_spec`) is matched to it by
walking both trees in step from the root (:func:`policy_correspondence`):

* **Decision nodes** must belong to the same player and offer the same actions.  Each game
  has a *spelling*, our label of each OpenSpiel action: Kuhn ``Pass``/``Bet`` are
  ``p``/``b``; Leduc ``Fold``/``Call``/``Raise`` are ``f``/``c``/``r``; Liar's Dice bids
  ``"q-f"`` are spelled alike and ``Liar`` is ``liar``; an ``openspiel:`` game uses
  ``action_to_string`` as its loader does (:func:`~seqform.game.formats.openspiel.distinct_labels`).
  Actions are paired by label, so the two games may list them in different orders.
* **Chance.**  A run of consecutive chance nodes is taken as one draw of all its outcomes,
  on each side: OpenSpiel deals Kuhn's two cards one at a time, seqform deals the pair
  ``"JQ"`` at once.  The draws are paired by label (Kuhn: card ids 0, 1, 2 are ``J Q K``;
  Leduc: card ids number the deck in the order seqform deals it, ``Js Jh Qs Qh Ks Kh``;
  Liar's Dice: outcome id ``f - 1`` (``Roll f``) is face ``f``) and must have the same
  probabilities (to ``1e-9``).
* **Terminals** must pay player 0 the same (to ``1e-9``).
* **Information sets** must be the same partition: each OpenSpiel information-state
  string (``state.information_state_string()``, the keys of ``policy.TabularPolicy``)
  belongs to exactly one seqform information set, and conversely, with the same OpenSpiel
  action ids for our actions at every node of it.

Any mismatch raises ``ValueError`` naming the history where the games part.  The result,
a :class:`PolicyCorrespondence`, gives per information set its OpenSpiel key, the OpenSpiel
action id of each of our actions, and one history reaching it; the walk is iterative and
visits every history once, so its time is linear in the game (a measurement is in
``benchmarks/results/measurements.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from seqform.game.builtin.registry import parse_game_spec
from seqform.game.formats.openspiel import distinct_labels, import_pyspiel
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal, history_text

__all__ = [
    "OPENSPIEL_PREFIX",
    "PolicyCorrespondence",
    "openspiel_spec",
    "policy_correspondence",
]

OPENSPIEL_PREFIX = "openspiel:"
PAYOFF_TOLERANCE = 1e-9  # OpenSpiel's float returns against our exact payoffs
PROBABILITY_TOLERANCE = 1e-9  # chance probabilities: OpenSpiel floats against our fractions

_KUHN_ACTIONS = {"Pass": "p", "Bet": "b"}
_LEDUC_ACTIONS = {"Fold": "f", "Call": "c", "Raise": "r"}


@dataclass(frozen=True)
class _Spelling:
    """Our labels of OpenSpiel's actions and chance outcomes in one game.

    decision(state, player, legal) : our label of each legal action, in OpenSpiel's order
    chance(state, outcomes) : our label of each outcome of one OpenSpiel chance node
    join(labels) : our outcome labels of a run of chance nodes, from OpenSpiel's per node
    """

    decision: Callable[[Any, int, list[int]], tuple[str, ...]]
    chance: Callable[[Any, list[int]], tuple[str, ...]]
    join: Callable[[tuple[str, ...]], tuple[str, ...]] = tuple


def openspiel_spec(game: Game) -> str:
    """OpenSpiel's name of a seqform game: ``kuhn`` -> ``"kuhn_poker"``,
    ``liars_dice(sides=5)`` -> ``"liars_dice(dice_sides=5,numdice=1)"``,
    ``openspiel:NAME`` -> ``NAME``.

    Raises
    ------
    ValueError
        If the game has no counterpart in OpenSpiel (N-card Kuhn, Leduc with another deck,
        ``.efg`` games).
    """
    if game.name.startswith(OPENSPIEL_PREFIX):
        return game.name[len(OPENSPIEL_PREFIX) :]
    try:
        name, parameters = parse_game_spec(game.name)
    except ValueError:
        name, parameters = "", {}
    if name == "kuhn" and not parameters:
        return "kuhn_poker"
    if name == "leduc" and set(parameters) <= {"suit_isomorphism"}:
        return "leduc_poker(suit_isomorphism=true)" if parameters else "leduc_poker"
    if name == "liars_dice" and set(parameters) <= {"sides", "dice"}:
        sides, dice = parameters.get("sides", 6), parameters.get("dice", 1)
        return f"liars_dice(dice_sides={sides},numdice={dice})"
    raise ValueError(
        f"game {game.name!r} has no counterpart in OpenSpiel; policies convert for kuhn, "
        "leduc (suit_isomorphism allowed), liars_dice(sides=..., dice=...) and openspiel:NAME"
    )


def _spelling(game: Game, pyspiel: Any) -> _Spelling:
    chance_player = int(pyspiel.PlayerId.CHANCE)

    def strings(state: Any, player: int, actions: list[int]) -> list[str]:
        return [state.action_to_string(player, action) for action in actions]

    def mapped(table: Mapping[str, str]) -> Callable[[Any, int, list[int]], tuple[str, ...]]:
        return lambda state, player, legal: tuple(
            table.get(text, text) for text in strings(state, player, legal)
        )

    if game.name.startswith(OPENSPIEL_PREFIX):
        return _Spelling(
            decision=lambda s, p, legal: distinct_labels(strings(s, p, legal), legal),
            chance=lambda s, ids: distinct_labels(strings(s, chance_player, ids), ids),
        )
    name, _ = parse_game_spec(game.name)
    if name == "kuhn":
        return _Spelling(
            decision=mapped(_KUHN_ACTIONS),
            chance=lambda s, ids: _named("JQK", ids),
            join=lambda cards: ("".join(cards),),
        )
    if name == "leduc":
        assert isinstance(game.root, Chance)
        deck = game.root.outcomes  # the whole deck, in the order OpenSpiel numbers it
        return _Spelling(decision=mapped(_LEDUC_ACTIONS), chance=lambda s, ids: _named(deck, ids))
    return _Spelling(
        decision=mapped({"Liar": "liar"}), chance=lambda s, ids: tuple(str(i + 1) for i in ids)
    )


def _named(names: Sequence[str], ids: list[int]) -> tuple[str, ...]:
    """``names[i]`` of each id; ``"#i"`` for an id out of range (a game that differs)."""
    return tuple(names[i] if 0 <= i < len(names) else f"#{i}" for i in ids)


@dataclass(frozen=True, eq=False)
class PolicyCorrespondence:
    """How a seqform game's information sets and actions are OpenSpiel's.

    game : the seqform game; openspiel_game : the ``pyspiel.Game``
    keys : per player, per information set (our index order), OpenSpiel's
        information-state string
    action_ids : per player, per information set, the OpenSpiel action id of each of our
        actions, in our action order
    histories : per player, per information set, OpenSpiel action ids from the root to one
        state of the information set (to ask a policy that is not tabular)
    """

    game: Game
    openspiel_game: Any
    keys: tuple[tuple[str, ...], tuple[str, ...]]
    action_ids: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    histories: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    _where: dict[str, tuple[int, int]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        where = {key: (p, index) for p in (0, 1) for index, key in enumerate(self.keys[p])}
        object.__setattr__(self, "_where", where)

    def locate(self, key: str) -> tuple[int, int]:
        """The player and information-set index of an OpenSpiel information-state string.

        Raises
        ------
        ValueError
            If no information set of the game has that key.
        """
        try:
            return self._where[key]
        except KeyError:
            raise ValueError(
                f"OpenSpiel information state {key!r} is not an information set of "
                f"{self.game.name!r}; is the policy for another game?"
            ) from None

    def describe(self, player: int, index: int) -> str:
        """``"information state '1pb' (player 1's information set 'Qpb' of kuhn)"``."""
        infoset = self.game.flat.tables[player].infosets[index]
        return (
            f"information state {self.keys[player][index]!r} (player {player + 1}'s "
            f"information set {infoset!r} of {self.game.name})"
        )


class _Links:
    """The correspondence found so far: our information set <-> OpenSpiel's key."""

    def __init__(self, game: Game) -> None:
        self.index = tuple(table.index_of_infoset() for table in game.flat.tables)
        self.found: tuple[dict[int, tuple[str, tuple[int, ...], tuple[int, ...]]], ...] = ({}, {})
        self.owner: dict[str, tuple[int, str]] = {}

    def add(self, node: Decision, state: Any, ids: tuple[int, ...], where: str) -> None:
        key = state.information_state_string(node.player)
        index = self.index[node.player][node.infoset]
        known = self.found[node.player].setdefault(index, (key, ids, tuple(state.history())))
        owner = self.owner.setdefault(key, (node.player, node.infoset))
        if known[0] != key or owner != (node.player, node.infoset) or known[1] != ids:
            raise ValueError(
                f"the information sets differ at {where}: seqform's {node.infoset!r} is "
                f"OpenSpiel's {known[0]!r} elsewhere and {key!r} here, or {key!r} is also "
                f"seqform's {owner[1]!r}"
            )

    def freeze(self, game: Game, openspiel_game: Any) -> PolicyCorrespondence:
        rows = []
        for player, table in enumerate(game.flat.tables):
            found = self.found[player]
            missing = [name for i, name in enumerate(table.infosets) if i not in found]
            if missing:
                raise ValueError(f"OpenSpiel never reaches information set {missing[0]!r}")
            rows.append([found[index] for index in range(table.num_infosets)])
        return PolicyCorrespondence(
            game=game,
            openspiel_game=openspiel_game,
            keys=(tuple(r[0] for r in rows[0]), tuple(r[0] for r in rows[1])),
            action_ids=(tuple(r[1] for r in rows[0]), tuple(r[1] for r in rows[1])),
            histories=(tuple(r[2] for r in rows[0]), tuple(r[2] for r in rows[1])),
        )


def policy_correspondence(game: Game, openspiel_game: Any = None) -> PolicyCorrespondence:
    """Walk ``game`` and its OpenSpiel original in step (module docstring) and link them.

    ``openspiel_game`` defaults to ``pyspiel.load_game(openspiel_spec(game))``.

    Raises
    ------
    OpenSpielUnavailableError
        If open_spiel is not installed.
    ValueError
        If the game has no OpenSpiel counterpart, or the two trees differ (the message
        names the history).
    """
    pyspiel = import_pyspiel()
    if openspiel_game is None:
        openspiel_game = pyspiel.load_game(openspiel_spec(game))
    try:
        return _walk(game, openspiel_game, _spelling(game, pyspiel))
    except ValueError as exc:
        raise ValueError(f"{game.name!r} is not OpenSpiel's {openspiel_game}: {exc}") from None


def _walk(game: Game, openspiel_game: Any, spelling: _Spelling) -> PolicyCorrespondence:
    """The in-step walk, iterative: a stack of (our node, OpenSpiel state, our history)."""
    links = _Links(game)
    pending: list[tuple[Node, Any, tuple[str, ...]]] = [
        (game.root, openspiel_game.new_initial_state(), ())
    ]
    while pending:
        node, state, history = pending.pop()
        if isinstance(node, Chance) or state.is_chance_node():
            pending.extend(_chance_pairs(node, state, history, spelling))
        elif isinstance(node, Terminal) or state.is_terminal():
            _check_terminal(node, state, repr(history_text(history)))
        else:
            pending.extend(_decision_pairs(node, state, history, spelling, links))
    return links.freeze(game, openspiel_game)


def _our_draws(node: Node) -> dict[tuple[str, ...], tuple[Node, Fraction]]:
    """Every path through the run of chance nodes at ``node``: labels -> (node, probability)."""
    done: dict[tuple[str, ...], tuple[Node, Fraction]] = {}
    frontier: list[tuple[tuple[str, ...], Fraction, Node]] = [((), Fraction(1), node)]
    while frontier:
        labels, probability, at = frontier.pop()
        if not isinstance(at, Chance):
            done[labels] = (at, probability)
            continue
        frontier.extend(
            ((*labels, outcome), probability * p, child)
            for outcome, p, child in zip(at.outcomes, at.probabilities, at.children, strict=True)
        )
    return done


def _their_draws(state: Any, spelling: _Spelling) -> dict[tuple[str, ...], tuple[Any, float]]:
    """The same for OpenSpiel, in our labels (``spelling.join`` of each path's labels)."""
    done: dict[tuple[str, ...], tuple[Any, float]] = {}
    frontier: list[tuple[tuple[str, ...], float, Any]] = [((), 1.0, state)]
    while frontier:
        labels, probability, at = frontier.pop()
        if not at.is_chance_node():
            done[spelling.join(labels) if labels else ()] = (at, probability)
            continue
        outcomes = at.chance_outcomes()
        names = spelling.chance(at, [action for action, _ in outcomes])
        frontier.extend(
            ((*labels, name), probability * p, at.child(action))
            for name, (action, p) in zip(names, outcomes, strict=True)
        )
    return done


def _chance_pairs(
    node: Node, state: Any, history: tuple[str, ...], spelling: _Spelling
) -> list[tuple[Node, Any, tuple[str, ...]]]:
    ours, theirs = _our_draws(node), _their_draws(state, spelling)
    if set(ours) != set(theirs):
        only = sorted(set(ours) ^ set(theirs))[:3]
        raise ValueError(
            f"the chance outcomes differ at {history_text(history)!r}: {only} are in one game only"
        )
    pairs = []
    for labels, (child, probability) in ours.items():
        their_state, their_probability = theirs[labels]
        if abs(float(probability) - their_probability) > PROBABILITY_TOLERANCE:
            raise ValueError(
                f"chance outcome {labels} at {history_text(history)!r} has probability "
                f"{float(probability)!r} in seqform and {their_probability!r} in OpenSpiel"
            )
        pairs.append((child, their_state, (*history, *labels)))
    return pairs


def _decision_pairs(
    node: Node, state: Any, history: tuple[str, ...], spelling: _Spelling, links: _Links
) -> list[tuple[Node, Any, tuple[str, ...]]]:
    where = repr(history_text(history))
    player = state.current_player()
    if not isinstance(node, Decision) or node.player != player:
        raise ValueError(f"the games differ at {where}: OpenSpiel has player {player + 1} move")
    legal = list(state.legal_actions())
    id_of = dict(zip(spelling.decision(state, player, legal), legal, strict=True))
    if sorted(id_of) != sorted(node.actions):
        raise ValueError(
            f"the actions differ at {where}: seqform {list(node.actions)}, "
            f"OpenSpiel {sorted(id_of)}"
        )
    ids = tuple(id_of[action] for action in node.actions)
    links.add(node, state, ids, where)
    return [
        (child, state.child(action), (*history, label))
        for label, action, child in zip(node.actions, ids, node.children, strict=True)
    ]


def _check_terminal(node: Node, state: Any, where: str) -> None:
    if not isinstance(node, Terminal) or not state.is_terminal():
        raise ValueError(f"the games differ at {where}: one ends there and the other does not")
    payoff, returned = node.payoffs[0], state.returns()[0]
    if abs(float(payoff) - returned) > PAYOFF_TOLERANCE * max(1.0, abs(returned)):
        raise ValueError(f"the payoffs differ at {where}: seqform {payoff}, OpenSpiel {returned!r}")
