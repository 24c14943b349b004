"""The browser the tests drive: Chromium opens no window UI of its own (its omnibox popup cost a
third of the browser tests' processor time), and what Playwright disables stays disabled."""

from __future__ import annotations

from typing import Any

from .conftest import UNUSED_FEATURES


def test_the_browser_opens_only_the_pages_a_test_asks_for(new_page: Any, browser: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("select[name=preset]")
    targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    assert page.url in [t["url"] for t in targets]
    assert {t["type"] for t in targets} == {"page"}, [t["url"] for t in targets]


def test_the_last_disabled_features_switch_keeps_playwrights_and_adds_ours(
    launched: tuple[Any, list[str]],
) -> None:
    _, args = launched
    assert args, "the test browser's process was not found in /proc"
    switches = [
        set(a.partition("=")[2].split(",")) for a in args if a.startswith("--disable-features=")
    ]
    assert len(switches) == 2  # Playwright's, then ours, the one Chromium keeps
    assert switches[1] >= switches[0] | UNUSED_FEATURES
