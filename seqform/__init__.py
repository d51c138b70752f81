"""seqform: exact sequence-form solutions of two-player zero-sum extensive-form games."""

from seqform.best_response import Certificate, best_response, certify, expected_value
from seqform.game import Chance, Decision, Game, InvalidGameError, Terminal
from seqform.games import UnknownGameError, load_game
from seqform.lp import LPSolution, SolverError, SolverLimitError, SolverStats, solve_minmax
from seqform.normal_form import build_normal_form, solve_normal_form, strategy_counts
from seqform.sequence_form import PlayerSequences, SequenceForm, build_sequence_form
from seqform.solve import Solution, solve
from seqform.strategies import BehaviouralStrategy, behaviour_from_plan, plan_from_behaviour

__version__ = "0.1.0"

# Names whose modules import pygambit or OpenSpiel load on first use.
_LAZY = {
    "read_efg": "seqform.efg",
    "write_efg": "seqform.efg",
    "GameFormatError": "seqform.efg",
    "load_openspiel_game": "seqform.openspiel",
    "export_game": "seqform.export",
    "compare": "seqform.compare",
    "ShowdownPoker": "seqform.showdown",
    "kuhn_showdown": "seqform.showdown",
    "load_showdown_game": "seqform.games",
    "solve_showdown": "seqform.showdown_solve",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'seqform' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "BehaviouralStrategy",
    "Certificate",
    "Chance",
    "Decision",
    "Game",
    "GameFormatError",
    "InvalidGameError",
    "LPSolution",
    "PlayerSequences",
    "SequenceForm",
    "ShowdownPoker",
    "Solution",
    "SolverError",
    "SolverLimitError",
    "SolverStats",
    "Terminal",
    "UnknownGameError",
    "__version__",
    "behaviour_from_plan",
    "best_response",
    "build_normal_form",
    "build_sequence_form",
    "certify",
    "compare",
    "expected_value",
    "export_game",
    "kuhn_showdown",
    "load_game",
    "load_openspiel_game",
    "load_showdown_game",
    "plan_from_behaviour",
    "read_efg",
    "solve",
    "solve_minmax",
    "solve_normal_form",
    "solve_showdown",
    "strategy_counts",
    "write_efg",
]
