"""What is timed for each peer: the same game solved by seqform, OpenSpiel and Gambit.

Each peer is a function from a seqform game name (``"leduc"``, ``"liars_dice(sides=5)"``)
to an :class:`Outcome`; it runs inside a worker process (:mod:`benchmarks.worker`) and
times only its own work:

``seqform-highs``, ``seqform-cvxpy``
    The whole pipeline from the name: :func:`seqform.load_game` (build and validate the
    tree) and :func:`seqform.routes.solve` (sequence form, LP, behavioural strategies, certificate
    by best response), with the direct HiGHS backend or the cvxpy one.  The solver's own
    time (``Solution.stats.solver_seconds``) is recorded beside it.
``openspiel``
    ``pyspiel.load_game`` and ``sequence_form_lp.solve_zero_sum_game`` with OpenSpiel's
    default solver (ECOS through cvxpy).  Games OpenSpiel has natively (Kuhn with 3 cards,
    Leduc, Liar's Dice) are loaded by OpenSpiel's name; any other game is written as a
    Gambit ``.efg`` file first (not timed) and loaded with OpenSpiel's ``efg_game``.
``openspiel-highs``
    The same with HiGHS (through cvxpy) in place of ECOS, to tell the solver's share from
    the formulation's.  OpenSpiel's ``LinearProgram.solve`` hands ECOS's own options to any
    solver, so in the worker it is wrapped to pass none.
``gambit``
    ``pygambit.nash.lp_solve(game, rational=False)``; the game is built by seqform and
    converted by :func:`seqform.game.formats.to_gambit.game_to_gambit` first, and that
    conversion is timed separately: only the solve counts as Gambit's time.
``seqform-structured``
    Games with a public tree × private hands description (kuhn, leduc, liars_dice,
    :func:`seqform.game.builtin.registry.load_structured_game`): the structured route without
    the tree, :func:`seqform.routes.structured.solve_structured` (structured LP through
    level sums, Clarabel, certificate by the public-tree best response).  Beside the tree
    peers it gives both routes side by side, and it is the peer of the scale target (N-card
    Kuhn up to 250,000 cards), which the retired ``seqform-sparsified`` peer (the one-card
    showdown route) used to run; Clarabel's own time is recorded beside it.
``seqform-cfr``, ``seqform-cfr+``, ``seqform-dcfr``, ``seqform-mccfr``, ``openspiel-cfr+``
    The iterative peers, run to a NashConv target within a budget of solver time, and
    CFR+ against OpenSpiel's C++ and python solvers: see :mod:`benchmarks.convergence`.

Not every peer can run every game (:func:`not_applicable`): ``seqform-structured`` needs a
structured description, and the peers that build the game tree (all the others) cannot take a game
whose tree :func:`seqform.load_game` refuses to build (``kuhn(cards=10000)`` would have
9 10^8 nodes); ``openspiel-cfr+`` needs a game OpenSpiel has itself.  The harness records
such a pair as ``not applicable`` without starting a worker.

Size: one runner per peer and the rules of which peer takes which game, read through one table
(``PEERS``); this docstring, which says what each peer times, is a tenth of it.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.convergence import (
    ITERATIVE_PEERS,
    SPEED_PEER,
    budget_of,
    cfr_plus_speed,
    run_iterative,
)
from benchmarks.outcome import Outcome

__all__ = [
    "LP_PEERS",
    "PEERS",
    "Outcome",
    "PeerUnavailableError",
    "Sizes",
    "measure_sizes",
    "not_applicable",
    "openspiel_name",
    "prepare",
    "run_peer",
]

LP_PEERS: tuple[str, ...] = (
    "seqform-highs",
    "seqform-cvxpy",
    "openspiel",
    "openspiel-highs",
    "gambit",
    "seqform-structured",
)
PEERS: tuple[str, ...] = (*LP_PEERS, *ITERATIVE_PEERS, SPEED_PEER)
STRUCTURED = "seqform-structured"  # the peer that solves structured games without their tree
SPARSIFIED = STRUCTURED  # the scale target's peer (N-card Kuhn without the tree), once its own


class PeerUnavailableError(RuntimeError):
    """A peer cannot run here: its package, or a solver it needs, is not installed."""


@dataclass(frozen=True)
class Sizes:
    """How big a game's sequence form is, per player (player 0 first)."""

    sequences: tuple[int, int]
    infosets: tuple[int, int]
    terminals: int

    @property
    def largest(self) -> int:
        """Sequences of the player with more of them: the x axis of the scaling plot."""
        return max(self.sequences)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sizes:
        """Rebuild sizes written by :func:`dataclasses.asdict`."""
        first, second = data["sequences"]
        first_infosets, second_infosets = data["infosets"]
        return cls(
            sequences=(first, second),
            infosets=(first_infosets, second_infosets),
            terminals=data["terminals"],
        )


# Modules each peer imports, loaded before the clock starts so that no peer pays for
# importing its libraries inside the timed region.
_MODULES: dict[str, tuple[str, ...]] = {
    "seqform-highs": ("seqform", "seqform.routes.solve", "highspy"),
    "seqform-cvxpy": ("seqform", "seqform.routes.solve", "highspy", "cvxpy"),
    "openspiel": (
        "pyspiel",
        "open_spiel.python.algorithms.sequence_form_lp",
        "seqform.game.formats.efg",
    ),
    "openspiel-highs": (
        "pyspiel",
        "open_spiel.python.algorithms.sequence_form_lp",
        "seqform.game.formats.efg",
        "cvxpy",
    ),
    "gambit": ("pygambit", "seqform", "seqform.game.formats.to_gambit"),
    "seqform-structured": ("seqform", "seqform.routes.structured", "clarabel"),
    "sizes": ("seqform", "seqform.forms.sequence_form"),
    **{
        peer: ("seqform.iterative.cfr", "seqform.iterative.mccfr", "seqform.certify")
        for peer in ITERATIVE_PEERS
    },
    SPEED_PEER: ("pyspiel", "open_spiel.python.algorithms.cfr", "seqform.iterative.cfr"),
}


def prepare(peer: str) -> None:
    """Import what ``peer`` needs and check that its solver is installed.

    Raises
    ------
    PeerUnavailableError
        If a package is missing, or cvxpy lacks the solver an OpenSpiel peer needs (ECOS,
        the default of OpenSpiel's ``sequence_form_lp``, or HiGHS).
    """
    for module in _MODULES[peer]:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise PeerUnavailableError(f"{module} is not installed ({exc})") from exc
    solver = _OPENSPIEL_SOLVERS.get(peer)
    if solver is not None:
        import cvxpy

        if solver not in cvxpy.installed_solvers():
            raise PeerUnavailableError(
                f"OpenSpiel's sequence_form_lp would solve with {solver} through cvxpy, and "
                f"cvxpy has no {solver}" + (" (pip install ecos)" if solver == "ECOS" else "")
            )


def _pipeline(load: Callable[[], Any], solve: Callable[[Any], Any]) -> Outcome:
    """Time ``solve(load())`` as a whole; the solution's own stages and stats go beside it."""
    start = time.perf_counter()
    game = load()
    built = time.perf_counter()
    solution = solve(game)
    finished = time.perf_counter()
    stages = {"build": built - start}
    stages.update({name: float(seconds) for name, seconds in solution.timings.stages().items()})
    return Outcome(
        seconds=finished - start,
        value=float(solution.value),
        solver_seconds=float(solution.stats.solver_seconds),
        stages=stages,
        iterations=int(solution.stats.iterations),
        exploitability=float(solution.nash_conv),
    )


def _seqform(spec: str, backend: str) -> Outcome:
    from seqform import load_game, solve

    return _pipeline(lambda: load_game(spec), lambda game: solve(game, backend=backend))


def _structured(spec: str) -> Outcome:
    from seqform.game.builtin.registry import load_structured_game
    from seqform.routes.structured import solve_structured

    return _pipeline(lambda: load_structured_game(spec), solve_structured)


def _structured_sizes_or_none(spec: str) -> Sizes | None:
    """:func:`_structured_sizes`, or ``None`` for a game without a structured description."""
    try:
        return _structured_sizes(spec)
    except ValueError:
        return None


def _structured_sizes(spec: str) -> Sizes:
    """The sizes of ``spec`` from its public tree × private hands, without its tree."""
    import numpy as np

    from seqform.game.builtin.registry import load_structured_game
    from seqform.game.public.numbering import number_public_tree

    game = load_structured_game(spec)
    numbering = number_public_tree(game)
    valid0, valid1 = numbering.leaf_valid(0), numbering.leaf_valid(1)
    deals = valid0.sum(axis=1).astype(np.int64) * valid1.sum(axis=1).astype(np.int64)
    cards0, cards1 = game.hands[0].cards, game.hands[1].cards
    common, at0, at1 = np.intersect1d(cards0, cards1, return_indices=True)
    keep = common >= 0  # hands holding the same card cannot be dealt together
    clashes = (valid0[:, at0[keep]] & valid1[:, at1[keep]]).sum(axis=1)
    return Sizes(
        sequences=(numbering.num_sequences(0), numbering.num_sequences(1)),
        infosets=(numbering.num_infosets(0), numbering.num_infosets(1)),
        terminals=int((deals - clashes).sum()),
    )


def _tree_nodes_refused(spec: str) -> int | None:
    """At most the tree size of an N-card Kuhn game too large for :func:`seqform.load_game`
    (:func:`~seqform.game.public.explicit.tree_nodes`), else ``None``."""
    from seqform.game.builtin.kuhn import MAX_TREE_NODES
    from seqform.game.builtin.registry import load_structured_game, parse_game_spec
    from seqform.game.public.explicit import tree_nodes

    try:
        if parse_game_spec(spec)[0] != "kuhn":
            return None
        nodes = tree_nodes(load_structured_game(spec))
    except ValueError:  # not a built-in game (UnknownGameError), or bad parameters
        return None
    return nodes if nodes > MAX_TREE_NODES else None


def not_applicable(peer: str, spec: str) -> str:
    """Why ``peer`` cannot run the game named ``spec`` at all, or ``""`` if it can.

    >>> not_applicable("seqform-structured", "kuhn3")
    'no public tree × private hands description'
    >>> not_applicable("openspiel", "kuhn(cards=10000)")
    'its tree would have 999,900,001 nodes, more than seqform builds'
    >>> not_applicable("seqform-highs", "kuhn(cards=100)")
    ''
    """
    from seqform.game.builtin.registry import STRUCTURED_GAMES, parse_game_spec

    if peer == STRUCTURED:
        try:
            name, _ = parse_game_spec(spec)
        except ValueError:  # a .efg path or an openspiel: name
            name = ""
        # Bad parameters of a structured game are the worker's to report, as an error.
        return "" if name in STRUCTURED_GAMES else "no public tree × private hands description"
    if peer in PEERS:
        nodes = _tree_nodes_refused(spec)
        if nodes is not None:
            return f"its tree would have {nodes:,} nodes, more than seqform builds"
    if peer == SPEED_PEER and _openspiel_name_or_none(spec) is None:
        return "not a game OpenSpiel has itself"
    return ""


def _openspiel_name_or_none(spec: str) -> str | None:
    try:
        return openspiel_name(spec)
    except ValueError:  # a .efg path or an openspiel: name
        return None


def openspiel_name(spec: str) -> str | None:
    """OpenSpiel's name for a seqform game, or ``None`` if OpenSpiel does not have it.

    >>> openspiel_name("liars_dice(sides=4)")
    'liars_dice(dice_sides=4,numdice=1)'
    >>> openspiel_name("kuhn(cards=5)") is None
    True
    """
    from seqform.game.builtin.registry import parse_game_spec

    name, parameters = parse_game_spec(spec)
    if name == "kuhn" and parameters in ({}, {"cards": 3}):
        return "kuhn_poker"
    if name == "leduc" and parameters in ({}, {"ranks": 3, "suits": 2}):
        return "leduc_poker"
    if name == "liars_dice" and set(parameters) <= {"sides", "dice"}:
        sides = parameters.get("sides", 6)
        dice = parameters.get("dice", 1)
        return f"liars_dice(dice_sides={sides},numdice={dice})"
    return None


_OPENSPIEL_SOLVERS: dict[str, str] = {"openspiel": "ECOS", "openspiel-highs": "HIGHS"}


def _pass_no_solver_options() -> None:
    """Make OpenSpiel's ``LinearProgram.solve`` give the solver no options (ECOS's defaults)."""
    from open_spiel.python.algorithms import lp_solver

    original = lp_solver.LinearProgram.solve
    if getattr(original, "without_options", False):
        return

    def solve(self: Any, solver: Any = None, solver_kwargs: Any = None, **kwargs: Any) -> Any:
        return original(self, solver=solver, solver_kwargs={}, **kwargs)

    solve.without_options = True  # type: ignore[attr-defined]
    lp_solver.LinearProgram.solve = solve


def _openspiel(spec: str, scratch: Path, solver: str) -> Outcome:
    import pyspiel
    from open_spiel.python.algorithms import sequence_form_lp

    if solver != "ECOS":
        _pass_no_solver_options()

    name = openspiel_name(spec)
    if name is None:
        from seqform import load_game
        from seqform.io.export import write_efg

        path = scratch / "game.efg"
        write_efg(load_game(spec), path)
        start = time.perf_counter()
        game = pyspiel.load_game("efg_game", {"filename": str(path)})
    else:
        start = time.perf_counter()
        game = pyspiel.load_game(name)
    if solver == "ECOS":
        value, _, _, _ = sequence_form_lp.solve_zero_sum_game(game)  # OpenSpiel's default
    else:
        value, _, _, _ = sequence_form_lp.solve_zero_sum_game(game, solver=solver)
    finished = time.perf_counter()
    return Outcome(
        seconds=finished - start,
        value=float(value),
        route="native" if name is not None else "efg",
    )


def _gambit(spec: str) -> Outcome:
    import pygambit

    from seqform import load_game
    from seqform.game.formats.to_gambit import game_to_gambit

    start = time.perf_counter()
    gambit_game = game_to_gambit(load_game(spec))
    converted = time.perf_counter()
    result = pygambit.nash.lp_solve(gambit_game, rational=False)
    finished = time.perf_counter()
    if not result.equilibria:
        raise RuntimeError("pygambit's lp_solve returned no equilibrium")
    first_player = next(iter(gambit_game.players))
    return Outcome(
        seconds=finished - converted,
        value=float(result.equilibria[0].payoff(first_player)),
        convert_seconds=converted - start,
    )


def _speed(spec: str) -> Outcome:
    name = openspiel_name(spec)
    if name is None:
        raise ValueError(f"OpenSpiel has no game {spec}")
    return cfr_plus_speed(spec, name)


_RUNNERS: dict[str, Callable[[str, Path], Outcome]] = {
    "seqform-highs": lambda spec, _scratch: _seqform(spec, "highs"),
    "seqform-cvxpy": lambda spec, _scratch: _seqform(spec, "cvxpy"),
    "openspiel": lambda spec, scratch: _openspiel(spec, scratch, "ECOS"),
    "openspiel-highs": lambda spec, scratch: _openspiel(spec, scratch, "HIGHS"),
    "gambit": lambda spec, _scratch: _gambit(spec),
    "seqform-structured": lambda spec, _scratch: _structured(spec),
    SPEED_PEER: lambda spec, _scratch: _speed(spec),
}


def run_peer(peer: str, spec: str, scratch: Path, budget: float | None = None) -> Outcome:
    """Solve the game named ``spec`` with ``peer``, timing its work.

    Parameters
    ----------
    peer
        One of :data:`PEERS`.
    spec
        A seqform game name, as :func:`seqform.load_game` reads it.
    scratch
        A directory the peer may write to (OpenSpiel's ``.efg`` route).
    budget
        An iterative peer's solver-time budget in seconds (default: the game's,
        :func:`benchmarks.convergence.budget_of`).
    """
    if peer in ITERATIVE_PEERS:
        return run_iterative(peer, spec, budget_of(spec, budget))
    return _RUNNERS[peer](spec, scratch)


def measure_sizes(spec: str) -> Sizes:
    """Sequences and information sets per player, and terminal histories, of ``spec``.

    A structured game whose tree is too large to build (N-card Kuhn beyond the tree's limit,
    Liar's Dice beyond the tree's 14 bids) is measured without it, by its structured
    numbering: the numbers the tree would give, a terminal history being a public leaf with
    a deal of hands valid there that share no card (with several dice each the tree counts
    ordered rolls and this the sorted hands, so only the sequences and sets agree there).
    """
    from seqform import load_game
    from seqform.forms.sequence_form import build_sequence_form

    if _tree_nodes_refused(spec) is not None:
        return _structured_sizes(spec)
    try:
        game = load_game(spec)
    except ValueError:
        structured = _structured_sizes_or_none(spec)
        if structured is None:
            raise
        return structured
    form = build_sequence_form(game)
    first, second = form.players
    return Sizes(
        sequences=(first.num_sequences, second.num_sequences),
        infosets=(first.num_infosets, second.num_infosets),
        terminals=int(form.num_terminals),
    )
