"""``seqform play``: the terminal front end of the play engine (:mod:`seqform.play`).

The engine deals, draws the bot's moves and scores the hands; this package asks the human
(or lets ``--auto`` play), writes each hand as it happens and the summary at the end.

Modules
-------
``console``  reading answers; the words and numbers the transcript uses
``views``    how a hand of Kuhn poker or of a hold'em spot is written
``session``  hands played one after another, running totals, the summary
``run``      the command's entry, :func:`run_play`
"""

from seqform.cli.play.console import SessionEnded, ask_seat, parse_choice, parse_spot_choice
from seqform.cli.play.run import run_play
from seqform.cli.play.session import SessionSummary, play_session

__all__ = [
    "SessionEnded",
    "SessionSummary",
    "ask_seat",
    "parse_choice",
    "parse_spot_choice",
    "play_session",
    "run_play",
]
