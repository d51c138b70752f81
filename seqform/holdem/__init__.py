"""Hold'em, in one home: cards and ranges in players' notation, spot files and the structured
game a spot is (``spot``, ``spot.match``: where two spots differ, ``game``, ``betting``,
``strength`` from a maintained evaluator, eval7), the toy games of *The Mathematics of Poker*
(``toy_games``), and what a player reads off a solved spot (``report``, ``hands``,
``equity``), with the spot LP's work estimate (``lp_work``) and the unit poker reports give
exploitability in (``units``: mbb/g).

This module is the door: the rest of the package imports hold'em only from here
(``tests/test_architecture.py`` checks it), so the names below are all that the other rooms
know of hold'em.  They load on first use (PEP 562): the command line's start-up reads
:class:`SpotFileError` and :class:`CardError` without loading eval7 or the spot machinery.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from seqform.holdem.aggregate import RootAction, SpotAggregate, spot_aggregate
    from seqform.holdem.betting import amount_text
    from seqform.holdem.cards import RANKS, CardError, card_text
    from seqform.holdem.game import (
        PublicCounts,
        is_spot_file,
        load_spot_game,
        load_spot_tree,
        public_counts,
        spot_combos,
        spot_game,
        spot_tree_nodes,
    )
    from seqform.holdem.hands import (
        ComboStrategy,
        HandSelectionError,
        combo_strategies,
        lock_hand_labels,
        select_combos,
    )
    from seqform.holdem.lp_work import (
        SPOT_LP_VARIABLES,
        LPWorkRefusedError,
        SpotSize,
        numbering_bytes,
        refuse_slow_lp,
        spot_size,
    )
    from seqform.holdem.reach import public_reach
    from seqform.holdem.report import (
        WHO,
        ActionFrequencies,
        ClassGrid,
        ClassMix,
        SpotSummary,
        action_frequencies,
        class_grid,
        class_mix,
        decision_histories,
        decision_mix,
        opening_grid,
        seat_ev,
        spot_report,
        spot_summary,
    )
    from seqform.holdem.spot import (
        Spot,
        SpotFileError,
        StreetSizes,
        read_spot,
        spot_from_mapping,
    )
    from seqform.holdem.spot.match import SpotDifference, spot_difference
    from seqform.holdem.strength import hand_name
    from seqform.holdem.texture import BoardTexture, board_texture
    from seqform.holdem.units import ReportUnit, report_unit, spot_unit, unit_meaning

_DOOR = {
    "ReportUnit": "units",
    "report_unit": "units",
    "spot_unit": "units",
    "unit_meaning": "units",
    "BoardTexture": "texture",
    "RootAction": "aggregate",
    "SpotAggregate": "aggregate",
    "board_texture": "texture",
    "spot_aggregate": "aggregate",
    "ActionFrequencies": "report",
    "CardError": "cards",
    "ClassGrid": "report",
    "ClassMix": "report",
    "ComboStrategy": "hands",
    "HandSelectionError": "hands",
    "LPWorkRefusedError": "lp_work",
    "RANKS": "cards",
    "SPOT_LP_VARIABLES": "lp_work",
    "Spot": "spot",
    "SpotFileError": "spot",
    "SpotSize": "lp_work",
    "SpotSummary": "report",
    "StreetSizes": "spot",
    "WHO": "report",
    "action_frequencies": "report",
    "amount_text": "betting",
    "card_text": "cards",
    "class_grid": "report",
    "class_mix": "report",
    "combo_strategies": "hands",
    "decision_histories": "report",
    "decision_mix": "report",
    "hand_name": "strength",
    "is_spot_file": "game",
    "lock_hand_labels": "hands",
    "load_spot_game": "game",
    "load_spot_tree": "game",
    "opening_grid": "report",
    "PublicCounts": "game",
    "public_counts": "game",
    "public_reach": "reach",
    "read_spot": "spot",
    "numbering_bytes": "lp_work",
    "refuse_slow_lp": "lp_work",
    "select_combos": "hands",
    "seat_ev": "report",
    "spot_combos": "game",
    "spot_game": "game",
    "spot_report": "report",
    "spot_size": "lp_work",
    "spot_summary": "report",
    "spot_tree_nodes": "game",
    "spot_from_mapping": "spot",
    "SpotDifference": "spot.match",
    "spot_difference": "spot.match",
}

__all__ = [
    "RANKS",
    "SPOT_LP_VARIABLES",
    "WHO",
    "ActionFrequencies",
    "BoardTexture",
    "CardError",
    "ClassGrid",
    "ClassMix",
    "ComboStrategy",
    "HandSelectionError",
    "LPWorkRefusedError",
    "PublicCounts",
    "ReportUnit",
    "RootAction",
    "Spot",
    "SpotAggregate",
    "SpotDifference",
    "SpotFileError",
    "SpotSize",
    "SpotSummary",
    "StreetSizes",
    "action_frequencies",
    "amount_text",
    "board_texture",
    "card_text",
    "class_grid",
    "class_mix",
    "combo_strategies",
    "decision_histories",
    "decision_mix",
    "hand_name",
    "is_spot_file",
    "load_spot_game",
    "load_spot_tree",
    "lock_hand_labels",
    "numbering_bytes",
    "opening_grid",
    "public_counts",
    "public_reach",
    "read_spot",
    "refuse_slow_lp",
    "report_unit",
    "seat_ev",
    "select_combos",
    "spot_aggregate",
    "spot_combos",
    "spot_difference",
    "spot_from_mapping",
    "spot_game",
    "spot_report",
    "spot_size",
    "spot_summary",
    "spot_tree_nodes",
    "spot_unit",
    "unit_meaning",
]


def __getattr__(name: str) -> object:
    import importlib

    module = _DOOR.get(name)
    if module is None:
        raise AttributeError(f"module 'seqform.holdem' has no attribute {name!r}")
    return getattr(importlib.import_module(f"seqform.holdem.{module}"), name)
