"""The Palm-style history and score sheet: exact text for a known deal, and agreement with
the game record for a whole match."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bigtwo.autoplay import play_out
from bigtwo.bots import make_bot
from bigtwo.cli import main
from bigtwo.engine import card_symbols, parse_cards
from bigtwo.match import Match
from bigtwo.match.history import (
    REAL_MONEY,
    deal_history,
    match_history,
    position_text,
    positions,
    score_rows,
    score_sheet,
    score_table,
)
from bigtwo.match.record import write_json, write_text
from bigtwo.match.settings import RuleSet

NAMES = ["Adam", "Bill", "Carl", "Dean"]


def doubled_deal() -> Match:
    match = Match(
        RuleSet.preset("palm"), NAMES, deals=1,
        hands=["3d 2s", "4d 4c 4h 4s 5d 5c 5h 5s 6d 6c", "7d", "Kd Kc"],
    )  # fmt: skip
    match.play(0, "3d")
    match.pass_(1)
    match.pass_(2)
    match.pass_(3)
    match.play(0, "2s")
    return match


def test_score_sheet_shows_cards_left_double_win_points_and_totals() -> None:
    assert score_sheet(doubled_deal()) == (
        "Deal 1 of 1 (palm)\n"
        "      Left  Points   Total\n"
        "Adam     0     +83     +83  *WIN!*\n"
        "Bill    10     -56     -56  DOUBLE! 4♦ 4♣ 4♥ 4♠ 5♦ 5♣ 5♥ 5♠ 6♦ 6♣\n"
        "Carl     1      -5      -5  7♦\n"
        "Dean     2     -22     -22  K♦ K♣\n"
    )
    rows = score_rows(doubled_deal())
    assert [(r.cards_left, r.note, r.points, r.total) for r in rows] == [
        (0, "*WIN!*", 83, 83), (10, "DOUBLE!", -56, -56), (1, "", -5, -5), (2, "", -22, -22),
    ]  # fmt: skip


def test_deal_history_tells_the_deal_in_the_palm_style() -> None:
    assert deal_history(doubled_deal()) == (
        "=== Deal 1 of 1 (palm) ===\n"
        "Opening hands:\n"
        "  Adam  3♦ 2♠\n"
        "  Bill  4♦ 4♣ 4♥ 4♠ 5♦ 5♣ 5♥ 5♠ 6♦ 6♣\n"
        "  Carl  7♦\n"
        "  Dean  K♦ K♣\n"
        "Lead: Adam\n"
        "Adam: 3♦\n"
        "Bill: pass\n"
        "Carl: pass\n"
        "Dean: pass\n"
        "Lead: Adam\n"
        "Adam: 2♠\n"
        "Winner: Adam\n"
        "Cards left and points:\n"
        "  Adam   0 left    +83  *WIN!*\n"
        "  Bill  10 left    -56  4♦ 4♣ 4♥ 4♠ 5♦ 5♣ 5♥ 5♠ 6♦ 6♣ DOUBLE!\n"
        "  Carl   1 left     -5  7♦\n"
        "  Dean   2 left    -22  K♦ K♣\n"
    )


def test_every_total_zero_says_i_will_not_play_with_real_money() -> None:
    textbook = play_out(Match(RuleSet.preset("textbook"), NAMES, seed=2), [make_bot("greedy")] * 4)
    assert textbook.totals == [0, 0, 0, 0]
    assert score_sheet(textbook).rstrip().endswith(REAL_MONEY)
    assert REAL_MONEY in score_table(textbook)
    fresh = Match(RuleSet.preset("palm"), NAMES, seed=1)
    assert REAL_MONEY in score_sheet(fresh)
    assert REAL_MONEY not in score_sheet(doubled_deal())


def blocks(history: str) -> list[list[str]]:
    """The history cut into its deal blocks (the score table after them left out)."""
    out: list[list[str]] = []
    for line in history.splitlines():
        if line.startswith("=== Deal "):
            out.append([])
        if out and line:
            out[-1].append(line)
    if out:
        out[-1] = out[-1][: next((i for i, x in enumerate(out[-1]) if x.startswith("Deal ")), None)]
    return out


ROW = re.compile(r"^  (\S+)\s+(\d+) left\s+(\S+)")


def test_the_history_of_a_whole_match_agrees_with_its_record(tmp_path: Path) -> None:
    match = play_out(
        Match(RuleSet.preset("palm"), NAMES, seed=31), [make_bot("random") for _ in range(4)]
    )
    history = match_history(match)
    data = json.loads(write_json(match))
    deals = blocks(history)
    assert len(deals) == len(data["deals"]) == 10
    for block, deal in zip(deals, data["deals"], strict=True):
        assert block[0] == f"=== Deal {deal['number']} of 10 (palm) ==="
        hands = [
            f"  {NAMES[s]}  {card_symbols(parse_cards(h).mask)}"
            for s, h in enumerate(deal["hands"])
        ]
        assert block[2:6] == hands
        told = block[7 : block.index(f"Winner: {NAMES[deal['winner']]}")]
        plays = [line for line in told if not line.startswith("Lead: ")]
        wanted = []
        for action in deal["actions"]:
            name = NAMES[action["seat"]]
            if action["play"] is None:
                wanted.append(f"{name}: pass" + (" (auto)" if action.get("auto") else ""))
            else:
                wanted.append(f"{name}: {card_symbols(parse_cards(action['play']).mask)}")
        assert plays == wanted
        # Each "Lead:" line follows a pass that ended a trick.
        for i, line in enumerate(told):
            if line.startswith("Lead: "):
                assert ": pass" in told[i - 1]
        rows = [ROW.match(line) for line in block if ROW.match(line)]
        assert [(r[1], int(r[2]), int(r[3])) for r in rows if r] == [
            (NAMES[s], deal["cards_left"][s], deal["points"][s]) for s in range(4)
        ]
    # The score table at the end carries the totals; each deal sums to zero.
    table = score_table(match)
    assert history.endswith(table)
    assert table.splitlines()[-1].split()[1:] == [f"{t:+d}" if t else "0" for t in data["totals"]]
    assert all(sum(d["points"]) == 0 for d in data["deals"])


def test_export_to_an_unwritable_path_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.txt"
    record.write_text(write_text(doubled_deal()), encoding="utf-8")
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert main(["history", str(record), "--export", str(blocker / "h.txt")]) != 0
    assert re.search(r"Cannot write the history to .*file/h\.txt", capsys.readouterr().err)
    assert blocker.read_text(encoding="utf-8") == "x"


def test_a_deal_in_play_and_the_positions_of_a_replay() -> None:
    match = Match(RuleSet.preset("palm"), NAMES, seed=4, deals=2)
    play_out(match, [make_bot("greedy")] * 4, deals=1)
    match.next_deal()
    match.act(match.deal.turn, match.deal.legal_plays()[0])
    assert deal_history(match).endswith("(the deal is in play)\n")
    steps = positions(match)
    records = match.deal_records()
    assert len(steps) == sum(len(r.actions) + 1 for r in records)
    end_of_first = steps[len(records[0].actions)]
    assert end_of_first.hands == match.results[0].cards_left and end_of_first.turn is None
    assert steps[-1].turn == match.deal.turn and steps[-1].hands == tuple(match.deal.hands)
    text = position_text(match, end_of_first)
    assert (
        "*WIN!*" in text
        and f": play {len(records[0].actions)} of {len(records[0].actions)}" in text
    )
    first = position_text(match, steps[0])
    assert "Dealt. Lead: " in first and first.count("13  ") == 4
    assert first.startswith("Deal 1 of 2 (palm): dealt\n")  # one count, not "step 0 of 61"
