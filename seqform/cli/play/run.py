"""The ``play`` command's entry: check the game, seat the human, start the library's session
(:func:`seqform.play.start_session`), play it on the console."""

from __future__ import annotations

from typing import TextIO

from seqform.cli.play.console import choose_seat
from seqform.cli.play.session import SessionSummary, play_session
from seqform.play.start import check_playable, start_session

__all__ = ["run_play"]


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
    force: bool = False,
) -> SessionSummary | None:
    """The ``play`` command: check the game and the strategy, seat the human (``seat`` is 1
    or 2; None asks, or seat 1 with ``auto``), solve the game once, then play a session;
    None if the human quit before sitting down.

    Raises
    ------
    ValueError
        For a game other than Kuhn poker, Leduc, Rhode Island or a spot, a bad hand count or
        an unknown strategy (usage errors: ``OptionsError``), a game past the memory or
        LP-size limits (``MemoryRefusedError``, ``LPWorkRefusedError``), or a strategy file
        that cannot be read (:class:`seqform.io.strategy_files.StrategyFileError`).
    """
    if hands is not None and hands < 1:
        raise ValueError(f"--hands must be at least 1, got {hands}")
    check_playable(game_spec, auto=auto, force=force)
    index = choose_seat(seat, auto, source, out, echo)
    if index is None:
        return None
    session = start_session(game_spec, index, seed=seed, auto=auto, force=force)
    return play_session(
        session,
        None if auto is not None else source,
        out,
        hands=hands,
        echo=echo,
        summary_only=summary_only,
    )
