"""The way back to your own rooms in the browser (issue 40: after rooms left by closing the
tab, the lobby's Open rooms showed none of them, so they could neither be rejoined nor
closed): the lobby lists the rooms this browser has a seat in, each with Rejoin, and the
host closes a room there or from the table's host controls, which ends it for everyone; and a
computer of the room never takes its player's name."""

from __future__ import annotations

from typing import Any

from .browser_steps import create_room, wait_until
from .test_browser_access import needs_axe, violations

PEOPLE = ["human", "human", "greedy", "greedy"]


def body_text(page: Any) -> str:
    return str(page.locator("body").inner_text())


def test_the_lobby_lists_your_rooms_and_rejoins_one(new_page: Any, server: Any) -> None:
    host = new_page()
    code = create_room(host, seats=PEOPLE, wait_start=False, public=False)
    seat = host.locator(".table-view").get_attribute("data-seat")
    host.goto("/")
    mine = host.locator(f"[data-your-rooms] [data-my-room='{code}']")
    mine.wait_for()
    assert "Your rooms" in body_text(host)
    assert "Seat 1" in mine.inner_text() and "you are the host" in mine.inner_text()
    # Its 12-letter code once (it stood in the title, "Table CODE", and again after it).
    assert len(code) == 12 and mine.inner_text().count(code) == 1, mine.inner_text()
    # A private room: in no list of open rooms, only in yours.
    assert host.locator(f".rooms [data-code='{code}']").count() == 0
    mine.locator(f"[data-rejoin='{code}']").click()
    host.wait_for_selector(f".table-view[data-ready][data-code='{code}']")
    assert host.locator(".table-view").get_attribute("data-seat") == seat

    stranger = new_page()  # another device, no seat anywhere: no list of its own rooms
    stranger.goto("/")
    stranger.wait_for_selector("[data-create]")
    stranger.wait_for_timeout(300)  # (the lobby has asked and drawn by then)
    assert stranger.locator("[data-your-rooms]").is_hidden()


def test_the_host_closes_a_room_from_the_lobby(new_page: Any, server: Any) -> None:
    host = new_page()
    code = create_room(host, seats=PEOPLE, wait_start=False)
    guest = new_page()
    guest.goto(f"/#/t/{code}")
    guest.fill("input[name=name]", "Bo")
    guest.locator("[data-sit='1']").click()
    guest.wait_for_selector(".table-view[data-ready]")
    host.goto("/")
    close = host.locator(f"[data-my-room='{code}'] [data-close-room='{code}']")
    close.click()  # the first press asks
    assert close.inner_text() == "Close it for everyone?"
    assert server.get(f"/api/rooms/{code}")["room"]["status"] == "waiting"
    close.click()
    host.locator(f"[data-my-room='{code}']").wait_for(state="detached")
    room = server.get(f"/api/rooms/{code}")["room"]
    assert (room["status"], room["closed"]) == ("finished", "host closed the room")
    wait_until(
        lambda: "Table closed: the host closed the room" in body_text(guest),
        what="the guest is told why",
    )
    # The guest's lobby does not list it, and forgets the seat the server says is gone.
    guest.goto("/")
    wait_until(
        lambda: guest.evaluate(f"localStorage.getItem('bigtwo.table.{code}')") is None,
        what="the guest's seat forgotten",
    )
    assert guest.locator(f"[data-my-room='{code}']").count() == 0


def test_the_host_closes_the_room_at_the_table(new_page: Any, server: Any) -> None:
    host = new_page()
    code = create_room(host, seats=["human", "greedy", "greedy", "greedy"], deals=2)
    host.locator("[data-host-controls]").click()
    close = host.locator(f"dialog.host-controls [data-close-room='{code}']")
    close.click()
    close.click()
    wait_until(
        lambda: server.get(f"/api/rooms/{code}")["room"]["status"] == "finished",
        what="the room closed",
    )
    wait_until(
        lambda: "Table closed: the host closed the room" in body_text(host),
        what="the host's table says so",
    )
    host.locator("dialog.host-controls").wait_for(state="detached")  # closed with the room


@needs_axe
def test_your_rooms_have_no_serious_accessibility_violations(new_page: Any) -> None:
    page = new_page(bypass_csp=True)  # axe is put into the page as a script of the test's
    code = create_room(page, seats=PEOPLE, wait_start=False, public=False)
    page.goto("/")
    page.locator(f"[data-close-room='{code}']").click()  # asking "for everyone?"
    assert violations(page) == []


def test_a_computer_does_not_take_your_name(new_page: Any, server: Any) -> None:
    # The preferences' computer names are Ann, Bill and Cat: a player called Ann meets
    # "Computer 2" at seat 2 instead of a second Ann.
    page = new_page(named=False)
    page.add_init_script(
        """localStorage.setItem("bigtwo.prefs", JSON.stringify({ name: "Ann" }))"""
    )
    code = create_room(page, seats=["human", "greedy", "greedy", "greedy"], wait_start=False)
    seats = server.get(f"/api/rooms/{code}")["room"]["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Computer 2", "Bill", "Cat"]
    wait_until(lambda: "Computer 2" in body_text(page), what="the table names the computer")
