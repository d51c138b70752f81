"""The game's own re-solve restricted to some of its public subgames, for the tests that
compare a re-solve on canonical boards with it subgame by subgame."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager

import pytest

from seqform.resolving import structured_resolve


@contextmanager
def subgames_named(names: Collection[str]) -> Iterator[None]:
    """Within the block, :func:`~seqform.resolving.structured_resolve.resolve_structured`
    re-solves only the public subgames named ``names`` (the canonical boards' subgames, the
    only ones a comparison with ``G'`` reads): the others' gadget LPs, three in four on
    Rhode Island 2×4's last round, are work no assertion reads.  Not for ``reach``: its
    gifts are divided among every subgame's root information sets, so a re-solve of some
    subgames alone gives others (tests/test_resolve_canonical.py)."""
    find = structured_resolve.find_public_subgames

    def named(played, round_number):  # type: ignore[no-untyped-def]
        return tuple(s for s in find(played, round_number) if s.name in names)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(structured_resolve, "find_public_subgames", named)
        yield
