"""The hard limits live in one place, :data:`seqform.base.limits.LIMITS`: every field is applied
somewhere, and a module that names a limit for its readers reads it from there."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from seqform.base.limits import LIMITS, Limits

PACKAGE = Path(__file__).resolve().parent.parent / "seqform"


def _uses() -> dict[str, list[str]]:
    """Each ``LIMITS.field`` read in the package, with the modules that read it."""
    uses: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "LIMITS" not in text:  # parsed only where it can be read (2 s for the package)
            continue
        for node in ast.walk(ast.parse(text)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "LIMITS"
            ):
                uses.setdefault(node.attr, []).append(str(path.relative_to(PACKAGE)))
    return uses


def test_every_limit_is_applied() -> None:
    uses = _uses()
    unused = [field.name for field in dataclasses.fields(Limits) if field.name not in uses]
    assert not unused, f"limits nobody applies: {unused}"


def test_no_module_reads_a_limit_that_does_not_exist() -> None:
    names = {field.name for field in dataclasses.fields(Limits)}
    unknown = {name: modules for name, modules in _uses().items() if name not in names}
    assert not unknown


def test_every_limit_gives_its_reason() -> None:
    source = (PACKAGE / "base" / "limits.py").read_text(encoding="utf-8")
    body = next(
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.ClassDef) and node.name == "Limits"
    ).body
    for index, node in enumerate(body):
        if isinstance(node, ast.AnnAssign):
            reason = body[index + 1] if index + 1 < len(body) else None
            assert isinstance(reason, ast.Expr) and isinstance(reason.value, ast.Constant), (
                f"{ast.unparse(node.target)} has no reason beside it"
            )


def test_the_limits_cannot_be_changed_in_place() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        LIMITS.efg_bytes = 1  # type: ignore[misc]
