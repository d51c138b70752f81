"""The documentation site's hooks (docs/_hooks/): what the generated API reference shows."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

HOOKS = Path(__file__).resolve().parent.parent / "docs" / "_hooks"


def hook(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"docs_hook_{name}", HOOKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DOCSTRING = """Solve a game.

Length: the one entry point documents each option;
the body is short.

Returns
-------
A :class:`~seqform.routes.solve.Solution`, as :func:`seqform.lp.minmax.solve_minmax`'s.
"""


def test_reference_shows_roles_as_code_and_leaves_out_length_notes():
    pytest.importorskip("griffe")
    shown = hook("docstrings").plain(DOCSTRING)
    assert "Length:" not in shown and "the body is short" not in shown
    assert "A `Solution`, as `seqform.lp.minmax.solve_minmax`'s." in shown
    assert shown.startswith("Solve a game.\n\nReturns\n")


@pytest.mark.slow
def test_reference_lists_the_qre_functions_and_solve_many():
    pytest.importorskip("mkdocs")
    page = hook("site")._api_markdown()
    for name in ("seqform.routes.many.solve_many", "seqform.qre.equilibria.trace_logit"):
        assert f"::: {name}\n" in page
