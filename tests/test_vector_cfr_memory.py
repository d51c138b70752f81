"""Vector CFR (``iterate --method structured``) is sized by its own estimate, not the LP's."""

from __future__ import annotations

import pytest

from seqform.cli.main import main
from seqform.routes.policy import choose_route
from seqform.routes.sizing import memory
from seqform.routes.sizing.memory import (
    MemoryAvailable,
    MemoryRefusedError,
    check_memory,
    structured_estimate,
    vector_cfr_estimate,
)

GB = 2**30
# kuhn(cards=2000): 1 + 2000 (S_p - 1) sequences per player, 16,002 in all
# (seqform.routes.sizing.planned); the LP's estimate is about 184 MB, vector CFR's 155 MB
SMALL = "kuhn(cards=2000)"
ROOM = MemoryAvailable(170 * 2**20, "a test limit")


def test_the_estimates() -> None:
    # 2,250 against 300 bytes a sequence (seqform.routes.sizing.memory)
    assert vector_cfr_estimate(16_002).bytes <= ROOM.bytes < structured_estimate(16_002).bytes
    assert vector_cfr_estimate(16_002).what == "vector CFR (16,002 sequences)"
    # the full Rhode Island hold'em: 2 x 65,160,161 sequences (rhode_island_sizes) is too
    # much for 24 GB; its suit-canonical game, 2 x 8,009,431 sequences (numbered in
    # docs/benchmarks.md), is not
    with pytest.raises(MemoryRefusedError, match=r"vector CFR \(130,320,322 sequences\)"):
        check_memory(vector_cfr_estimate(130_320_322), "way out", MemoryAvailable(24 * GB, "24"))
    check_memory(vector_cfr_estimate(2 * 8_009_431), "unused", MemoryAvailable(24 * GB, "24"))


def test_vector_cfr_is_not_refused_by_the_lp_estimate(monkeypatch) -> None:
    monkeypatch.setattr(memory, "available_memory", lambda: ROOM)
    assert choose_route(SMALL, "structured", lp=False).structured is not None
    with pytest.raises(MemoryRefusedError, match="the structured LP"):
        choose_route(SMALL, "structured")


def test_iterate_refuses_what_vector_cfr_cannot_fit(monkeypatch, capsys) -> None:
    monkeypatch.setattr(
        memory, "available_memory", lambda: MemoryAvailable(24 * GB, "a test limit")
    )
    args = ["iterate", "rhode_island", "--method", "structured", "--algorithm", "cfr+"]
    assert main([*args, "--no-suit-isomorphism"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "vector CFR (130,320,322 sequences) needs about " in err
    assert "GB (estimated), more than the 24.0 GB that a test limit leaves" in err
    assert "--force" in err


def test_a_suit_reduced_run_is_sized_by_its_canonical_boards(monkeypatch, capsys) -> None:
    # by default vector CFR steps the canonical boards: 2 x 8,009,431 sequences for the full
    # game (rhode_island_suit_reduced_sizes; numbered in docs/benchmarks.md), about 4.8 GB
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(3 * GB, "a test"))
    args = ["iterate", "rhode_island", "--method", "structured", "--algorithm", "dcfr"]
    assert main(args) == 1
    assert "vector CFR (16,018,862 sequences) needs about " in capsys.readouterr().err
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(24 * GB, "24"))
    with pytest.raises(MemoryRefusedError, match=r"130,320,322"):
        choose_route("rhode_island", "structured", lp=False, suit_isomorphism=False)
