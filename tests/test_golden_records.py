"""Seeded games of every preset write the records and events they wrote before the engine and
the table service were folded into one game (``tests/golden.py`` says how they were made)."""

from __future__ import annotations

import pytest

import golden


@pytest.mark.parametrize("preset", golden.PRESETS)
def test_a_seeded_simulation_writes_the_golden_record(preset: str) -> None:
    formats = ["text"] if preset == "revolution" else ["text", "json"]
    for format in formats:
        suffix = "txt" if format == "text" else "json"
        expected = (golden.FOLDER / f"simulate-{preset}.{suffix}").read_text(encoding="utf-8")
        assert golden.simulated(preset, format) == expected, f"{preset} {format} record changed"


@pytest.mark.parametrize("preset", golden.PRESETS)
def test_a_seeded_table_of_computers_sends_the_golden_events(preset: str) -> None:
    count, digest = golden.table_events(preset)
    expected = (golden.FOLDER / f"table-{preset}.sha256").read_text(encoding="utf-8")
    assert f"{count} {digest}\n" == expected
