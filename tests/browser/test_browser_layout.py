"""The game fits the screens people play on: a phone upright (390×844) and sideways
(844×390), a laptop (1366×800) and a large screen (1920×1080). On each, the lobby, a table
in play and the replay viewer have no sideways scrolling (every card of the replay within the
width), and at the table the hand and the Play and Pass buttons are in view without
scrolling, and a notice (a chat line) covers none of them."""

from __future__ import annotations

from typing import Any

import pytest

from .browser_steps import create_room
from .test_browser_replay import finished_record

SCREENS = [(390, 844), (844, 390), (1366, 800), (1920, 1080)]

# Whether the page scrolls sideways, and which of the selected elements lie outside the
# viewport, partly or wholly ([selector, count outside]); with `across` only, outside it
# sideways (a long page may scroll down, never sideways).
MEASURE = """([selectors, across]) => {
  const w = window.innerWidth, h = window.innerHeight;
  const out = [];
  for (const sel of selectors) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) { out.push([sel, "missing"]); continue; }
    const bad = els.filter((el) => {
      const r = el.getBoundingClientRect();
      const sideways = r.left < -0.5 || r.right > w + 0.5;
      return sideways || (!across && (r.top < -0.5 || r.bottom > h + 0.5));
    });
    if (bad.length) out.push([sel, bad.length]);
  }
  return { scroll: document.documentElement.scrollWidth, width: w, outside: out };
}"""


# The controls (hand, action buttons) that the element of a selector overlaps.
COVERS = """(sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  const hit = (r) => r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom;
  return [...document.querySelectorAll(".hand .hand-card, .actions .btn")]
    .filter((el) => hit(el.getBoundingClientRect())).map((el) => el.textContent);
}"""


# A score sheet shown by the client's own module, for a deal that left 12, 9 and 7 cards.
SHEET = """async () => {
  const { showScoreSheet } = await import("/js/scoresheet.js");
  const players = ["Tess", "Ann", "Bill", "Cat"].map((name, seat) => ({ seat, name, avatar: seat }));
  const cardsLeft = [[], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17, 18, 19, 20],
    [30, 31, 32, 33, 34, 35, 36]];
  const result = { number: 1, winner: 0, counts: cardsLeft.map((c) => c.length), cardsLeft,
    points: [28, -12, -9, -7], multipliers: [1, 2, 1, 1] };
  const model = { players, totals: result.points, results: [result], matchOver: false,
    nextDeal: null, dealsTotal: 2 };
  showScoreSheet(model, result, {});
}"""


def measure(page: Any, *selectors: str, across: bool = False) -> dict[str, Any]:
    return dict(page.evaluate(MEASURE, [list(selectors), across]))


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_lobby_table_and_replay_fit_the_screen(new_page: Any, width: int, height: int) -> None:
    page = new_page(width=width, height=height)
    page.goto("/")
    page.wait_for_selector("[data-create]")
    lobby = measure(page, "[data-create]", across=True)
    assert lobby["scroll"] <= width, lobby

    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8)
    table = measure(page, ".hand .hand-card", "[data-action=play]", "[data-action=pass]", ".seat")
    assert table["scroll"] <= width and not table["outside"], table
    # A notice (a chat line from another player, one long word) covers none of the controls.
    page.evaluate(
        "() => { const t = document.createElement('div'); t.className = 'toast';"
        " t.textContent = 'Bill: ' + 'x'.repeat(300); document.getElementById('toasts').append(t); }"
    )
    assert page.evaluate(COVERS, ".toast") == [], "a notice covers the controls"
    assert measure(page, ".toast")["outside"] == []
    if width < 980:  # the side panel opens over the table: its close button covers no card
        page.click(".side-toggle")
        page.wait_for_selector(".side.open .tracker td")
        covered = page.evaluate(
            "() => { const b = document.querySelector('.side.open .side-close').getBoundingClientRect();"
            " return [...document.querySelectorAll('.side.open .tracker td')].filter((c) => {"
            " const r = c.getBoundingClientRect(); return r.left < b.right && b.left < r.right"
            " && r.top < b.bottom && b.top < r.bottom; }).length; }"
        )
        assert covered == 0, f"the close button covers {covered} cells of the cards played"
        page.click(".side.open .side-close")

    # The score sheet of a deal with many cards left: every card in view, nothing sideways.
    page.evaluate(SHEET)
    page.wait_for_selector("dialog.score-sheet[open] .cards-col .card")
    sheet = measure(
        page,
        "dialog.score-sheet[open] .cards-col .card",
        "dialog.score-sheet[open] td",
        across=True,
    )
    assert not sheet["outside"], sheet
    assert page.evaluate(
        "() => { const d = document.querySelector('dialog.score-sheet[open]');"
        " return d.scrollWidth <= d.clientWidth + 1; }"
    ), "the score sheet scrolls sideways"
    page.keyboard.press("Escape")

    _, record = finished_record(deals=1)
    page.goto("/#/replay")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "m.json", "mimeType": "application/json", "buffer": record.encode()}],
    )
    page.wait_for_selector("[data-replay] .replay-seat")
    replay = measure(
        page, ".replay-seat .card[data-card]", "[data-replay-btn=forward]", across=True
    )
    assert replay["scroll"] <= width and not replay["outside"], replay
