"""How much of a strategy a text report shows: every information set up to a size, a summary
beyond it.  The command line's ``--strategies`` offers the same choices."""

from __future__ import annotations

__all__ = ["MOST_MIXED", "STRATEGY_CHOICES", "SUMMARY_ABOVE"]

SUMMARY_ABOVE = 40  # information sets of both players; above, text reports summarise
MOST_MIXED = 10  # information sets shown in a summary, per player
STRATEGY_CHOICES = ("auto", "all", "summary")  # the values of --strategies
