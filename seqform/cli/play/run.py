"""The ``play`` command's entry: solve the game once, seat the human, play a session."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from seqform.cli.play.cards import check_kuhn
from seqform.cli.play.console import choose_seat
from seqform.cli.play.engine import PlaySetup
from seqform.cli.play.session import SessionSummary, play_session
from seqform.cli.play.strategies import STRATEGY_NAMES, behaviour_table, load_strategy

if TYPE_CHECKING:
    from seqform.game.model import Game
    from seqform.routes.tree import Solution

__all__ = ["play_setup", "run_play"]


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
    """The ``play`` command: solve the game once, then play a session (a spot file's on its
    public tree: :func:`seqform.cli.play.spot_session.play_spot`).

    ``seat`` is 1 or 2 (None asks, or seat 1 with ``auto``); returns None if the human quit
    before sitting down.

    Raises
    ------
    ValueError
        For a game other than Kuhn poker or a spot, a bad hand count or an unknown strategy (or a
        strategy file that cannot be read: :class:`seqform.io.strategy_files.StrategyFileError`).
    """
    from seqform.holdem.spot_game import is_spot_file
    from seqform.io.loader import load_game
    from seqform.routes.tree import solve_tree

    if hands is not None and hands < 1:
        raise ValueError(f"--hands must be at least 1, got {hands}")
    if is_spot_file(game_spec):
        from seqform.cli.play.spot_session import play_spot

        return play_spot(
            game_spec,
            seat=seat,
            seed=seed,
            hands=hands,
            auto=auto,
            source=source,
            out=out,
            echo=echo,
            summary_only=summary_only,
        )
    game = load_game(game_spec)
    check_kuhn(game)
    solution = solve_tree(game)
    index = choose_seat(seat, auto, source, out, echo)
    if index is None:
        return None
    setup = play_setup(game, solution, index, auto)
    return play_session(
        setup,
        None if auto is not None else source,
        out,
        random.Random(seed),
        hands=hands,
        echo=echo,
        summary_only=summary_only,
    )


def play_setup(game: Game, solution: Solution, seat: int, auto: str | None) -> PlaySetup:
    """The session's setup: the bot plays ``solution``'s equilibrium strategy of the seat the
    human does not take; ``auto`` (a strategy name or file, or None) plays for the human."""
    equilibria = tuple(behaviour_table(strategy) for strategy in solution.strategies)
    automatic = None
    if auto is not None:
        automatic = load_strategy(auto, game, solution.form.players[seat], equilibria[seat])
    return PlaySetup(
        game=game,
        seat=seat,
        bot=equilibria[1 - seat],
        equilibrium=equilibria[seat],
        value=solution.value,
        auto=automatic,
        auto_name=auto if auto in STRATEGY_NAMES else Path(auto).name if auto else "",
    )
