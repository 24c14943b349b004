"""The game fits the screens people play on: a phone upright (390×844) and sideways
(844×390), a laptop (1366×800) and a large screen (1920×1080). On each, the lobby, a table
mid-trick (a play on the table, cards in every hand, some of ours raised), the score sheet
and the replay viewer have no sideways scrolling (the page's scrollWidth is at most the
viewport's width); at the table the hand and the Play and Pass buttons are in view without
scrolling and nothing covers them (not a seat, the message, a notice or the side panel's
button), as the score sheet's buttons and the replay's hands and controls are."""

from __future__ import annotations

from typing import Any

import pytest

from .browser_steps import create_room, my_turn, take_turn, wait_until
from .test_browser_replay import finished_record

SCREENS = [(390, 844), (844, 390), (1366, 800), (1920, 1080)]
# make test checks the two phone shapes, where room is shortest; make test-slow (and CI) adds
# the laptop and the large screen.
QUICK = {(390, 844), (844, 390)}
# The play's cards have moved to the table (a turn timer's bar may go on moving).
LANDED = "() => !document.getAnimations().some((a) => a.effect?.target?.closest?.('.trick-play'))"
SIZES = pytest.mark.parametrize(
    ("width", "height"),
    [
        pytest.param(w, h, id=f"{w}x{h}", marks=() if (w, h) in QUICK else pytest.mark.slow)
        for w, h in SCREENS
    ],
)

# What is wrong with the selected elements: missing, outside the viewport (with `across`
# only: outside it sideways, for a page that may scroll down), or covered by another element
# where they show. A fanned card (the hand's, a row's) shows its strip left of (or above) the
# next card, which is drawn over the rest (and, in a hand of two rows, above the lower row);
# every other element shows whole. Five points of the part that shows are
# tried with elementFromPoint, inset from the edges past any rounded corner.
PROBLEMS = """([selectors, across]) => {
  const w = window.innerWidth, h = window.innerHeight;
  const what = (el) => el ? (el.className?.baseVal ?? el.className) + " " + (el.textContent || "").slice(0, 30) : "nothing";
  const out = [];
  for (const sel of selectors) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) { out.push(`${sel}: missing`); continue; }
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const sideways = r.left < -0.5 || r.right > w + 0.5;
      if (sideways || (!across && (r.top < -0.5 || r.bottom > h + 0.5))) {
        out.push(`${sel} "${what(el)}" outside the screen: ${JSON.stringify(r)}`);
        continue;
      }
      if (across) continue;
      let [x0, x1, y0, y1] = [r.left, r.right, r.top, r.bottom];
      const next = el.matches(".card") ? el.nextElementSibling : null;
      if (next) {  // a fanned card: the next one is drawn over its right (or lower) part
        const n = next.getBoundingClientRect();
        if (n.left > x0 + 1 && n.left < x1) x1 = n.left;
        else if (n.top > y0 + 1 && n.top < y1) y1 = n.top;
      }
      // A hand in two rows (a phone upright): the lower row is drawn over the upper one's
      // lower part, which shows its top.
      if (el.matches(".hand-card")) for (let n = el.nextElementSibling; n; n = n.nextElementSibling) {
        const b = n.getBoundingClientRect();
        if (b.top > y0 + 1 && b.top < y1 && b.left < x1 && b.right > x0) y1 = b.top;
      }
      const points = [[(x0 + x1) / 2, (y0 + y1) / 2], [x0 + (x1 - x0) * .25, (y0 + y1) / 2],
        [x0 + (x1 - x0) * .75, (y0 + y1) / 2], [(x0 + x1) / 2, y0 + (y1 - y0) * .25],
        [(x0 + x1) / 2, y0 + (y1 - y0) * .75]];
      for (const [x, y] of points) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !el.contains(hit)) {
          out.push(`${sel} "${what(el)}" covered at (${x | 0}, ${y | 0}) by ${what(hit)}`);
          break;
        }
      }
    }
  }
  return out;
}"""

# The hand and the buttons; with the other seats, what a table shows whole.
CONTROLS = (".hand .hand-card", "[data-action=play]", "[data-action=pass]")
TABLE = (*CONTROLS, ".seat")


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


def problems(page: Any, *selectors: str, across: bool = False) -> list[str]:
    return list(page.evaluate(PROBLEMS, [list(selectors), across]))


def scroll_width(page: Any) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def mid_trick(page: Any) -> None:
    """Take turns until it is ours with another seat's play to beat on the table (every
    hand still holding cards), then raise the cards Hint suggests."""
    for _ in range(30):
        wait_until(lambda: my_turn(page), what="our turn")
        on_table = page.locator(".trick").get_attribute("data-trick")
        by = page.locator(".trick-by").get_attribute("data-by") if on_table else None
        if on_table and by != "0":
            break
        take_turn(page)
    else:
        raise AssertionError("no turn of ours with a play to beat in 30 turns")
    page.keyboard.press("h")
    wait_until(lambda: page.locator(".hand .hand-card.selected").count(), what="raised cards")
    page.wait_for_function(LANDED)


@SIZES
def test_the_lobby_fits(new_page: Any, server: Any, width: int, height: int) -> None:
    made = server.post("/api/rooms", {"preset": "palm", "title": "Friday night at Mei's place"})
    server.post(f"/api/rooms/{made['code']}/join", {"name": "Mei"})
    page = new_page(width=width, height=height)
    page.goto("/")
    page.wait_for_selector(".room")
    assert scroll_width(page) <= width
    assert problems(page, "[data-create]", ".room", "select, input", across=True) == []


@SIZES
def test_a_table_mid_trick_and_its_score_sheet_fit(new_page: Any, width: int, height: int) -> None:
    page = new_page(width=width, height=height)
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8)
    mid_trick(page)
    counts = page.locator(".seat .count").evaluate_all("els => els.map(e => +e.textContent)")
    assert len(counts) == 3 and min(counts) > 0, counts
    assert scroll_width(page) <= width
    assert problems(page, *TABLE) == []
    # A notice (a chat line from another player, one long word) covers none of the controls;
    # notices let clicks through, so for elementFromPoint to find one it is made to catch them.
    page.evaluate(
        "() => { const t = document.createElement('div'); t.className = 'toast';"
        " t.textContent = 'Bill: ' + 'x'.repeat(300); const box = document.getElementById('toasts');"
        " box.style.pointerEvents = 'auto'; box.append(t); }"
    )
    assert problems(page, *CONTROLS, ".toast") == []
    page.evaluate("() => document.querySelector('.toast').remove()")
    if width < 980:  # the side panel opens over the table: its close button covers no card
        page.click(".side-toggle")
        page.wait_for_selector(".side.open .tracker td")
        assert problems(page, ".side.open .tracker td", ".side.open .side-close") == []
        page.click(".side.open .side-close")
        assert problems(page, *TABLE) == []

    # The score sheet of a deal with many cards left: every card in view, nothing sideways,
    # its button in view and uncovered.
    page.evaluate(SHEET)
    page.wait_for_selector("dialog.score-sheet[open] .cards-col .card")
    sheet = "dialog.score-sheet[open]"
    assert problems(page, f"{sheet} .cards-col .card", f"{sheet} td", across=True) == []
    assert problems(page, f"{sheet} [data-next-deal]", f"{sheet} h2") == []
    assert page.evaluate(
        f"() => {{ const d = document.querySelector('{sheet}');"
        " return d.scrollWidth <= d.clientWidth + 1; }"
    ), "the score sheet scrolls sideways"
    assert scroll_width(page) <= width
    page.keyboard.press("Escape")


@SIZES
def test_the_replay_viewer_fits(new_page: Any, width: int, height: int) -> None:
    _, record = finished_record(deals=1)
    page = new_page(width=width, height=height)
    page.goto("/#/replay")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "m.json", "mimeType": "application/json", "buffer": record.encode()}],
    )
    page.wait_for_selector("[data-replay] .replay-seat")
    # Every hand whole (13 cards each), then mid-trick: all in view, and the controls.
    seen = (".replay-seat .card[data-card]", ".replay-seat .label", "[data-replay-btn]")
    assert page.locator(".replay-seat .card[data-card]").count() == 52
    assert scroll_width(page) <= width
    assert problems(page, *seen) == []
    for _ in range(14):
        page.click("[data-replay-btn=forward]")
    page.wait_for_selector("[data-replay-step='1:14']")
    page.wait_for_function(LANDED)
    assert page.locator(".replay .trick-play .card").count()
    assert scroll_width(page) <= width
    assert problems(page, *seen, ".replay .trick-play .card", "[data-replay-message]") == []


LONG = "W" * 24  # the longest name a player may choose, in the widest letter

# Where each thing on the table is: the centre's lines, the seats, the avatars and their
# counts, the hand's strips and the buttons.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (sel) => [...document.querySelectorAll(sel)].map(box);
  const cards = [...document.querySelectorAll('.hand .hand-card')];
  const strips = cards.map((c, i) => {
    const r = c.getBoundingClientRect();
    const next = cards.slice(i + 1).find((n) => Math.abs(n.getBoundingClientRect().top - r.top) < 2);
    return next ? next.getBoundingClientRect().left - r.left : r.width;
  });
  return { lines: all('.centre .trick-empty, .centre .trick-by, .centre [data-message]'),
    seats: all('.seat'), faces: all('.seat .avatar-wrap'), counts: all('.seat .count'),
    me: all('.me-head .avatar-wrap'), strips,
    buttons: all('.actions .btn:not([hidden])').map((b) => b[3] - b[1]) };
}"""


def overlap(a: list[float], b: list[float]) -> float:
    """The area two boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)], ids=["upright", "sideways"])
def test_a_phone_table_with_the_longest_names(new_page: Any, width: int, height: int) -> None:
    """On a phone, 24-letter names ran the centre's lines ("… leads", "… to play") off the
    felt across a seat; upright each card showed a strip of 25 px; sideways the card counts
    covered the faces, your own picture was gone and the buttons were 30 px tall; "Chat & more"
    covered the table, so you could not see that it was your turn."""
    page = new_page(width=width, height=height, is_mobile=True, has_touch=True)
    names = [LONG, "B" + "x" * 23, "C" + "y" * 23, "D" + "z" * 23]
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8, names=names)
    for turn in range(2):
        boxes = page.evaluate(BOXES)
        assert boxes["lines"], "the centre says whose turn it is"
        for line in boxes["lines"]:
            assert line[0] >= -0.5 and line[2] <= width + 0.5, line
            crossed = [seat for seat in boxes["seats"] if overlap(line, seat) > 1]
            assert not crossed, f"a line of the centre {line} runs across a seat {crossed}"
        for face, count in zip(boxes["faces"], boxes["counts"], strict=True):
            # the count may touch the picture's edge, never its face (the middle half)
            middle = [face[0] + (face[2] - face[0]) / 4, face[1] + (face[3] - face[1]) / 4,
                      face[2] - (face[2] - face[0]) / 4, face[3] - (face[3] - face[1]) / 4]  # fmt: skip
            assert overlap(middle, count) == 0, (face, count)
        assert boxes["me"] and boxes["me"][0][2] - boxes["me"][0][0] >= 20, "your own picture"
        assert min(boxes["strips"]) >= 30, boxes["strips"]  # 25 upright in one row
        assert min(boxes["buttons"]) >= 44, boxes["buttons"]
        assert scroll_width(page) <= width
        assert problems(page, *TABLE) == []
        if turn == 0:
            mid_trick(page)
    # The whole name is there to read, and for screen readers; only the screen cuts it short.
    assert LONG in page.locator(".me").inner_text()
    # "Chat & more" opens over the whole table on a phone: it says that it is your turn (you
    # could not see it), and takes you back.
    page.click(".side-toggle")
    turn = page.locator(".side.open [data-side-turn]")
    assert turn.is_visible() and turn.inner_text() == "Your turn: back to the table"
    assert problems(page, ".side.open [data-side-turn]") == []
    turn.click()
    assert page.locator(".side.open").count() == 0
