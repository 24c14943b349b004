"""The host's controls in the browser: only the host sees them; the host kicks a player (who
is told), gives a seat to a computer and changes the timers and spectators at the table; the
lobby's form makes a private room whose invitation link lets a spectator in."""

from __future__ import annotations

from typing import Any

import pytest

from .browser_steps import create_room, message, wait_until


def test_the_host_kicks_gives_a_seat_to_a_computer_and_changes_settings(
    new_page: Any, server: Any
) -> None:
    host = new_page()
    code = create_room(host, seats=["human", "human", "human", "greedy"], wait_start=False)
    guest = new_page()
    guest.goto(f"/#/t/{code}")
    guest.fill("input[name=name]", "Bo")
    guest.locator("[data-sit='1']").click()
    guest.wait_for_selector(".table-view[data-ready]")
    assert guest.locator("[data-host-controls]").count() == 0  # only the host has them
    host.locator("[data-host-controls]").click()
    host.locator("dialog.host-controls [data-kick='1']").click()
    wait_until(lambda: "removed you" in message(guest), what="the kicked player is told")
    wait_until(
        lambda: not server.get(f"/api/rooms/{code}")["room"]["seats"][1]["taken"],
        what="seat 1 freed",
    )

    host.locator("[data-host-controls]").click()
    dialog = host.locator("dialog.host-controls")
    dialog.locator("[data-computer='2']").click()  # a free seat, to a computer
    wait_until(
        lambda: server.get(f"/api/rooms/{code}")["room"]["seats"][2]["kind"] == "computer",
        what="seat 2 a computer",
    )

    host.locator("[data-host-controls]").click()
    dialog = host.locator("dialog.host-controls")
    dialog.locator("select[name=turn_seconds]").select_option("15")
    dialog.locator("select[name=away_seconds]").select_option("30")
    dialog.locator("input[name=spectators]").uncheck()
    dialog.locator("[data-host-save]").click()

    def options() -> dict[str, Any]:
        return dict(server.get(f"/api/rooms/{code}")["room"]["options"])

    wait_until(lambda: options()["turn_seconds"] == 15, what="the new turn timer")
    assert options()["away_seconds"] == 30 and options()["spectators"] is False


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_a_private_room_from_the_lobby_is_watched_with_its_invitation(
    new_page: Any, server: Any
) -> None:
    host = new_page()
    seats = ["human", "human", "greedy", "greedy"]
    code = create_room(host, seats=seats, wait_start=False, public=False, away=120)
    host.locator("[data-share]").click()
    link = host.locator("[data-invite-link]").input_value()
    assert f"/r/{code}?invite=" in link
    stranger = new_page()
    stranger.goto(f"/#/t/{code}")  # the code alone: a seat, but no watching
    stranger.wait_for_selector("[data-sit]")
    assert stranger.locator("[data-watch]").count() == 0
    watcher = new_page()
    watcher.goto(link)
    watcher.wait_for_selector(".table-view[data-ready]")
    assert watcher.locator(".me.spectating").count() == 1
    options = server.get(f"/api/rooms/{code}")["room"]["options"]
    assert options["public"] is False and options["away_seconds"] == 120


def test_the_lobby_fetches_only_the_page_of_rooms_it_shows(new_page: Any, server: Any) -> None:
    """On main every open lobby downloaded every open room every 4 s (4.4 MB with 5,000)."""
    for _ in range(12):
        server.post(
            "/api/rooms", {"seats": ["human", "computer"], "preset": "deduction", "public": True}
        )
    total = server.get("/api/rooms?limit=1")["total"]
    page = new_page()
    asked: list[str] = []
    page.on(
        "request", lambda r: "/api/rooms" in r.url and r.method == "GET" and asked.append(r.url)
    )
    page.goto("/")
    page.wait_for_selector("[data-more-rooms]")
    assert page.locator(".rooms li.room").count() == 10
    page.locator("[data-more-rooms]").click()
    wait_until(lambda: page.locator(".rooms li.room").count() == min(20, total), what="page two")
    assert asked and all("limit=10" in url for url in asked)
    assert any("cursor=" in url for url in asked)


def test_a_spectator_who_may_not_chat_sees_the_box_disabled_and_why(
    new_page: Any, server: Any
) -> None:
    """With "Spectators may chat" off the box was there to type in and Send sent, and only
    a notice said "Spectators cannot do that"."""
    made = server.post(
        "/api/rooms",
        {
            "seats": ["human", "computer:greedy"],
            "preset": "deduction",
            "spectator_chat": False,
            "public": True,
        },
    )
    watcher = new_page()
    watcher.goto(f"/#/t/{made['code']}/watch")
    watcher.wait_for_selector(".table-view[data-ready]")
    box = watcher.locator(".chat input")
    assert box.is_disabled() and watcher.locator(".chat button[type=submit]").is_disabled()
    why = watcher.locator("[data-chat-closed]")
    assert why.is_visible() and "turned off chat for spectators" in why.inner_text()
    assert box.get_attribute("aria-describedby") == why.get_attribute("id")
    # Where spectators may chat, the box is theirs.
    made = server.post(
        "/api/rooms",
        {
            "seats": ["human", "computer:greedy"],
            "preset": "deduction",
            "spectator_chat": True,
            "public": True,
        },
    )
    watcher.goto(f"/#/t/{made['code']}/watch")
    watcher.wait_for_selector(f".table-view[data-code='{made['code']}'][data-ready]")
    assert watcher.locator(".chat input").is_enabled()
    assert not watcher.locator("[data-chat-closed]").is_visible()


def test_a_room_against_computers_alone_is_offered_unlisted_and_untimed(new_page: Any) -> None:
    """A new player's first room, against three computers, got a 30 s turn timer and was
    listed publicly: the form now offers neither while no other person has a seat, both once
    one has, and leaves them alone once the player has set either."""
    page = new_page()
    page.goto("/")
    public = page.locator("input[name=public]")
    timer = page.locator("select[name=turn_seconds]")
    page.wait_for_selector(".seat-row[data-seat='1']")
    assert not public.is_checked() and timer.input_value() == "0"
    page.locator(".seat-row[data-seat='1'] select[name=kind]").select_option("human")
    assert public.is_checked() and timer.input_value() == "30"
    page.locator(".seat-row[data-seat='1'] select[name=kind]").select_option("computer")
    assert not public.is_checked() and timer.input_value() == "0"
    timer.select_option("60")  # the player's own choice stays
    page.locator(".seat-row[data-seat='1'] select[name=kind]").select_option("human")
    page.locator(".seat-row[data-seat='1'] select[name=kind]").select_option("computer")
    assert timer.input_value() == "60" and not public.is_checked()
