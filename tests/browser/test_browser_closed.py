"""A room that closes mid-deal (the host closes it, or every player quits) ends the deal for
the browser too: nobody's turn is shown any more. Found by a new user's walk of the browser
(issue 39): after the host closed the room, the page whose turn it was kept "Your lead" on
the felt and the "Your turn" badge under its name, though Play and Pass were disabled."""

from __future__ import annotations

from typing import Any

from .browser_steps import create_room, wait_until

PEOPLE = ["human", "human", "greedy", "greedy"]


def nobody_to_act(page: Any) -> None:
    """The page shows no turn: no badge, no ring, no "lead" words, no turn's buttons."""
    view = page.locator(".table-view")
    assert view.get_attribute("data-turn") == ""
    assert page.locator(".your-turn").count() == 0
    assert page.locator(".me.turn, .seat.turn").count() == 0
    felt = page.locator(".trick").inner_text()
    assert "lead" not in felt.lower(), felt
    for action in ("play", "pass", "hint"):
        button = page.locator(f"[data-action={action}]")
        assert button.count() == 0 or button.is_disabled(), action
    assert page.locator(".hand.disabled").count() == 1


def test_a_room_closed_mid_deal_shows_no_ones_turn(new_page: Any, server: Any) -> None:
    host = new_page()
    code = create_room(host, seats=PEOPLE, wait_start=False, deals=2, seed=5)
    guest = new_page()
    guest.goto(f"/#/t/{code}")
    guest.fill("input[name=name]", "Bo")
    guest.locator("[data-sit='1']").click()
    guest.wait_for_selector(".table-view[data-ready]")
    for page in (host, guest):
        page.locator("[data-ready-seat]").click()
    watcher = new_page()
    watcher.goto(f"/#/t/{code}/watch")
    for page in (host, guest, watcher):
        page.wait_for_selector(".table-view[data-status=playing]")
    # The computers play at once; then one of the two people has the turn.
    seats = {"0": host, "1": guest}
    turn = wait_until(
        lambda: (
            host.locator(".table-view").get_attribute("data-turn") in seats
            and host.locator(".table-view").get_attribute("data-turn")
        ),
        what="a person's turn",
    )
    acting = seats[turn]
    acting.locator(".your-turn").wait_for()

    host.locator("[data-host-controls]").click()
    close = host.locator(f"dialog.host-controls [data-close-room='{code}']")
    close.click()
    close.click()
    for page in (host, guest, watcher):
        wait_until(
            lambda p=page: (
                "Table closed: the host closed the room" in p.locator("body").inner_text()
            ),
            what="the table says it closed",
        )
        if page is watcher:  # a spectator: no hand, no buttons, and no seat lit
            assert page.locator(".seat.turn, .me.turn").count() == 0
            assert page.locator(".table-view").get_attribute("data-turn") == ""
        else:
            nobody_to_act(page)
    # A reload of the closed table shows the same.
    acting.reload()
    acting.wait_for_selector(".table-view[data-ready]")
    wait_until(
        lambda: "Table closed" in acting.locator("body").inner_text(), what="closed after reload"
    )
    nobody_to_act(acting)
