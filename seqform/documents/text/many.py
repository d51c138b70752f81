"""``solve-many``'s report as text (one line per spot), read from the
``seqform.solve-many/2`` document (:func:`seqform.documents.many.many_document`), so that
the text shows what the JSON holds."""

from __future__ import annotations

from seqform.documents.layout.parts import Document

__all__ = ["many_text"]


def _row_text(row: Document) -> list[str]:
    name = row["path"].rsplit("/", 1)[-1]
    if row["error"] is not None:
        return [f"{name}  FAILED: {row['error']}"]
    ev, share, combos = row["ev"], row["ev_share"], row["combos"]
    lines = [
        f"{name}  board {row['board']}  pot {row['pot']:g}  combos {combos[0]}/{combos[1]}  "
        f"EV OOP {ev['oop']:.4f} ({100 * share['oop']:.2f}%)  "
        f"IP {ev['ip']:.4f} ({100 * share['ip']:.2f}%)  "
        f"exploitability {row['exploitability']:.2e} "
        f"({100 * row['exploitability_pot']:.4f}% pot)  {row['seconds']:.1f} s"
    ]
    lines += [f"    {_frequencies_text(found)}" for found in row["frequencies"]]
    return lines


def _frequencies_text(found: Document) -> str:
    """``"OOP first: x 78% b5 22%"`` from a ``"frequencies"`` entry (the line
    :func:`seqform.documents.text.spot.frequencies_text` writes)."""
    where = "first" if not found["history"] else f"after {found['history']}"
    shares = " ".join(f"{a} {100 * f:.0f}%" for a, f in found["actions"].items())
    return f"{found['player']} {where}: {shares}"


def many_text(document: Document) -> str:
    """One block per spot of a ``seqform.solve-many/2`` document, then the totals."""
    spots = document["spots"]
    lines = [f"{len(spots)} spots in {document['directory']} ({document['executor']})"]
    for row in spots:
        lines += _row_text(row)
    solved = [row for row in spots if row["error"] is None]
    if solved:
        mean = sum(row["ev_share"]["oop"] or 0.0 for row in solved) / len(solved)
        worst = max(row["exploitability_pot"] or 0.0 for row in solved)
        lines.append(
            f"mean OOP share {100 * mean:.2f}% of the pot; worst exploitability "
            f"{100 * worst:.4f}% of the pot"
        )
    failed = len(spots) - len(solved)
    if failed:
        lines.append(f"{failed} spot(s) failed")
    lines.append(f"{document['seconds']:.1f} s in all")
    return "\n".join(lines) + "\n"
