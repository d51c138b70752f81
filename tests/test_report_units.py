"""The unit every road report gives exploitability per thousand in
(:mod:`seqform.holdem.units`): mbb/g with Leduc's ante (1 chip) or Rhode Island's first bet
(10 chips) as the big blind, mpot/g of a spot's starting pot; said alike by the abstraction,
re-solving and off-tree reports, and written into their JSON documents."""

from __future__ import annotations

import tomllib
from fractions import Fraction

import pytest
from spot_files import RIVER

from seqform.abstraction.solve import abstract
from seqform.documents.build import document
from seqform.documents.text.road.abstraction import abstraction_text
from seqform.documents.text.road.off_tree import off_tree_text
from seqform.documents.text.road.resolve import resolve_text
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.game.public.explicit import explicit_game
from seqform.holdem import load_spot_game
from seqform.holdem.spot import spot_from_mapping
from seqform.holdem.units import ReportUnit, report_unit
from seqform.resolving.sized import leduc_sized, spot_sized


def test_each_game_has_its_unit(tmp_path):
    # Leduc's ante is 1 chip (Southey et al. 2005); Rhode Island's first-round bet is 10
    # chips (Shi and Littman 2001; Gilpin and Sandholm 2007); the river spot's pot is 10
    # (tests/spot_files.py)
    assert report_unit(leduc_structured(2, 2)) == ReportUnit("mbb/g", Fraction(1))
    rhode_island = report_unit(rhode_island_structured(ranks=3, suits=2))
    assert rhode_island == ReportUnit("mbb/g", Fraction(10))
    assert rhode_island.milli(2.5) == 250
    assert rhode_island.meaning == "mbb/g: thousandths of the big blind (10 chips) per game"
    path = tmp_path / "river.toml"
    path.write_text(RIVER)
    spot = load_spot_game(str(path))
    assert (
        report_unit(spot) == report_unit(explicit_game(spot)) == ReportUnit("mpot/g", Fraction(10))
    )
    assert report_unit(kuhn_poker()) == ReportUnit("mchip/g", Fraction(1))


def test_a_sized_game_reports_in_the_units_of_its_game():
    # Leduc's ante is 1 chip (Southey et al. 2005); the river spot's pot is 10
    # (tests/spot_files.py).  A spot built in Python has no file name to read it by, and is
    # still measured in its pot.
    assert leduc_sized(2, 2).report == ReportUnit("mbb/g", Fraction(1))
    spot = spot_sized(spot_from_mapping(tomllib.loads(RIVER), "river in memory"))
    assert (spot.unit, spot.unit_chips) == ("mpot/g", Fraction(10))


def _report(unit: str, chips: float, milli: float) -> dict:
    """The parts of a road document its text reads, exploitability 2.5 chips."""
    measured = {"exploitability": 2.5, "milli_exploitability": milli, "certificate": {}}
    return {"unit": unit, "unit_chips": chips, "blueprint": measured, "resolved": measured}


def test_the_rhode_island_reports_say_mbb_of_the_10_chip_big_blind():
    # The abstraction and re-solving reports said "milli-chips per game" where the docs say
    # mbb/g with the 10-chip big blind: 2.5 chips per game is 250 mbb/g
    built = {
        **_report("mbb/g", 10.0, 250.0),
        "game": {"name": "rhode_island(ranks=3, suits=2)", "description": ""},
        "gadget": "resolve",
        "round": 2,
        "refined": False,
        "subgames": [],
        "skipped": [],
        "gadgets": [],
        "min_margin": None,
        "max_gadget_nash_conv": 0.0,
        "seconds": 1.0,
    }
    text = resolve_text(built)
    assert "(250 mbb/g)" in text
    assert "mbb/g: thousandths of the big blind (10 chips) per game" in text
    assert "milli-chips" not in text


def test_a_document_written_before_its_unit_reads_in_thousandths_of_a_chip():
    built = {**_report("", 1.0, 2500.0), "game": {"name": "leduc", "description": ""}}
    del built["unit"], built["unit_chips"]
    built.update(gadget="resolve", round=2, refined=False, subgames=[], skipped=[], gadgets=[])
    built.update(min_margin=None, max_gadget_nash_conv=0.0, seconds=1.0)
    assert "(2500 mchip/g)" in resolve_text(built)


def test_the_off_tree_report_says_its_unit_in_the_same_words():
    built = {
        "game": {"name": "river.toml"},
        "abstract_game": {"name": "coarse.toml"},
        "method": "translate",
        "mapping": "pseudo-harmonic",
        "off_tree_decisions": 3,
        "untranslated": [0, 0],
        "unit": "mpot/g",
        "unit_chips": 10.0,
        "full_game": {"exploitability": 2.5, "milli_exploitability": 250.0},
        "blueprint": {"exploitability": 2.5, "milli_exploitability": 250.0},
        "seconds": 1.0,
    }
    text = off_tree_text(built)
    assert "mpot/g: thousandths of the starting pot (10 chips) per game" in text


def test_an_abstraction_document_has_its_unit_and_the_text_says_it():
    result = abstract(leduc_structured(2, 2), "1,2")
    built = document(result)
    assert (built["unit"], built["unit_chips"]) == ("mbb/g", 1.0)
    exploitability = built["full_game"]["exploitability"]
    assert built["full_game"]["milli_exploitability"] == pytest.approx(1000 * exploitability)
    text = abstraction_text(built)
    assert f"{built['full_game']['milli_exploitability']:.4g} mbb/g" in text
    assert "mbb/g: thousandths of the big blind (1 chip) per game" in text
