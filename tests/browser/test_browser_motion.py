"""Cards move to the table when played: from our hand for our own play, from the player's
seat for another's, in the replay from the player's hand shown face up, and not at all for a
player whose system asks for less motion (prefers-reduced-motion)."""

from __future__ import annotations

from typing import Any

import pytest

from .browser_steps import create_room, my_turn, take_turn, wait_until
from .test_browser_replay import finished_record

# Each time the play on the table changes, in the same task as its drawing: the cards, who
# played them, how many of the trick's cards are animated, where the first card is drawn at
# that moment (the start of its move) and the box it should come from (our hand, or the
# seat's picture).
WATCH = """() => {
  window.__plays = [];
  let last = null;
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  new MutationObserver(() => {
    const trick = document.querySelector(".trick");
    const now = trick?.dataset.trick || "";
    if (!now || now === last) { last = now || last; return; }
    last = now;
    const by = document.querySelector(".trick-by")?.dataset.by;
    const cards = [...document.querySelectorAll(".trick-play .card")];
    const moving = document.getAnimations().filter((a) => cards.includes(a.effect?.target));
    // Measured at the move's first frame, however late this runs on a busy machine.
    const held = moving.filter((a) => a.effect?.target === cards[0]);
    held.forEach((a) => { a.pause(); a.currentTime = 0; });
    const first = cards[0].getBoundingClientRect();
    held.forEach((a) => a.play());
    const mine = document.querySelector(".me")?.dataset.seat === by;
    window.__plays.push({ cards: now, by: Number(by), mine, moving: moving.length,
      start: [first.left + first.width / 2, first.top + first.height / 2],
      origin: box(mine ? document.querySelector(".hand")
        : document.querySelector(`.seat[data-seat="${by}"] .avatar-wrap`)),
      centre: box(document.querySelector(".centre")) });
    const play = window.__plays.at(-1);
    setTimeout(() => {  // where the card lies once moved, if it is still on the table
      const still = document.querySelector(".trick")?.dataset.trick === now;
      const r = still ? document.querySelector(".trick-play .card").getBoundingClientRect() : null;
      if (r) play.end = [r.left + r.width / 2, r.top + r.height / 2];
    }, 450);
  }).observe(document.getElementById("app"), { childList: true, subtree: true });
}"""


def plays(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.__plays"))


def inside(point: list[float], box: list[float], slack: float = 4.0) -> bool:
    x, y = point
    left, top, right, bottom = box
    return left - slack <= x <= right + slack and top - slack <= y <= bottom + slack


def watch_plays(page: Any, ours: int = 2) -> list[dict[str, Any]]:
    """Play (Hint, then Play or Pass) until `ours` of our plays have reached the table."""
    page.evaluate(WATCH)
    for _ in range(40):
        if sum(p["mine"] for p in plays(page)) >= ours:
            break
        wait_until(lambda: my_turn(page), what="our turn")
        take_turn(page)
    wait_until(lambda: sum(p["mine"] for p in plays(page)) >= ours, what="our plays shown")
    return plays(page)


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
@pytest.mark.parametrize(
    "width",
    [pytest.param(1366, marks=pytest.mark.slow), 390],  # the laptop in the slow run
)
def test_played_cards_move_to_the_table(new_page: Any, width: int) -> None:
    page = new_page(width=width, height=800 if width > 980 else 844)
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8, pace="1")
    seen = watch_plays(page)
    theirs = [p for p in seen if not p["mine"]]
    assert theirs, "no other seat's play was seen"
    for play in seen:
        assert play["moving"] == len(play["cards"].split()), play  # every card moves
        # Each starts where it came from: our hand, or the player's seat.
        assert inside(play["start"], play["origin"]), play
    # And each ends on the table: once moved, the play lies in the centre.
    page.wait_for_timeout(700)
    ended = [p for p in plays(page) if "end" in p]
    assert ended, "no play stayed on the table long enough to see where it ends"
    for play in ended:
        assert inside(play["end"], play["centre"]), play


def test_nothing_moves_when_less_motion_is_asked_for(new_page: Any) -> None:
    page = new_page(width=1366, height=800)
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], seed=8, pace="1")
    seen = watch_plays(page)
    assert len(seen) >= 3
    for play in seen:
        assert play["moving"] == 0, play
        assert inside(play["start"], play["centre"]), play  # drawn at once in its place


# One step forward in the replay, and at once: how many of the cards now on the table move,
# where the first starts, and the box of the same card in the hand it left (before the step).
STEP = """() => {
  const before = new Map([...document.querySelectorAll(".replay-seat .card[data-card]")]
    .map((el) => [el.dataset.card, el.getBoundingClientRect()]));
  document.querySelector("[data-replay-btn=forward]").click();
  const cards = [...document.querySelectorAll(".replay .trick-play .card")];
  const moving = document.getAnimations().filter((a) => cards.includes(a.effect?.target));
  if (!cards.length) return null;
  const r = cards[0].getBoundingClientRect(), from = before.get(cards[0].dataset.card);
  return { cards: cards.length, moving: moving.length,
    start: [r.left + r.width / 2, r.top + r.height / 2],
    origin: from ? [from.left, from.top, from.right, from.bottom] : null };
}"""


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced"])
def test_the_replay_moves_each_play_from_its_hand(new_page: Any, reduced: bool) -> None:
    _, record = finished_record(deals=1)
    page = new_page(width=1366, height=800)
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    page.goto("/#/replay")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "m.json", "mimeType": "application/json", "buffer": record.encode()}],
    )
    page.wait_for_selector("[data-replay] .replay-seat")
    steps = [page.evaluate(STEP) for _ in range(8)]
    shown = [s for s in steps if s and s["origin"]]  # a step onto a new play
    assert len(shown) >= 3, steps
    for step in shown:
        if reduced:
            assert step["moving"] == 0, step
        else:
            assert step["moving"] == step["cards"], step
            assert inside(step["start"], step["origin"]), step
