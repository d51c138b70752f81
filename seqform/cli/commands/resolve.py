"""``seqform resolve GAME --blueprint FILE``: re-solve a blueprint's subgames of one round,
or, with ``--off-tree``, play a blueprint of an abstract game in GAME.

The game is read as :func:`seqform.resolving.paths.resolve` takes it: a built-in game with a
structured description (``leduc``, ``rhode_island``, ...) as public tree × hands, and the
path the library chooses for it (:func:`~seqform.resolving.paths.choose_path`); the tree is
built only when the tree path runs.  Every other game is read as a tree.  On the structured
path the library also chooses whether to re-solve on canonical boards
(:func:`~seqform.resolving.paths.canonical_route`; ``--no-suit-isomorphism`` turns it off);
the report says which ran.  With ``--off-tree``, GAME and ``--abstract`` are read as games
with bet sizes (:func:`seqform.resolving.sized.load_sized_game`) and
:func:`seqform.resolving.off_tree.off_tree` runs.
"""

from __future__ import annotations

import argparse

from seqform.cli.errors import EXIT_ERROR, EXIT_OK, EXIT_USAGE, CommandError
from seqform.cli.output import built_for, emit
from seqform.cli.progress import Progress, load_reporting
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.registry import STRUCTURED_GAMES, load_structured_game, parse_game_spec
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.io.strategy_files import GameUse, StrategyFileError
from seqform.questions.exploit import load_strategy
from seqform.resolving.paths import choose_path, resolve
from seqform.resolving.subgames import ResolveError

__all__ = ["run"]

DEFAULT_ROUND = 2


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
        if structured is not None and choose_path(
            structured, args.path, args.refine, args.exact
        ) == ("structured"):
            return structured
        tree = load_reporting(args.game, max_nodes=args.max_nodes, force=args.force)
        choose_path(tree, args.path, args.refine, args.exact)  # refused before the blueprint
    except ResolveError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from exc
    return tree


def _blueprint(
    game: Game | StructuredGame, path: str, use: GameUse
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """Both players' strategies of ``game`` from the ``--blueprint`` file (``use``: what
    ``game`` is, for the refusal of another game's document)."""
    try:
        first, second = (load_strategy(game, path, player, use=use) for player in (0, 1))
    except (StrategyFileError, KeyError) as exc:  # bad input, as exploit and play say it
        raise CommandError(f"--blueprint: {exc}", EXIT_ERROR) from exc
    except OSError as exc:
        raise CommandError(
            f"--blueprint: cannot read {path!r}: {exc.strerror or exc}", EXIT_ERROR
        ) from exc
    return first, second


def _usage(message: str) -> CommandError:
    return CommandError(message, EXIT_USAGE)


def _check_options(args: argparse.Namespace) -> None:
    """Refuse options that belong to the other kind of run rather than ignore them."""
    if args.off_tree is None:
        for name in ("abstract", "mapping", "alternative"):
            if getattr(args, name) is not None:
                raise _usage(f"--{name} belongs to --off-tree translate|nested")
        return
    if args.abstract is None:
        raise _usage("--off-tree needs --abstract GAME: the game the blueprint is a strategy of")
    given = next(
        (
            option
            for option, on in (
                ("--refine", args.refine),
                ("--exact", args.exact),
                ("--path", args.path != "auto"),
                ("--round", args.round is not None),
                ("--no-suit-isomorphism", not args.suit_isomorphism),
                ("--workers", args.workers != 1),
            )
            if on
        ),
        None,
    )
    if given is not None:
        raise _usage(
            f"{given} belongs to re-solving a round; --off-tree re-solves after each "
            "off-tree bet, on the tree"
        )
    if args.off_tree == "translate" and args.alternative is not None:
        raise _usage("--alternative belongs to --off-tree nested")


def _off_tree(args: argparse.Namespace) -> int:
    from seqform.documents.road.off_tree import off_tree_document
    from seqform.documents.text.road.off_tree import off_tree_text
    from seqform.resolving.off_tree import off_tree
    from seqform.resolving.sized import load_sized_game

    try:
        full = load_sized_game(args.game)
        try:
            abstract = load_sized_game(args.abstract)
        except ResolveError as exc:
            raise _usage(f"--abstract: {exc}") from exc
        blueprint = _blueprint(abstract.game, args.blueprint, "abstract")
        options = {
            name: getattr(args, name)
            for name in ("mapping", "gadget", "alternative")
            if getattr(args, name) is not None
        }
        result = off_tree(full, abstract, blueprint, method=args.off_tree, **options)
    except ResolveError as exc:
        raise _usage(str(exc)) from exc
    document = built_for(args, lambda: off_tree_document(result))
    emit(document, lambda: off_tree_text(document), args)
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Read both players' blueprint from ``--blueprint``, re-solve, report."""
    _check_options(args)
    if args.off_tree is not None:
        return _off_tree(args)
    from seqform.documents.road.resolve import resolve_document
    from seqform.documents.text.road.resolve import resolve_text

    game = _game(args)
    blueprint = _blueprint(game, args.blueprint, "re-solved")
    if isinstance(game, StructuredGame):  # its gadget LPs and certificates run in floats
        blueprint = (blueprint[0].to_float(), blueprint[1].to_float())
    try:
        result = resolve(
            game,
            blueprint,
            round_number=DEFAULT_ROUND if args.round is None else args.round,
            gadget=args.gadget,
            refine=args.refine,
            path=args.path,
            exact=args.exact,
            suit_isomorphism=args.suit_isomorphism,
            progress=Progress(args),
            workers=args.workers,
        )
    except ResolveError as exc:
        raise _usage(str(exc)) from exc
    document = built_for(args, lambda: resolve_document(result))
    emit(document, lambda: resolve_text(document), args)
    return EXIT_OK
