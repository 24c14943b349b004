"""Several people at one table: four browsers (each its own device) playing one deal, each
with the avatar it chose, then a new game for the same people; a spectator who never sees a
hand, and hot-seat play with its cover screen."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from .browser_steps import create_room, hand_cards, my_turn, take_turn, wait_until


def with_avatar(page: Any, avatar: int) -> Any:
    """The page's device has chosen ``avatar`` in its preferences."""
    page.context.add_init_script(
        "localStorage.setItem('bigtwo.prefs', JSON.stringify({"
        f"...JSON.parse(localStorage.getItem('bigtwo.prefs') || '{{}}'), avatar: {avatar}}}))"
    )
    return page


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_four_browsers_play_one_table_and_see_only_their_own_cards(
    new_page: Any, server: Any
) -> None:
    host = with_avatar(new_page(), 5)
    code = create_room(
        host, seats=["human"] * 4, names=["Ann", "", "", ""], seed=77, wait_start=False
    )
    link = host.locator("[data-share-link]").input_value()
    assert link.endswith(f"/r/{code}")
    pages = [host]
    for i, name in enumerate(("Bill", "Cat", "Dan")):
        page = with_avatar(new_page(), i + 1)
        page.goto(link)  # the share link lands on the join screen
        page.fill("input[name=name]", name)
        page.locator("[data-sit]").first.click()
        page.wait_for_selector(".table-view[data-ready]")
        pages.append(page)
    # A spectator joins before the start and watches every frame the server sends it.
    watcher = new_page()
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    watcher.goto(f"/#/t/{code}/watch")
    watcher.wait_for_selector(".table-view[data-ready]")
    for page in pages:
        page.locator("[data-ready-seat]").click()
    for page in pages:
        page.wait_for_selector(".hand .hand-card")
    hands = [hand_cards(page) for page in pages]
    assert [len(h) for h in hands] == [13] * 4
    assert len(set().union(*map(set, hands))) == 52  # four different hands, the whole deck
    for page, hand in zip(pages, hands, strict=True):
        shown = {
            int(c)
            for c in page.locator(".hand [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
        }
        assert shown == set(hand)
        names = page.locator(".seat .name").all_inner_texts()
        assert len(names) == 3 and page.locator(".seat .avatar").count() == 3
    # Everyone sees the avatar each player chose (Ann 5, Bill 1, Cat 2, Dan 3).
    chosen = {"0": "5", "1": "1", "2": "2", "3": "3"}
    for page in pages:
        shown = page.locator(".seat").evaluate_all(
            "els => els.map(e => [e.dataset.seat, e.querySelector('.avatar').dataset.avatar])"
        )
        assert all(chosen[seat] == avatar for seat, avatar in shown), shown
    assert [s["avatar"] for s in server.get(f"/api/rooms/{code}")["room"]["seats"]] == [5, 1, 2, 3]
    # Everyone plays through clicks until the deal (the whole one-deal match) is over: the
    # page of the seat to act (as the host's page shows it) takes its turn.
    seat_page = {int(p.locator(".me").get_attribute("data-seat") or -1): p for p in pages}
    assert sorted(seat_page) == [0, 1, 2, 3]
    deadline = time.monotonic() + 60
    acted = 0
    while not host.locator("dialog.score-sheet[open]").count():
        assert time.monotonic() < deadline, "the four-player deal did not finish in 60 s"
        turn = host.locator(".table-view").get_attribute("data-turn")
        page = seat_page.get(int(turn)) if turn else None
        if page is not None and my_turn(page):
            take_turn(page)
            acted += 1
        else:
            host.wait_for_timeout(15)
    assert acted >= 13
    for page in pages:
        page.wait_for_selector("dialog.score-sheet[open][data-final]")
    # Every seat's cards left are face up on everyone's score sheet.
    sheet = pages[1].locator("dialog.score-sheet[open] .score-table:not(.final)")
    assert sheet.locator(".card:not([data-card])").count() == 0
    # "New game": the host's browser opens it; the others are told, with their seats there.
    host.locator("dialog.score-sheet[open]").get_by_role("button", name="New game").click()
    host.wait_for_function(f"() => !location.hash.includes('{code}')")
    host.wait_for_selector(".table-view[data-ready]")
    new_code = str(host.locator(".table-view").get_attribute("data-code"))
    bill = pages[1]
    bill.locator("dialog.score-sheet[open]").get_by_role("button", name="Close").click()
    bill.locator(f"[data-rematch-join='{new_code}']").click()
    bill.wait_for_selector(f".table-view[data-code='{new_code}'][data-ready]")
    assert bill.locator(".me").get_attribute("data-seat") == "1"
    room = server.get(f"/api/rooms/{new_code}")["room"]
    assert [(s["name"], s["avatar"]) for s in room["seats"]] == [
        ("Ann", 5), ("Bill", 1), ("Cat", 2), ("Dan", 3)
    ]  # fmt: skip
    wait_until(
        lambda: (
            [s["ready"] for s in server.get(f"/api/rooms/{new_code}")["room"]["seats"]][:2]
            == [True, True]
        ),
        what="Ann and Bill ready at the new table",
    )
    assert server.get(f"/api/rooms/{code}")["room"]["rematch"] == new_code
    # The spectator saw the table but never a hand, on screen or on the wire.
    assert watcher.locator(".hand").count() == 0
    assert "watching" in watcher.locator(".infobar").inner_text()
    messages = [json.loads(f) for f in frames if f.startswith("{")]
    assert any(m.get("type") == "action" for m in messages)
    assert not [m for m in messages if m.get("type") in ("hand", "turn")]
    assert not [m for m in messages if isinstance(m.get("view"), dict) and m["view"].get("hand")]


def test_spectator_sees_no_hands(new_page: Any, server: Any) -> None:
    player = new_page()
    code = create_room(player, seats=["human", "greedy", "greedy", "greedy"], seed=3, pace="0.4")
    watcher = new_page(width=900, height=700)
    watcher.goto(f"/#/t/{code}")  # no seat held here: the join screen offers to watch
    watcher.locator("[data-watch]").click()
    watcher.wait_for_selector(".table-view[data-ready][data-status=playing]")
    wait_until(lambda: watcher.locator(".seat").count() == 4, what="four seats for the spectator")
    assert watcher.locator(".hand, .hand-card, [data-action=play]").count() == 0
    # The only faces it may see are the cards played on the table.
    faces = {
        int(c)
        for c in watcher.locator(".card[data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
    }
    on_table = watcher.locator(".trick").get_attribute("data-trick") or ""
    assert faces <= {i for i in range(52)} and len(faces) <= 5, on_table
    mine = set(hand_cards(player))
    assert not faces & mine
    # The tracker shows played cards only: nothing marked as "in your hand".
    watcher.click(".side-toggle")  # a narrow window: the side panel opens as a drawer
    assert watcher.locator(".tracker td.played").count() >= 1
    assert watcher.locator(".tracker td.mine").count() == 0


def test_hot_seat_covers_the_table_between_players(new_page: Any) -> None:
    page = new_page()
    create_room(
        page,
        seats=["human", "greedy", "human", "greedy"],
        names=["Ann", "", "Bea", ""],
        hotseat=True,
        seed=9,
    )
    seen: dict[str, list[int]] = {}
    deadline = time.monotonic() + 30
    while len(seen) < 2:
        assert time.monotonic() < deadline, (
            f"both hot-seat players did not get a turn ({list(seen)})"
        )
        cover = page.locator(".cover")
        if cover.count():
            who = str(cover.get_attribute("data-cover"))
            # Behind the cover no card of anyone's hand is in the page.
            assert (
                page.locator(".hand .hand-card").count() == 0
                or not page.locator(".hand").is_visible()
            )
            assert who in cover.inner_text()
            cover.locator("[data-reveal]").click()
            page.wait_for_selector(".hand .hand-card")
            seen[who] = hand_cards(page)
            assert page.locator(".me strong").first.inner_text() == who
            wait_until(lambda: my_turn(page), what=f"{who}'s turn")
            take_turn(page)
        else:
            page.wait_for_timeout(30)
    assert set(seen) == {"Ann", "Bea"}
    assert not set(seen["Ann"]) & set(seen["Bea"])


def test_a_private_link_continues_the_seat_on_another_device(new_page: Any) -> None:
    phone = new_page()
    code = create_room(phone, seats=["human", "greedy", "greedy", "greedy"], seed=31)
    mine = sorted(hand_cards(phone))
    phone.click("[data-share]")
    link = phone.locator("[data-continue-link]").input_value()
    assert f"#/t/{code}/continue?seat=0&token=" in link
    laptop = new_page()
    laptop.goto(link)
    laptop.wait_for_selector(".table-view[data-status=playing] .hand .hand-card")
    assert sorted(hand_cards(laptop)) == mine  # the same seat, its own hand
    assert "token" not in laptop.evaluate("() => location.href")  # kept, not left in sight
    # Someone watching the table is never shown such a link.
    watcher = new_page()
    watcher.goto(f"/#/t/{code}/watch")
    watcher.wait_for_selector(".table-view[data-ready]")
    watcher.click("[data-share]")
    watcher.wait_for_selector("dialog[open] [data-i18n], dialog[open] input")
    assert watcher.locator("[data-continue-link]").count() == 0
