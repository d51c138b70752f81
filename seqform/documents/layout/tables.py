"""Column layout shared by the text reports: every table is a list of rows of strings."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["aligned_table", "label_rows", "left_table"]


def _widths(rows: Sequence[Sequence[str]], columns: int) -> list[int]:
    return [max(len(row[column]) for row in rows) for column in range(columns)]


def aligned_table(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    """Left-align the first column, right-align the others; two spaces between columns."""
    widths = _widths(rows, len(rows[0]))
    lines = []
    for row in rows:
        cells = [f"{row[0]:<{widths[0]}}"]
        cells += [f"{cell:>{width}}" for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def left_table(rows: Sequence[tuple[str, str, str]], indent: str = "  ") -> list[str]:
    """Three columns, the first two left-aligned to their widths, the last as it is."""
    widths = _widths(rows, 2)
    return [f"{indent}{a:<{widths[0]}}  {b:<{widths[1]}}  {c}".rstrip() for a, b, c in rows]


def label_rows(rows: Sequence[tuple[str, str]], indent: str = "  ") -> list[str]:
    """``label  value`` lines with the labels padded to the longest."""
    width = max(len(label) for label, _ in rows)
    return [f"{indent}{label:<{width}}  {value}" for label, value in rows]
