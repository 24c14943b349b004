"""The golden records: seeded games of every preset, written before the engine and the table
service were folded into one game, so a refactoring can show it changed nothing a record holds.

Two kinds, each made here and kept under ``tests/golden/``:

- ``simulate-<preset>.txt`` (and ``.json`` for the 52-card game): ``bigtwo simulate`` of a
  seeded match between several computer levels, byte for byte;
- ``table-<preset>.sha256``: a table service of four computers played to the end from a seed,
  every event it sent in order (its audience and its JSON), hashed, with the number of events.

``python tests/golden.py`` writes them again: only for a change that means to alter a record.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import sys
from pathlib import Path

FOLDER = Path(__file__).with_name("golden")
PRESETS = (
    "palm",
    "palm-hk",
    "hongkong",
    "taiwan",
    "pusoy-dos",
    "charlesworth2018",
    "deduction",
    "textbook",
    "revolution",
)
# One match a preset: the levels take turns round the presets, so each level plays several.
LEVELS = ("greedy", "strong", "classic", "classic-fair", "random", "learned")
SIMULATED_DEALS = 2


def seats_of(preset: str) -> list[str]:
    if preset == "revolution":  # the levels that play the expansion, its search among them
        return ["strong", "expert", "greedy", "classic"]
    i = PRESETS.index(preset)
    players = 3 if preset == "deduction" else 4
    return [LEVELS[(i + k) % len(LEVELS)] for k in range(players)]


def simulated(preset: str, format: str = "text") -> str:
    """``bigtwo simulate`` of the preset's golden match, as the command prints it."""
    from bigtwo.cli import main

    args = ["simulate", "--rules", preset, "--seats", ",".join(seats_of(preset))]
    args += ["--deals", str(SIMULATED_DEALS), "--seed", str(100 + PRESETS.index(preset))]
    args += ["--format", format]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(args)
    assert code in (0, None), f"simulate {preset} exited {code}"
    return out.getvalue()


def table_events(preset: str) -> tuple[int, str]:
    """A table of four computers (two ``greedy``, two ``random``) played to the end: how many
    events it sent, and the hash of them all in order (audience and JSON)."""
    from bigtwo.service import SeatConfig, TableConfig, TableService

    seats = tuple(SeatConfig("computer", level) for level in ("greedy", "random") * 2)
    table = TableService(
        TableConfig(preset=preset, seats=seats, seed=200 + PRESETS.index(preset), deals=2),
        "GOLD",
    )
    table._start(0.0)  # computers only: nobody says ready, as a local table starts it
    digest = hashlib.sha256()
    count = 0
    for _ in range(20_000):
        if table.status != "playing":
            break
        applied, events = table.submit(None, 0.0)
        assert applied, "a table of computers never waits"
        for event in events:
            digest.update(f"{event.to}\t{event.json()}\n".encode())
            count += 1
    assert table.status == "finished", f"the {preset} table did not finish"
    return count, digest.hexdigest()


def files() -> dict[str, str]:
    """Every golden file's name and the text it should hold now."""
    out: dict[str, str] = {}
    for preset in PRESETS:
        out[f"simulate-{preset}.txt"] = simulated(preset)
        if preset != "revolution":
            out[f"simulate-{preset}.json"] = simulated(preset, "json")
        count, digest = table_events(preset)
        out[f"table-{preset}.sha256"] = f"{count} {digest}\n"
    return out


if __name__ == "__main__":
    FOLDER.mkdir(exist_ok=True)
    for name, text in files().items():
        (FOLDER / name).write_text(text, encoding="utf-8")
        print(f"wrote {FOLDER / name}", file=sys.stderr)
