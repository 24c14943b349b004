"""Take the screenshots in docs/screenshots/ from a real server and a seeded game.

Starts ``bigtwo serve`` on a free loopback port with a temporary database, drives headless
Chromium (Debian's /usr/bin/chromium; Playwright downloads nothing) through the lobby, a
seeded game against computer players (a table mid-trick, then the score sheet), the replay
viewer with a text record (as ``bigtwo simulate --out`` writes it), a Big 2 RevolutioN table
(the person's turn with a function to activate, then a counter window asking them) and one
whose order of cards is reversed, on each screen the game is checked on: a phone upright
(390×844) and sideways (844×390), a laptop (1366×800) and a large screen (1920×1080); and on
the phones, a table of the longest names (24 letters). It writes ``lobby-390x844.png`` …
``revolution-reversed-1920x1080.png`` and ``long-names-390x844.png``, each reduced to 64
colours so that the thirty stay small. Run it as ``make screenshots`` or
``python scripts/screenshots.py [--out DIR] [--chromium PATH]``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NAMES = ["Ada", "Bill", "Carl", "Dean"]  # the Palm game's Adam, Bill, Carl and Dean
LEVELS = ["", "strong", "greedy", "strong"]
SCREENS = [(390, 844), (844, 390), (1366, 800), (1920, 1080)]
SHOTS = ("lobby", "table", "scoresheet", "replay", "revolution", "revolution-counter",
         "revolution-reversed")  # fmt: skip
PHONES = SCREENS[:2]  # the long names: where room is shortest
LONG_NAMES = [
    "W" * 24,
    "Bartholomew Ashworthson",
    "Christabel Montgomeryy",
    "Dorothea Wolfensteinn",
]
COLOURS = 64  # a palette PNG: a sixth of the size of the browser's own, and close to it
# The play's cards have moved to the table (a turn timer's bar may go on moving).
LANDED = "() => !document.getAnimations().some((a) => a.effect?.target?.closest?.('.trick-play'))"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


@contextlib.contextmanager
def server() -> Iterator[str]:
    """A ``bigtwo serve`` subprocess on a free port with a temporary database."""
    with tempfile.TemporaryDirectory(prefix="bigtwo-shots-") as tmp:
        port = free_port()
        log = open(Path(tmp) / "server.log", "w+b")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(
            [sys.executable, "-m", "bigtwo.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", str(Path(tmp) / "tables.sqlite3"),
             "--allow-seeds", "--log-level", "warning",
             # every room of every picture comes from this one address
             "--rooms-per-address", "0", "--rooms-per-minute", "0", "--seats-per-address", "0"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                if proc.poll() is not None:
                    log.seek(0)
                    raise SystemExit(f"bigtwo serve exited:\n{log.read().decode(errors='replace')}")
                with (
                    contextlib.suppress(OSError),
                    urllib.request.urlopen(url + "/healthz", timeout=2),
                ):
                    break
                if time.monotonic() > deadline:
                    raise SystemExit("bigtwo serve did not start in 30 s")
                time.sleep(0.1)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()


def my_turn(page: Any) -> bool:
    return bool(
        page.evaluate(
            "() => { const h = document.querySelector('[data-action=hint]');"
            " return !!h && !h.disabled && !document.querySelector('dialog[open], .cover'); }"
        )
    )


def shown_v(page: Any) -> int:
    return int(page.locator(".table-view").get_attribute("data-v") or 0)


def take_turn(page: Any) -> None:
    """Hint, then Play (or Pass when nothing beats the table), and wait for the outcome."""
    before = shown_v(page)
    page.click("[data-action=hint]", timeout=5000)
    if page.locator(".hand .hand-card.selected").count():
        page.click("[data-action=play]")
    else:
        page.click("[data-action=pass]")
    deadline = time.monotonic() + 10
    while shown_v(page) <= before and time.monotonic() < deadline:
        page.wait_for_timeout(20)


def wait_my_turn(page: Any, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("dialog.score-sheet[open]").count():
            return False
        if my_turn(page):
            return True
        page.wait_for_timeout(30)
    raise SystemExit("timed out waiting for our turn")


def create_room(
    page: Any,
    *,
    deals: int,
    seed: int,
    title: str = "",
    preset: str = "palm",
    names: list[str] = NAMES,
) -> str:
    page.goto("/")
    page.select_option("select[name=preset]", preset)
    page.fill("input[name=deals]", str(deals))
    for i in range(4):
        row = page.locator(f".seat-row[data-seat='{i}']")
        row.locator("input[name=seat-name]").fill(names[i])
        if LEVELS[i]:
            row.locator("select[name=level]").select_option(LEVELS[i])
    page.select_option("select[name=computer_delay]", "0")
    # A turn timer: the table shows the clock, and waits between deals for the score sheet.
    page.select_option("select[name=turn_seconds]", "30")
    if title:
        page.fill("input[name=title]", title)
    page.click(".create details > summary")
    page.fill("input[name=seed]", str(seed))
    page.click("[data-create]")
    page.wait_for_selector(".table-view[data-status=playing] .hand .hand-card")
    return str(page.locator(".table-view").get_attribute("data-code"))


def pick_seed(limit: int = 500) -> int:
    """A seed whose first deal, with our seat always taking Hint's play (the cheapest), ends
    with a DOUBLE! on the score sheet and cards still in our hand. The table service is
    played here exactly as the server will play it, so the choice holds for the real game
    whatever the computer players' code is today."""
    from bigtwo.match.match import Match
    from bigtwo.service.commands import Command, Op
    from bigtwo.service.config import SeatConfig, TableConfig
    from bigtwo.service.table import TableService, hash_token

    seats = tuple(
        SeatConfig(name=n) if not lvl else SeatConfig("computer", lvl, n)
        for n, lvl in zip(NAMES, LEVELS, strict=True)
    )
    fallback: int | None = None  # the first seed with cards left in our hand, if none doubles
    for seed in range(1, limit):
        config = TableConfig(preset="palm", seats=seats, seed=seed, seeded=True, deals=2,
                             autopass=True, autopass_five=False)  # fmt: skip
        table = TableService(config, "SHOTS")
        table.submit(Command(Op.JOIN, seat=0, name=NAMES[0], token=hash_token("shots")), 0.0)
        table.connect(0, 0.0)
        table.submit(Command(Op.READY, seat=0), 0.0)
        match = table.game  # the table's match (it was once ``table.match``)
        assert isinstance(match, Match)
        while not match.results:
            view = match.deal.view(0)
            cards = view.legal[0].mask if view.legal else None
            table.submit(Command(Op.ACT, seat=0, cards=cards), 0.0)
        result = match.results[0]
        counts = [c.bit_count() for c in result.cards_left]
        if result.winner != 0 and 3 <= counts[0] <= 8:
            fallback = fallback or seed
            if max(counts) >= 10:
                return seed
    return fallback or 1


def palette_png(rgba: bytes, width: int, height: int, colours: int = COLOURS) -> bytes:
    """A PNG of indexed colour (up to ``colours``) for the RGBA pixels: median cut over the
    pixels' colours (to 6 bits a channel), each box split where its weighted error is
    largest, each pixel drawn in its box's mean colour."""
    pixels = np.frombuffer(rgba, dtype=np.uint8).reshape(-1, 4)[:, :3]
    keys = (pixels[:, 0].astype(np.int32) >> 2) << 12
    keys |= (pixels[:, 1].astype(np.int32) >> 2) << 6
    keys |= pixels[:, 2].astype(np.int32) >> 2
    unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    rgb = np.stack([unique >> 12, (unique >> 6) & 63, unique & 63], axis=1) * 4 + 2
    weight = counts.astype(np.float64)

    def error(box: np.ndarray) -> float:
        mean = np.average(rgb[box], axis=0, weights=weight[box])
        return float((weight[box] * ((rgb[box] - mean) ** 2).sum(axis=1)).sum())

    boxes = [np.arange(len(unique))]
    errors = [error(boxes[0])]
    while len(boxes) < colours:
        worst = int(np.argmax(errors))
        box = boxes[worst]
        if len(box) < 2 or errors[worst] == 0:
            break
        channel = int(np.argmax(np.ptp(rgb[box], axis=0)))
        order = box[np.argsort(rgb[box, channel], kind="stable")]
        half = np.searchsorted(np.cumsum(weight[order]), weight[order].sum() / 2)
        cut = min(max(int(half), 1), len(order) - 1)
        low, high = order[:cut], order[cut:]
        boxes[worst : worst + 1] = [low, high]
        errors[worst : worst + 1] = [error(low), error(high)]
    palette = np.zeros((len(boxes), 3), dtype=np.uint8)
    index_of = np.zeros(len(unique), dtype=np.uint8)
    for i, box in enumerate(boxes):
        palette[i] = np.round(np.average(rgb[box], axis=0, weights=weight[box]))
        index_of[box] = i
    rows = index_of[inverse.reshape(-1)].reshape(height, width)
    raw = np.concatenate([np.zeros((height, 1), dtype=np.uint8), rows], axis=1).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 3, 0, 0, 0])
    return b"".join([
        b"\x89PNG\r\n\x1a\n",
        chunk(b"IHDR", header),
        chunk(b"PLTE", palette.tobytes()),
        chunk(b"IDAT", zlib.compress(raw, 9)),
        chunk(b"IEND", b""),
    ])  # fmt: skip


# The screenshot's pixels, read back by the browser itself (it decodes PNG; Python's standard
# library does not), on a blank page of its own.
PIXELS = """async (b64) => {
  const blob = await (await fetch("data:image/png;base64," + b64)).blob();
  const img = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(img.width, img.height);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  let text = "";
  for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode(...data.subarray(i, i + 0x8000));
  return [img.width, img.height, btoa(text)];
}"""


class Camera:
    """Takes the pictures of one screen size and writes them small (see palette_png)."""

    def __init__(self, browser: Any, url: str, out: Path, size: tuple[int, int]) -> None:
        self.browser, self.url, self.out, self.size = browser, url, out, size

    def context(self) -> Any:
        """A browser context whose player has chosen a name and picture already (no
        first-visit dialog over the page)."""
        width, height = self.size
        ctx = self.browser.new_context(
            viewport={"width": width, "height": height}, base_url=self.url
        )
        ctx.add_init_script(
            "localStorage.setItem('bigtwo.prefs', JSON.stringify({name: 'Ada', avatar: 2}))"
        )
        ctx.set_default_timeout(10_000)
        return ctx

    def shoot(self, page: Any, name: str) -> Path:
        shot = page.screenshot()
        blank = page.context.new_page()
        try:
            width, height, data = blank.evaluate(PIXELS, base64.b64encode(shot).decode())
        finally:
            blank.close()
        path = self.out / f"{name}-{self.size[0]}x{self.size[1]}.png"
        path.write_bytes(palette_png(base64.b64decode(data), width, height))
        return path


def make_rooms(url: str) -> None:
    """Two rooms waiting for players, so the lobby's list has something to show."""
    for title, seats in (
        ("Friday night", ["human", "human", "computer:strong", "human"]),
        ("Beginners welcome", ["human", "computer:greedy", "human", "computer:greedy"]),
    ):
        made = post(f"{url}/api/rooms", {"preset": "palm", "title": title, "seats": seats})
        post(
            f"{url}/api/rooms/{made['code']}/join", {"name": "Mei" if "Friday" in title else "Sam"}
        )


def shoot_lobby(camera: Camera) -> None:
    ctx = camera.context()
    page = ctx.new_page()
    page.goto("/")
    page.wait_for_selector(".room")
    camera.shoot(page, "lobby")
    ctx.close()


def shoot_table_and_sheet(camera: Camera, seed: int) -> None:
    ctx = camera.context()
    page = ctx.new_page()
    create_room(page, deals=2, seed=seed, title="Evening game")
    narrow = not page.locator(".chat input").is_visible()  # the side panel opens on a phone
    if narrow:
        page.click(".side-toggle")
    page.locator(".chat input").fill("Good luck everyone!")
    page.locator(".chat button[type=submit]").click()
    if narrow:
        page.click(".side.open .side-close")
    # A few turns in, on our turn with a play to beat: raise the cards Hint suggests.
    for _ in range(40):
        if not wait_my_turn(page):
            break
        has_table = page.locator(".trick[data-trick]:not([data-trick=''])").count() > 0
        cards = page.locator(".hand .hand-card").count()
        if has_table and cards <= 11:
            page.click("[data-action=hint]")
            chosen = page.locator(".hand .hand-card.selected").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
            page.click("[data-action=clear]")
            if chosen:  # raise the suggested cards by clicking them, as a player would
                for card in chosen:
                    # its left edge: on a phone the next card covers the rest of it
                    page.click(f".hand .hand-card[data-card='{card}']", position={"x": 5, "y": 40})
                break
        take_turn(page)
    page.wait_for_function(LANDED)
    camera.shoot(page, "table")
    # Play the deal out; the score sheet appears when it ends.
    page.click("[data-action=clear]")
    deadline = time.monotonic() + 90
    while not page.locator("dialog.score-sheet[open]").count():
        if time.monotonic() > deadline:
            raise SystemExit("the deal did not end in 90 s")
        if my_turn(page):
            take_turn(page)
        else:
            page.wait_for_timeout(30)
    page.wait_for_timeout(300)
    camera.shoot(page, "scoresheet")
    ctx.close()


def finished_record(seed: int) -> str:
    """A two-deal match of computer players as a text record (the form `bigtwo simulate
    --out` and the terminal write), made with the engine."""
    from bigtwo.bots import make_bot
    from bigtwo.match import RuleSet
    from bigtwo.match.match import Match
    from bigtwo.match.record_formats import write_game

    match = Match(RuleSet.preset("palm"), NAMES, seed=seed, deals=2)
    bots = [make_bot(level) for level in ("strong", "greedy", "strong", "greedy")]
    rng = random.Random(seed)
    while not match.over:
        if match.deal.over:
            match.next_deal()
        seat = match.deal.turn
        match.act(seat, bots[seat].choose(match.view(seat), rng))
    return write_game(match)


def shoot_replay(camera: Camera, record: str) -> None:
    ctx = camera.context()
    page = ctx.new_page()
    page.goto("/#/replay")
    page.set_input_files(
        "[data-upload]",
        files=[{"name": "match.rec", "mimeType": "text/plain", "buffer": record.encode()}],
    )  # fmt: skip
    page.wait_for_selector("[data-replay] .replay-seat")
    for _ in range(14):
        page.click("[data-replay-btn=forward]")
    page.wait_for_function(LANDED)
    camera.shoot(page, "replay")
    ctx.close()


def pick_revolution_seed(limit: int = 200) -> int:
    """A seed whose revolution hand, played as shoot_revolution plays our seat, gives us a
    function to activate and then a counter window opened by another seat while we hold a
    Revolution Q. The table service is played here as the server will play it."""
    from bigtwo.engine.revolution import Move, Phase
    from bigtwo.service.commands import Command, Op
    from bigtwo.service.config import SeatConfig, TableConfig
    from bigtwo.service.table import TableService, hash_token

    seats = tuple(
        SeatConfig(name=n) if not lvl else SeatConfig("computer", lvl, n)  # type: ignore[arg-type]
        for n, lvl in zip(NAMES, LEVELS, strict=True)
    )
    for seed in range(1, limit):
        config = TableConfig(preset="revolution", seats=seats, seed=seed, seeded=True, deals=1,
                             autopass=True, autopass_five=False)  # fmt: skip
        table = TableService(config, "SHOTS")
        table.submit(Command(Op.JOIN, seat=0, name=NAMES[0], token=hash_token("shots")), 0.0)
        table.connect(0, 0.0)
        table.submit(Command(Op.READY, seat=0), 0.0)
        match = table.game
        assert match is not None
        now, offered, activated = 0.0, False, False
        for _ in range(2000):
            deal = match.deal
            if deal.over:
                break
            view, v = deal.view(0), table.state_v
            cmd = None
            if deal.phase is Phase.COUNTER:
                if 0 in table.asked_seats() and 0 not in table.answers:
                    pending = deal.pending
                    qs = [c for c in view.choices if c.move is Move.COUNTER]
                    held = any(deal.function_of(c) == "counter" for c in range(52, 104)
                               if view.hand >> c & 1)  # fmt: skip
                    if offered and pending is not None and pending.seat != 0 and (qs or held):
                        return seed
                    cmd = Command(Op.DECLINE, seat=0, seen=v)
            elif view.to_act == 0 and deal.phase is Phase.DRAW:
                deck = any(c.move is Move.DRAW and not c.cards for c in view.choices)
                first = view.draws_taken == 0 and deck
                cmd = Command(Op.DRAW if first else Op.STOP, seat=0, seen=v)
            elif view.to_act == 0:
                functions = [c for c in view.choices if c.move is Move.ACTIVATE and c.target < 0]
                offered = offered or bool(functions)
                if functions and not activated:
                    activated = True
                    cmd = Command(Op.ACTIVATE, seat=0, cards=functions[0].cards, seen=v)
                else:
                    cards = view.legal[0].mask if view.legal else None
                    cmd = Command(Op.ACT, seat=0, cards=cards, seen=v)
            applied, _ = table.submit(cmd, now)
            if not applied:
                now += 10.0  # the counter window or a computer waits for the clock
    raise SystemExit(f"no seed under {limit} gives a counter window to show")


def shoot_revolution(camera: Camera, seed: int) -> None:
    """A revolution table: on our turn with a Character to activate (after a few draws, so
    the counts show Revolution cards), then a counter window opened by another seat, with
    our Revolution Q to counter with (pick_revolution_seed). We let every function stand,
    draw one card from the deck after each pass, activate the first function that names
    nobody, and otherwise make Hint's play (or pass)."""
    ctx = camera.context()
    page = ctx.new_page()
    create_room(page, deals=1, seed=seed, title="Revolution night", preset="revolution")
    shot: set[str] = set()
    activated = False
    deadline = time.monotonic() + 90

    def click(selector: str) -> None:
        """Click, then wait until the page has heard the answer (a newer event shown)."""
        before = shown_v(page)
        page.click(selector)
        until = time.monotonic() + 5
        while shown_v(page) <= before and time.monotonic() < until:
            page.wait_for_timeout(20)

    while len(shot) < 2:
        if time.monotonic() > deadline or page.locator("dialog.score-sheet[open]").count():
            raise SystemExit(f"the revolution table showed only {sorted(shot)}")
        if page.locator("[data-prompt=open]").count():
            mine = page.locator("[data-prompt=open]").get_attribute("data-prompt-by") != "0"
            if "revolution" in shot and mine and page.locator("[data-counter]").count():
                page.wait_for_timeout(300)  # the play's cards have landed
                camera.shoot(page, "revolution-counter")
                shot.add("revolution-counter")
                break
            click("[data-decline]")
        elif page.locator("[data-draw-panel]").count():
            drawing = page.locator("[data-draw-panel]").get_attribute("data-drawn") == "0"
            deck = page.locator("[data-draw=deck]").count()
            click("[data-draw=deck]" if drawing and deck else "[data-stop]")
        elif my_turn(page):
            functions = page.locator("[data-activate]:not([data-fn=exchange])")
            if functions.count() and "revolution" not in shot:
                page.wait_for_function(LANDED)
                camera.shoot(page, "revolution")
                shot.add("revolution")
            if functions.count() and not activated:
                activated = True
                click("[data-activate]:not([data-fn=exchange])")
            else:
                take_turn(page)
        page.wait_for_timeout(40)
    ctx.close()


def mid_trick(page: Any) -> None:
    """Take turns until it is ours with another seat's play to beat on the table."""
    for _ in range(30):
        if not wait_my_turn(page):
            return
        by = (
            page.locator(".trick-by").get_attribute("data-by")
            if page.locator(".trick-by").count()
            else None
        )
        if by not in (None, "0"):
            break
        take_turn(page)
    page.wait_for_function(LANDED)


def shoot_long_names(camera: Camera, seed: int) -> None:
    """A phone's table where every player has a name of 24 letters (the longest)."""
    ctx = camera.context()
    page = ctx.new_page()
    create_room(page, deals=1, seed=seed, names=LONG_NAMES)
    mid_trick(page)
    camera.shoot(page, "long-names")
    ctx.close()


def reversed_order(ws: Any) -> None:
    """Between the page and the server: every state says the order of cards is reversed
    (as after a Revolution function), so the page draws that table."""

    def flip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: True if k == "reversed" else flip(v) for k, v in value.items()}
        return [flip(v) for v in value] if isinstance(value, list) else value

    server = ws.connect_to_server()
    server.on_message(lambda m: ws.send(json.dumps(flip(json.loads(m)))))
    ws.on_message(server.send)


def shoot_reversed(camera: Camera, seed: int) -> None:
    """A Big 2 RevolutioN table with the order of cards reversed, on our turn with a play
    to beat."""
    ctx = camera.context()
    page = ctx.new_page()
    page.route_web_socket(re.compile(r"/ws/"), reversed_order)
    create_room(page, deals=1, seed=seed, title="Revolution night", preset="revolution")
    page.wait_for_selector("[data-reversed]")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if page.locator("[data-prompt=open]").count():
            page.click("[data-decline]")
        elif page.locator("[data-draw-panel]").count():
            page.click("[data-stop]")
        elif my_turn(page):
            if page.locator(".trick-by").count():
                break
            take_turn(page)
        page.wait_for_timeout(40)
    page.wait_for_function(LANDED)
    camera.shoot(page, "revolution-reversed")
    ctx.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", help="folder for the PNG files")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium to drive")
    args = parser.parse_args(argv)
    if not Path(args.chromium).exists():
        print(
            f"screenshots: no Chromium at {args.chromium} (install Debian's chromium)",
            file=sys.stderr,
        )
        return 1
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=args.chromium, headless=True, args=CHROMIUM_ARGS
        )
        try:
            make_rooms(url)
            seed = pick_seed()
            record = finished_record(seed)
            revolution_seed = pick_revolution_seed()
            cameras = [Camera(browser, url, out, size) for size in SCREENS]
            for camera in cameras:  # the lobby first, before the games below are listed
                shoot_lobby(camera)
            for camera in cameras:
                shoot_table_and_sheet(camera, seed)
                shoot_replay(camera, record)
                shoot_revolution(camera, revolution_seed)
                shoot_reversed(camera, revolution_seed)
                if camera.size in PHONES:
                    shoot_long_names(camera, seed)
        finally:
            browser.close()
    for width, height in SCREENS:
        for name in (*SHOTS, *(["long-names"] if (width, height) in PHONES else [])):
            path = out / f"{name}-{width}x{height}.png"
            print(f"{path}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
