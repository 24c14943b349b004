"""The coach in the terminal: a deal's review (its marks, the better move, stepping through
the decisions, kept with the game once done) from the score sheet and the replay, and the
beliefs panel at the table (its exact figures, its toggle, and its absence where the host
turned assists off and for a spectator), at tables of both games."""

from __future__ import annotations

import asyncio
import random
from math import comb
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import OptionList

from bigtwo.coach.beliefs import beliefs_of, holds_beating, holds_group
from bigtwo.coach.replay import seat_turns
from bigtwo.coach.review import GameReview, move_words, review_data, review_deal
from bigtwo.engine.cards import Mask, card_symbols
from bigtwo.engine.errors import BigTwoError
from bigtwo.engine.plays import catalog_for
from bigtwo.match.record_formats import read_game_file
from bigtwo.match.revolution import RevolutionMatch
from bigtwo.service import TableService
from bigtwo.service.config import TableConfig
from bigtwo.service.request import table_config
from bigtwo.tui.beliefs import SPECTATOR, BeliefsPanel, beliefs_text, chance_words, refused
from bigtwo.tui.coaching import ASSISTS_OFF
from bigtwo.tui.controller import GameController, GameSetup, SeatSetup
from bigtwo.tui.dialogs import ScoreSheet
from bigtwo.tui.pages import ReplayPage
from bigtwo.tui.review import SEED, ReviewPage, coach_of
from bigtwo.tui.revolution_coaching import RevolutionCoach
from coach_fixtures import two_led_alone
from test_coach_beliefs import _position_against
from test_tui import SIZE, make_app, play_deal, screen_text, take_turn

ROLLOUTS = 60
BIG = (120, 40)
SCREENSHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


@pytest.fixture(autouse=True)
def few_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ReviewPage, "rollouts", ROLLOUTS)


class Shelf(dict[str, Any]):
    """A store's preferences, in memory."""

    def get_pref(self, key: str, default: Any = None) -> Any:
        return self.get(key, default)

    def set_pref(self, key: str, value: Any) -> None:
        self[key] = value


class Host(App[None]):
    """An app that shows one review page."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, page: ReviewPage) -> None:
        super().__init__()
        self.page = page

    def on_mount(self) -> None:
        self.push_screen(self.page)


def planted(shelf: Shelf | None = None) -> tuple[ReviewPage, Any, int]:
    match, seat = two_led_alone()
    coach = coach_of(match.ruleset.rules)
    page = ReviewPage(
        coach.subject(match, 2), coach, deal=2, seat=seat, names=match.names, shelf=shelf,
        game_id=7,
    )  # fmt: skip
    return page, match.deal_records()[1], seat


def text_of(app: App[None], selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def finished(app: App[None], pilot: Any) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def sheet_drawn(pilot: Any, app: Any) -> None:
    for _ in range(20):
        if isinstance(app.screen, ScoreSheet) and "Cards left" in screen_text(app):
            return
        await pilot.pause(0.05)
    raise AssertionError("the score sheet was not drawn")


# -- the review page ----------------------------------------------------------------------------
async def test_the_review_marks_the_two_led_alone_and_names_the_better_move() -> None:
    page, record, seat = planted()
    expected = review_deal(record, seat, seed=SEED, rollouts=ROLLOUTS)
    first = expected.decisions[0]
    assert first.step == 0 and move_words(first.move) == "2♠"
    assert first.mark.value in ("mistake", "blunder")
    app = Host(page)
    async with app.run_test(size=BIG) as pilot:
        await finished(app, pilot)
        text = screen_text(app)  # type: ignore[arg-type]
        assert f"{first.mark.value}: 2♠ lost {first.loss:.1f}" in text  # costliest first
        assert f"better {move_words(first.better)}" in text
        moves = [str(o.prompt) for o in page.query_one(OptionList).options]
        assert len(moves) == len(expected.decisions)
        assert moves[0].startswith(" 1. 2♠") and first.mark.value in moves[0]
        accuracy = expected.accuracy
        assert accuracy is not None and f"accuracy {100 * accuracy:.0f}%" in text
        # The first decision shown is the costliest: the position as the seat saw it.
        detail = text_of(app, "#review-detail")
        turn = next(seat_turns(record, seat))
        assert f"hand (13): {card_symbols(turn.view.hand)}" in detail
        assert "The table is empty: a lead" in detail
        assert f"Better: {move_words(first.better)}" in detail
        plot = page.query_one("#review-plot").data  # type: ignore[attr-defined]
        assert plot == [max(0.0, round(d.loss, 3)) for d in expected.decisions]
        # The same seed, the same review: the page's is the coach's, worked out apart.
        assert page.data == review_data(GameReview(seat, (expected,)))


async def test_stepping_shows_each_decision_as_the_seat_saw_it() -> None:
    page, record, seat = planted()
    turns = list(seat_turns(record, seat))
    app = Host(page)
    async with app.run_test(size=BIG) as pilot:
        await finished(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        detail = text_of(app, "#review-detail")
        second = turns[1]
        assert f"Played: {move_words(second.action.play)}" in detail
        assert f"hand ({second.view.hand.bit_count()}): {card_symbols(second.view.hand)}" in detail
        beat = second.view.to_beat
        assert beat is None or f"To beat: {card_symbols(Mask(beat.mask))}" in detail
        await pilot.press("p", "p")  # nothing before the first
        await pilot.pause()
        assert f"Played: {move_words(turns[0].action.play)}" in text_of(app, "#review-detail")


async def test_a_review_is_kept_and_read_back_instead_of_worked_out_again() -> None:
    shelf = Shelf()
    page, _, seat = planted(shelf)
    async with Host(page).run_test(size=BIG) as pilot:
        await finished(pilot.app, pilot)
        assert "Reviewed: kept with the game" in text_of(pilot.app, "#review-note")
    assert list(shelf) == [f"tui.review.7.2.{seat}"]
    kept = shelf[f"tui.review.7.2.{seat}"]
    assert (kept["seed"], kept["rollouts"]) == (SEED, ROLLOUTS)
    again, _, _ = planted(shelf)
    again.ascii_only = True  # and drawn without suit symbols
    async with Host(again).run_test(size=BIG) as pilot:
        await pilot.pause()
        assert "Reviewed before" in text_of(pilot.app, "#review-note")
        assert len(pilot.app.workers) == 0  # nothing worked out
        assert again.data == kept["review"]
        text = screen_text(pilot.app)  # type: ignore[arg-type]
        assert " 1. 2s " in text and "Your hand (13):" in text
        assert not set("♠♥♦♣") & set(text)


# -- from the score sheet and the replay ---------------------------------------------------------
async def test_the_score_sheet_and_the_replay_open_the_review_kept_with_the_game(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, deals=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_deal(pilot, app)
        await sheet_drawn(pilot, app)
        assert "Review this deal (v)" in screen_text(app)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ReviewPage)
        page = app.screen
        assert (page.deal, page.seat) == (1, 0)
        await finished(app, pilot)
        assert page.data is not None
        marks = {d["mark"] for d in page.decisions}
        assert marks and marks <= {"forced", "fine", "inaccuracy", "mistake", "blunder"}
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheet)  # the sheet waits meanwhile
        await pilot.press("g", "r")  # the history, then the replay of the deal over
        await pilot.pause()
        assert isinstance(app.screen, ReplayPage)
        await pilot.press("v")
        await pilot.pause()
        again = app.screen
        assert isinstance(again, ReviewPage) and (again.deal, again.seat) == (1, 0)
        await pilot.pause()
        assert "Reviewed before: kept with the game" in text_of(app, "#review-note")
        assert again.data == page.data
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReplayPage)


# -- the beliefs panel ----------------------------------------------------------------------------
def chance(p: float) -> str:
    return f"{100 * p:.0f}%"


async def test_the_beliefs_panel_toggles_and_counts_exactly_at_the_first_lead(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None
        view = game.view()
        assert view.seat == 0 and not view.actions  # nothing played: every figure counted
        await pilot.press("b")
        await finished(app, pilot)
        panel = app.screen.query_one(BeliefsPanel)
        text = str(panel.render())
        unseen = view.unseen
        u = unseen.bit_count()
        twos = (unseen >> 48 & 0xF).bit_count()
        aces = (unseen >> 44 & 0xF).bit_count()
        for seat in (1, 2, 3):
            k = view.counts[seat]
            two = 1 - comb(u - twos, k) / comb(u, k)
            ace = 1 - comb(u - aces, k) / comb(u, k)
            pair = holds_group(unseen, k, 2)
            triple = holds_group(unseen, k, 3)
            figures = "".join(f" {chance(p):>4}" for p in (two, ace))
            figures += "    -" + "".join(f" {chance(p):>4}" for p in (pair, triple))
            row = f"{game.names[seat][:5]:<5}{k:>3}{figures} ~"  # the five-card play sampled
            assert row in text, text
        assert ">pr" not in text and "beating the table" not in text  # nothing to beat yet
        # It follows the play: after your lead and the replies, the counts of now.
        await take_turn(pilot, app)
        later = game.view()
        assert later.actions and later.counts != view.counts
        rows = [f"{game.names[s][:5]:<5}{later.counts[s]:>3} " for s in (1, 2, 3)]
        for _ in range(50):  # the panel looks at the table four times a second
            await finished(app, pilot)
            text = str(panel.render())
            if all(row in text for row in rows):
                break
            await pilot.pause(0.1)
        assert all(row in text for row in rows), text
        await pilot.press("b")
        await pilot.pause()
        assert not app.screen.query(BeliefsPanel)


def test_the_panel_names_the_column_of_pairs_beating_the_pair_on_the_table() -> None:
    """With a pair on the table the pair column reads ``>pr`` and holds the chance of a pair
    beating it (counted exactly); the triple and five-card columns stay plain."""
    view = _position_against(21, 2, hidden=10)
    assert view.to_beat is not None
    names = ["Ann", "Bea", "Cy", "Dot"]
    text = str(beliefs_text(beliefs_of(view, random.Random(0), 50), names))
    head = text.splitlines()[1]
    assert head.split() == ["2", "A", ">1", ">pr", "3k", "5c"], head
    assert ">pr: a pair beating the table's" in text
    catalog = catalog_for(view.rules)
    for seat in (s for s in range(4) if s != view.seat):
        k = view.counts[seat]
        row = next(line for line in text.splitlines() if line.startswith(f"{names[seat]:<5}{k:>3}"))
        beats = holds_beating(view.unseen, k, 2, catalog, view.to_beat)
        assert row.split()[5] == chance(beats), (row, beats)
        assert beats < holds_group(view.unseen, k, 2) or beats == 0


async def test_no_beliefs_and_no_review_where_the_host_turned_assists_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = GameSetup.table_config

    def without_assists(self: GameSetup, game_number: int = 1) -> Any:
        from dataclasses import replace

        return replace(made(self, game_number), assists=False)

    monkeypatch.setattr(GameSetup, "table_config", without_assists)
    app = make_app(tmp_path, deals=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        assert not app.screen.query(BeliefsPanel)
        assert "assists off" in screen_text(app)
        await play_deal(pilot, app)
        await sheet_drawn(pilot, app)
        assert "Review this deal" not in screen_text(app)  # not offered
        await pilot.press("v")  # not offered: the key does nothing
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheet)
        await pilot.press("g", "r", "v")  # the replay refuses it, in words
        await pilot.pause()
        assert isinstance(app.screen, ReplayPage)
        assert ASSISTS_OFF in text_of(app, "#page-note")


def test_a_room_request_sets_assists_and_its_room_says_so() -> None:
    """The host's choice travels from the room request to the room every player reads
    (``options.assists``), and a stored configuration without it keeps them on."""
    seats = ["human", *["computer:random"] * 3]
    for asked, expected in (({}, True), ({"assists": False}, False)):
        config = table_config({"preset": "palm", "seats": seats, **asked})
        assert config.assists is expected
        room = TableService(config, "SRV").info()
        assert room["options"]["assists"] is expected
    old = config.to_json()
    del old["assists"]
    assert TableConfig.from_json(old).assists is True
    with pytest.raises(BigTwoError, match="assists"):
        table_config({"preset": "palm", "seats": seats, "assists": "no"})


@pytest.mark.parametrize("rules", ["palm", "revolution"])
def test_a_spectator_gets_no_beliefs(rules: str) -> None:
    seats = tuple(SeatSetup(name, False, "random") for name in ("Ann", "Bill", "Cat", "Dan"))
    game = GameController(GameSetup(seats=seats, seed=4, rules=rules))
    assert game.rules.name == rules and game.started and not game.deal_over
    assert refused(game) == SPECTATOR


# -- Big 2 RevolutioN ----------------------------------------------------------------------------
async def test_a_hand_of_the_revolution_is_reviewed() -> None:
    game = read_game_file(Path(__file__).with_name("golden") / "simulate-revolution.txt")
    assert isinstance(game, RevolutionMatch)
    coach = coach_of(game.ruleset.rules)
    assert isinstance(coach, RevolutionCoach)
    page = ReviewPage(coach.subject(game, 1), coach, deal=1, seat=0, names=game.names)
    async with Host(page).run_test(size=BIG) as pilot:
        await finished(pilot.app, pilot)
        assert page.data is not None
        assert len(page.decisions) == coach.decisions(page.subject, 0) > 0
        assert "Cards left:" in text_of(pilot.app, "#review-detail")


def exact_figures(beliefs: Any) -> list[tuple[int, str, str]]:
    """Each counted chance of ``beliefs`` as the panel shows it."""
    return [
        (o.seat, name, chance_words(c))
        for o in beliefs.opponents
        for name, c in o.chances().items()
        if c is not None and c.exact
    ]


async def test_the_beliefs_panel_at_a_revolution_table_counts_what_the_engine_would(
    tmp_path: Path,
) -> None:
    """At a table of Big 2 RevolutioN, ``b`` shows each opponent's normal and Revolution
    counts and the chances; as the hand goes on (you draw, a computer takes from the
    Gathering, functions are used) the panel's view, rebuilt from the table's messages,
    gives the same counted figures as the engine's own view of your seat."""
    from test_tui_revolution import Person, revolution_app

    app = revolution_app(tmp_path)
    person = Person()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.rules.game == "revolution"
        await pilot.press("b")
        await finished(app, pilot)
        panel = app.screen.query_one(BeliefsPanel)
        checked = shown = 0
        for _ in range(40):
            if isinstance(app.screen, ScoreSheet) or game.deal_over:
                break
            mirror_view = game.revolution_view()
            engine = game.local.service.game.deal.view(0)
            if len(mirror_view.actions) and mirror_view.phase == engine.phase:
                mine = beliefs_of(mirror_view, random.Random(0), 20)
                assert exact_figures(mine) == exact_figures(
                    beliefs_of(engine, random.Random(0), 20)
                )
                checked += 1
            for _ in range(30):
                text = str(panel.render())
                rows = [
                    f"{game.names[s][:5]:<5}{mirror_view.counts[s]}+{mirror_view.revolution_counts[s]}"
                    for s in (1, 2, 3)
                ]
                if all(row in text for row in rows):
                    shown += 1
                    break
                if game.revolution_view() != mirror_view:
                    break
                await pilot.pause(0.05)
            assert "starred card stands for its twin" in text, text
            await person.act(pilot, app)
        assert checked >= 10 and shown >= 10 and "drew" in person.seen, (checked, shown)
        await pilot.press("b")
        await pilot.pause()
        assert not app.screen.query(BeliefsPanel)


# -- screenshots -----------------------------------------------------------------------------------
async def save_screenshots() -> None:
    """docs/screenshots/tui-review.svg (the planted 2♠ reviewed, 1,000 rollouts a decision)
    and tui-beliefs.svg (the beliefs panel at the first lead of the terminal tests' game).
    Run: ``PYTHONPATH=src:tests python tests/test_tui_coach.py``."""
    import tempfile

    page, _, _ = planted()
    app = Host(page)
    async with app.run_test(size=(110, 34)) as pilot:
        await finished(app, pilot)
        app.save_screenshot("tui-review.svg", str(SCREENSHOTS))
    with tempfile.TemporaryDirectory() as folder:
        table = make_app(Path(folder))
        async with table.run_test(size=(100, 28)) as pilot:
            await pilot.pause()
            await pilot.press("b")
            await finished(table, pilot)
            table.save_screenshot("tui-beliefs.svg", str(SCREENSHOTS))


if __name__ == "__main__":
    import asyncio

    asyncio.run(save_screenshots())


# -- a server's table ------------------------------------------------------------------------------
@pytest.mark.parametrize("assists", [True, False])
async def test_the_network_score_sheet_opens_the_servers_review_of_the_deal(
    server: Any, tmp_path: Path, assists: bool
) -> None:
    """At a server's table the score sheet offers "Review this deal" (``v``): the page shows
    the server's own review of the deal for our seat (the one the browser is given, kept with
    the game), its marks, and each decision's position as we saw it; a room whose host
    turned assists off does not offer it."""
    import httpx

    from bigtwo.client import Lobby
    from bigtwo.tui.app import BigTwoApp
    from test_tui_network import follow_hints, screen_text, table_game, until

    async with Lobby(server.url) as lobby:
        made = await lobby.create_room(
            preset="hongkong", seats=["human", "computer:classic"], public=False, seed=2,
            deals=2, between_deals_seconds=None, assists=assists,
        )  # fmt: skip
    db = tmp_path / "bigtwo.db"
    app = BigTwoApp(db_path=db, server=server.url, delay=0, room=made["code"], name="Ann")
    async with app.run_test(size=(100, 32)) as pilot:
        await until(lambda: app.net is not None and app.net.started, "the first deal")
        game = table_game(app)
        await follow_hints(pilot, game)
        await until(lambda: isinstance(app.screen, ScoreSheet), "the score sheet", 5)
        await until(lambda: "Score of deal 1 of 2" in screen_text(app), "the sheet", 5)
        if not assists:
            assert "Review this deal" not in screen_text(app)
            return
        assert "Review this deal" in screen_text(app)
        await pilot.press("v")
        await until(lambda: isinstance(app.screen, ReviewPage), "the review page", 5)
        page = app.screen
        assert isinstance(page, ReviewPage)
        await until(lambda: page.data is not None, "the server's review", 120)
        async with httpx.AsyncClient() as http:
            answer = await http.post(
                f"{server.url}/api/rooms/{made['code']}/review",
                json={"deal": 1, "token": game.client.token},
            )
        told = answer.json()["review"]
        assert [d["mark"] for d in page.decisions] == [d["mark"] for d in told["decisions"]]
        assert page.decisions and page.decisions[0]["deal"] == 1
        await pilot.pause()
        detail = text_of(app, "#review-detail")
        assert "Your hand" in detail or "hand (" in detail, detail
        assert "Cards left:" in detail and "Played:" in detail
        await pilot.press("escape")
        await until(lambda: isinstance(app.screen, ScoreSheet), "the sheet again", 5)


async def test_the_host_turns_assists_off_and_on_at_the_table(tmp_path: Path) -> None:
    """``A``: the host (the person at a local table) turns the assists off, and the beliefs
    panel goes at once; on again, it comes back; the table's room says so each time."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None
        await pilot.press("b")
        await finished(app, pilot)
        panel = app.screen.query_one(BeliefsPanel)
        assert panel.display
        for on in (False, True):
            await pilot.press("A")
            for _ in range(20):
                await pilot.pause(0.05)
                if panel.display is on:
                    break
            assert (game.mirror.room["options"]["assists"], panel.display) == (on, on)
            assert f"Assists {'on' if on else 'off'} for every player" in screen_text(app)
            assert game.local.service.config.assists is on


async def test_a_network_host_sends_the_assists_with_the_room_settings() -> None:
    """At a server's table ``set_assists`` is the room's ``settings`` message with the other
    settings as they are; a player who is not the host is refused in words, nothing sent."""
    from bigtwo.client import TableClient
    from bigtwo.tui.netgame import NetGame

    game = NetGame(TableClient("ws://127.0.0.1:9/ws/NET", "t"))
    sent: list[dict[str, Any]] = []

    async def request(message: dict[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        sent.append(message)
        return {}

    game.client.request = request  # type: ignore[method-assign]
    options = {"turn_seconds": 30.0, "away_seconds": None, "spectators": False, "assists": True}
    game.mirror.seat = 1
    game.mirror.room = {"host": 0, "options": options}
    with pytest.raises(BigTwoError, match="Only the table's host"):
        game.set_assists(False)
    game.mirror.room["host"] = 1
    game.set_assists(False)
    await asyncio.sleep(0)
    assert sent == [
        {"type": "settings", "turn_seconds": 30.0, "away_seconds": None, "spectators": False,
         "spectator_chat": False, "assists": False},
    ]  # fmt: skip
    await game.close()
