"""Preferences live in localStorage and change the game: name, avatar, language (English or
Traditional Chinese), and the keyboard shortcuts are listed."""

from __future__ import annotations

from typing import Any

from .browser_steps import create_room


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
