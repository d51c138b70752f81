"""Old names kept for one release: each warns (``DeprecationWarning``) with its new spelling.

A module that renamed a public type answers the old name from its ``__getattr__``
(PEP 562) through :func:`renamed`, so that ``from module import OldName`` still works and
says what to write instead.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

__all__ = ["renamed"]


def renamed(module: str, name: str, renames: Mapping[str, tuple[str, object]]) -> object:
    """The object ``module.name`` now stands for, with a ``DeprecationWarning`` naming its
    new spelling; ``renames`` maps each old name to ``(new spelling, object)``.

    Raises
    ------
    AttributeError
        For a name that is not an old one (as a module without the attribute would).
    """
    if name not in renames:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    new, value = renames[name]
    warnings.warn(f"{module}.{name} is deprecated; use {new}", DeprecationWarning, stacklevel=3)
    return value
