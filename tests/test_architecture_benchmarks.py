"""``benchmarks/`` under the rules of ``seqform/``: sizes, no cycles, and imports one way.

The benchmarks are code that others read and rerun, so they keep the package's shape rules
(ARCHITECTURE.md), checked by the same functions as ``tests/test_architecture.py``:

1. Direction: benchmarks import ``seqform`` (they measure it); ``seqform`` never imports
   ``benchmarks`` (the package must work without the checkout's benchmark folder).  Every import
   counts here, those under ``if TYPE_CHECKING:`` too.
2. No import cycle between benchmark modules.
3. No module over ``MAX_MODULE_LINES`` lines without a ``Size:`` line in its docstring, no
   function over ``MAX_FUNCTION_LINES`` lines without ``Length:`` in its docstring.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest
from test_architecture import (
    PACKAGE,
    Package,
    import_cycles,
    long_functions,
    oversized_modules,
    read_package,
)

BENCHMARKS = PACKAGE.parent / "benchmarks"


def imports_of(root: Path, name: str) -> list[str]:
    """Every import of the top-level package ``name`` in the ``.py`` files under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if name not in text:  # parsed only where it can be imported (2 s for the package)
            continue
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                if module.split(".")[0] == name:
                    where = path.relative_to(root.parent)
                    found.append(f"{where}:{node.lineno} imports {module}")
    return found


def _report(problems: list[str]) -> str:
    return f"{len(problems)} problem(s):\n  " + "\n  ".join(problems)


@pytest.fixture(scope="module")
def benchmarks() -> Package:
    return read_package(BENCHMARKS)


def test_the_benchmarks_are_read(benchmarks: Package) -> None:
    assert "benchmarks.report" in benchmarks.files
    # report.py writes the page that tables.py renders, so the reader must see that edge
    assert any(
        (edge.importer, edge.imported) == ("benchmarks.report", "benchmarks.tables")
        for edge in benchmarks.imports
    )


def test_seqform_never_imports_benchmarks() -> None:
    problems = imports_of(PACKAGE, "benchmarks")
    assert not problems, _report(problems)


def test_benchmarks_import_seqform() -> None:
    # the direction rule has something to hold: the benchmarks do measure seqform
    assert imports_of(BENCHMARKS, "seqform")


RULES = {
    "no-import-cycles": import_cycles,
    "no-oversized-module": oversized_modules,
    "no-overlong-function": long_functions,
}


@pytest.mark.parametrize("rule", RULES.values(), ids=RULES.keys())
def test_benchmarks_keep_the_rule(
    benchmarks: Package, rule: Callable[[Package], list[str]]
) -> None:
    problems = rule(benchmarks)
    assert not problems, _report(problems)


def test_the_direction_check_can_fail(tmp_path: Path) -> None:
    package = tmp_path / "seqform"
    package.mkdir()
    (package / "model.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import benchmarks.report\n",
        encoding="utf-8",
    )
    (package / "other.py").write_text("from benchmarks_extra import x\n", encoding="utf-8")
    assert imports_of(package, "benchmarks") == ["seqform/model.py:3 imports benchmarks.report"]
