"""A phone in the hand, upright (390×844) and sideways (844×390): every control is a finger's
size, at least 44 × 44 px (WCAG 2.5.5's size; 2.5.8's 24 px with spacing was not enough for
the table's bar, whose buttons were 26–36 px tall); the beliefs panel keeps the play to beat,
your hand and your line in view (under the bar it covered the top seat and the play); and
sideways, a RevolutioN counter window's prompt leaves your line (your name, your cards left)
in view."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .browser_steps import create_room, my_turn, take_turn, wait_until
from .test_browser_layout import CONTROLS, LANDED, problems
from .test_browser_revolution import LEVELS, PROMPT, act, plan_seed
from .test_browser_walk import boxes, overlap

PHONES = pytest.mark.parametrize(
    ("width", "height"), [(390, 844), (844, 390)], ids=["upright", "sideways"]
)
FINGER = 44  # px, each way

# The controls a finger can reach: shown, in an open dialog where one is open (the rest of
# the page is inert then). Each with what it says and its size (a box to tick: its label's).
CONTROL_SIZES = """() => {
  const open = document.querySelector('dialog[open]');
  const all = [...(open ?? document).querySelectorAll(
    'button, a.btn, select, summary, input:is([type=text], [type=password], [type=number], [type=checkbox], [type=file])')];
  return all.filter((e) => e.checkVisibility() && !e.closest('dialog:not([open])')).map((e) => {
    // a box to tick: the label around it takes the click too
    const r = (e.type === 'checkbox' ? e.closest('label') ?? e : e).getBoundingClientRect();
    return { what: (e.getAttribute('aria-label') || e.textContent || e.name || e.tagName).trim().slice(0, 30),
      width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 };
  });
}"""


def too_small(page: Any) -> list[dict[str, Any]]:
    sizes = page.evaluate(CONTROL_SIZES)
    assert sizes, "no controls found"
    return [c for c in sizes if c["width"] < FINGER or c["height"] < FINGER]


@PHONES
def test_every_control_on_a_phone_is_a_fingers_size(new_page: Any, width: int, height: int) -> None:
    page = new_page(width=width, height=height)
    page.goto("/")
    page.wait_for_selector("[data-create]")
    assert too_small(page) == [], "the lobby"
    page.goto("/#/replay")  # the replay viewer's choice of a record
    page.wait_for_selector("input[type=file]")
    assert too_small(page) == [], "the replay's record"
    create_room(page, seed=3, public=False)
    # The table's bar: Share, Host, Scores, What the cards tell, Chat & more, Quit; the page's
    # bar: sound, Sign in, settings; the hand's buttons.
    for name in ("[data-share]", "[data-host-controls]", "[data-beliefs]", "[data-leave]"):
        assert page.locator(name).is_visible(), name
    assert too_small(page) == [], "the table"
    # The table keeps its layout: the hand, Play and Pass in view and uncovered, and the seats.
    assert problems(page, *CONTROLS, ".seat", ".me-head .me-name") == []
    # Its title (the deal, the rules) shares the page's bar, clear of its brand and buttons;
    # upright, the table's buttons in one row under it, in shorter words (named in full).
    title = boxes(page, ".infobar > .grow")[0]
    for button in ("header .brand", "#sound-button", "#account-button", "#prefs-button"):
        assert overlap(title, boxes(page, button)[0]) == 0, button
    for button in boxes(page, ".infobar > .btn"):
        assert overlap(title, button) == 0, button
    if height > width:  # the whole title, in lines of its own (sideways: cut short, "…")
        text = page.locator(".infobar > .grow").evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e);"
            " const t = r.getBoundingClientRect(); return {top: t.top, bottom: t.bottom}; }"
        )
        assert title["top"] - 1 <= text["top"] and text["bottom"] <= title["bottom"] + 1, text
        assert len({round(b["top"]) for b in boxes(page, ".infobar > .btn")}) == 1
        named = page.get_by_role("button", name="What the cards tell", exact=True)
        assert named.locator(".label-short").is_visible()
        assert named.locator(".label-short").inner_text() == "Cards tell"
        assert named.locator(".label-long").evaluate("e => e.getBoundingClientRect().width <= 1")
    for opener in ("[data-host-controls]", "#prefs-button"):
        page.click(opener)
        page.wait_for_selector("dialog[open]")
        assert too_small(page) == [], opener
        page.keyboard.press("Escape")
        wait_until(lambda: not page.locator("dialog[open]").count(), what="the dialog to close")


@PHONES
def test_the_beliefs_panel_on_a_phone_keeps_the_play_and_your_hand_in_view(
    new_page: Any, width: int, height: int
) -> None:
    page = new_page(width=width, height=height)
    # A computer leads: a play on the table; our turn's clock widens our line.
    create_room(page, seed=3, public=False, timer=60)

    def a_short_hand() -> bool:  # our line reaches past a hand of few cards
        if my_turn(page):
            take_turn(page)
        return page.locator(".hand .hand-card").count() <= 8 and my_turn(page)

    wait_until(a_short_hand, timeout=40, what="a hand of eight cards or fewer, our turn")
    page.wait_for_selector(".me-head .timer")
    page.wait_for_selector(".trick-play .card")
    page.click("[data-beliefs]")
    page.wait_for_selector("[data-beliefs-panel] [data-beliefs-seat]", timeout=60_000)
    panel = boxes(page, "[data-beliefs-panel]")[0]
    assert panel["left"] >= 0 and panel["right"] <= width and panel["bottom"] <= height, panel
    # Clear of the play to beat, every card of your hand, your line and the top and left seats
    # (sideways it lies over the right seat, whose count its own column tells).
    clear = [".trick-play .card", ".hand .hand-card", ".me-head > *", ".seat-top", ".seat-left"]
    if height > width:
        clear.append(".seat-right")
    for selector in clear:
        for box in boxes(page, selector):
            assert overlap(panel, box) == 0, (selector, box, panel)
    # Its six chances, each opponent's column and the button that closes it, all in view.
    for row in boxes(page, "[data-beliefs-panel] tbody tr, [data-beliefs-panel] thead th"):
        assert row["right"] <= panel["right"] + 0.5 and row["bottom"] <= height + 0.5, row
    assert too_small(page) == [], "with the panel open"
    page.click("[data-beliefs-close]")
    wait_until(lambda: page.locator("[data-beliefs-panel]").is_hidden(), what="the panel closed")
    assert page.locator("[data-beliefs]").get_attribute("aria-expanded") == "false"
    assert problems(page, *CONTROLS) == []


@PHONES
def test_a_counter_window_leaves_your_line_and_the_play_in_view_on_a_phone(
    new_page: Any, width: int, height: int
) -> None:
    """Sideways, your line stands beside the panel: the prompt of a counter window hid your
    cards left and Revolution cards there. Upright, the message asked the prompt's question
    again over your line, and the play to beat reached over the top seat."""
    page = new_page(width=width, height=height)
    create_room(page, preset="revolution", seats=["human", *LEVELS], seed=plan_seed(1, LEVELS))
    seen: dict[str, Any] = {"layouts": None}
    activated: set[str] = set()
    for _ in range(80):
        if wait_until(lambda: page.evaluate(PROMPT) or act(page, activated, seen), timeout=8,
                      step=0.03, what="something to do") and page.evaluate(PROMPT):  # fmt: skip
            break
    else:
        raise AssertionError("no counter window asked the person")
    line = ".me-head .me-name", ".me-head .muted-light", ".me-head [data-rev-count]"
    assert problems(page, *line, "[data-prompt=open] button", *CONTROLS) == []
    for card in boxes(page, ".trick-play .card"):
        assert overlap(card, boxes(page, ".seat-top")[0]) == 0, card
    told = page.locator(".me-head").inner_text()
    assert re.search(r"\d+ cards left", told), told


def test_sideways_last_trick_beside_the_play_keeps_the_message_off_your_line(
    new_page: Any,
) -> None:
    """Sideways, Last trick (a finger's size) under the play to beat pushed the message over
    your line: it stands beside the play."""
    page = new_page(width=844, height=390)
    create_room(page, seed=8, timer=60)

    def beside() -> bool:
        if my_turn(page) and not page.locator(".trick-by .last-trick-btn").count():
            take_turn(page)
        return bool(page.locator(".trick-by .last-trick-btn").count()) and my_turn(page)

    wait_until(beside, timeout=40, what="a play to beat and Last trick, our turn")
    page.wait_for_function(LANDED)  # no card still on its way over the button (a slow machine)
    # In the play's row (the centre no taller for it), and the message clear of your line.
    play, button = boxes(page, ".trick-play")[0], boxes(page, ".trick-by .last-trick-btn")[0]
    assert play["top"] - 1 <= button["top"] and button["bottom"] <= play["bottom"] + 1, button
    message = boxes(page, "[data-message]")[0]
    for box in boxes(page, ".me-head > *"):
        assert overlap(message, box) == 0, (message, box)
    assert problems(page, ".trick-by .last-trick-btn", *CONTROLS) == []
