"""The replay viewer steps through a finished match record, and a phone-sized screen stays
usable: everything fits, cards can be tapped, turns can be taken."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from bigtwo.bots import make_bot
from bigtwo.match.match import Match
from bigtwo.match.record import write_json
from bigtwo.match.record_formats import read_game
from bigtwo.match.settings import RuleSet

from .browser_steps import create_room, hand_cards, my_turn, take_turn, wait_until


def finished_record(
    deals: int = 2, seed: int = 42, names: tuple[str, ...] = ("Ann", "Bill", "Cat", "Dan")
) -> tuple[Match, str]:
    """A match of computer players, played to the end, and its JSON record."""
    match = Match(RuleSet.preset("palm"), list(names), seed=seed, deals=deals)
    bots = [make_bot("greedy") for _ in range(4)]
    rng = random.Random(seed)
    while not match.over:
        if match.deal.over:
            match.next_deal()
        seat = match.deal.turn
        match.act(seat, bots[seat].choose(match.deal.view(seat), rng))
    return match, write_json(match)


def seat_cards(page: Any, seat: int) -> set[int]:
    cards = page.locator(f".replay-seat[data-seat='{seat}'] [data-card]")
    return {int(c) for c in cards.evaluate_all("els => els.map(e => e.dataset.card)")}


def lefts(page: Any) -> list[int]:
    return [
        int(x)
        for x in page.locator(".replay-seat").evaluate_all("els => els.map(e => e.dataset.left)")
    ]


def test_replay_viewer_steps_through_a_finished_record(new_page: Any) -> None:
    match, text = finished_record()
    data = json.loads(text)
    page = new_page()
    page.goto("/")
    page.click("[data-open-replay]")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "match.json", "mimeType": "application/json", "buffer": text.encode()}],
    )
    page.wait_for_selector("[data-replay] .replay-seat")
    first = match.results[0]
    # Every hand shows face up, as dealt.
    assert lefts(page) == [13, 13, 13, 13]
    for seat in range(4):
        assert seat_cards(page, seat) == {i for i in range(52) if first.dealt[seat] >> i & 1}
    # Forward through the first actions: the hands shrink exactly as the record says.
    counts = [13, 13, 13, 13]
    for step, action in enumerate(first.actions[:6], start=1):
        page.click("[data-replay-btn=forward]")
        if action.play is not None:
            counts[action.seat] -= action.play.size
        wait_until(
            lambda s=step: page.locator(f"[data-replay-step='1:{s}']").count(), what=f"step {step}"
        )
        assert lefts(page) == counts
    page.click("[data-replay-btn=back]")
    page.wait_for_selector("[data-replay-step='1:5']")
    page.keyboard.press("ArrowRight")  # keys step too
    page.wait_for_selector("[data-replay-step='1:6']")
    # The end of the deal shows the result.
    page.click("[data-replay-btn=end]")
    page.wait_for_selector(f"[data-replay-step='1:{len(first.actions)}']")
    assert lefts(page) == [h.bit_count() for h in first.cards_left]
    assert "WIN!" in page.locator(".replay-result").inner_text()
    # Jump to the second deal: its own hands, from the start.
    page.select_option("[data-deal-select]", "1")
    page.wait_for_selector("[data-replay-step='2:0']")
    second = data["deals"][1]
    for seat in range(4):
        named = {
            "3456789TJQKA2".index(c[0]) * 4 + "dchs".index(c[1])
            for c in second["hands"][seat].split()
        }
        assert seat_cards(page, seat) == named
    # A bad file is refused in words.
    page.click("text=Another record")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "x.json", "mimeType": "application/json", "buffer": b'{"nope": 1}'}],
    )
    assert "not a match record" in page.locator(".error").inner_text()


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_phone_sized_screen_stays_usable(new_page: Any) -> None:
    page = new_page(width=390, height=800, is_mobile=True, has_touch=True, device_scale_factor=2)
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=21)
    fits = "() => document.scrollingElement.scrollWidth <= window.innerWidth + 1"
    assert page.evaluate(fits)
    cards = page.locator(".hand .hand-card")
    assert cards.count() == 13
    for i in (0, cards.count() - 1):
        box = cards.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 391
    for name in ("play", "pass", "hint", "clear"):
        box = page.locator(f"[data-action={name}]").bounding_box()
        assert box and box["y"] + box["height"] <= 800 and box["x"] + box["width"] <= 391, name
        assert box["height"] >= 30  # big enough to tap
    # Tap cards to raise them; Clear lowers them all.
    cards.first.tap(position={"x": 8, "y": 30})
    assert "selected" in (cards.first.get_attribute("class") or "")
    cards.last.tap()
    assert page.locator(".hand .hand-card.selected").count() == 2
    page.locator("[data-action=clear]").tap()
    assert page.locator(".hand .hand-card.selected").count() == 0
    # Opponents, the trick and the message all show.
    assert page.locator(".seat").count() == 3
    assert page.locator("[data-message]").is_visible()
    for _ in range(2):
        wait_until(lambda: my_turn(page), what="our turn")
        take_turn(page)
    assert len(hand_cards(page)) <= 13 and page.evaluate(fits)


def test_replay_errors_say_what_is_wrong_in_words(new_page: Any) -> None:
    page = new_page(refusals=True)
    page.goto("/#/replay/NOPE22")  # a wrong code is a wrong code
    alert = page.locator(".replay-pick [role=alert]")
    assert alert.inner_text() == "There is no table NOPE22 on this server: check the code"
    for text, words in [
        (b"{not json", "it is not JSON text"),
        (b'{"deals": [{"hands": ["3d 1x"]}]}', "it names something that is not a card"),
    ]:
        page.set_input_files(
            "[data-upload]",
            files=[{"name": "bad.json", "mimeType": "application/json", "buffer": text}],
        )
        page.wait_for_selector(f"text=That file is not a match record: {words}")


def open_record(page: Any, text: str, name: str = "match.json") -> None:
    page.goto("/#/replay")
    page.set_input_files(
        "[data-upload]", files=[{"name": name, "mimeType": "", "buffer": text.encode()}]
    )
    page.wait_for_selector("[data-replay] .replay-seat")


def test_the_replay_speaks_to_you_and_auto_rests_at_the_end_of_a_deal(new_page: Any) -> None:
    """Seat 0 of the terminal's records is called "You": the replay said "You leads". And
    Auto ran on from "End of the deal" into the next deal, past the result."""
    match, text = finished_record(names=("You", "Bill", "Cat", "Dan"))
    page = new_page()
    page.add_init_script(
        "(() => { const p = JSON.parse(localStorage.getItem('bigtwo.prefs') || '{}');"
        " localStorage.setItem('bigtwo.prefs', JSON.stringify({...p, speed: 'fast'})); })()"
    )
    open_record(page, text)
    leader = match.results[0].actions[0].seat
    words = page.locator("[data-replay-message]").inner_text()
    assert words == ("You lead" if leader == 0 else f"{match.names[leader]} leads")
    # Two steps before the end of deal 1, Auto: it plays them and rests on the result.
    last = len(match.results[0].actions)
    page.click("[data-replay-btn=end]")
    page.click("[data-replay-btn=back]")
    page.click("[data-replay-btn=back]")
    page.wait_for_selector(f"[data-replay-step='1:{last - 2}']")
    page.click("[data-replay-btn=auto]")
    page.wait_for_selector(f"[data-replay-step='1:{last}']")
    page.wait_for_timeout(1500)  # four steps' time at this speed
    assert page.locator(f"[data-replay-step='1:{last}']").count() == 1
    assert page.locator(".replay-result").is_visible()
    assert (
        page.locator("[data-replay-btn=auto]").get_attribute("aria-label") == "Play automatically"
    )
    # Auto again, at the end of a deal: the next deal plays.
    page.click("[data-replay-btn=auto]")
    # (any step of deal 2 past its start: at this speed one step lasts a fraction of a second,
    # which a busy machine's polling for one exact step can miss)
    page.wait_for_function(
        "() => /^2:[1-9]/.test(document.querySelector('[data-replay-step]')?.dataset.replayStep)"
    )
    page.click("[data-replay-btn=auto]")  # pause


def test_the_replay_reads_the_text_records_bigtwo_writes(new_page: Any, tmp_path: Any) -> None:
    """`bigtwo simulate --out m.rec` wrote a record the viewer refused: "That file is not a
    match record: it is not JSON text". The server's reader reads it for the viewer."""
    out = tmp_path / "m.rec"
    subprocess.run(
        [sys.executable, "-m", "bigtwo.cli", "simulate", "--rules", "palm", "--seats",
         "strong,greedy,classic,random", "--deals", "2", "--seed", "1", "--out", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    text = out.read_text(encoding="utf-8")
    match = read_game(text)
    page = new_page(refusals=True)
    open_record(page, text, name="m.rec")
    first = match.results[0]
    for seat in range(4):
        assert seat_cards(page, seat) == {i for i in range(52) if first.dealt[seat] >> i & 1}
    labels = page.locator(".replay-seat .label").all_inner_texts()
    assert [label.split("\n")[0] for label in labels] == list(match.names)
    page.click("[data-replay-btn=end]")
    page.wait_for_selector(f"[data-replay-step='1:{len(first.actions)}']")
    assert lefts(page) == [h.bit_count() for h in first.cards_left]
    page.select_option("[data-deal-select]", "1")
    page.wait_for_selector("[data-replay-step='2:0']")
    # A text record that does not replay is refused with the reader's words.
    page.click("text=Another record")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "bad.rec", "mimeType": "", "buffer": text.replace("Kc", "Kx").encode()}],
    )
    alert = page.locator(".replay-pick [role=alert]")
    assert alert.inner_text().startswith("That file is not a match record: line ")
    assert "'Kx' is not a card" in alert.inner_text()
