"""Preferences live in localStorage and change the game: name, avatar, language (English or
Traditional Chinese), and the keyboard shortcuts are listed."""

from __future__ import annotations

from typing import Any

from .browser_steps import create_room, my_turn, wait_until


def test_preferences_persist_and_switch_the_language(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-create]")
    page.click("#prefs-button")
    dialog = page.locator("dialog.prefs-dialog[open]")
    dialog.locator("input[name=name]").fill("Mei")
    dialog.get_by_role("button", name="Avatar 4").click()
    dialog.locator("select").nth(2).select_option("zh-Hant")  # speed, sort, language
    dialog.locator("[data-save-prefs]").click()
    page.wait_for_selector("text=開新房間")
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('bigtwo.prefs'))")
    assert saved["name"] == "Mei" and saved["avatar"] == 3 and saved["lang"] == "zh-Hant"
    page.reload()
    page.wait_for_selector("text=開新房間")  # still Chinese after a reload
    assert page.locator("html").get_attribute("lang") == "zh-Hant"
    # The room is made in the player's name; cards are named in Chinese.
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8)
    assert page.locator(".me strong").first.inner_text() == "Mei"
    labels = page.locator(".hand .hand-card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert all(label[:2] in ("方塊", "梅花", "紅心", "黑桃") for label in labels)
    assert page.get_by_role("button", name="出牌").count() == 1  # Play
    # "?" lists the keyboard shortcuts.
    page.keyboard.press("?")
    keys = page.locator("dialog[open]")
    assert "鍵盤快捷鍵" in keys.inner_text() and keys.locator("kbd").count() >= 10


def test_a_first_visit_chooses_a_name_and_picture_never_you(new_page: Any, server: Any) -> None:
    page = new_page(named=False)
    page.goto("/")
    welcome = page.locator("dialog.welcome-dialog[open]")
    welcome.wait_for()
    welcome.locator("[data-welcome-save]").click()  # no name yet: said, and still open
    assert "name" in welcome.get_by_role("alert").inner_text().lower()
    welcome.locator("[data-welcome-name]").fill("Mei")
    welcome.get_by_role("button", name="Avatar 6").click()
    welcome.locator("[data-welcome-save]").click()
    page.wait_for_selector("dialog.welcome-dialog", state="detached")
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('bigtwo.prefs'))")
    assert saved["name"] == "Mei" and saved["avatar"] == 5
    code = create_room(page, seats=["human", "human", "greedy", "greedy"], wait_start=False)
    seats = server.get(f"/api/rooms/{code}")["room"]["seats"]
    assert (seats[0]["name"], seats[0]["avatar"]) == ("Mei", 5)

    # Another first visit, by the share link: "Later" sends no name; sitting asks again.
    other = new_page(named=False)
    other.goto(page.locator("[data-share-link]").input_value())
    other.locator("dialog.welcome-dialog[open]").get_by_role("button", name="Later").click()
    other.wait_for_selector("dialog.welcome-dialog", state="detached")  # its name field too
    assert other.locator("input[name=name]").input_value() == ""  # no "You" made up
    other.locator("[data-sit]").first.click()
    again = other.locator("dialog.welcome-dialog[open]")
    again.locator("[data-welcome-name]").fill("Lin")
    again.locator("[data-welcome-save]").click()
    other.wait_for_selector(".table-view[data-ready]")
    names = [s["name"] for s in server.get(f"/api/rooms/{code}")["room"]["seats"]]
    assert names[:2] == ["Mei", "Lin"] and "You" not in names


def test_the_welcome_name_is_carried_over_and_a_free_seat_shows_nobody(
    new_page: Any, server: Any
) -> None:
    """The name typed in the welcome dialog did not reach the lobby's Seat 1 or a join
    page's "Your name" under it, and the waiting room's free seat showed a person's face
    (the host's own, when the host had picked that picture)."""
    page = new_page(named=False)
    page.goto("/")
    page.wait_for_selector(".seat-row[data-seat='0'] input[name=seat-name]")
    welcome = page.locator("dialog.welcome-dialog[open]")
    welcome.locator("[data-welcome-name]").fill("Mei")
    welcome.get_by_role("button", name="Avatar 2").click()
    welcome.locator("[data-welcome-save]").click()
    seat_one = page.locator(".seat-row[data-seat='0'] input[name=seat-name]")
    assert seat_one.input_value() == "Mei"
    code = create_room(page, seats=["human", "human", "greedy", "greedy"], wait_start=False)
    chips = page.locator(".room-seats .chip")
    wait_until(lambda: chips.count() == 4, what="the waiting room's seats")
    assert chips.nth(0).locator("[data-avatar]").get_attribute("data-avatar") == "1"
    assert chips.nth(1).locator("[data-avatar]").get_attribute("data-avatar") == "empty"

    other = new_page(named=False)
    other.goto(f"/#/t/{code}")
    other.wait_for_selector("[data-sit]")
    assert (
        other.locator(".join .room").nth(1).locator("[data-avatar]").get_attribute("data-avatar")
        == "empty"
    )
    again = other.locator("dialog.welcome-dialog[open]")
    again.locator("[data-welcome-name]").fill("Lin")
    again.locator("[data-welcome-save]").click()
    your_name = other.locator("input[data-my-name]")  # the welcome dialog's may linger
    wait_until(lambda: your_name.input_value() == "Lin", what="the join page's name")


# A stand-in for the browser's notifications (it counts them) and a tab in the background.
BACKGROUND_TAB = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push(options.body); }
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
};
Object.defineProperty(document, "hidden", { get: () => window.__hidden !== false });
"""


def test_the_turn_is_cued_in_the_title_by_notification_and_with_a_mute_switch(
    new_page: Any,
) -> None:
    page = new_page()
    page.add_init_script(BACKGROUND_TAB)
    page.goto("/")
    sound = page.locator("#sound-button")
    assert sound.get_attribute("aria-pressed") == "false"  # quiet unless asked
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    page.click("#prefs-button")
    dialog = page.locator("dialog.prefs-dialog[open]")
    dialog.locator("input[name=notify]").check()
    dialog.locator("[data-save-prefs]").click()
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('bigtwo.prefs'))")
    assert saved["sound"] is True and saved["notify"] is True
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8)
    wait_until(lambda: my_turn(page), what="our turn")
    assert page.title() == "● Your turn · Big Two"
    assert page.evaluate("() => window.__notes") == ["Your turn"]
    assert page.locator("#sound-button").get_attribute("aria-pressed") == "true"
