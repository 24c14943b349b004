"""Steps the browser tests share: creating a room through the lobby form, taking one turn
through clicks, reading what a page shows. Every wait has a timeout."""

from __future__ import annotations

import time
from typing import Any

RANKS = "3456789TJQKA2"
SUITS = "dchs"


def card_text(index: int) -> str:
    return RANKS[index >> 2] + SUITS[index & 3]


def create_room(
    page: Any,
    *,
    seats: list[str] | None = None,
    deals: int = 1,
    seed: int | None = None,
    preset: str = "palm",
    hotseat: bool = False,
    names: list[str] | None = None,
    timer: int = 0,
    wait_start: bool = True,
    pace: str = "0",
    public: bool = True,
    away: int | None = None,
) -> str:
    """Fill in the lobby's form and create a room; returns its code once the table shows.
    ``seats``: "human" or a computer level for each seat."""
    seats = seats or ["human", "greedy", "greedy", "greedy"]
    page.goto("/")
    page.select_option("select[name=preset]", preset)
    page.select_option("select[name=players]", str(len(seats)))
    page.fill("input[name=deals]", str(deals))
    for i, seat in enumerate(seats):
        row = page.locator(f".seat-row[data-seat='{i}']")
        if seat == "human":
            row.locator("select[name=kind]").select_option("human")
        else:
            row.locator("select[name=kind]").select_option("computer")
            row.locator("select[name=level]").select_option(seat)
        if names and names[i]:
            row.locator("input[name=seat-name]").fill(names[i])
    if hotseat:
        page.check("input[name=hotseat]")
    page.select_option("select[name=computer_delay]", pace)
    page.select_option(
        "select[name=turn_seconds]", str(timer)
    )  # 0: none (a public room's default is 30)
    if public:
        page.check("input[name=public]")
    else:
        page.uncheck("input[name=public]")
    if away is not None:
        page.select_option("select[name=away_seconds]", str(away))
    if seed is not None:
        page.click(".create details > summary")
        page.fill("input[name=seed]", str(seed))
    page.click("[data-create]")
    page.wait_for_selector(".table-view[data-ready]")
    if wait_start:
        page.wait_for_selector(".table-view[data-status=playing]")
        if not hotseat:
            page.wait_for_selector(".hand .hand-card")
    return str(page.locator(".table-view").get_attribute("data-code"))


def hand_cards(page: Any) -> list[int]:
    """The cards in the page's hand, in display order."""
    return [
        int(c)
        for c in page.locator(".hand .hand-card").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
    ]


def my_turn(page: Any) -> bool:
    return bool(page.evaluate(
        "() => { const p = document.querySelector('[data-action=play]'); const q = document.querySelector('[data-action=pass]');"
        " const h = document.querySelector('[data-action=hint]');"
        " return !!h && !h.disabled && !document.querySelector('dialog[open], .cover'); }"
    ))  # fmt: skip


def shown_v(page: Any) -> int:
    return int(page.locator(".table-view").get_attribute("data-v") or 0)


def take_turn(page: Any) -> str:
    """Act once through clicks: Hint picks a legal play, then Play; Pass when nothing beats
    the table. Waits until the page shows the outcome. Returns "play" or "pass", or "blocked"
    when the turn was gone before the click (below)."""
    before = shown_v(page)
    if not _click_while_my_turn(page, "[data-action=hint]"):
        return "blocked"
    done = "play" if page.locator(".hand .hand-card.selected").count() else "pass"
    if not _click_while_my_turn(page, f"[data-action={done}]"):
        return "blocked"
    wait_until(
        lambda: (
            shown_v(page) > before
            or "refused" in (page.locator("[data-message]").get_attribute("class") or "")
        ),
        what=f"the {done} to show",
    )
    return done


def _click_while_my_turn(page: Any, selector: str) -> bool:
    """Click a turn's button; False when the turn was gone first: a deal ended (score sheet)
    as we were about to act, or the server acted for the seat (an automatic pass right after
    giving it the turn, or its turn timer ran out on a loaded machine). The buttons act on
    the page and never navigate, so the click does not wait for navigations."""
    try:
        page.click(selector, timeout=1500, no_wait_after=True)
    except Exception:
        if page.locator("dialog[open], .cover").count() or not my_turn(page):
            return False
        # Still our turn: a busy page was slow to take the click; give it the usual time.
        page.click(selector, no_wait_after=True)
    return True


def wait_until(
    predicate: Any, timeout: float = 10.0, step: float = 0.05, what: str = "condition"
) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(step)


def message(page: Any) -> str:
    return str(page.locator("[data-message]").inner_text())


def seed_with_a_double(levels: list[str], preset: str = "palm", limit: int = 800) -> int:
    """A seed whose first deal, with seat 0 always taking Hint's play (the cheapest legal
    one) and computers of ``levels`` (seats 1 …), ends with a DOUBLE! for some loser and
    cards left in seat 0's hand. The table service is played exactly as the server plays it
    (the lobby form's autopass preferences included), so the choice holds for the real game."""
    from bigtwo.service.commands import Command, Op
    from bigtwo.service.config import SeatConfig, TableConfig
    from bigtwo.service.table import TableService, hash_token

    seats = (SeatConfig(), *(SeatConfig("computer", level) for level in levels))
    for seed in range(1, limit):
        config = TableConfig(preset=preset, seats=seats, seed=seed, seeded=True, deals=2,
                             autopass=True, autopass_five=False)  # fmt: skip
        table = TableService(config, "SEED")
        table.submit(Command(Op.JOIN, seat=0, name="A", token=hash_token("a")), 0.0)
        table.connect(0, 0.0)
        table.submit(Command(Op.READY, seat=0), 0.0)
        match = table.game
        assert match is not None
        while not match.results:
            view = match.deal.view(0)
            table.submit(
                Command(Op.ACT, seat=0, cards=view.legal[0].mask if view.legal else None), 0.0
            )
        result = match.results[0]
        if result.winner != 0 and result.cards_left[0] and 2 in result.score.multipliers:
            return seed
    raise AssertionError(f"no seed under {limit} gives a DOUBLE! in the first deal")
