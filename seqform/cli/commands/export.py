"""``seqform export GAME --to efg|npz|mps|gambit-profile FILE``."""

from __future__ import annotations

import argparse
import shlex
import sys

from seqform.base.numbers import decimal_text, scaled_text
from seqform.cli.errors import EXIT_OK, EXIT_USAGE, CommandError, certified_exit
from seqform.cli.output import write
from seqform.cli.progress import load_reporting
from seqform.cli.streams import terminal_text
from seqform.documents.layout.blocks import uncertified_reason
from seqform.game.model import Game
from seqform.io.export import check_export_file, export_game
from seqform.io.gambit_profile import gambit_profile_text
from seqform.routes.tree import solve_tree

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Write ``args.game`` in the format ``args.to`` to ``args.file``; a file whose suffix
    names another kind (``--to npz a.efg``) is refused first (usage)."""
    try:
        check_export_file(args.to, args.file)
    except ValueError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    game = load_reporting(args.game, max_nodes=args.max_nodes, force=args.force)
    if args.to == "gambit-profile":
        return _export_profile(game, args.file, args.game)
    try:
        path = export_game(game, args.to, args.file)
    except OSError as exc:
        raise CommandError(f"cannot write {args.file!r}: {exc.strerror or exc}") from exc
    print(terminal_text(f"seqform: wrote {game.name} as {args.to} to {path}"), file=sys.stderr)
    return EXIT_OK


def _export_profile(game: Game, file: str, spec: str) -> int:
    """Solve ``game`` (the sequence-form LP, certified) and write both behavioural strategies
    as a Gambit behaviour profile; exit as ``solve`` does when the certificate fails.  The
    note names the game as it was given (``spec``: a name or a file), so that its command
    writes the profile's game."""
    solution = solve_tree(game)
    exploitability = scaled_text(
        solution.exploitability, solution.certificate.payoff_range, digits=3
    )
    write(gambit_profile_text(solution.strategies), file)
    print(
        terminal_text(
            f"seqform: wrote the equilibrium of {game.name} (value {decimal_text(solution.value)}, "
            f"exploitability {exploitability}) as a Gambit behaviour profile to "
            f"{file}; its game is 'seqform export {shlex.quote(spec)} --to efg'"
        ),
        file=sys.stderr,
    )
    return certified_exit(uncertified_reason(solution.certificate))
