"""Big 2 RevolutioN in the browser: a seeded revolution room against three computers, played
by clicks. The table shows the Gathering, the Revolution deck and each seat's Revolution
count; the person activates a Character's function (which leaves their hand and lies face
up), answers a counter window that asks them (its clock running), draws from the deck after
a pass and stops; the reference card lists the five functions. In hot-seat play the cover
comes up for the person a counter window asks. The seeds are found by playing the table
service exactly as the page's clicks play it, so the scenario holds for today's computers."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pytest

from .browser_steps import create_room, my_turn, wait_until
from .test_browser_access import AXE, violations
from .test_browser_layout import CONTROLS, LANDED, SCREENS, overlap, problems, scroll_width

LEVELS = ["greedy", "greedy", "greedy"]


def plan_seed(humans: int, levels: list[str], limit: int = 120, steps: int = 16) -> int:
    """The first seed under which, with every person here following ``person`` below, a
    person activates a function, a counter window asks a person, and a person draws from
    the deck after a pass, all within ``steps`` of their decisions (few clicks: a fast test)."""
    from bigtwo.match.match import SeatKind
    from bigtwo.service.commands import Command, Op
    from bigtwo.service.config import SeatConfig, TableConfig
    from bigtwo.service.table import TableService, hash_token

    seats = (
        *(SeatConfig() for _ in range(humans)),
        *(SeatConfig(SeatKind.COMPUTER, lv) for lv in levels),
    )
    for seed in range(1, limit):
        config = TableConfig(preset="revolution", seats=seats, seed=seed, seeded=True, deals=1,
                             autopass=True, autopass_five=False)  # fmt: skip
        table = TableService(config, "SEED")
        for s in range(humans):
            table.submit(Command(Op.JOIN, seat=s, name=f"P{s}", token=hash_token(f"t{s}")), 0.0)
            table.connect(s, 0.0)
            table.submit(Command(Op.READY, seat=s), 0.0)
        done: set[str] = set()
        activated: set[int] = set()
        now, decisions = 0.0, 0
        while decisions < steps and table.status == "playing":
            match = table.game
            assert match is not None
            if match.deal.over:
                break
            cmd = person(table, humans, activated)
            if cmd is not None:
                decisions += 1
                done.add(cmd[1])
                applied, _ = table.submit(cmd[0], now)
            else:
                applied, _ = table.submit(None, now)
            if not applied:
                now += 10.0  # a counter window waits for its clock
            if {"activate", "decline", "draw"} <= done:
                return seed
    raise AssertionError(f"no seed under {limit} plays the scenario")


def person(table: Any, humans: int, activated: set[int]) -> tuple[Any, str] | None:
    """What a person here does now, as the test's clicks do it: let every function stand;
    after a pass draw one card from the deck, then stop; in their turn activate the first
    function that names nobody (once each), else pass, else make Hint's play (the cheapest)."""
    from bigtwo.engine.revolution import Move, Phase
    from bigtwo.service.commands import Command, Op

    deal = table.game.deal
    seen = table.state_v
    if deal.phase is Phase.COUNTER:
        for s in table.asked_seats():
            if s < humans and s not in table.answers:
                return Command(Op.DECLINE, seat=s, seen=seen), "decline"
        return None
    seat = deal.to_act
    if seat >= humans:
        return None
    view = deal.view(seat)
    if deal.phase is Phase.DRAW:
        deck = [c for c in view.choices if c.move is Move.DRAW and not c.cards]
        if deck and view.draws_taken == 0:
            return Command(Op.DRAW, seat=seat, seen=seen), "draw"
        return Command(Op.STOP, seat=seat, seen=seen), "stop"
    functions = [c for c in view.choices if c.move is Move.ACTIVATE and c.target < 0]
    if functions and seat not in activated:
        activated.add(seat)
        return Command(Op.ACTIVATE, seat=seat, cards=functions[0].cards, seen=seen), "activate"
    if view.can_pass:
        return Command(Op.ACT, seat=seat, cards=None, seen=seen), "pass"
    return Command(Op.ACT, seat=seat, cards=view.legal[0].mask, seen=seen), "play"


def hand(page: Any) -> list[int]:
    return [
        int(c)
        for c in page.locator(".hand .hand-card").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
    ]


def my_rev_count(page: Any) -> int:
    return int(page.locator(".me-head [data-rev-count]").get_attribute("data-rev-count") or -1)


def deck_left(page: Any) -> int:
    return int(page.locator("[data-deck-left]").get_attribute("data-deck-left") or -1)


def act(page: Any, activated: set[str], seen: dict[str, Any]) -> str | None:
    """One decision of the person on show, by clicks (see ``person``); None: nothing asked."""
    if page.locator(".cover [data-reveal]").count():
        seen.setdefault("covers", []).append(page.locator(".cover").get_attribute("data-cover"))
        page.click(".cover [data-reveal]")
        return "reveal"
    # The prompt as it stands, read at once (a computer's counter may close the window).
    asked = page.evaluate(PROMPT)
    if asked:
        if "prompt" not in seen and seen.get("layouts") is not None:
            seen["layouts"]["prompt"] = layouts(page, "[data-prompt=open] button")
            if AXE.exists():  # accessibility, with the prompt, the Gathering and starred cards
                seen["axe"] = violations(page)
        seen.setdefault("prompt", asked["text"])
        seen.setdefault("clock", asked["clock"])
        # Whose cards are on show as they answer, and the cover that came up last.
        seen.setdefault("asked", (asked["seat"], (seen.get("covers") or [None])[-1]))
        try:
            page.click("[data-prompt=open] [data-decline]", timeout=2000)
        except Exception:  # the window closed first (a counter, or its clock ran out)
            return "closed"
        # Taken: the prompt says so (or the window closed and it is gone).
        wait_until(lambda: not page.locator("[data-prompt=open]").count(), what="the answer taken")
        return "decline"
    if page.locator("[data-draw-panel]").count():
        me = page.locator(".me").get_attribute("data-seat")
        if page.locator("[data-draw=deck]").count() and me not in activated_draws(seen):
            before, count, deck = hand(page), my_rev_count(page), deck_left(page)
            if "draw_buttons" not in seen and seen.get("layouts") is not None:
                seen["layouts"]["draw"] = layouts(page, "[data-draw=deck]", "[data-stop]", ".take")
            seen.setdefault(
                "draw_buttons", page.locator("[data-draw-panel] button").all_inner_texts()
            )
            page.click("[data-draw=deck]")
            wait_until(
                lambda: len(hand(page)) == len(before) + 1, what="the drawn card in the hand"
            )
            new = set(hand(page)) - set(before)
            assert len(new) == 1 and min(new) >= 52, new  # a Revolution card, face up to its drawer
            assert my_rev_count(page) == count + 1 and deck_left(page) < deck
            seen["drawn_card"] = min(new)
            seen["drawn"] = page.locator(
                f".hand .hand-card[data-card='{new.pop()}']"
            ).get_attribute("aria-label")
            activated_draws(seen).add(me)
            return "draw"
        activated_draws(seen).discard(me)
        page.click("[data-stop]")
        wait_until(lambda: not page.locator("[data-draw-panel]").count(), what="the draw to stop")
        return "stop"
    hint = page.locator("[data-action=hint]")
    if not hint.count() or hint.is_disabled() or page.locator("dialog[open]").count():
        return None
    me = page.locator(".me").get_attribute("data-seat") or ""
    functions = page.locator("[data-activate]:not([data-fn=exchange])")
    if functions.count() and me not in activated:
        activated.add(me)
        card = int(functions.first.get_attribute("data-activate") or -1)
        seen["activated"] = (card, functions.first.inner_text())
        functions.first.click()
        wait_until(lambda: card not in hand(page), what="the activated card to leave the hand")
        return "activate"
    if page.locator("[data-action=pass]").is_enabled():
        page.click("[data-action=pass]")
        wait_until(
            lambda: (
                page.locator("[data-draw-panel]").count()
                or not page.locator("[data-action=pass]").is_enabled()
            ),
            what="the pass",
        )
        return "pass"
    hint.click()
    try:  # the hint's play raised; else the turn moved on (a window opened) before the click
        wait_until(lambda: page.locator("[data-action=play]").is_enabled(), timeout=2, step=0.03)
    except AssertionError:
        return None
    page.click("[data-action=play]")
    wait_until(lambda: not page.locator(".hand .hand-card.selected").count(), what="the play")
    return "play"


# The page settled at its new size: the hand's cards slid to their places (a short
# transition after the hand is laid out again), so nothing reaches past the screen's edge.
SETTLED = """(w) => document.documentElement.scrollWidth <= w
  && !document.getAnimations().some((a) => a.effect?.target?.closest?.('.hand'))"""


PROMPT = """() => {
  const p = document.querySelector('[data-prompt=open]');
  return p && { text: p.innerText, clock: p.querySelector('[data-counter-clock]')?.textContent ?? '',
    seat: document.querySelector('.me')?.dataset.seat ?? null };
}"""


def layouts(page: Any, *panel: str) -> dict[str, list[str]]:
    """On each screen the game is checked on: nothing sideways, and the hand, Play and Pass,
    the Gathering and the panel's buttons in view and uncovered (the problems, by screen)."""
    size = page.viewport_size
    found = {}
    for width, height in sorted(SCREENS, key=lambda wh: wh != (size["width"], size["height"])):
        if (width, height) != (size["width"], size["height"]):
            page.set_viewport_size({"width": width, "height": height})
        with contextlib.suppress(Exception):  # what did not settle in time is told below
            page.wait_for_function(SETTLED, arg=width, timeout=2000)
        wide = [f"scrolls sideways: {scroll_width(page)}"] if scroll_width(page) > width else []
        found[f"{width}x{height}"] = wide + problems(
            page, *CONTROLS, "[data-gathering] .card", *panel
        )
    page.set_viewport_size(size)
    return found


def symbol(card: int) -> str:
    """A card as the page writes it: 10♥, Q♠* (a Revolution card)."""
    rank = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"][(card % 52) >> 2]
    return rank + "♦♣♥♠"[card & 3] + ("*" if card >= 52 else "")


def activated_draws(seen: dict[str, Any]) -> set[str]:
    """The seats that drew from the deck since their last pass (one card each, then stop)."""
    drawing: set[str] = seen.setdefault("drawing", set())
    return drawing


def play_scenario(
    page: Any, limit: int = 80, layouts: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Decide by clicks until a person has activated, answered a window and drawn;
    ``layouts``: also check the layout on every screen at the first prompt and draw."""
    seen: dict[str, Any] = {"layouts": layouts}
    activated: set[str] = set()
    done: set[str] = set()
    moves: list[str] = []
    for _ in range(limit):
        try:
            did = wait_until(
                lambda: act(page, activated, seen), timeout=8, step=0.03, what="something to do"
            )
        except AssertionError as exc:  # say where the page stood
            state = page.evaluate(STATE)
            raise AssertionError(f"{exc} after {moves}; the page: {state}") from None
        moves.append(did)
        done.add(did)
        if {"activate", "decline", "draw"} <= done:
            return seen
    raise AssertionError(f"the scenario did not happen in {limit} moves: {moves}")


# Where the page stands, for a failure's message.
STATE = """() => ({
  message: document.querySelector('[data-message]')?.textContent,
  turn: document.querySelector('.table-view')?.dataset.turn,
  shown: document.querySelector('.me')?.dataset.seat,
  cover: document.querySelector('.cover')?.dataset.cover ?? null,
  panel: document.querySelector('.rev-panel')?.textContent ?? null,
  dialog: document.querySelector('dialog[open]')?.textContent?.slice(0, 80) ?? null,
})"""


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_a_person_activates_answers_a_counter_and_draws(new_page: Any) -> None:
    seed = plan_seed(1, LEVELS)
    # A laptop's screen, the first the layout is checked on; axe is put into the page as a
    # script of the test's.
    page = new_page(width=1366, height=800, bypass_csp=True)
    create_room(page, preset="revolution", seats=["human", *LEVELS], seed=seed)
    # The hand's table: the Gathering's four face-up cards, the deck, each seat's counts.
    assert page.locator("[data-gathering] .card").count() == 4
    assert deck_left(page) == 48
    assert page.locator(".seat [data-rev-count]").count() == 3
    assert page.locator(".seat .count").count() == 3
    # The reference card: every function in a line.
    page.click("[data-reference]")
    items = page.locator("dialog.reference [data-reference-list] li")
    assert items.count() == 5
    assert "Jump" in items.nth(0).inner_text() and "Revolution" in items.nth(4).inner_text()
    page.keyboard.press("Escape")

    seen = play_scenario(page, layouts={})
    card, label = seen["activated"]
    assert card >= 52 and re.search(
        r"(Jump|Counter|Command|Revolution) [0-9JQKA]+[♦♣♥♠]\*", label
    ), label
    assert re.match(r".+ activates .+\*: (Jump|Command|Exchange|Revolution)", seen["prompt"]), seen[
        "prompt"
    ]
    assert re.fullmatch(r"[0-5]s", seen["clock"]), seen["clock"]
    assert (
        seen["draw_buttons"][0].startswith("From the deck")
        and seen["draw_buttons"][-1] == "Stop drawing"
    )
    # The card drawn face down came to the hand, said to be a Revolution card.
    assert re.fullmatch(
        r".+ of .+, Revolution card(, (Jump|Counter|Command|Exchange|Revolution))?", seen["drawn"]
    ), seen["drawn"]
    # The game's history tells the moves in words.
    page.click("[data-tab=history]")
    told = page.locator(".history pre").inner_text()
    fn = label.split(" ")[0]
    assert f"Tess activated {symbol(card)}: {fn}" in told, told
    assert (
        "Tess let it stand" in told
        and f"Tess drew {symbol(seen['drawn_card'])} from the deck" in told
    )
    # On every screen, with the counter prompt and with the draw: nothing sideways, nothing covered.
    fits: dict[str, list[str]] = {f"{w}x{h}": [] for w, h in SCREENS}
    assert seen["layouts"] == {"prompt": fits, "draw": fits}
    assert seen.get("axe", []) == [], "serious accessibility violations"


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_in_hot_seat_the_cover_comes_up_for_the_person_a_counter_window_asks(new_page: Any) -> None:
    names = ["Ann", "Bob", "", ""]
    seed = plan_seed(2, LEVELS[:2])
    page = new_page()
    create_room(
        page,
        preset="revolution",
        seats=["human", "human", *LEVELS[:2]],
        seed=seed,
        hotseat=True,
        names=names,
    )
    seen = play_scenario(page)
    seat, cover = seen["asked"]
    assert seat in ("0", "1") and cover == names[int(seat)], seen["asked"]
    assert re.match(r".+ activates .+\*: (Jump|Command|Exchange|Revolution)", seen["prompt"]), seen[
        "prompt"
    ]
    # Hot-seat rooms give the device time to change hands: the counter clock is 20 s.
    assert int(seen["clock"].rstrip("s")) > 5, seen["clock"]


def exchange_seed(levels: list[str], limit: int = 200) -> int:
    """A seed under which the person, passing when they may (else making the cheapest play),
    taking a Revolution A from the Gathering when one is offered after a pass and letting
    every function stand, soon holds an exchange to activate."""
    from bigtwo.engine.cards import Mask
    from bigtwo.engine.revolution import Move, Phase
    from bigtwo.match.match import SeatKind
    from bigtwo.service.commands import Command, Op
    from bigtwo.service.config import SeatConfig, TableConfig
    from bigtwo.service.table import TableService, hash_token

    seats = (SeatConfig(), *(SeatConfig(SeatKind.COMPUTER, lv) for lv in levels))
    for seed in range(1, limit):
        config = TableConfig(preset="revolution", seats=seats, seed=seed, seeded=True, deals=1,
                             autopass=True, autopass_five=False)  # fmt: skip
        table = TableService(config, "SEED")
        table.submit(Command(Op.JOIN, seat=0, name="A", token=hash_token("a")), 0.0)
        table.connect(0, 0.0)
        table.submit(Command(Op.READY, seat=0), 0.0)
        match = table.game
        assert match is not None
        now = 0.0
        for _ in range(60):
            deal, seen = match.deal, table.state_v
            if deal.over:
                break
            view, cmd = deal.view(0), None
            if deal.phase is Phase.COUNTER:
                if 0 in table.asked_seats() and 0 not in table.answers:
                    cmd = Command(Op.DECLINE, seat=0, seen=seen)
            elif view.to_act == 0 and deal.phase is Phase.DRAW:
                aces = [c for c in view.choices if c.move is Move.DRAW and is_ace(c.cards)]
                take = Mask(aces[0].cards) if aces else None
                cmd = Command(Op.DRAW, seat=0, cards=take, seen=seen) if take else None
                cmd = cmd or Command(Op.STOP, seat=0, seen=seen)
            elif view.to_act == 0:
                if any(c.move is Move.ACTIVATE and c.target >= 0 for c in view.choices):
                    return seed
                cards = None if view.can_pass else Mask(view.legal[0].mask)
                cmd = Command(Op.ACT, seat=0, cards=cards, seen=seen)
            applied, _ = table.submit(cmd, now)
            if not applied:
                now += 10.0
    raise AssertionError(f"no seed under {limit} gives the person an exchange")


def is_ace(card: int) -> bool:
    """A Revolution A (an id of 52 to 103, or a one-card mask of one)."""
    index = card.bit_length() - 1 if card > 103 else card
    return index >= 52 and (index - 52) >> 2 == 11


def test_an_exchange_gives_the_chosen_card_to_the_chosen_player(new_page: Any) -> None:
    seed = exchange_seed(LEVELS)
    page = new_page()
    create_room(page, preset="revolution", seats=["human", *LEVELS], seed=seed)
    exchange = page.locator("[data-activate][data-fn=exchange]")
    for _ in range(40):
        wait_until(
            lambda: (
                exchange.count()
                or page.locator("[data-prompt=open], [data-draw-panel]").count()
                or page.locator("[data-action=pass]").is_enabled()
                or page.locator("[data-action=hint]").is_enabled()
            ),
            what="something to do",
        )
        if exchange.count():
            break
        if page.locator("[data-prompt=open]").count():
            with contextlib.suppress(Exception):  # unless the window closed first
                page.click("[data-prompt=open] [data-decline]", timeout=2000)
        elif page.locator("[data-draw-panel]").count():
            aces = [
                c
                for c in page.locator("[data-draw-panel] [data-draw]").evaluate_all(
                    "els => els.map(e => e.dataset.draw)"
                )
                if c != "deck" and is_ace(int(c))
            ]
            page.click(f"[data-draw='{aces[0]}']" if aces else "[data-stop]")
        elif page.locator("[data-action=pass]").is_enabled():
            page.click("[data-action=pass]")
        else:
            page.click("[data-action=hint]")
            page.click("[data-action=play]")
        page.wait_for_timeout(80)
    ace = int(exchange.get_attribute("data-activate") or -1)
    exchange.click()
    # The dialog asks for a player and a normal card; Give is off until both are chosen.
    dialog = page.locator("dialog.exchange[open]")
    assert dialog.locator("[data-exchange-go]").is_disabled()
    to = page.locator(".seat[data-seat='2'] .name").inner_text()
    dialog.locator("[data-exchange-to='2']").click()
    cards = dialog.locator("[data-exchange-card]:not([disabled])")
    give = int(cards.first.get_attribute("data-exchange-card") or -1)
    assert give < 52  # only normal cards are offered
    cards.first.click()
    assert f"{symbol(give)} goes to {to}, face down." in dialog.inner_text()
    dialog.locator("[data-exchange-go]").click()
    # Let stand by the computers, the exchange takes the card from the hand to seat 2.
    wait_until(lambda: give not in hand(page) and ace not in hand(page), what="the exchange")
    page.click("[data-tab=history]")
    told = page.locator(".history pre").inner_text()
    assert f"Tess activated {symbol(ace)}: Exchange with {to}" in told, told
    assert f"Tess gave {symbol(give)} to {to}" in told, told


def reversed_order(ws: Any) -> None:
    """Between the page and the server: every state the server sends says the order of
    cards is reversed (as after a Revolution function), so the page draws that table."""

    def flip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: True if k == "reversed" else flip(v) for k, v in value.items()}
        return [flip(v) for v in value] if isinstance(value, list) else value

    server = ws.connect_to_server()
    server.on_message(lambda m: ws.send(json.dumps(flip(json.loads(m)))))
    ws.on_message(server.send)


# The centre of a laptop's table, once ORDER REVERSED shows: the strip on one line (its
# Functions button beside the deck), the message above your name, the play over no seat.
CENTRE = """() => {
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null;
    const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (sel) => [...document.querySelectorAll(sel)].map((el) => {
    const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });
  return { deck: box('[data-deck-left]'), functions: box('[data-reference]'),
    message: box('[data-message]'), me: box('.me-head'), plays: all('.trick-play .card'),
    seats: all('.seat') };
}"""


def test_the_reversed_order_keeps_the_laptop_table_in_its_places(new_page: Any) -> None:
    """At 1366×800, once ORDER REVERSED showed, the Functions button wrapped to a line of its
    own, the message went under your name and the play on the table over a seat's."""
    seed = plan_seed(1, LEVELS)
    page = new_page(width=1366, height=800)
    page.route_web_socket(re.compile(r"/ws/"), reversed_order)
    create_room(page, preset="revolution", seats=["human", *LEVELS], seed=seed)
    page.wait_for_selector("[data-reversed]")
    activated: set[str] = set()
    seen: dict[str, Any] = {}
    checked = 0
    for _ in range(30):
        if page.locator("dialog.score-sheet[open]").count():
            break
        if my_turn(page) or page.locator("[data-prompt=open]").count():
            page.wait_for_function(LANDED)
            at = page.evaluate(CENTRE)
            deck, functions = at["deck"], at["functions"]
            assert functions[1] < deck[3] and functions[3] > deck[1], f"Functions wrapped: {at}"
            assert at["message"][3] <= at["me"][1] + 1, f"the message under your name: {at}"
            for card in at["plays"]:
                assert not [s for s in at["seats"] if overlap(card, s) > 1], f"over a seat: {at}"
            assert problems(page, ".seat", "[data-message]", "[data-reversed]", *CONTROLS) == []
            checked += 1
        with contextlib.suppress(AssertionError):
            wait_until(lambda: act(page, activated, seen), timeout=8, step=0.03, what="a move")
    assert checked >= 5, checked
