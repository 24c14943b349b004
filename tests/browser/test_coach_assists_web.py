"""The coach in the browser at a Big 2 RevolutioN table (the beliefs panel counts each
opponent's Revolution cards too, in English and in Chinese, with no serious accessibility
violation), and the host turning the assists off and on during the match from the host
controls: the panel goes and comes back at once, and a spectator never sees it."""

from __future__ import annotations

from typing import Any

import pytest

from .browser_steps import create_room, wait_until
from .test_browser_access import needs_axe, violations
from .test_browser_languages import in_language

WORDS = {
    "en": ("What the cards tell", "Revolution card"),
    "zh-Hant": ("手牌推算", "革命牌"),
}


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@needs_axe
def test_the_beliefs_panel_at_a_revolution_table(new_page: Any, server: Any, lang: str) -> None:
    page = new_page(width=1366, height=800, bypass_csp=True)
    page.add_init_script(in_language(lang))
    code = create_room(
        page, preset="revolution", seats=["human", "greedy", "greedy", "greedy"], seed=7
    )
    toggle = page.locator("[data-beliefs]")
    assert toggle.inner_text().strip() == WORDS[lang][0]
    toggle.click()
    page.wait_for_selector("[data-beliefs-panel] [data-beliefs-seat]", timeout=60_000)
    rows = page.locator("[data-beliefs-panel] [data-beliefs-seat]")
    assert rows.count() == 3
    heads = rows.locator("th").all_inner_texts()
    assert all("★" in head for head in heads), heads  # normal cards + Revolution cards
    chances = page.locator("[data-beliefs-panel] td[data-p]").evaluate_all(
        "els => els.map(e => Number(e.dataset.p))"
    )
    assert len(chances) >= 15 and all(0.0 <= p <= 1.0 for p in chances)
    assert WORDS[lang][1] in page.locator("[data-beliefs-starred]").inner_text()
    answer = server.post(f"/api/rooms/{code}/beliefs", {"token": "wrong"})
    assert answer["error"] == "unauthorized"  # the route answers only a seat's own token
    assert violations(page) == [], "beliefs panel at a revolution table"


def test_the_host_turns_assists_off_and_on_during_the_match(new_page: Any, server: Any) -> None:
    host = new_page()
    code = create_room(host, seats=["human", "greedy", "greedy", "greedy"], deals=2, seed=5)
    watcher = new_page()
    watcher.goto(f"/#/t/{code}/watch")
    watcher.wait_for_selector(".table-view[data-status=playing]")
    host.locator("[data-beliefs]").click()
    host.wait_for_selector("[data-beliefs-panel] [data-beliefs-seat]", timeout=60_000)

    def options() -> dict[str, Any]:
        return dict(server.get(f"/api/rooms/{code}")["room"]["options"])

    def set_assists(on: bool) -> None:
        host.locator("[data-host-controls]").click()
        box = host.locator("dialog.host-controls input[name=assists]")
        assert box.is_checked() is (not on)
        box.set_checked(on)
        host.locator("dialog.host-controls [data-host-save]").click()
        wait_until(lambda: options()["assists"] is on, what=f"assists {on}")

    set_assists(False)
    wait_until(lambda: host.locator("[data-beliefs-panel]").is_hidden(), what="the panel hidden")
    assert host.locator("[data-beliefs]").count() == 0  # nor offered
    set_assists(True)
    # Back for the player who had it open, at once; never for the spectator.
    wait_until(lambda: host.locator("[data-beliefs-panel]").is_visible(), what="the panel back")
    host.wait_for_selector("[data-beliefs-panel] [data-beliefs-seat]", timeout=60_000)
    assert watcher.locator("[data-beliefs]").count() == 0
    assert watcher.locator("[data-beliefs-panel]").is_hidden()
