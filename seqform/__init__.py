"""seqform: exact sequence-form solutions of two-player zero-sum extensive-form games."""

from typing import TYPE_CHECKING

# Eager, unlike the rest: ``seqform.certify`` is also a module, and importing it anywhere
# would set the package's attribute to the module and hide the function (it needs numpy only).
from seqform.certify import BestResponse, Certificate, best_response, certify, expected_value
from seqform.version import __version__

if TYPE_CHECKING:  # the names below, for type checkers; at run time they load on first use
    from seqform.abstraction.rounds import CardBucketsError
    from seqform.abstraction.solve import AbstractionResult, abstract
    from seqform.documents.build import document, write_document
    from seqform.documents.text.render import render_text
    from seqform.forms.normal_counts import StrategyCounts, strategy_counts
    from seqform.forms.normal_form import NormalForm, build_normal_form
    from seqform.forms.sequence_form import PlayerSequences, SequenceForm, build_sequence_form
    from seqform.forms.strategies import (
        BehaviouralStrategy,
        behaviour_from_plan,
        plan_from_behaviour,
    )
    from seqform.game.builtin.catalogue import BuiltinGame, builtin_games
    from seqform.game.builtin.kuhn import kuhn_structured
    from seqform.game.builtin.one_card import OneCardPoker, one_card_game
    from seqform.game.builtin.registry import load_structured_game
    from seqform.game.errors import GameFormatError, InvalidGameError, UnknownGameError
    from seqform.game.formats.efg import read_efg
    from seqform.game.formats.openspiel import load_openspiel_game
    from seqform.game.model import Game
    from seqform.game.nodes import Chance, Decision, Terminal
    from seqform.game.public.tree import StructuredGame
    from seqform.holdem import LPWorkRefusedError
    from seqform.io.export import export_game, write_efg
    from seqform.io.loader import load_game
    from seqform.iterative.run import Stopping
    from seqform.lp.minmax import solve_minmax
    from seqform.lp.problem import FloatSolution
    from seqform.lp.solvers import SolverError, SolverLimitError, SolverStats
    from seqform.qre.equilibria import (
        LambdaNotReachedError,
        LogitBranch,
        LogitPoints,
        QREPoint,
        logit_qre,
        trace_logit,
    )
    from seqform.qre.fit import LogitFit, fit_logit
    from seqform.qre.limit import LimitComparison, compare_limit
    from seqform.qre.trace import TraceSettings
    from seqform.questions.compare import Comparison, compare
    from seqform.questions.exploit import Exploitation, exploit, named_opponent
    from seqform.questions.iterate import IterativeRun, iterate
    from seqform.questions.ranges import EquilibriumRanges, equilibrium_ranges
    from seqform.questions.stored_certificate import (
        StoredCertificate,
        certify_stored,
        save_strategy_arrays,
    )
    from seqform.resolving.off_tree import OffTreeResult, off_tree
    from seqform.resolving.paths import resolve
    from seqform.resolving.resolve import ResolveResult
    from seqform.routes.exact import ExactSolution
    from seqform.routes.locked import LockedSolution
    from seqform.routes.many import ManySpots, SpotRow, solve_many
    from seqform.routes.normal import NormalFormSolution, solve_normal_form
    from seqform.routes.policy import OptionsError, Route, choose_route
    from seqform.routes.refine import RefinedSolution, refine
    from seqform.routes.restrict import RestrictedSolution
    from seqform.routes.sizing.memory import MemoryRefusedError
    from seqform.routes.solve import Solution, solve
    from seqform.routes.structured import StructuredSolution
    from seqform.routes.structured_exact import StructuredExactSolution

# Every public name loads its module on first use (PEP 562), so ``import seqform`` and the
# command line's start-up do not pay for numpy, scipy, HiGHS or pygambit before a command
# needs them.
_LAZY = {
    "CardBucketsError": "seqform.abstraction.rounds",
    "AbstractionResult": "seqform.abstraction.solve",
    "abstract": "seqform.abstraction.solve",
    "render_text": "seqform.documents.text.render",
    "document": "seqform.documents.build",
    "write_document": "seqform.documents.build",
    "StrategyCounts": "seqform.forms.normal_counts",
    "strategy_counts": "seqform.forms.normal_counts",
    "NormalForm": "seqform.forms.normal_form",
    "build_normal_form": "seqform.forms.normal_form",
    "PlayerSequences": "seqform.forms.sequence_form",
    "SequenceForm": "seqform.forms.sequence_form",
    "build_sequence_form": "seqform.forms.sequence_form",
    "BehaviouralStrategy": "seqform.forms.strategies",
    "behaviour_from_plan": "seqform.forms.strategies",
    "plan_from_behaviour": "seqform.forms.strategies",
    "BuiltinGame": "seqform.game.builtin.catalogue",
    "builtin_games": "seqform.game.builtin.catalogue",
    "kuhn_structured": "seqform.game.builtin.kuhn",
    "OneCardPoker": "seqform.game.builtin.one_card",
    "one_card_game": "seqform.game.builtin.one_card",
    "load_structured_game": "seqform.game.builtin.registry",
    "GameFormatError": "seqform.game.errors",
    "InvalidGameError": "seqform.game.errors",
    "UnknownGameError": "seqform.game.errors",
    "read_efg": "seqform.game.formats.efg",
    "load_openspiel_game": "seqform.game.formats.openspiel",
    "Game": "seqform.game.model",
    "Chance": "seqform.game.nodes",
    "Decision": "seqform.game.nodes",
    "Terminal": "seqform.game.nodes",
    "StructuredGame": "seqform.game.public.tree",
    "LPWorkRefusedError": "seqform.holdem",
    "export_game": "seqform.io.export",
    "write_efg": "seqform.io.export",
    "load_game": "seqform.io.loader",
    "Stopping": "seqform.iterative.run",
    "solve_minmax": "seqform.lp.minmax",
    "FloatSolution": "seqform.lp.problem",
    "SolverError": "seqform.lp.solvers",
    "SolverLimitError": "seqform.lp.solvers",
    "SolverStats": "seqform.lp.solvers",
    "LimitComparison": "seqform.qre.limit",
    "LambdaNotReachedError": "seqform.qre.equilibria",
    "LogitBranch": "seqform.qre.equilibria",
    "LogitPoints": "seqform.qre.equilibria",
    "QREPoint": "seqform.qre.equilibria",
    "compare_limit": "seqform.qre.limit",
    "logit_qre": "seqform.qre.equilibria",
    "trace_logit": "seqform.qre.equilibria",
    "LogitFit": "seqform.qre.fit",
    "fit_logit": "seqform.qre.fit",
    "TraceSettings": "seqform.qre.trace",
    "Comparison": "seqform.questions.compare",
    "compare": "seqform.questions.compare",
    "Exploitation": "seqform.questions.exploit",
    "exploit": "seqform.questions.exploit",
    "named_opponent": "seqform.questions.exploit",
    "IterativeRun": "seqform.questions.iterate",
    "iterate": "seqform.questions.iterate",
    "EquilibriumRanges": "seqform.questions.ranges",
    "equilibrium_ranges": "seqform.questions.ranges",
    "OffTreeResult": "seqform.resolving.off_tree",
    "off_tree": "seqform.resolving.off_tree",
    "resolve": "seqform.resolving.paths",
    "ResolveResult": "seqform.resolving.resolve",
    "ExactSolution": "seqform.routes.exact",
    "ManySpots": "seqform.routes.many",
    "SpotRow": "seqform.routes.many",
    "solve_many": "seqform.routes.many",
    "MemoryRefusedError": "seqform.routes.sizing.memory",
    "NormalFormSolution": "seqform.routes.normal",
    "solve_normal_form": "seqform.routes.normal",
    "OptionsError": "seqform.routes.policy",
    "Route": "seqform.routes.policy",
    "choose_route": "seqform.routes.policy",
    "RefinedSolution": "seqform.routes.refine",
    "refine": "seqform.routes.refine",
    "RestrictedSolution": "seqform.routes.restrict",
    "LockedSolution": "seqform.routes.locked",
    "Solution": "seqform.routes.solve",
    "solve": "seqform.routes.solve",
    "StructuredSolution": "seqform.routes.structured",
    "StructuredExactSolution": "seqform.routes.structured_exact",
    "StoredCertificate": "seqform.questions.stored_certificate",
    "certify_stored": "seqform.questions.stored_certificate",
    "save_strategy_arrays": "seqform.questions.stored_certificate",
}


def __getattr__(name: str) -> object:
    import importlib

    lazy = _LAZY.get(name)
    if lazy is None:
        raise AttributeError(f"module 'seqform' has no attribute {name!r}")
    value = getattr(importlib.import_module(lazy), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "AbstractionResult",
    "BehaviouralStrategy",
    "BestResponse",
    "BuiltinGame",
    "CardBucketsError",
    "Certificate",
    "Chance",
    "Comparison",
    "Decision",
    "EquilibriumRanges",
    "ExactSolution",
    "Exploitation",
    "FloatSolution",
    "Game",
    "GameFormatError",
    "InvalidGameError",
    "IterativeRun",
    "LPWorkRefusedError",
    "LambdaNotReachedError",
    "LimitComparison",
    "LockedSolution",
    "LogitBranch",
    "LogitFit",
    "LogitPoints",
    "ManySpots",
    "MemoryRefusedError",
    "NormalForm",
    "NormalFormSolution",
    "OffTreeResult",
    "OneCardPoker",
    "OptionsError",
    "PlayerSequences",
    "QREPoint",
    "RefinedSolution",
    "ResolveResult",
    "RestrictedSolution",
    "Route",
    "SequenceForm",
    "Solution",
    "SolverError",
    "SolverLimitError",
    "SolverStats",
    "SpotRow",
    "Stopping",
    "StoredCertificate",
    "StrategyCounts",
    "StructuredExactSolution",
    "StructuredGame",
    "StructuredSolution",
    "Terminal",
    "TraceSettings",
    "UnknownGameError",
    "__version__",
    "abstract",
    "behaviour_from_plan",
    "best_response",
    "build_normal_form",
    "build_sequence_form",
    "builtin_games",
    "certify",
    "certify_stored",
    "choose_route",
    "compare",
    "compare_limit",
    "document",
    "equilibrium_ranges",
    "expected_value",
    "exploit",
    "export_game",
    "fit_logit",
    "iterate",
    "kuhn_structured",
    "load_game",
    "load_openspiel_game",
    "load_structured_game",
    "logit_qre",
    "named_opponent",
    "off_tree",
    "one_card_game",
    "plan_from_behaviour",
    "read_efg",
    "refine",
    "render_text",
    "resolve",
    "save_strategy_arrays",
    "solve",
    "solve_many",
    "solve_minmax",
    "solve_normal_form",
    "strategy_counts",
    "trace_logit",
    "write_document",
    "write_efg",
]
