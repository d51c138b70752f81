"""seqform: exact sequence-form solutions of two-player zero-sum extensive-form games."""

from seqform.best_response import Certificate, best_response, certify, expected_value
from seqform.game import Chance, Decision, Game, InvalidGameError, Terminal
from seqform.games import UnknownGameError, load_game
from seqform.lp import LPSolution, SolverError, SolverLimitError, SolverStats, solve_minmax
from seqform.sequence_form import PlayerSequences, SequenceForm, build_sequence_form
from seqform.solve import Solution, solve
from seqform.strategies import BehaviouralStrategy, behaviour_from_plan, plan_from_behaviour

__version__ = "0.1.0"

__all__ = [
    "BehaviouralStrategy",
    "Certificate",
    "Chance",
    "Decision",
    "Game",
    "InvalidGameError",
    "LPSolution",
    "PlayerSequences",
    "SequenceForm",
    "Solution",
    "SolverError",
    "SolverLimitError",
    "SolverStats",
    "Terminal",
    "UnknownGameError",
    "__version__",
    "behaviour_from_plan",
    "best_response",
    "build_sequence_form",
    "certify",
    "expected_value",
    "load_game",
    "plan_from_behaviour",
    "solve",
    "solve_minmax",
]
