"""Time to read the table in the browser: every earlier play of the trick in progress on a
line of its own, the whole last trick on demand, and a score sheet that waits for "Next
deal" (and comes back after a reload between deals)."""

from __future__ import annotations

import time
from typing import Any

from .browser_steps import create_room, my_turn, take_turn, wait_until


def _play_until(page: Any, done: Any, limit_s: float = 30.0, what: str = "") -> None:
    """Take our turns through clicks until ``done()``."""
    deadline = time.monotonic() + limit_s
    while not done():
        assert time.monotonic() < deadline, f"not seen in {limit_s:g} s: {what}"
        if my_turn(page):
            take_turn(page)
        else:
            page.wait_for_timeout(20)


def test_the_whole_trick_and_the_last_trick_on_demand(new_page: Any, server: Any) -> None:
    page = new_page()
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8)
    lines = page.locator(".trick .trick-earlier .trick-line")
    # Each earlier play of the trick has its own line with its cards (not one short line).
    _play_until(page, lambda: lines.count() >= 2, what="two earlier plays in a trick")
    for i in range(lines.count()):
        assert lines.nth(i).locator(".card-row.tiny .card[data-card]").count() >= 1
    # Once a trick is won, "Last trick" shows every play and pass of it.
    button = page.locator("[data-last-trick]")
    _play_until(page, lambda: button.count() > 0, what="a trick won")
    button.click()
    dialog = page.locator("dialog.last-trick[open]")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == "The last trick"
    rows = dialog.locator("tr[data-seat]")
    seats = rows.evaluate_all("els => els.map(e => Number(e.dataset.seat))")
    plays = rows.evaluate_all("els => els.filter(e => e.dataset.cards).length")
    assert len(seats) >= 2 and plays >= 1
    assert seats[-1] != seats[-2] or len(seats) == 2
    texts = rows.evaluate_all("els => els.map(e => e.innerText)")
    passes = [t for t in texts if "pass" in t]
    assert len(passes) + plays == len(seats)  # each row a play (its cards) or a pass
    dialog.locator("button", has_text="Close").click()
    wait_until(lambda: not page.locator("dialog.last-trick").count(), what="the dialog closed")


def test_the_score_sheet_waits_and_comes_back_after_a_reload(new_page: Any, server: Any) -> None:
    """Alone with computers and a turn timer, the sheet waits for Next deal (it used to go
    on after 8 s); reloaded between deals, the page opens it again."""
    page = new_page()
    code = create_room(
        page, seats=["human", "greedy", "greedy", "greedy"], deals=2, seed=8, timer=30
    )
    sheet = page.locator("dialog.score-sheet[open]")
    _play_until(page, lambda: sheet.count() > 0, limit_s=60, what="the end of deal 1")
    assert sheet.locator("[data-next-rule]").inner_text() == (
        "The next deal starts when you press Next deal."
    )
    room = server.get(f"/api/rooms/{code}")["room"]
    assert room["options"]["between_deals_seconds"] is None and room["next_deal"]["deal"] == 2
    page.reload()
    page.wait_for_selector(".table-view[data-ready]")
    sheet = page.locator("dialog.score-sheet[open][data-waits]")
    sheet.wait_for(timeout=5000)
    assert sheet.get_attribute("data-deal") == "1"
    sheet.locator("[data-next-deal]").click()
    page.wait_for_selector("[data-deal-label]:has-text('Deal 2')", timeout=5000)


def test_a_new_rooms_normal_pace_gives_a_second_to_each_play(new_page: Any, server: Any) -> None:
    """Normal pace (the preference's default) is a second between plays (it was 0.6 s); a
    trick won waits three times that before a computer leads again (the server's part)."""
    page = new_page()
    page.goto("/")
    pace = page.locator("select[name=computer_delay]")
    assert pace.input_value() == "1"
    values = pace.locator("option").evaluate_all("els => els.map(e => e.value)")
    assert values == ["2", "1", "0.4", "0"]
