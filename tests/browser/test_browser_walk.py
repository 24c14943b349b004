"""What a new user's walk of the browser found (issue 39's walk), each mended: on a phone
the trick's earlier plays stood in a column down the felt, each play's first small card over
the end of the name before it; on a laptop four earlier plays pushed the play to beat over
the top seat and the message over your name row; the sign-in dialog's password field was a
thin bare box under a full name field."""

from __future__ import annotations

from typing import Any

from .browser_steps import create_room, my_turn, take_turn, wait_until

PHONE = {"width": 390, "height": 844}


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return list(page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"
    ))  # fmt: skip


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share."""
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


def test_a_phone_shows_the_newest_earlier_play_clear_of_its_name(new_page: Any) -> None:
    """On a phone the earlier plays stood in a column down the felt (with long names they
    pushed the play to beat over the top seat), each play's first card over the end of its
    name: the newest earlier play shows, clear of its name and above the message (the whole
    trick is under Last trick)."""
    page = new_page(**PHONE)
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=3)

    def earlier_plays() -> int:
        if my_turn(page) and page.locator(".trick-line").count() < 2:
            take_turn(page)
        return int(page.locator(".trick-line").count() >= 2)

    wait_until(earlier_plays, timeout=30, what="two earlier plays in a trick")
    shown = page.locator(".trick-line:visible")
    assert shown.count() == 1
    assert shown.get_attribute("data-seat") == page.locator(".trick-line").last.get_attribute(
        "data-seat"
    )
    earlier = boxes(page, ".trick-earlier")[0]
    message = boxes(page, "[data-message]")[0]
    assert earlier["bottom"] <= message["top"] + 1, (earlier, message)
    # The play's name ends before its first card begins.
    name = shown.evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e.firstChild);"
        " return r.getBoundingClientRect().right; }"
    )
    card = shown.locator(".card").first.bounding_box()
    assert card is not None and name <= card["x"] + 0.5, (name, card)


def test_a_laptop_keeps_a_trick_of_many_plays_between_the_seats(new_page: Any) -> None:
    """At 1366×800 the earlier plays stood one above another: four of them pushed the play
    to beat over the top seat and the message over your own name row."""
    page = new_page(width=1366, height=800)
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=3)

    def many_plays() -> int:
        if my_turn(page) and page.locator(".trick-line").count() < 3:
            take_turn(page)
        return int(page.locator(".trick-line").count() >= 3)

    wait_until(many_plays, timeout=30, what="three earlier plays in a trick")
    seat = boxes(page, ".felt .seat")  # the computers' seats
    play = boxes(page, ".trick-play")[0]
    message = boxes(page, "[data-message]")[0]
    me = boxes(page, ".me")[0]
    assert not [s for s in seat if overlap(play, s) > 1], (play, seat)
    assert message["bottom"] <= me["top"] + 0.5, (message, me)


def test_the_sign_in_dialogs_password_field_looks_like_its_name_field(new_page: Any) -> None:
    """The walk's phone: the password field was a thin bare box under a full name field."""
    page = new_page(**PHONE)
    page.goto("/")
    page.locator("[data-signed-in]").first.click()
    dialog = page.locator("dialog[open]")
    name = dialog.locator("input[name=account-name]").bounding_box()
    secret = dialog.locator("input[type=password]").first.bounding_box()
    assert secret["height"] == name["height"] and secret["height"] >= 36, (name, secret)
    styles = "e => [getComputedStyle(e).borderRadius, getComputedStyle(e).paddingLeft]"
    assert dialog.locator("input[type=password]").first.evaluate(styles) == dialog.locator(
        "input[name=account-name]"
    ).evaluate(styles)


def test_a_laptop_has_its_side_column_and_no_button_to_lay_it_over_the_bars(
    new_page: Any,
) -> None:
    """Beside the side column a laptop shows all along, "Chat & more" opened a second copy
    over the table's right edge, the page's bar (Sign in, settings) and the table's."""
    page = new_page(width=1366, height=800)
    create_room(page, seed=3)
    assert page.locator(".side").is_visible()
    assert page.locator(".side-toggle").is_hidden()
    assert page.locator(".side .tabs").is_visible()
