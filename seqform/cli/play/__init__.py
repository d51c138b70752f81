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

Strategies for ``--auto`` (see :data:`seqform.cli.play.strategies.STRATEGY_NAMES`) are tables
information set → action probabilities, in the information set's action order (``p`` then
``b``); a strategy file is read by :mod:`seqform.io.strategy_files`.

Modules
-------
``cards``       the cards of a Kuhn deal and information set, their order
``strategies``  the bot's equilibrium and the ``--auto`` strategies (named or from a file)
``engine``      the draws, the session's setup, a hand's record, the expectations
``console``     reading answers; the words and numbers the transcript uses
``session``     hands played on the console, running totals, the summary
``run``         the command's entry, :func:`run_play`
``spot_engine``   a hold'em spot's setup, deals, ``--auto`` strategies, expectations
``spot_session``  a spot's hands on the console (cards as players write them)
"""

from seqform.cli.play.cards import card_of_infoset, deal_cards
from seqform.cli.play.console import SessionEnded, ask_seat, parse_choice
from seqform.cli.play.engine import HandRecord, PlaySetup, hand_expectation, sample_index
from seqform.cli.play.run import run_play
from seqform.cli.play.session import SessionSummary, play_session
from seqform.cli.play.strategies import (
    STRATEGY_NAMES,
    behaviour_from_file,
    load_strategy,
    named_strategy,
)

__all__ = [
    "STRATEGY_NAMES",
    "HandRecord",
    "PlaySetup",
    "SessionEnded",
    "SessionSummary",
    "ask_seat",
    "behaviour_from_file",
    "card_of_infoset",
    "deal_cards",
    "hand_expectation",
    "load_strategy",
    "named_strategy",
    "parse_choice",
    "play_session",
    "run_play",
    "sample_index",
]
