"""Accessibility: axe-core (from the npm registry, `npm ci`) checks the lobby, a table in
play (at its start and mid-trick), the score sheet and the replay viewer, in English and in
Chinese; none may have a serious or critical violation. And a whole deal can be played with
the keyboard alone."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from .browser_steps import create_room, my_turn, shown_v, wait_until
from .test_browser_layout import SHEET, mid_trick
from .test_browser_replay import finished_record

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# Skipped without axe-core, except on CI (CI set), where a missing axe-core fails the tests.
needs_axe = pytest.mark.skipif(
    not AXE.exists() and not os.environ.get("CI"),
    reason="axe-core is not installed: run npm ci at the repository root",
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


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
@needs_axe
@pytest.mark.parametrize(
    "lang",
    ["en", pytest.param("zh-Hant", marks=pytest.mark.slow)],  # Chinese in the slow run
)
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
    mid_trick(page)
    assert violations(page) == [], "table mid-trick"
    page.evaluate(SHEET)
    page.wait_for_selector("dialog.score-sheet[open] .cards-col .card")
    assert violations(page) == [], "score sheet"
    page.keyboard.press("Escape")
    _, record = finished_record(deals=1)
    page.goto("/#/replay")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "m.json", "mimeType": "application/json", "buffer": record.encode()}],
    )
    page.wait_for_selector("[data-replay] .replay-seat")
    assert violations(page) == [], "replay"


@needs_axe
def test_the_first_visit_dialog_has_no_serious_violations(new_page: Any) -> None:
    page = new_page(bypass_csp=True, named=False)
    page.goto("/")
    page.wait_for_selector("dialog.welcome-dialog[open]")
    assert violations(page) == []


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_a_whole_deal_is_played_with_the_keyboard_alone(new_page: Any, server: Any) -> None:
    """H takes Hint's play (or none), Enter plays it, P passes; the score sheet's focused
    button closes it with Enter. No click once the table is there."""
    page = new_page()
    code = create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8)
    deadline = time.monotonic() + 60
    while not page.locator("dialog.score-sheet[open]").count():
        assert time.monotonic() < deadline, "the deal did not end in 60 s"
        if not my_turn(page):
            page.wait_for_timeout(30)
            continue
        v = shown_v(page)
        page.keyboard.press("h")
        page.keyboard.press("Enter" if page.locator(".hand-card.selected").count() else "p")
        wait_until(
            lambda v=v: shown_v(page) > v or page.locator("dialog.score-sheet[open]").count(),
            what="our play to show",
        )
    assert page.locator("dialog.score-sheet[open]").evaluate(
        "(d) => d.contains(document.activeElement)"
    ), "the score sheet takes the focus"
    page.keyboard.press("Enter")  # its focused button: Close (the last deal)
    page.wait_for_selector("dialog.score-sheet", state="detached")
    assert server.get(f"/api/rooms/{code}")["room"]["status"] == "finished"
