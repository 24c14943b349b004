"""Accessibility: axe-core (from the npm registry, `npm ci`) checks the lobby, a table in
play and the replay viewer, in English and in Chinese; none may have a serious or critical
violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .browser_steps import create_room
from .test_browser_replay import finished_record

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
pytestmark = pytest.mark.skipif(
    not AXE.exists(), reason="axe-core is not installed: run npm ci at the repository root"
)


def violations(page: Any) -> list[str]:
    """The serious and critical violations axe finds on the page, each with where."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter((v) => v.impact === 'serious' || v.impact === 'critical')"
        ".map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))"
    )
    return list(found)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_no_serious_accessibility_violations(new_page: Any, lang: str) -> None:
    page = new_page(bypass_csp=True)  # axe is put into the page as a script of the test's
    page.add_init_script(
        "localStorage.setItem('bigtwo.prefs', JSON.stringify({"
        f"...JSON.parse(localStorage.getItem('bigtwo.prefs') || '{{}}'), lang: '{lang}'}}))"
    )
    page.goto("/")
    page.wait_for_selector("[data-create]")
    assert violations(page) == [], "lobby"
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8)
    assert violations(page) == [], "table"
    _, record = finished_record(deals=1)
    page.goto("/#/replay")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "m.json", "mimeType": "application/json", "buffer": record.encode()}],
    )
    page.wait_for_selector("[data-replay] .replay-seat")
    assert violations(page) == [], "replay"


def test_the_first_visit_dialog_has_no_serious_violations(new_page: Any) -> None:
    page = new_page(bypass_csp=True, named=False)
    page.goto("/")
    page.wait_for_selector("dialog.welcome-dialog[open]")
    assert violations(page) == []
