"""The coach in the browser: "Review this deal" on the score sheet opens the review (the
decisions with their marks, the accuracy, the costliest first, an SVG plot of the points lost,
and a chosen decision's hand and table), the beliefs panel toggles at the table, both in
English and in Chinese, with no serious accessibility violation; a room made with the lobby's
assists unticked offers neither."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .browser_steps import my_turn, take_turn, wait_until
from .test_browser_access import needs_axe, violations
from .test_browser_languages import in_language

MARKS = {"forced", "fine", "inaccuracy", "mistake", "blunder"}
WORDS = {
    "en": {
        "review": "Review this deal",
        "title": "Review of deal 1",
        "beliefs": "What the cards tell",
        "pair": ("a pair", "a pair that beats the pair"),
    },
    "zh-Hant": {
        "review": "檢討這一局",
        "title": "第 1 局檢討",
        "beliefs": "手牌推算",
        "pair": ("有對子", "有壓得過桌上對子的對子"),
    },
}


def create(page: Any, *, assists: bool = True, deals: int = 2, seed: int = 5) -> str:
    """A palm room of this page's player and three easy computers, made through the lobby's
    form (its assists box as asked); returns its code once the hand shows."""
    page.goto("/")
    page.select_option("select[name=preset]", "palm")
    page.select_option("select[name=players]", "4")
    page.fill("input[name=deals]", str(deals))
    for i in range(1, 4):
        row = page.locator(f".seat-row[data-seat='{i}']")
        row.locator("select[name=kind]").select_option("computer")
        row.locator("select[name=level]").select_option("greedy")
    page.select_option("select[name=computer_delay]", "0")
    page.select_option("select[name=turn_seconds]", "0")
    assert page.is_checked("input[name=assists]"), "assists are on unless unticked"
    if not assists:
        page.uncheck("input[name=assists]")
    page.click(".create details > summary")
    page.fill("input[name=seed]", str(seed))
    page.click("[data-create]")
    page.wait_for_selector(".table-view[data-status=playing]")
    page.wait_for_selector(".hand .hand-card")
    return str(page.locator(".table-view").get_attribute("data-code"))


def play_to_the_score_sheet(page: Any) -> None:
    deadline = time.monotonic() + 90
    while not page.locator("dialog.score-sheet[open]").count():
        assert time.monotonic() < deadline, "the deal did not end in 90 s"
        if my_turn(page):
            take_turn(page)
        else:
            page.wait_for_timeout(30)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@needs_axe
def test_the_review_opens_from_the_score_sheet_and_the_beliefs_panel_toggles(
    new_page: Any, server: Any, lang: str
) -> None:
    page = new_page(bypass_csp=True)  # axe is put into the page as a script of the test's
    page.add_init_script(in_language(lang))
    words = WORDS[lang]
    code = create(page)

    # The beliefs panel, at the table: off until asked for, on, then off again.
    toggle = page.locator("[data-beliefs]")
    assert toggle.inner_text().strip() == words["beliefs"]
    assert page.locator("[data-beliefs-panel]").is_hidden()
    toggle.click()
    page.wait_for_selector("[data-beliefs-panel] [data-beliefs-seat]", timeout=60_000)
    rows = page.locator("[data-beliefs-panel] [data-beliefs-seat]")
    assert rows.count() == 3
    chances = page.locator("[data-beliefs-panel] td[data-p]").evaluate_all(
        "els => els.map(e => Number(e.dataset.p))"
    )
    assert chances and all(0.0 <= p <= 1.0 for p in chances)
    # The pair column's words: of a pair at all, or, with a pair on the table, of one beating it.
    pair = page.locator("[data-beliefs-panel] th[data-column=pair]").inner_text().strip()
    assert pair in words["pair"], pair
    assert page.locator("[data-beliefs]").get_attribute("aria-expanded") == "true"
    assert violations(page) == [], "beliefs panel"
    page.click("[data-beliefs]")
    wait_until(lambda: page.locator("[data-beliefs-panel]").is_hidden(), what="the panel to hide")

    # The deal played out: the score sheet offers the review of it.
    play_to_the_score_sheet(page)
    review = page.locator("dialog.score-sheet [data-review-deal]")
    assert review.inner_text().strip() == words["review"]
    review.click()
    page.wait_for_selector("[data-review] .review-move", timeout=90_000)
    assert words["title"] in page.locator("#review-title").inner_text()
    moves = page.locator("[data-review] .review-move")
    marks = moves.evaluate_all("els => els.map(e => e.dataset.mark)")
    assert marks and set(marks) <= MARKS
    # The plot: one bar a decision, as high as the points it lost.
    bars = page.locator("[data-review-plot] rect.review-bar")
    assert bars.count() == moves.count()
    # The costliest first: each is a marked decision, costliest first.
    losses = [float(x) for x in bars.evaluate_all("els => els.map(e => e.dataset.lost)")]
    costly = [
        int(i)
        for i in page.locator("[data-review-costly]").evaluate_all(
            "els => els.map(e => e.dataset.reviewCostly)"
        )
    ]
    assert len(costly) <= 3 and all(marks[i] not in ("fine", "forced") for i in costly)
    assert [losses[i] for i in costly] == sorted((losses[i] for i in costly), reverse=True)
    # Stepping to a decision shows the seat's hand then and the move played.
    last = moves.count() - 1
    moves.nth(last).click()
    detail = page.locator("[data-review-detail]")
    wait_until(
        lambda: page.locator(f"[data-review-step='{last}'][aria-pressed=true]").count(),
        what="the decision chosen",
    )
    hand = detail.locator("[data-review-hand]").get_attribute("data-review-hand") or ""
    assert detail.locator("[data-review-hand] .card").count() == len(hand.split())
    assert detail.locator("[data-review-played]").count() == 1
    assert violations(page) == [], "review"
    # The review is kept: the server answers it at once, the same.
    page.click("[data-review-close]")
    page.wait_for_selector("[data-review]", state="detached")
    assert page.locator("dialog.score-sheet[open]").count(), "the score sheet stays open"
    page.locator("dialog.score-sheet [data-review-deal]").click()
    page.wait_for_selector("[data-review] .review-move", timeout=5_000)
    assert (
        page.locator("[data-review] .review-move").evaluate_all(
            "els => els.map(e => e.dataset.mark)"
        )
        == marks
    )
    page.click("[data-review-close]")
    assert server.get(f"/api/rooms/{code}")["room"]["options"]["assists"] is True


def test_a_room_without_assists_offers_no_coach(new_page: Any, server: Any) -> None:
    page = new_page()
    code = create(page, assists=False)
    assert server.get(f"/api/rooms/{code}")["room"]["options"]["assists"] is False
    assert page.locator("[data-beliefs]").count() == 0
    play_to_the_score_sheet(page)
    assert page.locator("dialog.score-sheet [data-next-deal]").count() == 1
    assert page.locator("dialog.score-sheet [data-review-deal]").count() == 0
