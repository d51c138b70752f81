"""The sub-parser of ``resolve``: subgames re-solved from a blueprint with a gadget, and
off-tree actions by translation or nested re-solving; part of
:func:`seqform.cli.parser.build_parser`."""

from __future__ import annotations

import argparse

from seqform.cli.options import Commands, add_game_argument, add_output_arguments
from seqform.cli.readers import whole_number

__all__ = ["add_resolve"]


def _add_off_tree(resolve: argparse.ArgumentParser) -> None:
    """``resolve``'s options for off-tree actions (``--off-tree``, ``--abstract``, ...)."""
    off_tree = resolve.add_argument_group(
        "off-tree actions",
        "play a blueprint of an abstract game (fewer bet sizes) in GAME, a spot file or "
        "leduc(..., bets=...), and certify it in GAME",
    )
    off_tree.add_argument(
        "--off-tree",
        choices=("translate", "nested"),
        help="translate: map each off-tree bet to the abstract sizes next to it (Ganzfried "
        "and Sandholm 2013); nested: re-solve the subgame after the opponent's off-tree bet "
        "with --gadget resolve or maxmargin (Brown and Sandholm 2017); needs --abstract",
    )
    off_tree.add_argument(
        "--abstract",
        metavar="GAME",
        help="the abstract game the blueprint is a strategy of (GAME with fewer bet sizes)",
    )
    off_tree.add_argument(
        "--mapping",
        choices=("pseudo_harmonic", "deterministic", "arithmetic"),
        help="the translation's mapping (default pseudo_harmonic)",
    )
    off_tree.add_argument(
        "--alternative",
        choices=("neighbours", "best"),
        help="nested: the opponent's alternative T_J at an off-tree bet, from the blueprint's "
        "values at the neighbouring abstract sizes (default) or at its best abstract action",
    )


def _add_paths(resolve: argparse.ArgumentParser) -> None:
    """``resolve``'s options of how a round is re-solved: ``--refine``, ``--exact``,
    ``--path``, ``--no-suit-isomorphism`` and ``--workers``."""
    resolve.add_argument(
        "--refine",
        action="store_true",
        help="keep each gadget game's quasi-perfect equilibrium (Miltersen and Sorensen 2010) "
        "instead of the LP's vertex; a float blueprint is rounded to exact first (tree path "
        "only)",
    )
    resolve.add_argument(
        "--exact",
        action="store_true",
        help="solve every gadget LP exactly (HiGHS's basis re-solved in rationals) and certify "
        "the blueprint and the re-solved profile in the full game in fractions (structured "
        "path only)",
    )
    resolve.add_argument(
        "--path",
        choices=("auto", "tree", "structured"),
        default="auto",
        help="re-solve on the game's tree (gadget games as trees) or on its public tree x "
        "hands (gadget LPs, no tree); default auto: the structured path for a built-in game "
        "whose tree has more than 100,000 nodes, else the tree",
    )
    resolve.add_argument(
        "--no-suit-isomorphism",
        dest="suit_isomorphism",
        action="store_false",
        help="structured path: re-solve every subgame of the game itself, not one per orbit "
        "of boards on canonical boards and hand classes, which a game symmetric under suit "
        "permutations (leduc, rhode_island) gets by default when the blueprint is unchanged "
        "by them (the same gadget values, certified on the full game either way, with --exact "
        "too; a blueprint they change re-solves the game itself, saying so)",
    )
    resolve.add_argument(
        "--workers",
        type=whole_number(1),
        default=1,
        metavar="N",
        help="structured path: re-solve the subgames on N processes of this machine (default "
        "1), with the same answers; the tree path runs in one",
    )


def add_resolve(commands: Commands) -> None:
    resolve = commands.add_parser(
        "resolve",
        help="re-solve a blueprint's subgames of one round with a gadget LP",
        description=(
            "Keep a blueprint profile (a solve, iterate or resolve JSON document, or "
            "{infoset: {action: probability}} for both players) before round R and re-solve "
            "every subgame that starts at round R by the LP of a gadget game: unsafe (the "
            "subgame alone with the blueprint's ranges), resolve (Burch, Johanson and Bowling "
            "2014), maxmargin (Moravcik et al. 2016) or reach (Reach-Maxmargin, Brown and "
            "Sandholm 2017). Reports the blueprint's and the re-solved profile's "
            "exploitability in the full game and the margins; --format json writes the "
            "combined strategies (read by exploit --strategy and play --auto)."
        ),
    )
    add_game_argument(resolve)
    resolve.add_argument(
        "--blueprint", required=True, metavar="FILE", help="both players' blueprint strategies"
    )
    resolve.add_argument(
        "--round",
        type=whole_number(2),
        default=None,
        metavar="R",
        help="the round whose subgames are re-solved (default 2: Leduc's second round)",
    )
    resolve.add_argument(
        "--gadget",
        choices=("unsafe", "resolve", "maxmargin", "reach"),
        default="resolve",
        help="the gadget (default resolve); resolve, maxmargin and reach never make the "
        "blueprint more exploitable",
    )
    _add_paths(resolve)
    _add_off_tree(resolve)
    resolve.add_argument("--verbose", action="store_true", help="show progress on stderr")
    add_output_arguments(resolve, summarises=False)
