"""A ``play`` session on the console: the library's hands (:mod:`seqform.play`) played one
after another, each shown by its view (:mod:`seqform.cli.play.views`), the running total
after each, the summary at the end (the expectations are explained in :mod:`seqform.play`).

Ctrl-C (and SIGTERM, SIGHUP, which the command line turns into it: :mod:`seqform.cli.signals`)
ends the session as ``q`` does: the hand in play is abandoned, the summary of the finished
hands is written, and the interrupt goes on to the command line (exit 130, or 128 + the
signal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TextIO

from seqform.base.numbers import value_text
from seqform.cli.play.console import Console, SessionEnded, below_round_off, plural, signed
from seqform.cli.play.views import view_of
from seqform.documents.layout.tables import label_rows
from seqform.play.session import HandResult, Score, play_hand
from seqform.play.state import PlaySession

__all__ = ["SessionSummary", "play_session", "running_line", "write_summary"]


@dataclass
class SessionSummary:
    """The hands played, the running score (:class:`seqform.play.session.Score`) and why the
    session ended (``"quit"``, ``"end of input"``, ``"interrupted"``: Ctrl-C or a
    terminating signal, or ``"hands"``: the hand count was reached)."""

    score: Score
    hands: list[HandResult] = field(default_factory=list)
    ended_by: str = ""
    value_word: str = "value"  # what the seat expects a hand is called: a spot's is its EV
    scale: Fraction | float | None = None  # the session's: what its chips are written beside

    def add(self, result: HandResult) -> None:
        self.hands.append(result)
        self.score = self.score.add(result)

    @property
    def seat_value(self) -> float:
        return self.score.seat_value

    @property
    def total(self) -> Fraction:
        return self.score.total

    @property
    def cards_expectation(self) -> float:
        return self.score.cards_expectation

    @property
    def choices_expectation(self) -> float:
        return self.score.choices_expectation

    @property
    def equilibrium_expectation(self) -> float:
        return self.score.equilibrium_expectation


def running_line(summary: SessionSummary) -> str:
    """``Total -2 after 1 hand; equilibrium expectation -0.0555555556 (= -1/18).``"""
    total, expectation = summary.total, summary.equilibrium_expectation
    return (
        f"  Total {signed(total, summary.scale)} after {plural(len(summary.hands), 'hand')}; "
        f"equilibrium expectation {value_text(expectation, scale=summary.scale)}."
    )


def play_session(
    session: PlaySession,
    source: TextIO | None,
    out: TextIO,
    *,
    hands: int | None = None,
    echo: bool = False,
    summary_only: bool = False,
) -> SessionSummary:
    """Play hands until ``hands`` are done, the human types ``q`` or the input ends.

    Parameters
    ----------
    session
        The solved game, the seat and the random source (:func:`seqform.play.start_session`).
    source
        Where the human's answers come from (unused when ``auto`` plays).
    out
        Where the transcript goes.
    hands
        Stop after this many hands (None: until ``q`` or end of input).
    echo
        Write each answer after its prompt (for input that is not a terminal).
    summary_only
        Write only the final summary.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C, after the summary of the finished hands is written (module docstring).
    """
    console = Console(source, out, echo, quiet=summary_only)
    view = view_of(session, console)
    word = "EV" if session.is_spot else "value"
    summary = SessionSummary(Score(session.seat_value), value_word=word, scale=session.scale)
    view.header(console)
    try:
        while hands is None or len(summary.hands) < hands:
            console.say("")
            number = len(summary.hands) + 1
            try:
                result = play_hand(session, view.choose, number=number, observe=view.step)
            except SessionEnded as ended:
                summary.ended_by = ended.reason
                if ended.reason == "quit":
                    console.say("  Hand abandoned.")
                break
            summary.add(result)
            view.result(result)
            console.say(running_line(summary))
        else:
            summary.ended_by = "hands"
    except KeyboardInterrupt:  # the finished hands are kept, then the command ends (130)
        summary.ended_by = "interrupted"
        console.say("\n  Hand abandoned.")
        write_summary(summary, out)
        raise
    write_summary(summary, out)
    return summary


def _cost(choices: float, scale: Fraction | float | None) -> float:
    """The choices' expectation less equilibrium play's: never positive (the equilibrium is
    a best response to the bot), 0 where the difference is round-off (beside the session's
    scale: :func:`~seqform.cli.play.console.below_round_off`)."""
    return choices if choices < 0 and not below_round_off(choices, scale) else 0.0


def write_summary(summary: SessionSummary, out: TextIO) -> None:
    played = len(summary.hands)
    reason = {
        "quit": "you quit",
        "end of input": "end of input",
        "interrupted": "interrupted",
        "hands": "all hands played",
    }
    lines = [
        "",
        f"Session over after {plural(played, 'hand')} ({reason.get(summary.ended_by, '')}).",
    ]
    if played:
        card_luck = summary.cards_expectation - summary.equilibrium_expectation
        choices = summary.choices_expectation - summary.cards_expectation
        other_luck = float(summary.total) - summary.choices_expectation
        scale = summary.scale
        rows = [
            ("your total", signed(summary.total, scale)),
            (
                f"equilibrium expectation ({summary.value_word} × hands)",
                value_text(summary.equilibrium_expectation, scale=scale),
            ),
            (
                "expectation of equilibrium play with your cards",
                value_text(summary.cards_expectation, scale=scale),
            ),
            (
                "expectation of your choices with your cards",
                value_text(summary.choices_expectation, scale=scale),
            ),
            ("", ""),
            ("luck of your cards", value_text(card_luck, scale=scale)),
            (
                "your choices against equilibrium play",
                value_text(_cost(choices, scale), scale=scale),
            ),
            ("luck of the bot's cards and coin flips", value_text(other_luck, scale=scale)),
        ]
        lines += [line.rstrip() for line in label_rows(rows)]
        lines.append("  (the last three and the equilibrium expectation add up to your total)")
    out.write("\n".join(lines) + "\n")
    out.flush()
