"""The match commands: simulate, scores, stats, history, replay, record check / convert."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bigtwo.cli import main
from bigtwo.match.record import read_json
from bigtwo.match.record_formats import read_game_file as read_file
from bigtwo.store.matches import MatchStore


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_writes_a_record_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.txt"
    code, text, _ = run(capsys, "simulate", "--rules", "palm", "--seats", "random,random,greedy,random",
                        "--deals", "3", "--seed", "5", "--out", str(out))  # fmt: skip
    assert code == 0 and text.startswith(f"Wrote {out}: 3 deals")
    match = read_file(out)
    assert match.names == ["Ann", "Bill", "Cat", "Dan"]  # computers all: nobody is "You"
    assert (
        match.over and match.deals == 3 and match.kinds == ["random", "random", "greedy", "random"]
    )
    # The same command gives the same game.
    again = tmp_path / "again.txt"
    run(
        capsys,
        "simulate",
        "--seats",
        "random,random,greedy,random",
        "--deals",
        "3",
        "--seed",
        "5",
        "--out",
        str(again),
    )
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    code, text, _ = run(capsys, "record", "check", str(out))
    assert code == 0 and "a sound record" in text and "3 of 3 deals (finished)" in text


def test_simulate_json_and_stdout_and_other_player_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.json"
    code, _, _ = run(capsys, "simulate", "--rules", "deduction", "--seats", "random,greedy,random",
                     "--deals", "2", "--seed", "abc", "--format", "json", "--out", str(out))  # fmt: skip
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["rules"] == "deduction" and len(data["seats"]) == 3 and data["seed"] == "abc"
    assert read_json(out.read_text(encoding="utf-8")).over
    code, text, _ = run(
        capsys, "simulate", "--seats", "greedy,greedy", "--rules", "deduction", "--deals", "1"
    )
    assert code == 0 and text.startswith("bigtwo-record 1\n") and "\nwinner " in text


def test_simulate_refuses_bad_input_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "simulate", "--seats", "random")
    assert code == 2 and "2 to 4" in err
    code, _, err = run(capsys, "simulate", "--rules", "poker")
    assert code == 2 and "Unknown rule preset 'poker'" in err
    code, _, err = run(capsys, "simulate", "--seats", "random,random,random,wizard")
    assert code == 2 and "Unknown computer player 'wizard'" in err
    code, _, err = run(capsys, "simulate", "--seats", "foo")  # named, not counted
    assert code == 2 and "Unknown computer player 'foo'" in err
    code, _, err = run(capsys, "simulate", "--seats", "random,random,random")  # palm is for 4
    assert code == 2 and "not 3" in err
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code, _, err = run(capsys, "simulate", "--deals", "1", "--out", str(blocker / "game.txt"))
    assert code == 2 and "Cannot write the record" in err and "Traceback" not in err


def test_the_database_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "b.db"
    code, _, _ = run(
        capsys,
        "simulate",
        "--deals",
        "2",
        "--seed",
        "9",
        "--save",
        "--db",
        str(db),
        "--out",
        str(tmp_path / "g.txt"),
    )
    assert code == 0
    code, text, _ = run(capsys, "scores", "--db", str(db))
    assert code == 0 and "No high scores yet." in text
    with MatchStore(db) as store:
        match = store.load_match(1)
        store.add_match_high_score(match, 2, name="Bill", match_id=1)
    code, text, _ = run(capsys, "scores", "--db", str(db))
    assert code == 0 and "Bill" in text and str(match.totals[2]) in text
    code, text, _ = run(capsys, "stats", "Ann", "--db", str(db))
    assert code == 0 and "Games        1" in text and "Deals        2" in text
    code, text, _ = run(capsys, "stats", "Nobody", "--db", str(db))
    assert code == 0 and "No finished games" in text
    code, text, _ = run(capsys, "history", "--db", str(db))
    assert code == 0 and text.startswith("=== Deal 1 of 2 (palm) ===") and "Winner: " in text
    export = tmp_path / "history.txt"
    code, text, _ = run(capsys, "history", "1", "--db", str(db), "--export", str(export))
    assert code == 0 and export.read_text(encoding="utf-8").startswith("=== Deal 1")
    code, text, _ = run(capsys, "history", str(tmp_path / "g.txt"))
    assert code == 0 and "Opening hands:" in text
    code, _, err = run(capsys, "history", "7", "--db", str(db))
    assert code == 2 and "no match 7" in err


def test_a_corrupt_database_or_record_gives_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not sqlite " * 500)
    code, _, err = run(capsys, "scores", "--db", str(garbage))
    assert code == 2 and "damaged or is not a database" in err
    bad = tmp_path / "bad.txt"
    bad.write_text(
        "bigtwo-record 1\nrules palm\nseed 1\nseat 0 A\nseat 1 B\nseat 2 C\nseat 3 D\ndeal 1\nplay 0 2s\n",
        encoding="utf-8",
    )
    code, _, err = run(capsys, "record", "check", str(bad))
    assert code == 2 and f"{bad}: line 9:" in err and "Traceback" not in err


def test_record_convert_and_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tmp_path / "g.txt"
    run(capsys, "simulate", "--deals", "2", "--seed", "3", "--out", str(game))
    code, text, _ = run(capsys, "record", "convert", str(game))
    assert code == 0 and json.loads(text)["format"] == "bigtwo-record"
    converted = tmp_path / "g.json"
    code, _, _ = run(capsys, "record", "convert", str(game), "--out", str(converted))
    assert code == 0 and read_file(converted).totals == read_file(game).totals
    code, text, _ = run(capsys, "replay", str(game), "--at", "0")
    assert (
        code == 0 and ": dealt\n" in text and "Dealt. Lead: " in text and text.count(" 13  ") == 4
    )
    code, _, err = run(capsys, "replay", str(game), "--at", "99999")
    assert code == 2 and "--at must be 0 to" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\nn\np\nd\nD\ng 5\ng 99999\ns\nwhat\nq\n"))
    code, text, _ = run(capsys, "replay", str(game))
    assert code == 0
    steps = [int(line[1:].split("/")[0]) for line in text.splitlines() if line.startswith("[")]
    second_deal = len(read_file(game).results[0].actions) + 1
    assert steps == [0, 1, 2, 1, second_deal, 0, 5, 5, 5, 5]
    assert "No step 99999" in text and "Unknown command 'what'" in text and "Total" in text
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # end of input quits
    assert run(capsys, "replay", str(game))[0] == 0


def test_the_installed_command_runs_simulate(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "bigtwo"
    if not exe.exists():
        pytest.skip("the bigtwo console script is not installed next to this Python")
    out = tmp_path / "game.txt"
    done = subprocess.run(
        [str(exe), "simulate", "--rules", "palm", "--seats", "random,random,random,random",
         "--deals", "2", "--seed", "11", "--out", str(out), "--format", "text"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"Wrote {out}: 2 deals" in done.stdout
    assert read_file(out).deal_number == 2


def test_history_of_a_game_in_play_hides_the_hands_of_the_deal_in_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 15, item 13: ``bigtwo history`` on a game in progress printed every opening hand
    of the deal in play, the computers' included. They are hidden until the deal is over; the
    plays made so far are public and shown."""
    from bigtwo.engine.cards import card_symbols
    from bigtwo.match.match import Match
    from bigtwo.match.settings import RuleSet

    db = tmp_path / "b.db"
    match = Match(RuleSet.preset("palm"), ["You", "Ann", "Bill", "Cat"], seed=3, deals=2)
    for _ in range(3):
        seat = match.deal.turn
        match.act(seat, match.view(seat).legal[0])
    with MatchStore(db) as store:
        store.new_match(match)
    code, text, _ = run(capsys, "history", "--db", str(db))
    assert code == 0
    assert text.count("(hidden)") == 4
    for hand in match.deal.dealt:
        assert card_symbols(hand) not in text
    first = match.deal.actions[0]
    assert first.play is not None and card_symbols(first.play.mask) in text
