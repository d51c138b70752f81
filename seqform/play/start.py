"""Starting a play session: the game checked, solved once, the human seated.

Kuhn poker is solved on its tree; a hold'em spot, Leduc and Rhode Island hold'em on their
public tree × private hands by the route ``solve`` takes; all ask
:func:`seqform.routes.policy.choose_route` first, so a game that ``solve`` refuses (beyond
the memory available, or a spot's LP that would not finish) is refused here too, with the
same estimate, before anything is built.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import TYPE_CHECKING

from seqform.play.state import PlaySession

if TYPE_CHECKING:
    from seqform.routes.structured import StructuredSolution

__all__ = ["check_playable", "is_card_game", "start_session"]


def is_card_game(game: str | os.PathLike[str]) -> bool:
    """Whether ``game`` names Leduc or Rhode Island hold'em
    (:data:`~seqform.play.cards.CARD_GAMES`), played on the public tree."""
    from seqform.play.cards import CARD_GAMES

    return isinstance(game, str) and game.partition("(")[0].strip() in CARD_GAMES


def check_playable(
    game: str | os.PathLike[str], *, auto: str | None = None, force: bool = False
) -> None:
    """Check, without solving, that ``game`` can be played with ``auto`` (a name it has, or
    a strategy file that is not a document of another game), and that its solve is not
    refused (:func:`seqform.routes.policy.choose_route`, the refusals of ``solve``): what a
    front end asks before it asks the human anything (:func:`start_session` checks it
    again).

    Raises
    ------
    NotPlayableError, UnknownStrategyError
        (usage errors) For a game other than Kuhn poker or a spot, or an unknown strategy.
    MemoryRefusedError, LPWorkRefusedError
        When ``solve`` would refuse the game (unless ``force``).
    StrategyFileError
        For a strategy file that is not JSON, or a document of another game.
    SpotFileError, CardError, OSError, UnknownGameError, GameParameterError
        For a game or a file that cannot be read; ``auto`` that looks like a file
        (:func:`~seqform.play.strategies.names_a_file`: a path separator, a suffix, or
        something that exists) and cannot be read is an ``OSError``, not an unknown name.
    """
    from seqform.holdem import is_spot_file
    from seqform.play.strategies import check_auto_game, check_spot_strategy, check_strategy
    from seqform.routes.policy import choose_route

    if is_spot_file(os.fspath(game)) or is_card_game(game):
        if is_spot_file(os.fspath(game)):
            from seqform.holdem import read_spot

            read_spot(os.fspath(game))
        if auto is not None:
            check_spot_strategy(auto)
        route = choose_route(game, "structured", force=force)
        if auto is not None and route.structured is not None:
            check_auto_game(auto, route.structured)
        return
    from seqform.io.loader import load_game
    from seqform.play.kuhn import check_kuhn

    _refuse_other_builtin_games(game)
    choose_route(str(game), "tree", force=force)  # the memory refusal, before the tree
    tree = load_game(str(game))
    check_kuhn(tree)
    if auto is not None:
        check_strategy(auto)
        check_auto_game(auto, tree)


def _refuse_other_builtin_games(game: str | os.PathLike[str]) -> None:
    """Refuse a built-in game other than Kuhn poker by its name, before its tree is built
    (``play liars_dice`` built Liar's Dice's 294,883 nodes, 3 s, to say it does not play
    it); files are judged by the game they hold (:func:`~seqform.play.kuhn.check_kuhn`)."""
    from seqform.game.builtin.registry import GAMES, parse_game_spec
    from seqform.game.errors import GameParameterError, UnknownGameError
    from seqform.play.kuhn import not_playable

    if not isinstance(game, str) or os.path.exists(game):
        return
    try:
        name, _ = parse_game_spec(game)
    except (UnknownGameError, GameParameterError):
        return  # a file name, or a bad spec that loading the game reports
    if name in GAMES and name != "kuhn":
        raise not_playable(game.strip())


def start_session(
    game: str | os.PathLike[str],
    seat: int,
    *,
    seed: int | None = None,
    auto: str | None = None,
    rng: random.Random | None = None,
    force: bool = False,
) -> PlaySession:
    """Solve ``game`` once and seat the human.

    Parameters
    ----------
    game
        ``"kuhn"``, ``"kuhn(cards=N)"``, ``"leduc(...)"``, ``"rhode_island(...)"`` or a
        hold'em spot file (``*.toml``).
    seat
        The human's player index: 0 acts first (OOP on a spot), 1 second.
    seed, rng
        The session's random source: ``rng`` if given, else ``random.Random(seed)``.
    auto
        A strategy that plays for the human: a name (:data:`~seqform.play.strategies.
        STRATEGY_NAMES` on Kuhn poker; :data:`~seqform.play.strategies.SPOT_STRATEGY_NAMES`
        on a spot, Leduc and Rhode Island) or a strategy file, any strategy document seqform
        writes of the same game (:mod:`seqform.io.strategy_files`); a name, and a file's
        game, are checked before solving, the file's strategy once the game is solved.
    force
        Solve past the memory estimate and a spot's LP size limit, as ``solve`` does.

    Raises
    ------
    NotPlayableError, UnknownStrategyError
        (``OptionsError``s, usage errors) For a game other than Kuhn poker or a spot, or an
        unknown strategy name.
    MemoryRefusedError, LPWorkRefusedError
        When the solve would not fit in memory or not finish
        (:func:`seqform.routes.policy.choose_route`), before anything is built.
    StrategyFileError, SpotFileError, CardError, OSError
        For a file that cannot be read (``auto`` too, when it looks like a file:
        :func:`~seqform.play.strategies.names_a_file`), or a strategy document of another
        game.
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    if rng is None:
        rng = random.Random(seed)
    from seqform.holdem import is_spot_file

    if is_spot_file(os.fspath(game)):
        return _spot_session(os.fspath(game), seat, auto, rng, force)
    if is_card_game(game):
        return _card_session(str(game), seat, auto, rng, force)
    return _kuhn_session(str(game), seat, auto, rng, force)


def _kuhn_session(
    spec: str, seat: int, auto: str | None, rng: random.Random, force: bool
) -> PlaySession:
    from seqform.io.loader import load_game
    from seqform.play.kuhn import KuhnTable, check_kuhn
    from seqform.play.strategies import behaviour_table, check_auto_game, load_strategy
    from seqform.routes.policy import choose_route
    from seqform.routes.tree import solve_tree

    choose_route(spec, "tree", force=force)  # the memory refusal, before the tree is built
    game = load_game(spec)
    check_kuhn(game)
    if auto is not None:
        check_auto_game(auto, game)  # another game's document, refused before the solve
    solution = solve_tree(game)
    equilibria = tuple(behaviour_table(strategy) for strategy in solution.strategies)
    automatic = None
    if auto is not None:
        automatic = load_strategy(auto, game, solution.form.players[seat], equilibria[seat])
    table = KuhnTable(game, seat, equilibria[1 - seat], equilibria[seat], automatic)
    value = solution.value if seat == 0 else -solution.value
    scale = solution.certificate.payoff_range
    return PlaySession(table, seat, value, None, scale, _auto_name(auto), rng)


def _spot_session(
    path: str, seat: int, auto: str | None, rng: random.Random, force: bool
) -> PlaySession:
    from seqform.holdem import read_spot, seat_ev
    from seqform.play.spot import SpotTable
    from seqform.play.strategies import spot_strategy

    spot = read_spot(path)
    solution = _solve_structured(path, auto, force)
    first, second = (strategy.to_float() for strategy in solution.strategies)
    strategies = (first, second)
    automatic = None
    if auto is not None:
        automatic = spot_strategy(auto, solution.game, strategies[seat].table, strategies[seat])
    table = SpotTable(spot, solution.game, seat, strategies[1 - seat], strategies[seat], automatic)
    value = seat_ev(solution.value, spot.pot, seat)
    return PlaySession(table, seat, value, spot.pot, spot.pot, _auto_name(auto), rng)


def _card_session(
    spec: str, seat: int, auto: str | None, rng: random.Random, force: bool
) -> PlaySession:
    from seqform.play.cards import CardGameTable
    from seqform.play.strategies import spot_strategy

    solution = _solve_structured(spec, auto, force)
    strategies = tuple(strategy.to_float() for strategy in solution.strategies)
    automatic = None
    if auto is not None:
        automatic = spot_strategy(auto, solution.game, strategies[seat].table, strategies[seat])
    table = CardGameTable(solution.game, seat, strategies[1 - seat], strategies[seat], automatic)
    value = float(solution.value) if seat == 0 else -float(solution.value)
    scale = solution.certificate.payoff_range
    return PlaySession(table, seat, value, None, scale, _auto_name(auto), rng)


def _solve_structured(spec: str, auto: str | None, force: bool) -> StructuredSolution:
    """Solve a spot, Leduc or Rhode Island as ``solve`` does (its route and refusals, then
    :func:`~seqform.routes.solve.solve_on_route`), ``auto`` checked in between: its name, or
    its file's game against the game the route built, before the LP starts."""
    from seqform.play.strategies import check_auto_game, check_spot_strategy
    from seqform.routes.policy import choose_route
    from seqform.routes.solve import solve_on_route
    from seqform.routes.structured import StructuredSolution

    if auto is not None:
        check_spot_strategy(auto)
    route = choose_route(spec, "structured", force=force)
    assert route.structured is not None  # the structured route builds the structured game
    if auto is not None:
        check_auto_game(auto, route.structured)
    solution = solve_on_route(route.structured, route)
    assert isinstance(solution, StructuredSolution)
    return solution


def _auto_name(auto: str | None) -> str:
    """What the table calls the ``auto`` strategy: its name, or a file's base name."""
    from seqform.play.strategies import SPOT_STRATEGY_NAMES, STRATEGY_NAMES

    if not auto:
        return ""
    return auto if auto in STRATEGY_NAMES or auto in SPOT_STRATEGY_NAMES else Path(auto).name
