"""Players' accounts in the browser: register from the top bar, play a rated game against
computers, see the rating change on the profile (with the Palm figures, and the coach's review
kept of the game, opened from there) and the leaderboard; sign in on a second browser and take
the seat back there (it says ready for the seat; the first browser is told the seat is open
elsewhere)."""

from __future__ import annotations

from typing import Any

from .browser_steps import create_room, my_turn, take_turn, wait_until

PASSWORD = "correct horse battery"


def account_dialog(page: Any, name: str, button: str) -> None:
    """Sign in (``button`` "sign-in") or register ("register") from the top bar."""
    page.click("#account-button")
    dialog = page.locator("dialog.account-dialog[open]")
    dialog.locator("input[name=account-name]").fill(name)
    dialog.locator("input[name=password]").fill(PASSWORD)
    dialog.locator(f"[data-{button}]").click()
    page.wait_for_selector("dialog.account-dialog", state="detached")
    page.wait_for_selector(f"#account-button[data-signed-in=yes]:has-text('{name}')")


def test_register_play_a_rated_game_and_see_the_rating_and_leaderboard(
    new_page: Any, server: Any
) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-create]")
    assert page.locator("[data-rated]").is_hidden()  # a guest's rooms are not rated
    account_dialog(page, "Rated Ann", "register")
    page.select_option("select[name=preset]", "textbook")
    for i in (1, 2, 3):
        row = page.locator(f".seat-row[data-seat='{i}']")
        row.locator("select[name=kind]").select_option("computer")
        row.locator("select[name=level]").select_option("random")
    page.select_option("select[name=computer_delay]", "0")
    page.check("input[name=rated]")
    page.click("[data-create]")
    page.wait_for_selector(".table-view[data-status=playing]")
    code = str(page.locator(".table-view").get_attribute("data-code"))
    rated = server.get(f"/api/rooms/{code}/rated")
    assert rated["rated"] and not rated["settled"]
    wait_until(
        lambda: (
            page.locator(".table-view[data-status=finished]").count()
            or (my_turn(page) and take_turn(page) and False)
        ),
        timeout=90,
        what="the rated game to end",
    )
    settled = wait_until(
        lambda: (r := server.get(f"/api/rooms/{code}/rated"))["settled"] and r,
        what="the game to be rated",
    )
    mine = settled["seats"][0]
    assert mine["name"] == "Rated Ann" and mine["after"] != mine["before"]
    wait_until(
        lambda: (
            server.post(f"/api/rooms/{code}/review", {"deal": 1, "seat": 0})["status"] == "done"
        ),
        timeout=90,
        what="the coach's review of the deal",
    )
    page.goto(f"/#/players/{'Rated%20Ann'}")
    page.wait_for_selector("[data-profile]:has-text('Rated Ann')")
    assert page.locator("[data-rating=bigtwo]").inner_text() == str(mine["after"])
    assert page.locator(".games li").count() == 1
    palm = page.locator("[data-palm]").inner_text()
    assert "1 deal played" in palm and f"Score balance {mine['points']}" in palm
    page.click(f".games li[data-game='{code}'] [data-profile-review='1']")
    page.wait_for_selector("[data-review] .review-move")
    assert "Rated Ann" in page.locator("#review-title").inner_text()
    page.click("[data-review-close]")
    page.goto("/#/leaderboard")
    you = page.locator("[data-you]")
    you.wait_for()
    assert str(mine["after"]) in you.inner_text()  # not ranked yet: too few games


def test_a_signed_in_players_seat_follows_them_to_another_browser(
    new_page: Any, server: Any
) -> None:
    laptop = new_page()
    laptop.goto("/")
    laptop.wait_for_selector("[data-create]")
    account_dialog(laptop, "Seat Sam", "register")
    code = create_room(
        laptop, preset="textbook", seats=["human", "human", "greedy", "greedy"], wait_start=False
    )
    phone = new_page()
    phone.goto("/")
    phone.wait_for_selector("[data-create]")
    account_dialog(phone, "Seat Sam", "sign-in")
    phone.goto(f"/#/t/{code}")
    # The phone holds the laptop's seat, not a join form.
    phone.wait_for_selector(".table-view[data-ready]")
    assert phone.locator(".me strong").first.inner_text() == "Tess"
    # The phone plays the seat now (the laptop is told it is open elsewhere): it says ready.
    laptop.wait_for_selector("text=This seat is open in another window")
    seat = phone.locator("[data-ready-seat]").first.get_attribute("data-ready-seat")
    phone.click(f"[data-ready-seat='{seat}']")
    phone.wait_for_selector(f"[data-ready-seat='{seat}']:has-text('Not ready')")
