"""Pictures of the coach in the browser for docs/screenshots: the beliefs panel at a table a few
turns into a deal, and the review of that deal opened from its score sheet (the accuracy, the
costliest decisions, the plot of points lost, the decisions with their marks and the position
of the one chosen), on the four screens of scripts/screenshots.py, whose server, browser and
steps it uses; and the beliefs panel at a Big 2 RevolutioN table a few turns into its hand, in
English and in Chinese, on a laptop's screen (``beliefs-revolution-en-1366x800.png``,
``beliefs-revolution-zh-1366x800.png``). ``python scripts/coach_screenshots.py [--out
docs/screenshots] [--only revolution]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

SHOTS = ("beliefs", "review")
SEED = 5  # a palm game whose first deal the player reaches a few turns into
REVOLUTION_SEED = 7  # a revolution hand: a few turns in, Revolution cards drawn
LANGUAGES = {"en": "en", "zh": "zh-Hant"}


def _screenshots() -> ModuleType:
    path = Path(__file__).resolve().parent / "screenshots.py"
    spec = importlib.util.spec_from_file_location("screenshots", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shots = _screenshots()


def shoot_coach(camera: Any, seed: int) -> None:
    ctx = camera.context()
    page = ctx.new_page()
    shots.create_room(page, deals=2, seed=seed, title="Evening game")
    for _ in range(5):  # a few turns in: the passes and plays have told something
        if not shots.wait_my_turn(page):
            break
        shots.take_turn(page)
    page.click("[data-beliefs]")
    page.wait_for_selector("[data-beliefs-panel] [data-beliefs-seat]", timeout=60_000)
    page.mouse.move(0, 0)
    camera.shoot(page, "beliefs")
    page.click("[data-beliefs]")
    deadline = time.monotonic() + 120
    while not page.locator("dialog.score-sheet[open]").count():
        if time.monotonic() > deadline:
            raise SystemExit("the deal did not end in 120 s")
        if shots.my_turn(page):
            shots.take_turn(page)
        else:
            page.wait_for_timeout(30)
    page.click("dialog.score-sheet [data-review-deal]")
    page.wait_for_selector("[data-review] .review-move", timeout=300_000)
    page.mouse.move(0, 0)
    page.wait_for_timeout(200)
    camera.shoot(page, "review")
    ctx.close()


def shoot_revolution_beliefs(camera: Any, seed: int, lang: str) -> None:
    """The beliefs panel at a revolution table in ``lang``, after we have passed and drawn
    from the deck a few times (every function let stand), so Revolution cards are held."""
    ctx = camera.context()
    ctx.add_init_script(
        "(() => { const p = JSON.parse(localStorage.getItem('bigtwo.prefs') || '{}');"
        f" localStorage.setItem('bigtwo.prefs', JSON.stringify({{...p, lang: '{lang}'}})); }})()"
    )
    page = ctx.new_page()
    shots.create_room(page, deals=1, seed=seed, title="Revolution night", preset="revolution")
    turns, deadline = 0, time.monotonic() + 90
    while True:
        if time.monotonic() > deadline or page.locator("dialog.score-sheet[open]").count():
            raise SystemExit("the revolution hand did not get a few turns in")
        if page.locator("[data-prompt=open] [data-decline]").count():
            page.click("[data-decline]")
        elif page.locator("[data-draw-panel]").count():
            drawn = page.locator("[data-draw-panel]").get_attribute("data-drawn") == "0"
            deck = page.locator("[data-draw=deck]").count()
            page.click("[data-draw=deck]" if drawn and deck else "[data-stop]")
        elif shots.my_turn(page):
            if turns == 4:
                break
            turns += 1
            if page.locator("[data-action=pass]:not([disabled])").count():
                page.click("[data-action=pass]")  # pass, to draw
            else:
                shots.take_turn(page)
        page.wait_for_timeout(60)
    page.click("[data-beliefs]")
    page.wait_for_selector("[data-beliefs-panel] [data-beliefs-seat]", timeout=60_000)
    page.wait_for_function(shots.LANDED)
    page.mouse.move(0, 0)
    camera.shoot(page, f"beliefs-revolution-{lang[:2]}")
    ctx.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", help="folder for the PNG files")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium to drive")
    parser.add_argument(
        "--screens", default="", help="only these screens, e.g. 390x844,844x390 (default: all)"
    )
    parser.add_argument(
        "--only", default="", choices=["", "revolution"], help="only the revolution's panel"
    )
    args = parser.parse_args(argv)
    screens = [
        s for s in shots.SCREENS if not args.screens or f"{s[0]}x{s[1]}" in args.screens.split(",")
    ]
    if not Path(args.chromium).exists():
        print(f"coach screenshots: no Chromium at {args.chromium}", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with shots.server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=args.chromium, headless=True, args=shots.CHROMIUM_ARGS
        )
        try:
            for size in [] if args.only else screens:
                shoot_coach(shots.Camera(browser, url, out, size), SEED)
            laptop = shots.Camera(browser, url, out, (1366, 800))
            for lang in LANGUAGES.values():
                shoot_revolution_beliefs(laptop, REVOLUTION_SEED, lang)
        finally:
            browser.close()
    for lang in LANGUAGES:
        path = out / f"beliefs-revolution-{lang}-1366x800.png"
        print(f"{path}  {path.stat().st_size // 1024} KB")
    for width, height in [] if args.only else screens:
        for name in SHOTS:
            path = out / f"{name}-{width}x{height}.png"
            print(f"{path}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
