"""``bigtwo review``: the table of decisions, the JSON form, and bad input refused in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bigtwo.cli import main
from coach_fixtures import EXPERT_RECORD

GOLDEN = Path(__file__).with_name("golden")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.rec"
    path.write_text(EXPERT_RECORD, encoding="utf-8")
    return path


def test_review_prints_the_decisions_the_accuracy_and_the_costliest(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "review", str(record), "--deal", "2", "--rollouts", "8")
    assert (code, err) == (0, "")
    assert "Deal 2: Ann (seat 0)" in out
    for column in ("play", "mark", "move played", "better move", "points lost"):
        assert column in out
    assert "forced" in out and "K♠" in out and "goes out" in out
    assert "Accuracy in deal 2: " in out
    assert "Accuracy in the game" not in out  # one deal reviewed


def test_review_json_is_the_same_review_every_time(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("review", str(record), "--seat", "3", "--json", "--rollouts", "8", "--seed", "5")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    data = json.loads(out)
    assert data["seat"] == 3
    assert [d["deal"] for d in data["deals"]] == [1, 2]
    first = data["deals"][0]["decisions"][0]
    assert (first["step"], first["move"], first["mark"]) == (0, "3♦", "fine")  # it opened
    assert run(capsys, *argv)[1] == out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--seat", "4"), "There is no seat 4: the game has seats 0 to 3"),
        (("--deal", "3"), "There is no deal 3: the record has deals 1 to 2"),
        (("--deal", "0"), "There is no deal 0: the record has deals 1 to 2"),
        (("--rollouts", "2"), "--rollouts must be at least 8"),
    ],
)
def test_review_refuses_a_seat_a_deal_or_a_budget_in_words(
    record: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: str
) -> None:
    code, out, err = run(capsys, "review", str(record), *argv)
    assert (code, out) == (2, "")
    assert err == f"bigtwo: {words}\n"


def test_review_refuses_a_missing_or_corrupt_record_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.rec"
    code, _, err = run(capsys, "review", str(missing))
    assert code == 2 and err.startswith(f"bigtwo: {missing}") and "cannot read" in err
    corrupt = tmp_path / "bad.rec"
    corrupt.write_text("bigtwo-record 1\nrules palm\ndeal 1\nplay 0 3d 3d 3d\n", encoding="utf-8")
    code, _, err = run(capsys, "review", str(corrupt))
    assert code == 2 and err.startswith(f"bigtwo: {corrupt}") and "Traceback" not in err
    not_a_record = tmp_path / "words.txt"
    not_a_record.write_text("hello\n", encoding="utf-8")
    code, _, err = run(capsys, "review", str(not_a_record))
    assert code == 2 and "not a bigtwo record" in err


def test_review_reads_a_big_2_revolution_record_too(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDEN / "simulate-revolution.txt"
    argv = ("review", str(path), "--deal", "1", "--seat", "1", "--rollouts", "8", "--json")
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    data = json.loads(out)
    moves = [d["move"] for d in data["deals"][0]["decisions"]]
    assert moves[:5] == ["A♣", "2♥", "pass", "draw 10♥*", "draw from the deck"]
    code, _, err = run(capsys, "review", str(path), "--deal", "3")
    assert (code, err) == (2, "bigtwo: There is no deal 3: the record has deals 1 to 2\n")
