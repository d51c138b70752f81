"""``solve-many``'s report as text (one line per spot); its ``seqform.solve-many/1``
document is :func:`seqform.documents.many.many_document`."""

from __future__ import annotations

from seqform.cli.render.spot import frequencies_text
from seqform.routes.many import ManySpots, SpotRow

__all__ = ["many_text"]


def _row_text(row: SpotRow) -> list[str]:
    name = row.path.rsplit("/", 1)[-1]
    if row.error is not None:
        return [f"{name}  FAILED: {row.error}"]
    oop, ip, exploit = row.share(0), row.share(1), row.exploitability_pot
    assert oop is not None and ip is not None and exploit is not None
    lines = [
        f"{name}  board {row.board}  pot {row.pot:g}  combos {row.combos[0]}/{row.combos[1]}  "
        f"EV OOP {row.oop_ev:.4f} ({100 * oop:.2f}%)  IP {row.ip_ev:.4f} ({100 * ip:.2f}%)  "
        f"exploitability {row.exploitability:.2e} ({100 * exploit:.4f}% pot)  {row.seconds:.1f} s"
    ]
    lines += [f"    {frequencies_text(found)}" for found in row.frequencies]
    return lines


def many_text(report: ManySpots) -> str:
    """One block per spot, then the totals."""
    lines = [f"{len(report.rows)} spots in {report.directory} ({report.executor})"]
    for row in report.rows:
        lines += _row_text(row)
    solved = [row for row in report.rows if row.error is None]
    if solved:
        mean = sum(row.share(0) or 0.0 for row in solved) / len(solved)
        worst = max(row.exploitability_pot or 0.0 for row in solved)
        lines.append(
            f"mean OOP share {100 * mean:.2f}% of the pot; worst exploitability "
            f"{100 * worst:.4f}% of the pot"
        )
    if report.failed:
        lines.append(f"{len(report.failed)} spot(s) failed")
    lines.append(f"{report.seconds:.1f} s in all")
    return "\n".join(lines) + "\n"
