"""``--hand COMBOS`` of ``solve``, ``iterate`` and ``show``: the combos chosen, checked
before any work (usage errors), and their blocks of the text report.

The strategies are the library's (:func:`seqform.holdem.combo_strategies`), the blocks'
text :func:`seqform.documents.text.spots.spot.combo_lines`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from seqform.cli.errors import EXIT_USAGE, CommandError

if TYPE_CHECKING:
    from seqform.forms.strategies import BehaviouralStrategy
    from seqform.game.public.tree import StructuredGame
    from seqform.holdem import Spot

__all__ = ["hand_text", "hands_in_spot", "hands_in_spot_file"]


def hands_in_spot(spot: Spot, items: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """The ``(player, combo)`` pairs ``--hand`` names in ``spot`` (a usage error for a
    combo on the board or in neither range)."""
    from seqform.holdem import HandSelectionError, select_combos

    try:
        return select_combos(spot, items)
    except HandSelectionError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None


def hands_in_spot_file(game: str, items: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """:func:`hands_in_spot` of the spot file ``game``, read before the work starts; none
    without ``--hand``; a usage error when ``game`` is not a spot file."""
    if not items:
        return ()
    from seqform.holdem import is_spot_file, read_spot

    if not is_spot_file(game):
        raise CommandError("--hand needs a spot file (*.toml) as GAME", EXIT_USAGE)
    return hands_in_spot(read_spot(game), items)


def hand_text(
    game: StructuredGame,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
    hands: tuple[tuple[int, int], ...],
) -> str:
    """The ``--hand`` blocks: each chosen combo's strategy at every decision it reaches."""
    if not hands:
        return ""
    from seqform.documents.text.spots.spot import combo_lines
    from seqform.holdem import combo_strategies

    found = combo_strategies(game, strategies, hands)
    return "\n" + "\n\n".join("\n".join(combo_lines(each)) for each in found) + "\n"
