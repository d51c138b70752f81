"""The facade's public names: ``seqform.__all__`` holds only names that resolve, the types
the public functions return are among them, and the old spellings are gone."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import seqform

OLD_NAMES = [
    "solve_exact",
    "solve_structured",
    "solve_structured_exact",
    "solve_showdown",
    "kuhn_showdown",
    "load_showdown_game",
    "LPSolution",
    "ShowdownPoker",
    "structured_showdown",
]
OLD_MODULE_NAMES = [
    ("seqform.lp.minmax", "LPSolution"),
    ("seqform.lp.exact.minmax", "MinmaxFloatSolution"),
    ("seqform.lp.exact.program", "FloatLPResult"),
    ("seqform.structured.lp_solve", "SparsifiedSolution"),
    ("seqform.lp.highs", "HighsRun"),
    ("seqform.lp.clarabel", "ClarabelRun"),
]


@pytest.mark.parametrize("name", OLD_NAMES)
def test_the_old_names_are_gone(name: str) -> None:
    assert hasattr(seqform, name) is False
    assert name not in seqform.__all__


@pytest.mark.parametrize(("module", "name"), OLD_MODULE_NAMES)
def test_the_old_result_type_names_are_gone(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name) is False


def test_the_old_keywords_are_gone() -> None:
    with pytest.raises(TypeError, match="algorithm"):
        seqform.solve("kuhn", algorithm="ipm")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="with_reference"):
        seqform.iterate("kuhn", "cfr", iterations=1, with_reference=False)  # type: ignore[call-arg]
    solution = seqform.solve("kuhn")
    assert not hasattr(solution, "behaviour")


def test_every_public_name_resolves() -> None:
    assert len(set(seqform.__all__)) == len(seqform.__all__)
    for name in seqform.__all__:
        assert getattr(seqform, name) is not None, name
    assert sorted(dir(seqform)) == sorted(seqform.__all__)


def _imports(module: ModuleType) -> dict[str, str]:
    """Name -> defining module of every ``from X import name`` in ``module``'s source,
    including those under ``if TYPE_CHECKING:``."""
    tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                found[alias.asname or alias.name] = node.module
    return found


def _seqform_classes(annotation: object, module: ModuleType, seen: set[str]) -> set[type]:
    """The seqform classes an annotation names; string aliases are followed."""
    if not isinstance(annotation, str):
        annotation = getattr(annotation, "__name__", str(annotation))
    classes: set[type] = set()
    imports = _imports(module)
    for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", str(annotation)):
        if name in seen:
            continue
        seen.add(name)
        if hasattr(module, name):
            value = getattr(module, name)
        elif name in imports and imports[name].startswith("seqform"):
            value = getattr(importlib.import_module(imports[name]), name)
        else:
            continue
        if isinstance(value, str):  # a TypeAlias written as a string
            classes |= _seqform_classes(value, module, seen)
        elif isinstance(value, type) and value.__module__.startswith("seqform"):
            classes.add(value)
    return classes


def test_the_types_public_functions_return_are_public() -> None:
    missing = []
    for name in seqform.__all__:
        value = getattr(seqform, name)
        if not inspect.isfunction(value):
            continue
        module = sys.modules[value.__module__]
        returned = inspect.signature(value).return_annotation
        for cls in _seqform_classes(returned, module, set()):
            if getattr(seqform, cls.__name__, None) is not cls:
                missing.append(f"{name} -> {cls.__module__}.{cls.__name__}")
    assert not missing


def test_the_return_types_include_every_route_result() -> None:
    # solve's AnySolution is a string alias: the resolver must see its members.
    solve_module = sys.modules[seqform.solve.__module__]
    found = _seqform_classes(
        inspect.signature(seqform.solve).return_annotation, solve_module, set()
    )
    names = {cls.__name__ for cls in found}
    assert {"Solution", "ExactSolution", "StructuredSolution", "RefinedSolution"} <= names


def test_the_lp_solver_is_chosen_by_solver_everywhere() -> None:
    # one keyword for the LP solver; "algorithm" is iterate's alone
    kuhn = seqform.load_game("kuhn")
    assert seqform.compare(kuhn, solver="ipm").formulations[0].solution.stats.solver == "ipm"
    assert seqform.refine(kuhn, solver="simplex").stats.solver == "simplex"
    assert seqform.solve(kuhn, exact=True, solver="ipm").stats.solver == "ipm"
