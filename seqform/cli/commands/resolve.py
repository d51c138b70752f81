"""``seqform resolve GAME --blueprint FILE``: re-solve a blueprint's subgames of one round.

The game is read as :func:`seqform.resolving.paths.resolve` takes it: a built-in game with a
structured description (``leduc``, ``rhode_island``, ...) as public tree × hands, and the
path the library chooses for it (:func:`~seqform.resolving.paths.choose_path`); the tree is
built only when the tree path runs.  Every other game is read as a tree.
"""

from __future__ import annotations

import argparse

from seqform.cli.errors import EXIT_OK, EXIT_USAGE, CommandError
from seqform.cli.output import emit
from seqform.cli.progress import load_reporting
from seqform.documents.resolve import resolve_document
from seqform.documents.text.resolve import resolve_text
from seqform.game.builtin.registry import STRUCTURED_GAMES, load_structured_game, parse_game_spec
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.io.strategy_files import StrategyFileError
from seqform.questions.exploit import load_strategy
from seqform.resolving.paths import choose_path, resolve
from seqform.resolving.subgames import ResolveError

__all__ = ["run"]


def _structured_or_none(spec: str) -> StructuredGame | None:
    """The structured description of the built-in game ``spec``; None for a game without
    one, or with parameters only its tree takes (the tree's loader then says what is wrong)."""
    try:
        name, _ = parse_game_spec(spec)
    except ValueError:
        return None
    if name not in STRUCTURED_GAMES:
        return None
    try:
        return load_structured_game(spec)
    except ValueError:
        return None


def _game(args: argparse.Namespace) -> Game | StructuredGame:
    """The structured game where the library's policy re-solves it on the structured path,
    else the tree (refused, unless ``--force``, when it would not fit in memory)."""
    structured = _structured_or_none(args.game)
    try:
        if structured is not None and choose_path(structured, args.path, args.refine) == (
            "structured"
        ):
            return structured
        tree = load_reporting(args.game, max_nodes=args.max_nodes, force=args.force)
        choose_path(tree, args.path, args.refine)  # refused before the blueprint is read
    except ResolveError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from exc
    return tree


def run(args: argparse.Namespace) -> int:
    """Read both players' blueprint from ``--blueprint``, re-solve, report."""
    game = _game(args)
    try:
        blueprint = tuple(load_strategy(game, args.blueprint, player) for player in (0, 1))
    except (StrategyFileError, KeyError) as exc:
        raise CommandError(f"--blueprint: {exc}", EXIT_USAGE) from exc
    except OSError as exc:
        raise CommandError(
            f"--blueprint: cannot read {args.blueprint!r}: {exc.strerror or exc}", EXIT_USAGE
        ) from exc
    try:
        result = resolve(
            game,
            blueprint,
            round_number=args.round,
            gadget=args.gadget,
            refine=args.refine,
            path=args.path,
        )
    except ResolveError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from exc
    document = resolve_document(result)
    emit(document, resolve_text(document), args)
    return EXIT_OK
