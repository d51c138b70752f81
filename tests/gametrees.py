"""Random small two-player zero-sum games with perfect recall, for property tests.

``random_game(seed)`` builds a tree of chance and decision nodes.  Information sets are
formed by letting a decision node join an existing information set of its player only
when the player's own sequence to it is the same (perfect recall by construction) and the
number of actions matches.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from seqform.forms.sequence_form import PlayerSequences
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_mapping
from seqform.game.builtin.one_card import Bet, Fold, OneCardPoker, Showdown
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

OwnSequence = tuple[tuple[str, int], ...]


def random_game(seed: int, max_depth: int = 4, max_actions: int = 3) -> Game:
    """A random game; the same seed gives the same game."""
    rng = random.Random(seed)
    infosets: dict[tuple[int, OwnSequence], list[tuple[str, int]]] = {}
    counter = [0]

    def build(depth: int, own: tuple[OwnSequence, OwnSequence]) -> Node:
        roll = rng.random()
        if depth >= max_depth or (depth > 0 and roll < 0.2):
            payoff = Fraction(rng.randint(-6, 6), rng.choice((1, 2, 3)))
            return Terminal((payoff, -payoff))
        if roll < 0.4:
            count = rng.randint(2, max_actions)
            weights = [rng.randint(1, 4) for _ in range(count)]
            total = sum(weights)
            return Chance(
                outcomes=tuple(f"c{i}" for i in range(count)),
                probabilities=tuple(Fraction(w, total) for w in weights),
                children=tuple(build(depth + 1, own) for _ in range(count)),
            )
        player = rng.randint(0, 1)
        candidates = infosets.setdefault((player, own[player]), [])
        if candidates and rng.random() < 0.6:
            name, count = rng.choice(candidates)
        else:
            counter[0] += 1
            name, count = f"P{player + 1}.{counter[0]}", rng.randint(2, max_actions)
            candidates.append((name, count))
        children = []
        for action in range(count):
            extended = (*own[player], (name, action))
            child_own = (extended, own[1]) if player == 0 else (own[0], extended)
            children.append(build(depth + 1, child_own))
        return Decision(
            player=player,
            infoset=name,
            actions=tuple(f"a{i}" for i in range(count)),
            children=tuple(children),
        )

    return Game(name=f"random-{seed}", root=build(0, ((), ())))


def random_behaviour(table: PlayerSequences, seed: int) -> BehaviouralStrategy:
    """Random action probabilities (Dirichlet) at every information set of ``table``."""
    rng = np.random.default_rng(seed)
    probabilities = np.ones(table.num_sequences)
    for index in range(table.num_infosets):
        sequences = table.sequences_of(index)
        probabilities[sequences.start : sequences.stop] = rng.dirichlet(np.ones(len(sequences)))
    return BehaviouralStrategy(
        table=table,
        probabilities=probabilities,
        unreached=np.zeros(table.num_infosets, dtype=bool),
    )


def random_exact_behaviour(table: PlayerSequences, seed: int) -> BehaviouralStrategy:
    """Random positive Fraction probabilities at every information set of ``table``."""
    rng = random.Random(seed)
    mapping = {}
    for index, name in enumerate(table.infosets):
        weights = [rng.randint(1, 5) for _ in table.actions[index]]
        mapping[name] = [Fraction(w, sum(weights)) for w in weights]
    return behaviour_from_mapping(table, mapping)


def most_pure_strategies(game: Game) -> int:
    """The larger player's number of pure strategies (product of its information sets'
    action counts): a bound on the strategic form an external solver would enumerate."""
    return max(math.prod(len(actions) for actions in table.actions) for table in game.flat.tables)


seeds = st.integers(min_value=0, max_value=2**32 - 1)
games = seeds.map(random_game)
#: Games whose strategic form an external exact solver handles in well under a second:
#: pygambit 16.7's ``lp_solve(rational=True, use_strategic=True)`` took 0.2 s on the largest
#: of 400 draws at this bound, while the tail of ``games`` reaches 10^6 pure strategies, on
#: which it ran for more than 15 minutes.  About 60% of draws pass the filter.
MAX_PURE_STRATEGIES = 256
small_games = games.filter(lambda game: most_pure_strategies(game) <= MAX_PURE_STRATEGIES)


def raise_poker(cards: int) -> OneCardPoker:
    """A one-card poker game unlike Kuhn: player 1 may fold at once (so player 2's empty sequence
    reaches a leaf), and player 2 may raise a bet."""
    one, two, three = Fraction(1), Fraction(2), Fraction(3)
    after_raise = Bet(0, ("f", "c"), (Fold(0, two), Showdown(three)))
    after_bet = Bet(1, ("f", "c", "r"), (Fold(1, one), Showdown(two), after_raise))
    after_check = Bet(
        1, ("k", "b"), (Showdown(one), Bet(0, ("f", "c"), (Fold(0, one), Showdown(two))))
    )
    root = Bet(0, ("f", "k", "b"), (Fold(0, Fraction(1, 2)), after_check, after_bet))
    return OneCardPoker(name=f"raise({cards})", cards=cards, betting=root)
