"""Pictures of the coach in the browser for docs/screenshots: the beliefs panel at a table a few
turns into a deal, and the review of that deal opened from its score sheet (the accuracy, the
costliest decisions, the plot of points lost, the decisions with their marks and the position
of the one chosen), on the four screens of scripts/screenshots.py, whose server, browser and
steps it uses. ``python scripts/coach_screenshots.py [--out docs/screenshots]``.
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", help="folder for the PNG files")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium to drive")
    parser.add_argument(
        "--screens", default="", help="only these screens, e.g. 390x844,844x390 (default: all)"
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
            seed = SEED
            for size in screens:
                shoot_coach(shots.Camera(browser, url, out, size), seed)
        finally:
            browser.close()
    for width, height in screens:
        for name in SHOTS:
            path = out / f"{name}-{width}x{height}.png"
            print(f"{path}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
