"""Every screen in 繁體中文 is in Chinese: the first visit, the lobby, a table mid-trick with
its side panel, the preferences, the keys, the sharing and host dialogs, the score sheet of a
deal played out, the replay viewer and its errors, and a refused play (a server message).
The page's words (text, labels, titles, placeholders) are read off each screen; what is left
of them once the players' names, room codes, cards and numbers are taken out must hold no
word in Latin letters. The same walk in English finds the English words, so that the check
cannot pass by reading nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .browser_steps import create_room, my_turn, take_turn, wait_until
from .test_browser_replay import finished_record

# The page's words, each with where it was found: text nodes (not the cards' drawings) and
# the attributes people read or hear.
WORDS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || el.closest("svg, script, style, noscript")) continue;
    const text = node.textContent.trim();
    if (text) out.push([el.tagName.toLowerCase() + "." + (el.className?.baseVal ?? el.className), text]);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const name of ["aria-label", "title", "placeholder"]) {
      const text = (el.getAttribute(name) || "").trim();
      if (text) out.push([`${el.tagName.toLowerCase()}[${name}]`, text]);
    }
  }
  out.push(["title", document.title]);
  return out;
}"""

NAMES = ["Tess", "Ann", "Bill", "Cat", "Dan", "Mei"]
# Not words of the page: players' names, codes of rooms, cards (10♥, J♦), the keys' names,
# names of games and of a study (the Palm game, Pusoy Dos, PPO, Charlesworth), a language's
# own name, links.
NOT_WORDS = re.compile(
    r"|".join(NAMES) + r"|\b[A-Z0-9]{6}\b|(?:10|[2-9JQKA])[♦♣♥♠]|[♦♣♥♠](?:10|[2-9JQKA])"
    r"|\b(?:Enter|Esc|Space|Shift|Home|End|PageUp|PageDown|Tab|JSON)\b|\b[A-Z]\b"
    r"|\b(?:Palm|Pusoy Dos|PPO|Charlesworth|English)\b|https?://\S+"
)
LATIN = re.compile(r"[A-Za-z]{2,}")


def latin_words(page: Any, where: str) -> list[str]:
    found = []
    for place, text in page.evaluate(WORDS):
        for word in LATIN.findall(NOT_WORDS.sub(" ", text)):
            found.append(f"{where}: {place}: {word!r} in {text[:60]!r}")
    return found


def in_language(lang: str) -> str:
    return (
        "(() => { const p = JSON.parse(localStorage.getItem('bigtwo.prefs') || '{}');"
        f" localStorage.setItem('bigtwo.prefs', JSON.stringify({{...p, lang: '{lang}'}})); }})()"
    )


def every_screen(new_page: Any, lang: str) -> list[str]:
    """Walk every screen in `lang`; the Latin words found on each."""
    found: list[str] = []
    first = new_page(named=False)
    first.add_init_script(in_language(lang))
    first.goto("/")
    first.wait_for_selector("dialog.welcome-dialog[open]")
    found += latin_words(first, "first visit")

    page = new_page()
    page.add_init_script(in_language(lang))
    page.goto("/")
    page.wait_for_selector("[data-create]")
    found += latin_words(page, "lobby")
    create_room(page, seats=["human", "greedy", "greedy", "greedy"], names=NAMES[:4], seed=8)
    for _ in range(30):  # a turn of ours with a play to beat
        wait_until(lambda: my_turn(page), what="our turn")
        if page.locator(".trick").get_attribute("data-trick"):
            break
        take_turn(page)
    page.locator(".hand .hand-card").first.click(position={"x": 5, "y": 40})
    page.click("[data-action=play]")  # refused: the server's code, in the page's words
    page.wait_for_selector("[data-message].refused")
    found += latin_words(page, "table")
    for tab in page.locator(".side .tabs button").all():
        tab.click()
        found += latin_words(page, "side panel")
    for opener, name in (
        ("#prefs-button", "preferences"),
        ("[data-share]", "share"),
        ("[data-host-controls]", "host controls"),
    ):
        page.click(opener)
        page.wait_for_selector("dialog[open]")
        page.locator("dialog[open] details").evaluate_all("ds => ds.forEach(d => d.open = true)")
        found += latin_words(page, name)
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog[open]", state="detached")
    page.keyboard.press("?")
    page.wait_for_selector("dialog[open]")
    found += latin_words(page, "keys")
    page.keyboard.press("Escape")
    deadline = 90
    while not page.locator("dialog.score-sheet[open]").count():
        deadline -= 1
        assert deadline, "the deal did not end"
        if my_turn(page):
            take_turn(page)
        else:
            page.wait_for_timeout(100)
    found += latin_words(page, "score sheet")

    _, record = finished_record(deals=2)
    page.goto("/#/replay/ZZZZZZ")  # a wrong code: the picker says so
    page.wait_for_selector(".replay-pick .error")
    found += latin_words(page, "replay picker")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "m.json", "mimeType": "application/json", "buffer": record.encode()}],
    )
    page.wait_for_selector("[data-replay] .replay-seat")
    page.keyboard.press("End")
    found += latin_words(page, "replay")
    return found


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_every_screen_is_in_chinese(new_page: Any, server: Any) -> None:
    # A room the lobby lists with computer seats of the server's default names ("Computer 2"):
    # shown in Chinese too.
    room = server.request("POST", "/api/rooms", {"seats": ["human", *["computer:greedy"] * 3]})
    assert room["room"]["seats"][1]["name"] == "Computer 2", room
    found = every_screen(lambda **kw: new_page(refusals=True, **kw), "zh-Hant")
    assert found == [], "\n".join(found)


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_the_walk_reads_the_words_of_every_screen(new_page: Any) -> None:
    found = every_screen(lambda **kw: new_page(refusals=True, **kw), "en")
    places = {line.split(":")[0] for line in found}
    assert places == {
        "first visit", "lobby", "table", "side panel", "preferences", "share", "host controls",
        "keys", "score sheet", "replay picker", "replay",
    }  # fmt: skip
