"""seqform: exact sequence-form solutions of two-player zero-sum extensive-form games."""

from typing import TYPE_CHECKING

# Eager, unlike the rest: ``seqform.certify`` is also a module, and importing it anywhere
# would set the package's attribute to the module and hide the function (it needs numpy only).
from seqform.certify import Certificate, best_response, certify, expected_value
from seqform.version import __version__

if TYPE_CHECKING:  # the names below, for type checkers; at run time they load on first use
    from seqform.analyses.many import solve_many
    from seqform.analyses.normal import solve_normal_form
    from seqform.analyses.qre import logit_qre, trace_logit
    from seqform.analyses.qre_fit import fit_logit
    from seqform.analyses.solve import Solution, solve
    from seqform.documents.build import document, write_document
    from seqform.forms.normal_counts import strategy_counts
    from seqform.forms.normal_form import build_normal_form
    from seqform.forms.sequence_form import PlayerSequences, SequenceForm, build_sequence_form
    from seqform.forms.strategies import (
        BehaviouralStrategy,
        behaviour_from_plan,
        plan_from_behaviour,
    )
    from seqform.game.builtin.catalogue import builtin_games
    from seqform.game.errors import InvalidGameError, UnknownGameError
    from seqform.game.loader import load_game
    from seqform.game.model import Game
    from seqform.game.nodes import Chance, Decision, Terminal
    from seqform.lp.minmax import solve_minmax
    from seqform.lp.problem import FloatSolution
    from seqform.lp.solvers import SolverError, SolverLimitError, SolverStats

# Every public name loads its module on first use (PEP 562), so ``import seqform`` and the
# command line's start-up do not pay for numpy, scipy, HiGHS or pygambit before a command
# needs them (issue 19, start-up).
_LAZY = {
    "solve_normal_form": "seqform.analyses.normal",
    "Solution": "seqform.analyses.solve",
    "solve": "seqform.analyses.solve",
    "strategy_counts": "seqform.forms.normal_counts",
    "build_normal_form": "seqform.forms.normal_form",
    "PlayerSequences": "seqform.forms.sequence_form",
    "SequenceForm": "seqform.forms.sequence_form",
    "build_sequence_form": "seqform.forms.sequence_form",
    "BehaviouralStrategy": "seqform.forms.strategies",
    "behaviour_from_plan": "seqform.forms.strategies",
    "plan_from_behaviour": "seqform.forms.strategies",
    "InvalidGameError": "seqform.game.errors",
    "UnknownGameError": "seqform.game.errors",
    "load_game": "seqform.game.loader",
    "Game": "seqform.game.model",
    "Chance": "seqform.game.nodes",
    "Decision": "seqform.game.nodes",
    "Terminal": "seqform.game.nodes",
    "FloatSolution": "seqform.lp.problem",
    "solve_minmax": "seqform.lp.minmax",
    "SolverError": "seqform.lp.solvers",
    "SolverLimitError": "seqform.lp.solvers",
    "SolverStats": "seqform.lp.solvers",
    "read_efg": "seqform.game.efg",
    "write_efg": "seqform.io.export",
    "GameFormatError": "seqform.game.errors",
    "load_openspiel_game": "seqform.game.openspiel",
    "export_game": "seqform.io.export",
    "compare": "seqform.analyses.compare",
    "refine": "seqform.analyses.refine",
    "equilibrium_ranges": "seqform.analyses.ranges",
    "exploit": "seqform.analyses.exploit",
    "named_opponent": "seqform.analyses.exploit",
    "iterate": "seqform.analyses.iterate",
    "StructuredGame": "seqform.game.public_tree",
    "load_structured_game": "seqform.game.builtin.registry",
    "kuhn_structured": "seqform.game.builtin.kuhn",
    "ShowdownPoker": "seqform.game.builtin.showdown_public",
    "structured_showdown": "seqform.game.builtin.showdown_public",
    "OptionsError": "seqform.analyses.route",
    "MemoryRefusedError": "seqform.analyses.memory",
    "LPWorkRefusedError": "seqform.analyses.lp_work",
    "choose_route": "seqform.analyses.route",
    "document": "seqform.documents.build",
    "write_document": "seqform.documents.build",
    "builtin_games": "seqform.game.builtin.catalogue",
    "solve_many": "seqform.analyses.many",
    "trace_logit": "seqform.analyses.qre",
    "logit_qre": "seqform.analyses.qre",
    "fit_logit": "seqform.analyses.qre_fit",
}

# Older entry points and names, for one release: each warns (DeprecationWarning) with its
# new spelling, then does what it did.  The one entry point is ``solve`` (issue 19).
_DEPRECATED = {
    "solve_exact": ("seqform.analyses.exact", "solve_exact", "seqform.solve(game, exact=True)"),
    "solve_structured": (
        "seqform.analyses.structured",
        "solve_structured",
        'seqform.solve(game, method="structured")',
    ),
    "solve_structured_exact": (
        "seqform.analyses.structured_exact",
        "solve_structured_exact",
        'seqform.solve(game, method="structured", exact=True)',
    ),
    "solve_showdown": (
        "seqform.analyses.structured",
        "solve_structured",
        'seqform.solve(game, method="structured")',
    ),
    "kuhn_showdown": ("seqform.game.builtin.kuhn", "kuhn_structured", "seqform.kuhn_structured"),
    "load_showdown_game": (
        "seqform.game.builtin.registry",
        "load_structured_game",
        "seqform.load_structured_game",
    ),
}


def __getattr__(name: str) -> object:
    import importlib

    if name == "LPSolution":  # the float LP's solution type, before issue 19's one LP path
        from seqform.base.deprecation import renamed
        from seqform.lp.problem import FloatSolution

        return renamed("seqform", name, {name: ("seqform.FloatSolution", FloatSolution)})
    if name in _DEPRECATED:
        from seqform.analyses.solve import deprecated_alias

        module, target, new = _DEPRECATED[name]
        function = getattr(importlib.import_module(module), target)
        return deprecated_alias(f"seqform.{name}", new, function)
    lazy = _LAZY.get(name)
    if lazy is None:
        raise AttributeError(f"module 'seqform' has no attribute {name!r}")
    value = getattr(importlib.import_module(lazy), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "BehaviouralStrategy",
    "Certificate",
    "Chance",
    "Decision",
    "FloatSolution",
    "Game",
    "GameFormatError",
    "InvalidGameError",
    "LPWorkRefusedError",
    "MemoryRefusedError",
    "OptionsError",
    "PlayerSequences",
    "SequenceForm",
    "ShowdownPoker",
    "Solution",
    "SolverError",
    "SolverLimitError",
    "SolverStats",
    "StructuredGame",
    "Terminal",
    "UnknownGameError",
    "__version__",
    "behaviour_from_plan",
    "best_response",
    "build_normal_form",
    "build_sequence_form",
    "builtin_games",
    "certify",
    "choose_route",
    "compare",
    "document",
    "equilibrium_ranges",
    "expected_value",
    "exploit",
    "export_game",
    "fit_logit",
    "iterate",
    "kuhn_showdown",
    "kuhn_structured",
    "load_game",
    "load_openspiel_game",
    "load_showdown_game",
    "load_structured_game",
    "logit_qre",
    "named_opponent",
    "plan_from_behaviour",
    "read_efg",
    "refine",
    "solve",
    "solve_exact",
    "solve_many",
    "solve_minmax",
    "solve_normal_form",
    "solve_showdown",
    "solve_structured",
    "solve_structured_exact",
    "strategy_counts",
    "structured_showdown",
    "trace_logit",
    "write_document",
    "write_efg",
]
