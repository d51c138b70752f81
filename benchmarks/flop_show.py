"""A flop spot's saved result reopened by ``show``: the check the test suite leaves out for
its time.

Run ``python -m benchmarks.flop_show``.  It writes a flop spot with one combo a side, a
donk size, an all-in threshold and a turn table, runs one iteration of vector CFR on it
(``seqform.iterate``; the strategies need not be an equilibrium to be reopened), saves the
result's document, reads the spot back from the document's ``"definition"`` and checks it
is the spot file's, then runs ``seqform show`` on the saved file in a fresh process and
checks its report is the document's own.  Building a flop's public tree (every turn and
river card, 1,980 boards) takes tens of seconds on a shared 2-core machine, which is why
this is here and not in the suite; the suite reopens a turn spot with a street table
and checks that a flop's definition keeps its donk sizes, threshold and street tables
(``tests/test_spot_show.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

FLOP = (
    'board = "Ks7h2d"\npot = 2\neffective_stack = 2\noop_range = "AhAd"\n'
    'ip_range = "AsKd"\nbet_sizes = [1]\nmax_raises = 0\nall_in = false\n'
    "donk_sizes = [0.5]\nall_in_threshold = 0.9\n[turn]\nbet_sizes = [0.5]\n"
)
"""One combo a side: the smallest flop that still has donk bets and a street table."""


def main() -> int:
    """Run the check (module docstring); 0 when it holds."""
    import seqform
    from seqform.documents.build import document
    from seqform.documents.text.render import any_document_report
    from seqform.holdem import read_spot, spot_from_mapping

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "flop.toml"
        path.write_text(FLOP)
        run = seqform.iterate(str(path), "cfr+", iterations=1, reference=False)
        written = document(run)
        saved = Path(folder) / "flop.json"
        saved.write_text(json.dumps(written))
        definition = written["spot"]["definition"]
        if spot_from_mapping(definition, name=str(path)) != read_spot(path):
            print("flop_show: the definition does not read back to the spot file")
            return 1
        shown = subprocess.run(
            [sys.executable, "-m", "seqform", "show", str(saved)],
            capture_output=True,
            text=True,
            check=False,
        )
        if shown.returncode != 0:
            print(f"flop_show: show exited {shown.returncode}: {shown.stderr.strip()}")
            return 1
        report = shown.stdout.rpartition("\n\nDecisions (show --node HISTORY): ")[0]
        if report != any_document_report(written).rstrip("\n") or "Ks7h2d" not in report:
            print("flop_show: show's report is not the document's")
            return 1
    print("flop_show: OK, the flop's saved result reopens to its own report")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
