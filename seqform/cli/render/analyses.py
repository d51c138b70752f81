"""Text and JSON for the analyses beyond one float equilibrium.

Exact, refined and restricted solutions extend the ``seqform.solve/1`` document of
:mod:`seqform.cli.render.report` with one key each (the schema allows new keys); the equilibrium set
and exploitation have schemas of their own.  Exact numbers are written as strings
(``"-1/18"``) next to their float values.

``solve --exact`` adds::

    "exact": {"certified": bool, "value": str | null,
              "bounds": {"lower": str, "upper": str},
              "method": "rounding" | "basis" | "mixed" | "none",
              "basis_verified": bool | null,
              "certificate": {"expected_value": str, "best_response_values": [str, str],
                              "gains": [str, str], "exploitability": str},
              "strategies": [EXACT_STRATEGY, ×2], "notes": [str],
              "seconds": {"sequence_form", "lp", "rounding", "basis", "certificate", "total"}}

``solve --refine`` adds::

    "refinement": {"concept": "quasi-perfect", "source": str, "verified": bool,
                   "fallback": str | null,      # what is shown when not verified
                   "value_exact": str | null, "epsilon": str, "degree": int,
                   "pivots": int, "refined_infosets": [[str], [str]],
                   "strategies": [EXACT_STRATEGY, ×2] | null}

``solve --fix`` adds::

    "restrictions": {"bounds": [{"infoset": str, "action": str, "lower": str,
                                 "upper": str}],
                     "restricted_players": [1 | 2],
                     "certificate": "restricted best responses"}

with ``EXACT_STRATEGY = {"player": 1 | 2, "name": str, "infosets": [{"name": str,
"unreached": bool, "actions": [{"action": str, "words": str, "probability": str}]}]}``.

Schema ``seqform.ranges/1`` (``python -m seqform ranges``)::

    {"schema": "seqform.ranges/1", "game": {"name", "description"}, "exact": bool,
     "value": float, "value_exact": str | null,
     "players": [{"player": 1 | 2, "name": str, "value": float, "value_exact": str | null,
                  "unique": bool, "dimension": int, "verified": bool,
                  "linear_programs": int, "vertex_count": int,
                  "vertices": [[NUMBER]] | null,    # the plans found; null if > 50
                  "parametrisation": null | {"parameter": str, "low": NUMBER,
                                             "high": NUMBER, "entries": [{"sequence": str,
                                             "constant": NUMBER, "slope": NUMBER}]},
                  "infosets": [{"name": str, "actions": [{"action": str, "words": str,
                                "probability": null | {"low": NUMBER, "high": NUMBER},
                                "plan": {"low": NUMBER, "high": NUMBER}}]}]}, ×2],
     "seconds": float}

where a NUMBER is a float, or in exact mode a string fraction.

Schema ``seqform.exploit/1`` (``python -m seqform exploit``)::

    {"schema": "seqform.exploit/1", "game": {"name", "description"},
     "fixed": {"player": 1 | 2, "name": str, "source": str, "strategy": EXACT_STRATEGY},
     "responder": {"player": 1 | 2, "name": str},
     "best_response": [{"infoset": str, "action": str, "words": str}],
     "unreached": [str],        # responder's sets the fixed strategy never lets arise
     "value": float, "value_exact": str,
     "equilibrium_value": float, "equilibrium_value_exact": str | null,
     "gain": float, "gain_exact": str | null, "exact": bool}

Values are to the responder in ``seqform.exploit/1``; ``gain`` is never negative.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from seqform.analyses.exact import ExactSolution
from seqform.analyses.exploit import Exploitation
from seqform.analyses.ranges import EquilibriumRanges, PlayerRanges, Range
from seqform.analyses.refine import RefinedSolution
from seqform.analyses.restrict import Restrictions
from seqform.analyses.solve import Solution, Timings
from seqform.certify import Certificate
from seqform.cli.render.report import (
    EQUILIBRIUM_TOLERANCE,
    matching_fraction,
    solution_json,
    strategy_table,
)
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.model import Game

__all__ = [
    "EXPLOIT_SCHEMA",
    "RANGES_SCHEMA",
    "exact_json",
    "exact_text",
    "exploitation_json",
    "exploitation_text",
    "ranges_json",
    "ranges_text",
    "refined_json",
    "refined_text",
    "restricted_json",
    "restricted_text",
]

RANGES_SCHEMA = "seqform.ranges/1"
MAX_JSON_VERTICES = 50  # larger vertex lists are left out of the ranges JSON
EXPLOIT_SCHEMA = "seqform.exploit/1"


# --------------------------------------------------------------------------- numbers


def number_text(value: Any) -> str:
    """A Fraction as ``-1/18``; a float to 10 places, with a small fraction if one matches."""
    if isinstance(value, Fraction | int):
        return str(Fraction(value))
    exact = matching_fraction(float(value))
    shown = f"{float(value):+.10f}"
    return shown if exact is None else f"{shown} (= {exact})"


def _short(value: Any) -> str:
    """Compact: fractions as they are, floats to 4 places (with a small fraction if any)."""
    if isinstance(value, Fraction | int):
        return str(Fraction(value))
    exact = matching_fraction(float(value), max_denominator=100, tol=1e-7)
    return str(exact) if exact is not None else f"{float(value):.4f}"


def _approx(value: Fraction) -> str:
    return "" if value.denominator == 1 else f" ≈ {float(value):+.10f}"


def _json_number(value: Any) -> Any:
    return str(Fraction(value)) if isinstance(value, Fraction) else float(value)


def _header(game: Game) -> str:
    return f"Game: {game.name}" + (f" — {game.description}" if game.description else "")


# --------------------------------------------------------------------------- strategies


def exact_strategy_json(strategy: BehaviouralStrategy, game: Game) -> dict[str, Any]:
    table = strategy.table
    return {
        "player": table.player + 1,
        "name": game.player_names[table.player],
        "infosets": [
            {
                "name": name,
                "unreached": bool(strategy.unreached[index]),
                "actions": [
                    {
                        "action": action,
                        "words": game.describe_action(name, action),
                        "probability": str(strategy.probabilities[sequence]),
                    }
                    for action, sequence in zip(
                        table.actions[index], table.sequences_of(index), strict=True
                    )
                ],
            }
            for index, name in enumerate(table.infosets)
        ],
    }


def exact_strategy_lines(
    strategy: BehaviouralStrategy, game: Game, title: str, flag: str = "unreached by own play"
) -> list[str]:
    """One row per information set: actions in words with exact probabilities."""
    table = strategy.table
    width = max([len("infoset"), *(len(n) for n in table.infosets)])
    lines = [title, f"  {'infoset':<{width}}  action probabilities"]
    for index, name in enumerate(table.infosets):
        parts = [
            f"{game.describe_action(name, action)} {strategy.probabilities[sequence]}"
            for action, sequence in zip(
                table.actions[index], table.sequences_of(index), strict=True
            )
        ]
        mark = f"   ({flag})" if strategy.unreached[index] else ""
        lines.append(f"  {name:<{width}}  {'  '.join(parts)}{mark}")
    return lines


def _certificate_json(certificate: Certificate) -> dict[str, Any]:
    return {
        "expected_value": str(certificate.value),
        "best_response_values": [str(v) for v in certificate.best_response_values],
        "gains": [str(v) for v in certificate.gains],
        "exploitability": str(certificate.exploitability),
    }


def _float_solution(
    game: Game,
    form: Any,
    value: float,
    strategies: tuple[Any, Any],
    certificate: Certificate,
    stats: Any,
    timings: Timings,
) -> Solution:
    behaviour = tuple(s.to_float() for s in strategies)
    plans = tuple(plan_from_behaviour(b) for b in behaviour)
    return Solution(
        game=game,
        form=form,
        value=value,
        plans=(plans[0], plans[1]),
        behaviour=(behaviour[0], behaviour[1]),
        certificate=certificate,
        stats=stats,
        timings=timings,
    )


# --------------------------------------------------------------------------- exact


def _exact_as_solution(solution: ExactSolution) -> Solution:
    t = solution.timings
    value = float(solution.value) if solution.value is not None else solution.float_value
    return _float_solution(
        solution.game,
        solution.form,
        value,
        solution.strategies,
        solution.certificate,
        solution.stats,
        Timings(
            sequence_form=t.sequence_form,
            lp=t.lp,
            behaviour=t.rounding + t.basis,
            certificate=t.certificate,
        ),
    )


def exact_json(solution: ExactSolution) -> dict[str, Any]:
    """``seqform.solve/1`` with the ``"exact"`` key (module docstring)."""
    document = solution_json(_exact_as_solution(solution))
    if solution.value is not None:
        document["value_fraction"] = str(solution.value)
    t = solution.timings
    document["exact"] = {
        "certified": solution.certified,
        "value": None if solution.value is None else str(solution.value),
        "bounds": {"lower": str(solution.bounds.lower), "upper": str(solution.bounds.upper)},
        "method": solution.method,
        "basis_verified": solution.basis_verified,
        "certificate": _certificate_json(solution.certificate),
        "strategies": [exact_strategy_json(s, solution.game) for s in solution.strategies],
        "notes": list(solution.notes),
        "seconds": {
            "sequence_form": t.sequence_form,
            "lp": t.lp,
            "rounding": t.rounding,
            "basis": t.basis,
            "certificate": t.certificate,
            "total": t.total,
        },
    }
    if solution.restrictions is not None:
        document["restrictions"] = _restrictions_json(solution.restrictions)
    return document


_METHODS = {
    "rounding": "rounding the float strategies to nearby fractions",
    "basis": "re-solving HiGHS's optimal basis in exact arithmetic",
    "mixed": "one player's strategy from rounding, the other's from the exact basis",
}


def exact_text(solution: ExactSolution) -> str:
    """Exact value (or exact bounds), certificate and exact strategies."""
    game = solution.game
    names = game.player_names
    lines = [_header(game)]
    if solution.value is not None:
        lines.append(
            f"Value to {names[0]}: {solution.value} (exact, certified){_approx(solution.value)}"
        )
    else:
        lower, upper = solution.bounds.lower, solution.bounds.upper
        lines += [
            f"Value to {names[0]}: NOT certified; the exact certificate bounds it by",
            f"  {lower} <= value <= {upper}",
            f"  (≈ [{float(lower):+.10f}, {float(upper):+.10f}]; LP float optimum "
            f"{solution.float_value:+.10f})",
        ]
    if solution.restrictions is not None:
        lines += ["", *_restriction_lines(solution.restrictions, game)]
    certificate = solution.certificate
    kind = (
        "restricted best responses in exact arithmetic"
        if solution.restrictions is not None
        else "tree walk in exact arithmetic"
    )
    verdict = (
        "exactly 0: an exact equilibrium"
        if certificate.exploitability == 0
        else f"{certificate.exploitability}: not an equilibrium"
    )
    rows = [
        ("expected value", str(certificate.value)),
        (f"best response of {names[0]}", str(certificate.best_response_values[0])),
        (f"best response of {names[1]}", str(certificate.best_response_values[1])),
        ("exploitability (NashConv)", verdict),
    ]
    width = max(len(label) for label, _ in rows)
    lines += ["", f"Exact certificate ({kind}, independent of the LP):"]
    lines += [f"  {label:<{width}}  {value}" for label, value in rows]
    if solution.method in _METHODS:
        lines.append(f"  strategies found by {_METHODS[solution.method]}")
    if solution.basis_verified is not None:
        verdict = "proven optimal" if solution.basis_verified else "NOT exactly optimal"
        lines.append(f"  the exact basic solution of the LP is {verdict} (primal and dual checks)")
    lines += [f"  note: {note}" for note in solution.notes]
    stats, t = solution.stats, solution.timings
    lines += [
        "",
        f"Solver: HiGHS {stats.algorithm} (float LP, {stats.iterations} iterations, "
        f"{t.lp:.3f} s); exact stage {t.rounding + t.basis + t.certificate:.3f} s; "
        f"total {t.total:.3f} s",
    ]
    for strategy in solution.strategies:
        lines.append("")
        lines += exact_strategy_lines(
            strategy, game, f"{names[strategy.player]} — exact behavioural strategy"
        )
    if any(any(s.unreached) for s in solution.strategies):
        lines += [
            "",
            "Unreached: the player's own strategy never reaches that information set, so its",
            "probabilities there change no payoff (solve --refine plays sensibly there too).",
        ]
    return "\n".join(lines)


# --------------------------------------------------------------------------- refined


def _refined_as_solution(solution: RefinedSolution) -> Solution:
    return _float_solution(
        solution.game,
        solution.form,
        float(solution.value),
        solution.strategies or solution.behaviour,
        solution.certificate,
        solution.stats,
        Timings(sequence_form=0.0, lp=solution.seconds, behaviour=0.0, certificate=0.0),
    )


REFINEMENT_SOURCE = (
    "Miltersen and Sørensen (2010): limit of the equilibria of the sequence form "
    "perturbed by x_σ, y_σ >= ε^|σ| as ε → 0"
)


def refined_json(solution: RefinedSolution) -> dict[str, Any]:
    """``seqform.solve/1`` with the ``"refinement"`` key (module docstring)."""
    document = solution_json(_refined_as_solution(solution))
    exact_value = solution.value if isinstance(solution.value, Fraction) else None
    if exact_value is not None:
        document["value_fraction"] = str(exact_value)
    document["refinement"] = {
        "concept": "quasi-perfect",
        "source": REFINEMENT_SOURCE,
        "verified": solution.verified,
        "fallback": None
        if solution.verified
        else "exact equilibrium; best responses to the perturbed opponent where unreached",
        "value_exact": None if exact_value is None else str(exact_value),
        "epsilon": str(solution.epsilon),
        "degree": solution.degree,
        "pivots": solution.pivots,
        "refined_infosets": [list(names) for names in solution.refined],
        "strategies": None
        if solution.strategies is None
        else [exact_strategy_json(s, solution.game) for s in solution.strategies],
    }
    return document


def refined_text(solution: RefinedSolution) -> str:
    game = solution.game
    names = game.player_names
    lines = [_header(game)]
    if isinstance(solution.value, Fraction):
        lines.append(f"Value to {names[0]}: {solution.value}{_approx(solution.value)}")
    else:
        lines.append(f"Value to {names[0]}: {number_text(solution.value)}")
    lines += [
        "",
        "Refinement: a quasi-perfect equilibrium (van Damme 1984), as in Miltersen and",
        "Sørensen (2010): the limit as ε → 0 of equilibria of the sequence form perturbed by",
        "x_σ, y_σ >= ε^|σ|.",
    ]
    if solution.verified:
        lines += [
            f"  HiGHS gave a basis at ε = {solution.epsilon}; after {solution.pivots} exact "
            "pivot(s) it is",
            f"  proven optimal for all small ε (polynomials of degree {solution.degree} in ε).",
        ]
    else:
        lines += [
            "  NOT verified: no basis was proven optimal for all small ε (none of the starting",
            "  bases was feasible for small ε, or the pivoting ran out of time).",
            "  Shown instead: an exact equilibrium in which, where a player's own play never",
            "  arrives, the player best responds to the opponent's perturbed strategy at",
            f"  ε = {solution.epsilon} (not proven quasi-perfect).",
        ]
    certificate = solution.certificate
    exploitability = certificate.exploitability
    shown = (
        "exactly 0"
        if isinstance(exploitability, Fraction) and exploitability == 0
        else f"{float(exploitability):.3g}"
    )
    rows = [
        (f"best response of {names[0]}", _short(certificate.best_response_values[0])),
        (f"best response of {names[1]}", _short(certificate.best_response_values[1])),
        ("exploitability (NashConv)", shown),
    ]
    width = max(len(label) for label, _ in rows)
    lines += ["", "Certificate (tree walk in the unperturbed game, independent of the LP):"]
    lines += [f"  {label:<{width}}  {text}" for label, text in rows]
    for player in (0, 1):
        lines.append("")
        title = f"{names[player]} — behavioural strategy " + (
            "(quasi-perfect)" if solution.verified else "(refined, not proven quasi-perfect)"
        )
        if solution.strategies is not None:
            lines += exact_strategy_lines(
                solution.strategies[player],
                game,
                title,
                flag="unreached by own play: set by the refinement",
            )
        else:
            lines += strategy_table(
                solution.behaviour[player],
                f"{names[player]} (quasi-perfect, float)",
                game.describe_action,
            )
    refined = [name for names_ in solution.refined for name in names_]
    lines += [
        "",
        "Every information set has a considered action: where a player's own equilibrium",
        "play never arrives, the refinement chooses what is best against the opponent's",
        f"trembles ({len(refined)} such information set(s)).",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------- restricted


def _restrictions_json(restrictions: Restrictions) -> dict[str, Any]:
    return {
        "bounds": [
            {"infoset": b.infoset, "action": b.action, "lower": str(b.lower), "upper": str(b.upper)}
            for b in restrictions.bounds
        ],
        "restricted_players": [p + 1 for p in restrictions.players()],
        "certificate": "restricted best responses",
    }


def _restriction_lines(restrictions: Restrictions, game: Game) -> list[str]:
    players = " and ".join(game.player_names[p] for p in restrictions.players())
    lines = [f"Restricted game: {players} must obey"]
    lines += [f"  {bound.text()}" for bound in restrictions.bounds]
    return lines


def restricted_json(solution: Solution, restrictions: Restrictions) -> dict[str, Any]:
    """``seqform.solve/1`` of the restricted game with the ``"restrictions"`` key."""
    document = solution_json(solution)
    document["restrictions"] = _restrictions_json(restrictions)
    return document


def restricted_text(solution: Solution, restrictions: Restrictions) -> str:
    game = solution.game
    names = game.player_names
    certificate = solution.certificate
    exploitability = float(certificate.exploitability)
    verdict = (
        f"equilibrium of the restricted game (≤ {EQUILIBRIUM_TOLERANCE:g})"
        if exploitability <= EQUILIBRIUM_TOLERANCE
        else f"NOT an equilibrium within {EQUILIBRIUM_TOLERANCE:g}"
    )
    rows = [
        ("expected value", number_text(float(certificate.value))),
        (f"best response of {names[0]}", f"{float(certificate.best_response_values[0]):+.10f}"),
        (f"best response of {names[1]}", f"{float(certificate.best_response_values[1]):+.10f}"),
        ("exploitability (NashConv)", f"{exploitability:.3g}: {verdict}"),
    ]
    width = max(len(label) for label, _ in rows)
    lines = [
        _header(game),
        f"Value of the restricted game to {names[0]}: {number_text(solution.value)}",
        "",
        *_restriction_lines(restrictions, game),
        "",
        "Certificate (best responses within the restrictions, from the tree, not the LP):",
        *(f"  {label:<{width}}  {text}" for label, text in rows),
    ]
    stats = solution.stats
    lines += [
        "",
        f"Solver: HiGHS {stats.algorithm}, {stats.iterations} iterations, LP "
        f"{stats.variables} variables × {stats.constraints} constraints",
    ]
    for player in (0, 1):
        lines.append("")
        lines += strategy_table(solution.behaviour[player], names[player], game.describe_action)
    return "\n".join(lines)


# --------------------------------------------------------------------------- ranges


def _range_json(value: Range) -> dict[str, Any]:
    return {"low": _json_number(value.low), "high": _json_number(value.high)}


def ranges_json(ranges: EquilibriumRanges) -> dict[str, Any]:
    """The equilibrium set in schema ``seqform.ranges/1``."""
    game = ranges.game

    def player_json(player: PlayerRanges) -> dict[str, Any]:
        infosets: dict[str, list[dict[str, Any]]] = {}
        for action in player.actions:
            infosets.setdefault(action.infoset, []).append(
                {
                    "action": action.action,
                    "words": action.words,
                    "probability": None
                    if action.probability is None
                    else _range_json(action.probability),
                    "plan": _range_json(action.plan),
                }
            )
        parametrisation = player.parametrisation
        return {
            "player": player.player + 1,
            "name": player.name,
            "value": float(player.value),
            "value_exact": str(player.value) if ranges.exact else None,
            "unique": player.unique,
            "dimension": player.dimension,
            "verified": player.verified,
            "linear_programs": player.linear_programs,
            "vertex_count": len(player.vertices),
            "vertices": [[_json_number(v) for v in vertex] for vertex in player.vertices]
            if len(player.vertices) <= MAX_JSON_VERTICES
            else None,
            "parametrisation": None
            if parametrisation is None
            else {
                "parameter": parametrisation.parameter,
                "low": _json_number(parametrisation.low),
                "high": _json_number(parametrisation.high),
                "entries": [
                    {
                        "sequence": e.label,
                        "constant": _json_number(e.constant),
                        "slope": _json_number(e.slope),
                    }
                    for e in parametrisation.entries
                ],
            },
            "infosets": [{"name": name, "actions": acts} for name, acts in infosets.items()],
        }

    return {
        "schema": RANGES_SCHEMA,
        "game": {"name": game.name, "description": game.description},
        "exact": ranges.exact,
        "value": float(ranges.value),
        "value_exact": str(ranges.value) if ranges.exact else None,
        "players": [player_json(p) for p in ranges.players],
        "seconds": ranges.seconds,
    }


def _interval(value: Range | None) -> str:
    if value is None:
        return "— (no optimal strategy reaches it)"
    low, high = _short(value.low), _short(value.high)
    return low if low == high else f"[{low}, {high}]"


def _affine(constant: Any, slope: Any) -> str:
    parts = []
    if _short(constant) != "0":
        parts.append(_short(constant))
    magnitude = abs(slope) if isinstance(slope, Fraction) else abs(float(slope))
    coefficient = "" if _short(magnitude) == "1" else _short(magnitude)
    sign = "−" if float(slope) < 0 else "+"
    if parts:
        parts.append(f"{sign} {coefficient}t")
    else:
        parts.append(f"{'−' if sign == '−' else ''}{coefficient}t")
    return " ".join(parts)


def ranges_text(ranges: EquilibriumRanges) -> str:
    game = ranges.game
    mode = "exact fractions" if ranges.exact else "floats"
    lines = [
        _header(game),
        f"The set of equilibria ({mode}); value to {game.player_names[0]}: "
        f"{number_text(ranges.value)}",
        "An equilibrium is any optimal strategy of player 1 with any of player 2; below, each",
        "player's optimal strategies.  Behaviour ranges are over the optimal strategies that",
        "reach the information set; plan ranges are for the realization-plan entry x[h:a].",
    ]
    for player in ranges.players:
        lines.append("")
        if player.unique:
            lines.append(f"{player.name}: the optimal strategy is unique (as a realization plan).")
        else:
            lines.append(
                f"{player.name}: the optimal strategies form a {player.dimension}-dimensional "
                f"set ({len(player.vertices)} vertices found)."
            )
        parametrisation = player.parametrisation
        if parametrisation is not None:
            lines += [
                f"  One-parameter family: t = x[{parametrisation.parameter}] ranges over "
                f"[{_short(parametrisation.low)}, {_short(parametrisation.high)}];",
                "  every plan entry that varies is affine in t:",
            ]
            entries = [
                f"x[{e.label}] = {_affine(e.constant, e.slope)}" for e in parametrisation.entries
            ]
            for start in range(0, len(entries), 3):
                lines.append("    " + ";  ".join(entries[start : start + 3]))
        if not player.verified:
            lines.append("  (some endpoints could not be proven exactly; floats kept there)")
        width = max([len("infoset"), *(len(a.infoset) for a in player.actions)])
        action_width = max([len("action"), *(len(a.words) for a in player.actions)])
        behaviour_width = max(
            [
                len("behaviour"),
                *(
                    len(_interval(a.probability))
                    for a in player.actions
                    if a.probability is not None
                ),
            ]
        )
        lines.append(
            f"  {'infoset':<{width}}  {'action':<{action_width}}  "
            f"{'behaviour':<{behaviour_width}}  plan"
        )
        for action in player.actions:
            lines.append(
                f"  {action.infoset:<{width}}  {action.words:<{action_width}}  "
                f"{_interval(action.probability):<{behaviour_width}}  {_interval(action.plan)}"
            )
    lines += ["", f"{sum(p.linear_programs for p in ranges.players)} LPs, {ranges.seconds:.2f} s"]
    return "\n".join(lines)


# --------------------------------------------------------------------------- exploit


def exploitation_json(result: Exploitation) -> dict[str, Any]:
    """The best response in schema ``seqform.exploit/1``."""
    game = result.game
    table = result.form.players[result.responder]
    chosen = [
        {
            "infoset": name,
            "action": table.actions[index][result.response.actions.get(name, 0)],
            "words": game.describe_action(
                name, table.actions[index][result.response.actions.get(name, 0)]
            ),
        }
        for index, name in enumerate(table.infosets)
    ]

    def exact_or_none(value: Any) -> str | None:
        return str(value) if isinstance(value, Fraction) else None

    return {
        "schema": EXPLOIT_SCHEMA,
        "game": {"name": game.name, "description": game.description},
        "fixed": {
            "player": result.fixed.player + 1,
            "name": game.player_names[result.fixed.player],
            "source": result.source,
            "strategy": exact_strategy_json(result.fixed, game),
        },
        "unreached": list(result.unreached),
        "responder": {"player": result.responder + 1, "name": game.player_names[result.responder]},
        "best_response": chosen,
        "value": float(result.value),
        "value_exact": str(result.value),
        "equilibrium_value": float(result.equilibrium_value),
        "equilibrium_value_exact": exact_or_none(result.equilibrium_value),
        "gain": float(result.gain),
        "gain_exact": exact_or_none(result.gain),
        "exact": result.exact,
    }


def exploitation_text(result: Exploitation) -> str:
    game = result.game
    names = game.player_names
    fixed, responder = names[result.fixed.player], names[result.responder]
    table = result.form.players[result.responder]
    lines = [_header(game), ""]
    lines += exact_strategy_lines(
        result.fixed, game, f"Fixed: {fixed} plays {result.source}", flag="unreached by own play"
    )
    width = max([len("infoset"), *(len(n) for n in table.infosets)])
    lines += ["", f"Best response of {responder} (pure)", f"  {'infoset':<{width}}  action"]
    for index, name in enumerate(table.infosets):
        action = table.actions[index][result.response.actions.get(name, 0)]
        mark = (
            "   (never reached against this strategy: any action is best)"
            if (name in result.unreached)
            else ""
        )
        lines.append(f"  {name:<{width}}  {game.describe_action(name, action)}{mark}")
    rows = [
        (f"Value to {responder} when best responding:", _value_text(Fraction(result.value))),
        (f"Equilibrium value to {responder}:", _value_text(result.equilibrium_value)),
        ("Gain over the equilibrium:", _value_text(result.gain)),
    ]
    label_width = max(len(label) for label, _ in rows)
    lines.append("")
    lines += [f"{label:<{label_width}}  {text}" for label, text in rows]
    if float(result.gain) <= EQUILIBRIUM_TOLERANCE:
        lines.append(f"({fixed}'s strategy cannot be exploited: it is an equilibrium strategy.)")
    return "\n".join(lines)


def _value_text(value: Any) -> str:
    if isinstance(value, Fraction):
        return f"{value}{_approx(value)}"
    exact = matching_fraction(float(value))
    return f"{float(value):+.10f}" + ("" if exact is None else f" (≈ {exact})")
