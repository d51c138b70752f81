"""Play a game against the equilibrium seqform computes: a session a notebook, a web page or
the terminal (``seqform play``, :mod:`seqform.cli.play`) drives the same way.

The bot plays the behavioural strategy of the LP's solution (solved once, at the start): Kuhn
poker on its tree, a hold'em spot on its public tree × combos.  A hand is a walk down the
game: chance deals the cards, the bot samples its actions from its strategy, and the human's
actions come from the caller (or from ``auto``, a named strategy or a JSON file).  Every
random draw comes from the session's one ``random.Random(seed)``, so a seed replays a
session.  There is one engine for both games (:mod:`seqform.play.session`); a game differs
in its table (:mod:`seqform.play.kuhn`, :mod:`seqform.play.spot`): how it deals, names an
information set and scores a leaf.

From Python::

    from seqform.play import auto_move, play_hand, start_session, Score
    session = start_session("kuhn", seat=0, seed=1, auto="equilibrium")
    score = Score(session.seat_value)
    for number in range(1, 101):
        score = score.add(play_hand(session, auto_move, number=number))
    score.average, session.seat_value   # about -1/18 (Kuhn 1950)

Value
-----
A seat's *value* (``PlaySession.seat_value``) is what it expects a hand when both play the
equilibrium.  On Kuhn poker it is the game's value to the seat (−1/18 in seat 1, +1/18 in
seat 2; Kuhn 1950).  On a spot it is the seat's *EV in chips*: the share of the pot it
expects to win less the chips it expects to put in
(:func:`seqform.holdem.report.seat_ev`); ``solve``'s "Value to Player 1" is the
spot's zero-sum payoff, OOP's EV less half the pot.

Expectations shown
------------------
Besides the running total, a session reports what the total "should" be, three ways:

* the *equilibrium expectation*: the seat's value times the hands played — what good play
  expects on average;
* the *expectation of equilibrium play with your cards*: for each hand, the expected payoff of
  equilibrium play given the cards the human was dealt (the bot's cards and coin flips
  averaged out); the difference from the line above is the luck of the human's own cards;
* the *expectation of your choices*: for each hand, the expected payoff given the human's
  cards and the actions the human actually took, against the bot's strategy and unseen
  cards.  Where the hand never asked for a decision (e.g. "what would you have done facing a
  bet?" after the bot checked behind) the human's strategy is filled in: the ``auto``
  strategy when there is one, the equilibrium otherwise.

The equilibrium is a best response to the bot's strategy at every hand, so your choices can
only lose expectation against it: *choices minus equilibrium play* is never positive (up to
solver round-off), and is reported as the cost of your decisions.  What is left over,
*total minus your choices' expectation*, is the luck of the bot's cards and coin flips.

Modules
-------
``state``       the session, a hand's state, a spot's chips, the table interface
``start``       a session started: the game checked, solved once, the human seated
``session``     the engine: step a hand, its result, the running score
``kuhn``        Kuhn poker's table: cards, expectations
``spot``        a hold'em spot's table: deals, leaf payoffs, expectations
``strategies``  the bot's equilibrium and the ``auto`` strategies (named or from a file)
"""

from seqform.play.session import (
    HandResult,
    Score,
    Step,
    apply,
    auto_move,
    deal_card,
    deal_hand,
    hand_result,
    infoset,
    legal_actions,
    opponent_move,
    play_hand,
)
from seqform.play.start import check_playable, start_session
from seqform.play.state import CHANCE, HandState, PlaySession

__all__ = [
    "CHANCE",
    "HandResult",
    "HandState",
    "PlaySession",
    "Score",
    "Step",
    "apply",
    "auto_move",
    "check_playable",
    "deal_card",
    "deal_hand",
    "hand_result",
    "infoset",
    "legal_actions",
    "opponent_move",
    "play_hand",
    "start_session",
]
