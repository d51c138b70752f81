"""The results of a run as files: ``results.md``, the raw ``results.json`` and the plots.

The page writer: :func:`write_results` puts the page (:mod:`benchmarks.tables`), the JSON
(:class:`benchmarks.harness.BenchmarkRun` as :func:`dataclasses.asdict` gives it), the scaling
plot (:mod:`benchmarks.scaling_plot`) and the iterative peers' convergence plot
(:mod:`benchmarks.convergence_report`) in one folder, each written atomically;
:func:`read_run` reads a ``results.json`` back to draw them again without measuring.  The
targets a run is checked against are in :mod:`benchmarks.targets`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.convergence_report import plot_convergence
from benchmarks.records import BenchmarkRun
from benchmarks.scaling_plot import plot_scaling
from benchmarks.tables import render_markdown
from benchmarks.targets import Ratio, TargetCheck, check_targets, ratio
from seqform.io.atomic import write_atomically

__all__ = [
    "Ratio",
    "ResultFiles",
    "TargetCheck",
    "check_targets",
    "plot_scaling",
    "ratio",
    "read_run",
    "render_markdown",
    "write_results",
]


@dataclass(frozen=True)
class ResultFiles:
    """The files :func:`write_results` wrote."""

    markdown: Path
    json: Path
    plot: Path | None
    convergence: Path | None = None


def _json_default(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def write_results(run: BenchmarkRun, directory: Path, *, plot: bool = True) -> ResultFiles:
    """Write ``results.md``, ``results.json`` and, if ``plot``, ``scaling.png`` and (if an
    iterative peer ran) ``convergence.png`` in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / "results.json"
    write_atomically(json_path, json.dumps(asdict(run), indent=1, default=_json_default) + "\n")
    plot_path = plot_scaling(run, directory / "scaling.png") if plot else None
    convergence = plot_convergence(run, directory / "convergence.png") if plot else None
    markdown_path = directory / "results.md"
    write_atomically(
        markdown_path,
        render_markdown(
            run,
            plot_name=plot_path.name if plot_path else None,
            convergence_plot=convergence.name if convergence else None,
        ),
    )
    return ResultFiles(
        markdown=markdown_path, json=json_path, plot=plot_path, convergence=convergence
    )


def read_run(path: Path) -> BenchmarkRun:
    """Read a ``results.json`` back (to render it again without measuring)."""
    return BenchmarkRun.from_dict(json.loads(path.read_text(encoding="utf-8")))
