"""The SQLite store: matches saved step by step and resumed, preferences, high scores,
statistics, schema migrations, and bad files (corrupt, foreign, newer, locked) refused
without losing a byte."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from pathlib import Path

import pytest

from bigtwo.autoplay import play_out
from bigtwo.bots import Bot, make_bot
from bigtwo.engine import Action, BigTwoError
from bigtwo.match import Match, RecordError, StoreCorrupt, StoreError, StoreLocked
from bigtwo.match.history import match_history, score_sheet, score_table
from bigtwo.match.record import write_text
from bigtwo.match.record_formats import read_game_file, write_game_file
from bigtwo.match.settings import RuleSet
from bigtwo.store.matches import MIGRATIONS, SCHEMA_VERSION, MatchStore, default_path

PALM = RuleSet.preset("palm")


def snapshot(match: Match) -> tuple[object, ...]:
    records = match.deal_records()
    return (
        [r.dealt for r in records],
        [[(a.seat, a.play.mask if a.play else None, a.auto) for a in r.actions] for r in records],
        [r.result.points if r.result else None for r in records],
        match.totals,
        match.names,
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def random_bots() -> list[Bot]:
    return [make_bot("random") for _ in range(4)]


# -- the whole path: play, save, reload, export, replay ------------------------------------------------
def test_ten_deal_palm_match_saved_reloaded_exported_and_replayed_is_identical(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bigtwo.db"
    match = Match(PALM, ["Adam", "Bill", "Carl", "Dean"], seed=2024, kinds=["random"] * 4)
    store = MatchStore(db)
    match_id = store.new_match(match)

    def after(actions: list[Action]) -> None:
        match.add_seconds(0.5)
        store.save(match_id, match)

    play_out(match, random_bots(), random.Random(2024), after=after)
    store.finish(match_id, match)
    store.close()
    assert match.over and len(match.results) == 10

    with MatchStore(db) as again:
        loaded = again.load_match(match_id)
        assert again.unfinished() == []
        [info] = again.matches()
        assert info.finished and info.totals == tuple(match.totals) and info.deal_number == 10
    exported = write_game_file(loaded, tmp_path / "game.txt")
    replayed = read_game_file(exported)

    assert snapshot(loaded) == snapshot(match) == snapshot(replayed)
    assert write_text(replayed) == write_text(match)
    assert replayed.seconds == pytest.approx(match.seconds)
    for result in replayed.results:
        assert sum(result.points) == 0
    assert match_history(replayed) == match_history(match)
    for number in range(1, 11):
        assert score_sheet(replayed, number) == score_sheet(match, number)
    # The score sheet's totals are the record's.
    totals_line = next(
        x
        for x in exported.read_text(encoding="utf-8").splitlines()[::-1]
        if x.startswith("totals ")
    )
    assert totals_line.split()[1:] == [str(t) for t in match.totals]
    assert score_table(replayed).splitlines()[-1].split()[1:] == [
        f"{t:+d}" if t else "0" for t in match.totals
    ]


# -- where the file is, and how it is opened ----------------------------------------------------------------
def test_path_from_argument_else_env_else_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    monkeypatch.delenv("BIGTWO_DB", raising=False)
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "bigtwo.db"
    monkeypatch.setenv("BIGTWO_DB", str(tmp_path / "env.db"))
    assert default_path() == tmp_path / "env.db"
    with MatchStore() as store:
        assert store.path == tmp_path / "env.db"
    with MatchStore(tmp_path / "deep" / "arg.db") as store:
        assert store.path == tmp_path / "deep" / "arg.db" and store.path.is_file()


def test_wal_mode_full_sync_and_schema_version(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "b.db") as store:
        db = store._db()
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert store.schema_version == SCHEMA_VERSION


# -- resuming ------------------------------------------------------------------------------------------------
def test_an_unfinished_match_resumes_exactly_where_it_stopped(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    match = Match(PALM, seed=8, deals=3)
    store = MatchStore(db)
    match_id = store.new_match(match)
    play_out(
        match,
        random_bots(),
        random.Random(1),
        deals=1,
        after=lambda _a: store.save(match_id, match),
    )
    match.next_deal()
    deal = match.deal
    for _ in range(5):
        plays = deal.legal_plays()
        store.append_actions(match_id, match.act(deal.turn, plays[-1] if plays else None))
    match.add_seconds(12.5)
    match.autopass_five = True
    store.save(match_id, match)
    store.close()  # the player quits

    store = MatchStore(db)
    [info] = store.unfinished()
    assert (info.id, info.deal_number, info.deals, info.status) == (match_id, 2, 3, "open")
    assert info.totals == tuple(match.totals)
    resumed = store.load_match(match_id)
    assert snapshot(resumed) == snapshot(match)
    assert resumed.deal.turn == match.deal.turn and resumed.autopass_five
    assert resumed.deal_seconds == pytest.approx(match.deal_seconds)
    # Play on in the resumed game and finish it.
    play_out(
        resumed, random_bots(), random.Random(2), after=lambda _a: store.append_actions(match_id)
    )
    store.finish(match_id)
    assert store.unfinished() == []
    assert snapshot(store.load_match(match_id)) == snapshot(resumed)
    store.close()


def test_saving_another_game_over_a_stored_one_is_refused(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "b.db") as store:
        first = Match(PALM, seed=1)
        match_id = store.new_match(first)
        before = store.record_text(match_id)
        with pytest.raises(StoreError, match="holds moves this game does not have"):
            store.save(match_id, Match(PALM, seed=2))
        assert store.record_text(match_id) == before
        with pytest.raises(StoreError, match="no match 99"):
            store.save(99, first)
        with pytest.raises(StoreError, match="not open in this store"):
            MatchStore(tmp_path / "b.db").append_actions(match_id)


def test_abandoned_matches_are_kept_but_not_offered(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "b.db") as store:
        match_id = store.new_match(Match(PALM, seed=1))
        store.abandon(match_id)
        assert store.unfinished() == []
        assert store.matches()[0].status == "abandoned"
        assert store.load_match(match_id).deal_number == 1


# -- preferences, high scores, statistics ------------------------------------------------------------------
def test_preferences_hold_json_values(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "b.db") as store:
        assert store.get_pref("autopass", True) is True
        store.set_pref("autopass", False)
        store.set_pref("names", ["Adam", "Bill"])
        store.set_pref("names", ["Ann", "Bob"])
        store.set_pref("speed", {"delay": 0.4})
        assert store.get_pref("autopass", True) is False
        assert store.prefs() == {
            "autopass": False,
            "names": ["Ann", "Bob"],
            "speed": {"delay": 0.4},
        }
        with pytest.raises(StoreError, match="cannot be stored"):
            store.set_pref("bad", object())
        store.delete_pref("speed")
        assert store.get_pref("speed") is None
    with MatchStore(tmp_path / "b.db") as store:
        assert store.get_pref("names") == ["Ann", "Bob"]


def test_high_scores_with_name_entry_rounds_seconds_max_and_balance(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "b.db") as store:
        match = Match(PALM, ["You", "Ann", "Bill", "Cat"], seed=12)
        match_id = store.new_match(match)
        play_out(match, random_bots(), random.Random(3))
        match.add_seconds(321.5)
        store.finish(match_id, match)
        store.finish(match_id, match)  # counted once
        entry = store.add_match_high_score(match, 0, name="Bill Chan", match_id=match_id)
        assert (entry.name, entry.score, entry.rules, entry.rounds) == (
            "Bill Chan",
            match.totals[0],
            "palm",
            10,
        )
        assert entry.seconds == pytest.approx(321.5) and entry.max_score == match.best_deal(0)
        assert entry.balance == match.totals[0]  # "Bill Chan" had no games before
        seat_name = store.add_match_high_score(match, 1, match_id=match_id)
        assert seat_name.balance == match.totals[1]  # Ann's finished game is counted once
        store.add_high_score("Bill Chan", 50, rules="palm-hk", rounds=10, seconds=60, max_score=30)
        later = store.add_high_score("Bill Chan", -20, rounds=10)
        assert later.balance == match.totals[0] + 50 - 20
        scores = store.high_scores()
        assert [s.score for s in scores] == sorted((s.score for s in scores), reverse=True)
        assert len(store.high_scores(limit=2)) == 2
        assert store.is_high_score(-(10**6))  # fewer than 10 entries: any score enters
        for i in range(10):
            store.add_high_score(f"P{i}", 100 + i)
        assert not store.is_high_score(100) and store.is_high_score(101)
        with pytest.raises(StoreError, match="one line"):
            store.add_high_score("a\nb", 1)


def test_lifetime_statistics_per_name(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "b.db") as store:
        games = []
        for seed in (1, 2):
            match = Match(PALM, ["You", "Ann", "Bill", "Cat"], seed=seed, deals=3)
            match_id = store.new_match(match)
            play_out(match, random_bots(), random.Random(seed))
            match.add_seconds(10)
            store.finish(match_id, match, stats_for=[0, 1])
            games.append(match)
        you = store.stats("You")
        assert you.games == 2 and you.deals == 6
        assert you.balance == sum(g.totals[0] for g in games)
        assert you.best_game == max(g.totals[0] for g in games)
        assert you.best_deal == max(g.best_deal(0) for g in games)
        assert you.deals_won == sum(g.deals_won(0) for g in games)
        assert you.games_won == sum(g.totals[0] == max(g.totals) for g in games)
        assert you.seconds == pytest.approx(20)
        assert store.stats("Bill").games == 0  # not asked for
        assert store.names() == ["Ann", "You"]
        entry = store.add_high_score("Bill", 40, rounds=3)  # a name typed at the prompt
        assert entry.balance == 40 and store.stats("Bill").games == 1


# -- schema migrations --------------------------------------------------------------------------------------
def test_a_version_one_database_is_migrated_keeping_its_data(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("PRAGMA application_id = 1110590530")
    conn.execute("INSERT INTO prefs VALUES ('theme', '\"green\"')")
    conn.execute(
        "INSERT INTO high_scores (name, score, date, rules, rounds, seconds, max_score, balance)"
        " VALUES ('Old', 99, '2007-02-11', 'palm', 10, 600, 40, 99)"
    )
    conn.commit()
    conn.close()
    with MatchStore(db) as store:
        assert store.schema_version == 2
        assert store.get_pref("theme") == "green"
        assert [(s.name, s.score) for s in store.high_scores()] == [("Old", 99)]
        assert store.stats("Old").games == 0  # the table added by migration 2 works


def test_a_database_from_a_newer_bigtwo_is_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    MatchStore(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = digest(db)
    with pytest.raises(StoreError, match="newer bigtwo"):
        MatchStore(db)
    assert digest(db) == before


# -- bad files ------------------------------------------------------------------------------------------------
def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "garbage.db"
    db.write_bytes(b"this is not a database, it is a shopping list\n" * 200)
    before = digest(db)
    with pytest.raises(
        StoreCorrupt, match="damaged or is not a database.*left untouched"
    ) as caught:
        MatchStore(db)
    assert isinstance(caught.value, BigTwoError)
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["garbage.db"]


def test_a_damaged_database_is_refused_and_never_rewritten(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    with MatchStore(db) as store:
        for seed in range(3):
            match = Match(PALM, seed=seed)
            store.save(store.new_match(match), play_out(match, random_bots(), deals=2))
        store.set_pref("keep", "me")
    raw = bytearray(db.read_bytes())
    page = 4096
    assert len(raw) > 3 * page
    raw[2 * page + 8 : 3 * page] = b"\xa5" * (page - 8)  # scribble over a b-tree page
    db.write_bytes(bytes(raw))
    before = digest(db)
    with pytest.raises(StoreCorrupt, match="damaged"):
        MatchStore(db)
    assert digest(db) == before


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ann')")
    conn.commit()
    conn.close()
    before = digest(db)
    with pytest.raises(StoreCorrupt, match="some other program"):
        MatchStore(db)
    assert digest(db) == before


def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is not a file"):
        MatchStore(tmp_path)


def test_a_locked_database_gives_a_clear_error_and_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    match = Match(PALM, seed=5)
    store = MatchStore(db, timeout=0.1)
    match_id = store.new_match(match)
    play_out(
        match,
        random_bots(),
        random.Random(5),
        deals=1,
        after=lambda _a: store.save(match_id, match),
    )
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    match.next_deal()
    with pytest.raises(StoreLocked, match="locked by another program.*nothing stored was lost"):
        store.save(match_id, match)
    with pytest.raises(StoreLocked):
        store.set_pref("x", 1)
    assert store.load_match(match_id).deal_number == 1  # reading still works
    other.execute("ROLLBACK")
    store.save(match_id, match)  # the next save catches up
    assert snapshot(store.load_match(match_id)) == snapshot(match)
    # A program holding the file exclusively blocks even reading it.
    store.close()
    other.execute("PRAGMA locking_mode = EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO prefs VALUES ('y', '2')")
    with pytest.raises(StoreLocked):
        MatchStore(db, timeout=0.1).load_match(match_id)
    other.execute("ROLLBACK")
    other.close()
    with MatchStore(db) as store:
        assert snapshot(store.load_match(match_id)) == snapshot(match)


def test_a_stored_record_that_no_longer_replays_names_the_match_and_line(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    with MatchStore(db) as store:
        match = Match(PALM, seed=3)
        match_id = store.new_match(match)
        play_out(match, random_bots(), deals=1, after=lambda _a: store.save(match_id, match))
    conn = sqlite3.connect(db)
    conn.execute("UPDATE match_lines SET line = 'play 0 9x' WHERE seq = 6")
    conn.commit()
    conn.close()
    with MatchStore(db) as store:
        with pytest.raises(RecordError, match=r"match 1 in .*b\.db, line \d+: '9x' is not a card"):
            store.load_match(match_id)
        assert "play 0 9x" in store.record_text(match_id)  # still there to inspect or repair


def test_a_name_typed_at_the_high_score_prompt_takes_the_seats_game(tmp_path: Path) -> None:
    """Issue 15, item 1: the seat played as "Tester", the person typed "Newbie" at the prompt:
    the game counts once, for Newbie (won included), not once for each name."""
    with MatchStore(tmp_path / "b.db") as store:
        match = Match(PALM, ["Tester", "Ann", "Bill", "Cat"], seed=12, deals=2)
        match_id = store.new_match(match)
        play_out(match, random_bots(), random.Random(3))
        store.finish(match_id, match, stats_for=[0])
        entry = store.add_match_high_score(match, 0, name="Newbie", match_id=match_id)
        newbie = store.stats("Newbie")
        assert store.names() == ["Newbie"]
        assert (newbie.games, newbie.deals, newbie.balance) == (1, 2, match.totals[0])
        assert newbie.games_won == int(match.totals[0] == max(match.totals))
        assert newbie.deals_won == match.deals_won(0)
        assert store.stats("Tester").games == 0
        assert entry.balance == match.totals[0]
