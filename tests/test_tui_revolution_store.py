"""A game of Big 2 RevolutioN in the terminal is kept in the match store as its own record:
its final score offers high-score entry (listed with its rules), the statistics count it,
History lists its deals and the replay steps through its hands face up, from History (``r``)
and from the final score (F8). Its slow computers think in a worker thread, as the 52-card
ones do, and make the same choices there as on the table's own thread.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from bigtwo.bots import make_bot
from bigtwo.engine.revolution import RevolutionView
from bigtwo.match.revolution import RevolutionMatch
from bigtwo.match.revolution_record import write_revolution_text
from bigtwo.match.settings import RuleSet
from bigtwo.service.commands import Command
from bigtwo.service.config import SeatConfig, TableConfig
from bigtwo.service.local import LocalTable, think
from bigtwo.service.table import ThinkRequest, _revolution_command
from bigtwo.store.matches import MatchStore
from bigtwo.store.tables import MemoryStore
from bigtwo.tui.dialogs import FinalScore, ScoreSheet
from bigtwo.tui.pages import HistoryPage, ReplayPage
from bigtwo.tui.table import TableScreen
from test_tui import SIZE, make_app, screen_text, set_prefs
from test_tui_revolution import Person, revolution_app


def page_title(app: object) -> str:
    return str(app.screen.query_one(".page-title").render())  # type: ignore[attr-defined]


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
async def test_a_revolution_game_is_stored_scored_and_replayed(tmp_path: Path) -> None:
    app = revolution_app(tmp_path, deals=1)
    person = Person()
    person.activated, person.passed, person.draws = 1, True, False  # a short hand
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.rules.game == "revolution"
        for _ in range(200):
            if isinstance(app.screen, ScoreSheet):
                break
            await person.act(pilot, app)
        assert isinstance(app.screen, ScoreSheet) and game.game_over
        # History lists the deal; r replays it from the stored record, every hand face up.
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, HistoryPage)
        assert "Deal 1" in screen_text(app)
        history = app.screen.make_text("game")
        assert "Deal 1" in history and "Points:" in history and "(in play)" not in history
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayPage), screen_text(app)
        steps = len(app.screen.steps)
        assert steps > 10 and f"Replay: 1 of {steps}" in page_title(app)
        start = screen_text(app)
        assert "Deal 1: the hand begins" in start and "Gathering" in start
        assert "deck 48 cards; order normal" in start
        for name in game.names:  # every hand face up
            assert f"{name}: " in start
        await pilot.press("right")
        await pilot.pause()
        assert "Replay: 2 of" in page_title(app) and "plays" in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert f"Replay: {steps} of {steps}" in page_title(app)
        assert "wins" in screen_text(app)  # "Over (...): <name> wins"
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheet)
        await pilot.press("enter")
        await pilot.pause()
        # The final score: high-score entry as under every rule set, and F8 replays.
        assert isinstance(app.screen, FinalScore)
        assert "New high score" in screen_text(app)
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, ReplayPage) and "Replay: 1 of" in page_title(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, FinalScore)
        await pilot.press("end", *["backspace"] * 12, *"Rex", "enter")  # kept; still here
        await pilot.pause()
        assert isinstance(app.screen, FinalScore)
        await pilot.press("enter")  # New game
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.game is not game
        score = game.played.totals[0]
        await pilot.press("f4")
        await pilot.pause()
        scores = screen_text(app)
        row = next(line for line in scores.splitlines() if "Rex" in line)
        assert f"{score:+d}" in row and "revolution" in row
        await pilot.press("escape", "f5")
        await pilot.pause()
        stats = next(line for line in screen_text(app).splitlines() if "Rex" in line)
        assert stats.split()[1:4] == ["1", str(int(score == max(game.played.totals))), "1"]
    store = MatchStore(tmp_path / "bigtwo.db")
    try:
        stored = store.load_game(game.match_id or 0)
        assert isinstance(stored, RevolutionMatch) and stored.over
        assert write_revolution_text(stored) == write_revolution_text(game.played)  # type: ignore[arg-type]
        best = store.high_scores()[0]
        assert (best.name, best.score, best.rules, best.rounds) == ("Rex", score, "revolution", 1)
        assert store.stats("Rex").games == 1
    finally:
        store.close()


# -- the match store -------------------------------------------------------------------------------
def _play(match: RevolutionMatch, moves: int) -> None:
    """``moves`` choices of greedy players (the next hand begun when one is over)."""
    bot = make_bot("greedy", "revolution")
    for n in range(moves):
        if match.over:
            return
        deal = match.deal
        if deal.over:
            match.next_deal()
            continue
        seat = deal.to_act
        match.take(bot.choose(deal.view(seat), random.Random(n)))


def test_the_store_keeps_a_revolution_game_as_it_goes(tmp_path: Path) -> None:
    match = RevolutionMatch(RuleSet.preset("revolution"), seed=3, deals=2)
    with MatchStore(tmp_path / "b.db") as store:
        match_id = store.new_match(match, seconds=2.0)
        assert store.load_game(match_id).deal.dealt == match.deal.dealt
        _play(match, 30)
        assert store.save(match_id, match, seconds=12.5) > 0
        assert store.save(match_id, match) == 0  # nothing new; the time stays
        assert store.revolution_seconds(match_id) == 12.5
        back = store.load_game(match_id)
        assert write_revolution_text(back) == write_revolution_text(match)
        info = store.unfinished()[0]
        assert (info.id, info.rules, info.deal_number, info.deals) == (match_id, "revolution", 1, 2)
        try:
            store.load_match(match_id)
        except Exception as exc:  # the 52-card loader says in words what this is
            assert "Big 2 RevolutioN" in str(exc)
        else:
            raise AssertionError("a revolution game was read as a 52-card match")
    # Across a restart, each save appends to what is stored, deal after deal, to the end.
    with MatchStore(tmp_path / "b.db") as store:
        while not match.over:
            _play(match, 25)
            store.save(match_id, match, seconds=30.0)
        store.finish(match_id, match, seconds=40.0)
        store.finish(match_id, match, seconds=40.0)  # twice counts once
        back = store.load_game(match_id)
        assert isinstance(back, RevolutionMatch) and back.over
        assert write_revolution_text(back) == write_revolution_text(match)
        assert not store.unfinished()
        ann = store.stats("Ann")
        assert (ann.games, ann.deals, ann.balance, ann.seconds) == (1, 2, match.totals[1], 40.0)
        assert ann.deals_won == sum(r.winner == 1 for r in match.results)
        high = store.add_match_high_score(match, 0, name="Zed", match_id=match_id, seconds=40.0)
        assert (high.rules, high.rounds, high.score) == ("revolution", 2, match.totals[0])
        assert high.max_score == max(r.points[0] for r in match.results)
        assert "You" not in store.names()  # seat 0's game moved to the name typed


def test_a_stored_revolution_game_refuses_another_games_moves(tmp_path: Path) -> None:
    match = RevolutionMatch(RuleSet.preset("revolution"), seed=3, deals=1)
    other = RevolutionMatch(RuleSet.preset("revolution"), seed=4, deals=1)
    _play(match, 5)
    _play(other, 5)
    with MatchStore(tmp_path / "b.db") as store:
        match_id = store.new_match(match)
        try:
            store.save(match_id, other)
        except Exception as exc:
            assert "holds moves this game does not have" in str(exc)
        else:
            raise AssertionError("another game's moves were saved over the stored ones")


# -- computers thinking in a worker thread ---------------------------------------------------------
def _table_game(offload: object, level: str = "greedy") -> tuple[list[object], int]:
    """A hand of one person (playing greedy's choices) and three computers of ``level``,
    the computers' decisions made through think requests when ``offload`` names them."""
    seats = (SeatConfig(), *(SeatConfig("computer", level=level),) * 3)
    config = TableConfig(preset="revolution", seats=seats, seed=5, deals=1, turn_seconds=None)
    table = LocalTable.open(config, MemoryStore(), {0: "You"}, clock=lambda: 0.0, offload=offload)  # type: ignore[arg-type]
    service = table.service
    assert service.game is not None
    thought = 0
    for n in range(2000):
        deal = service.game.deal
        if deal.over:
            break
        request = table.think_request()
        if request is not None:
            assert isinstance(request.view, RevolutionView)
            assert table.step() == [] and table.hurry() == []  # not made on this thread
            table.thought(request, *think(request))
            thought += 1
        elif table.computer_to_act():
            table.hurry(limit=1)
        else:
            choice = make_bot("greedy", "revolution").choose(
                table.mirrors[0].revolution_view(), random.Random(n)
            )
            cmd = _revolution_command(choice)
            table.send(Command(cmd.op, seat=cmd.seat, cards=cmd.cards, target=cmd.target))
    assert service.game.deal.over
    return list(service.game.deal.actions), thought


def test_revolution_computers_think_in_a_thread_and_choose_the_same() -> None:
    on_the_table, none = _table_game(None)
    elsewhere, thought = _table_game(lambda level: True)
    assert none == 0 and thought > 20
    assert elsewhere == on_the_table  # one seed, one game, wherever the computers think


def test_the_revolution_expert_thinks_in_a_thread() -> None:
    from bigtwo.tui.controller import thinks_in_a_thread

    seats = (SeatConfig(), *(SeatConfig("computer", level="expert"),) * 3)
    config = TableConfig(preset="revolution", seats=seats, seed=2, deals=1, turn_seconds=None)
    table = LocalTable.open(
        config, MemoryStore(), {0: "You"}, clock=lambda: 0.0, offload=thinks_in_a_thread
    )
    deal = table.service.game.deal  # type: ignore[union-attr]
    for _ in range(40):  # the expert's moves and answers, each one a request
        request = table.think_request()
        if request is None:
            break
        assert isinstance(request.view, RevolutionView) and request.level == "expert"
        before = len(deal.actions)
        assert table.hurry() == [] and len(deal.actions) == before
        table.thought(request, *think(request))
        assert len(deal.actions) > before or table.service.answers
    assert table.people_asked() or deal.to_act == 0


async def test_the_expert_thinks_off_the_screens_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a revolution table of expert computers every computer decision is made on a
    worker thread, and the game goes on to your turn as it would on the table's own."""
    from bigtwo.service import local

    threads: list[bool] = []
    decide = local.think

    def counted(request: ThinkRequest) -> object:
        threads.append(threading.current_thread() is threading.main_thread())
        return decide(request)

    monkeypatch.setattr(local, "think", counted)
    set_prefs(tmp_path / "bigtwo.db", rules="revolution", level="expert")
    app = make_app(tmp_path, seed=1, clock=lambda: 1.0)
    async with app.run_test(size=SIZE) as pilot:
        game = app.game
        assert game is not None and game.rules.game == "revolution"
        for _ in range(100):  # Cat leads: the expert's first move comes from its thread
            await pilot.pause(0.02)
            if game.human_to_act == 0:
                break
        assert game.human_to_act == 0 and threads and not any(threads)
        before = len(threads)
        await pilot.press("p")  # pass, draw nothing: the three computers play and answer
        await pilot.pause()
        await pilot.press("enter")
        for _ in range(200):
            await pilot.pause(0.02)
            if game.human_to_act == 0 or game.asked() or game.deal_over:
                break
        assert len(threads) > before and not any(threads)
        assert "You        pass" in screen_text(app) or "Trick 2" in screen_text(app)


def test_a_game_left_by_the_previous_version_resumes_into_the_store(tmp_path: Path) -> None:
    """A revolution game kept the old way (its table's code in a preference, no record) is
    still offered and resumes; from its next save on it is a stored game like any other."""
    from bigtwo.tui.controller import GameController, GameSetup, SeatSetup
    from bigtwo.tui.storage import Saved, SavedRevolution, TuiStorage

    storage = TuiStorage(MatchStore(tmp_path / "b.db"))
    seats = tuple(SeatSetup(n, n == "You", "greedy") for n in ("You", "Ann", "Bill", "Cat"))
    game = GameController(
        GameSetup(seats=seats, rules="revolution", seed=1, deals=1), store=storage.tables
    )
    game.run_computers()
    old = {**game.table_data(), "names": game.names, "totals": [0] * 4, "deal_number": 1}
    storage.set_pref("tui.revolution", {**old, "deals_in_game": 1, "updated": "2026-01-01"})
    saved = storage.unfinished()
    assert isinstance(saved, SavedRevolution) and "revolution: deal 1 of 1" in saved.summary()
    back = storage.load(saved, clock=lambda: 1.0)
    assert (
        back is not None
        and back.rules.game == "revolution"
        and back.mirror.moves == game.mirror.moves
    )
    assert storage.get_pref("tui.revolution") is None
    storage.save_game(back)
    again = storage.unfinished()
    assert isinstance(again, Saved) and again.info.id == back.match_id
    assert again.info.rules == "revolution"
    resumed = storage.load(again, clock=lambda: 2.0)
    assert resumed is not None and resumed.mirror.moves == game.mirror.moves
    storage.close()
