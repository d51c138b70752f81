"""``compare``: the normal form beside the sequence form, as text, read from the
``seqform.compare/2`` document (:func:`seqform.documents.compare.comparison_document`), so
that the text shows what the JSON holds.
"""

from __future__ import annotations

from seqform.base.counts import count_text
from seqform.base.numbers import scaled_text, value_text
from seqform.certify import EQUILIBRIUM_TOLERANCE
from seqform.documents.layout.blocks import constant_sum_line
from seqform.documents.layout.parts import Document, count_of, header_of, limit_of
from seqform.documents.layout.strategies import StrategySection, document_sections
from seqform.documents.layout.tables import aligned_table, left_table
from seqform.documents.text.compare_sizes import strategy_count_rows
from seqform.questions.compare import FORMULATION_TITLES, VALUE_TOLERANCE

__all__ = ["comparison_text", "summary_line"]


def _side(count: Document) -> str:
    return count_of(count).removeprefix("≈ ")


def _shape_text(rows: Document, columns: Document) -> str:
    """``"64 × 64"``; huge sides as ``"10^168.4"`` (COUNT objects)."""
    return f"{_side(rows)} × {_side(columns)}"


def _plain_shape(shape: list[int]) -> str:
    return " × ".join(count_text(side) for side in shape)


def summary_line(document: Document) -> str:
    """``"30 terminal histories, 12 information sets (6 + 6), 4,096 pure strategy
    profiles (64 × 64)"``."""
    players, overall = document["players"], document["overall"]
    return (
        f"{count_text(document['game']['terminals'])} terminal histories, "
        f"{count_text(overall['infosets'])} information sets "
        f"({count_text(players[0]['infosets'])} + {count_text(players[1]['infosets'])}), "
        f"{count_of(overall['pure_strategy_profiles'])} pure strategy profiles "
        f"({_shape_text(players[0]['pure_strategies'], players[1]['pure_strategies'])})"
    )


def _count_lines(document: Document) -> list[str]:
    """Information sets, sequences, pure and reduced pure strategies, per player and overall."""
    first, second = document["players"]
    overall = document["overall"]
    return aligned_table(
        [
            ("", first["name"], second["name"], "overall"),
            *(
                (label, count_text(first[key]), count_text(second[key]), count_text(overall[key]))
                for label, key in (("information sets", "infosets"), ("sequences", "sequences"))
            ),
            *strategy_count_rows(first, second, overall),
        ],
        indent="",
    )


def _matrix_lines(document: Document) -> list[str]:
    """The normal-form matrices and the sequence-form matrices, in one aligned table."""
    names = [player["name"] for player in document["players"]]
    rows = []
    for kind in ("full", "reduced"):
        matrix = document["normal_form"][kind]
        detail = f"{count_of(matrix['entries'])} entries"
        if matrix["nonzeros"] is not None:
            detail += f", {count_text(matrix['nonzeros'])} non-zeros"
        elif not matrix["fits"]:
            detail += ": over the limit, not built"
        rows.append((f"{kind} matrix M", _shape_text(*matrix["shape"]), detail))
    sequence_form = document["sequence_form"]
    sequence_rows = [
        (
            f"{label} ({what})",
            _plain_shape(sequence_form[label]["shape"]),
            f"{count_text(sequence_form[label]['nonzeros'])} non-zeros",
        )
        for label, what in (
            ("E", f"{names[0]} constraints"),
            ("F", f"{names[1]} constraints"),
            ("A", "payoffs"),
        )
    ]
    # One table for both blocks so that their columns line up.
    aligned = left_table(rows + sequence_rows)
    limit = limit_of(document["max_entries"], document["max_entries_log10"])
    return [
        f"Normal form (Kuhn 1953), limit {limit} entries",
        *aligned[: len(rows)],
        "Sequence form (KMvS 1996)",
        *aligned[len(rows) :],
    ]


def _lp_row(formulation: Document, scale: float | None) -> tuple[str, ...]:
    """A formulation's row; its value and exploitability judged beside the payoff range
    ``scale`` (round-off as ``≈ 0``; None in documents written before it was added)."""
    if not formulation["solved"]:
        value = "not solved" if formulation["fits"] else "over the limit"
        timing = ("", "")
        exploitability = ""
    else:
        value = value_text(formulation["value"], scale=scale)
        timing = (f"{formulation['build_seconds']:.4f}", f"{formulation['lp_seconds']:.4f}")
        exploitability = scaled_text(formulation["exploitability"], scale, digits=2)
    nonzeros = formulation["nonzeros"]
    return (
        FORMULATION_TITLES[formulation["name"]],
        count_of(formulation["variables"]),
        count_of(formulation["constraints"]),
        "" if nonzeros is None else count_of(nonzeros),
        *timing,
        value,
        exploitability,
    )


def _agreement_line(document: Document) -> list[str]:
    agree = document["values_agree"]
    if agree is None:
        return []
    solved = [f for f in document["formulations"] if f["solved"]]
    values = [f["value"] for f in solved]
    spread = max(values) - min(values)
    verdict = "agree" if agree else "DISAGREE"
    exploitabilities = (
        f"all exploitabilities ≤ {EQUILIBRIUM_TOLERANCE:g} of the payoff range"
        if all(f["equilibrium"] for f in solved)
        else f"some exploitability above {EQUILIBRIUM_TOLERANCE:g} of the payoff range"
    )
    return [
        f"Values {verdict}: largest difference "
        f"{scaled_text(spread, document.get('payoff_range'), digits=2)} "
        f"(tolerance {VALUE_TOLERANCE:g} of the payoff range); {exploitabilities}"
    ]


def _lp_lines(document: Document) -> list[str]:
    header_row = (
        "LP",
        "variables",
        "constraints",
        "non-zeros",
        "build (s)",
        "LP (s)",
        "value",
        "exploitability",
    )
    formulations = document["formulations"]
    scale = document.get("payoff_range")
    lines = aligned_table([header_row, *(_lp_row(f, scale) for f in formulations)], indent="")
    solved = [f for f in formulations if f["solved"]]
    if solved:
        lines.append(
            f"(HiGHS {solved[0]['solver']} via {solved[0]['backend']}; exploitability is "
            "NashConv / 2, measured by best response on the tree)"
        )
    return lines + _agreement_line(document)


def _kuhn_lines(document: Document) -> list[str]:
    rows: list[tuple[str, ...]] = [("", "max |Ex − e|", "max |Fy − f|", "payoff gap")]
    for formulation in document["formulations"][1:]:
        checks = formulation["kuhn_theorem"]
        if checks is None:
            continue
        residuals = checks["constraint_residuals"]
        rows.append(
            (
                FORMULATION_TITLES[formulation["name"]],
                f"{residuals[0]:.1e}",
                f"{residuals[1]:.1e}",
                scaled_text(max(checks["payoff_gaps"]), document.get("payoff_range"), digits=2),
            )
        )
    if len(rows) == 1:
        return []
    return [
        "",
        "Kuhn's theorem (Kuhn 1953): the mixed strategies as realization plans, and the largest",
        "payoff gap between each mixed strategy and its behavioural strategy against any",
        "opponent sequence",
        *aligned_table(rows),
    ]


def _strategy_lines(document: Document, choice: str) -> list[str]:
    """Both formulations' strategies, shown only when the normal form was solved too."""
    strategies = document["strategies"]
    if "normal" not in strategies:
        return []
    sources = {"sequence": "sequence-form LP", "normal": "normal-form LP, via Kuhn's theorem"}
    tables = [
        StrategySection(strategy, f"{strategy['name']} ({sources[name]}) — behavioural strategy")
        for name in ("sequence", "normal")
        if name in strategies
        for strategy in strategies[name]
    ]
    return document_sections(document["game"].get("labels"), tables, choice)


def _structured_lines(document: Document) -> list[str]:
    nonzeros = document.get("structured_payoff_nonzeros")
    if nonzeros is None:
        return []
    payoffs = document["sequence_form"]["A"]["nonzeros"]
    return [
        f"Structured route: the structured LP writes A's {count_text(payoffs)} non-zeros as "
        f"{count_text(nonzeros)} (level sums, no tree)",
    ]


def comparison_text(document: Document, strategies: str = "auto") -> str:
    """A side-by-side report of both formulations from a ``seqform.compare/2`` document;
    ``strategies`` is ``--strategies``."""
    names = [player["name"] for player in document["players"]]
    lines = [
        header_of(document["game"]),
        *constant_sum_line(document["constant_sum"], names),
        f"Summary: {summary_line(document)}",
        "",
        *_count_lines(document),
        "",
        *_matrix_lines(document),
        "",
        *_lp_lines(document),
        *_kuhn_lines(document),
        *_strategy_lines(document, strategies),
        *_structured_lines(document),
    ]
    return "\n".join(lines)
