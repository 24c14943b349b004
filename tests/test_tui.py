"""The terminal game driven as a person would: Textual's Pilot presses keys and clicks.

Every test uses a temporary database (``tmp_path``) and computer moves at zero delay; the
computers play ``greedy`` so a seed always gives the same game. Screens are read back as
plain text, the way a person would read them.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot

from bigtwo.engine.cards import card_indices, parse_cards
from bigtwo.store.matches import MatchStore
from bigtwo.tui.app import BigTwoApp
from bigtwo.tui.dialogs import Confirm, Cover, FinalScore, ResumeOffer, ScoreSheet
from bigtwo.tui.forms import CustomDealForm, NewGameForm, PrefsForm
from bigtwo.tui.pages import HistoryPage, Page
from bigtwo.tui.prefs import Prefs, load_prefs, save_prefs
from bigtwo.tui.render import POSITION_KEYS, HandLayout
from bigtwo.tui.storage import TuiStorage
from bigtwo.tui.table import TableScreen
from bigtwo.tui.widgets import HandView

SIZE = (80, 24)
LEAD_SEED = 4  # seat 0 holds 3♦ and leads the first trick
FOLLOW_SEED = 1  # Cat (seat 3) leads 3♦; you are next


def set_prefs(db: Path, **changes: Any) -> None:
    """Write preferences into the test database before the app starts."""
    store = MatchStore(db)
    save_prefs(TuiStorage(store), replace(Prefs(level="greedy"), **changes))
    store.close()


def make_app(
    tmp_path: Path, *, seed: int = LEAD_SEED, prefs: bool = True, **kwargs: Any
) -> BigTwoApp:
    db = tmp_path / "bigtwo.db"
    if prefs and not db.exists():
        set_prefs(db)
    return BigTwoApp(db_path=db, seed=seed, delay=0, export_dir=tmp_path, **kwargs)


def screen_text(app: BigTwoApp) -> str:
    """The screen as plain text, as a person sees it."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, force_terminal=True
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def table(app: BigTwoApp) -> TableScreen:
    assert app.table is not None
    return app.table


def hand(app: BigTwoApp) -> HandView:
    return table(app).query_one(HandView)


def message(app: BigTwoApp) -> str:
    return str(table(app).query_one("#message").render())


def status(app: BigTwoApp) -> str:
    return str(table(app).query_one("#status").render())


async def select(pilot: Pilot[None], app: BigTwoApp, cards: int) -> None:
    """Raise ``cards`` by pressing the key under each one."""
    view = hand(app)
    for card in card_indices(cards):
        await pilot.press(POSITION_KEYS[view.cards.index(card)])


async def take_turn(pilot: Pilot[None], app: BigTwoApp) -> None:
    """Your turn: the cheapest legal play raised in the hand and played with Enter, else a pass
    with ``p``. (Raising cards by their keys has tests of its own; here one key press a turn
    keeps the games that many tests play through short.)"""
    game = app.game
    assert game is not None
    seat = game.human_to_act
    assert seat is not None
    view = game.view(seat)
    if view.legal:
        hand(app).select_mask(view.legal[0].mask)
        await pilot.press("enter")
    else:
        await pilot.press("p")
    await pilot.pause()


async def play_deal(pilot: Pilot[None], app: BigTwoApp, limit: int = 80) -> None:
    """Take your turns by keys until the score sheet shows."""
    for _ in range(limit):
        if isinstance(app.screen, ScoreSheet):
            return
        await take_turn(pilot, app)
    raise AssertionError("the deal did not end")


# -- the table ----------------------------------------------------------------------------------
async def test_table_shows_players_trick_and_your_lead(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for name in ("Ann", "Bill", "Cat"):
            assert name in text
        assert "13 cards" in text
        assert "Your Lead" in status(app)
        assert "You to lead, with 3♦ in the first play" in text
        assert "Deal 1 of 10" in text
        # Play and Pass only on your turn; at a lead there is nothing to pass.
        assert not table(app).query_one("#btn-play").disabled
        assert table(app).query_one("#btn-pass").disabled


async def test_a_table_being_taken_down_draws_nothing(tmp_path: Path) -> None:
    """A redraw or an advance queued before quitting, run while the app takes the table's
    widgets down, does nothing (it raised NoMatches, a traceback at quit)."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = table(app)
    assert screen.is_mounted and not screen.children  # taken down, not yet unmounted
    screen.redraw()
    screen.advance()
    screen.say("a message after quitting")


async def test_select_and_play_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert hand(app).cards[0] == 0  # 3♦, sorted by rank
        await pilot.press("1")
        assert hand(app).selected == {0}
        text = screen_text(app)
        # The raised card sits one row above the rest.
        lines = text.splitlines()
        face = [i for i, line in enumerate(lines) if " 3♦│" in line]
        other = [i for i, line in enumerate(lines) if " 4♥│" in line]
        assert face and other and face[0] == other[0] - 1
        await pilot.press("enter")
        await pilot.pause()
        game = app.game
        assert game is not None
        first = game.match.deal.actions[0]
        assert first.seat == 0 and first.play is not None and first.play.mask == 1
        assert 0 not in hand(app).cards
        assert "You" in screen_text(app) and "3♦" in str(table(app).query_one("#trick").render())


async def test_select_by_arrows_space_and_groups(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=LEAD_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = hand(app)
        await pilot.press("right", "right", "space")
        assert view.selected == {view.cards[2]}
        await pilot.press("c")
        assert view.selected == set()
        # Down raises every card of the cursor's rank, Up every card of its suit.
        eights = parse_cards("8c 8h 8s").mask
        view.cursor = view.cards.index(card_indices(eights)[0])
        await pilot.press("down")
        assert view.selection_mask == eights
        await pilot.press("down")
        assert view.selected == set()
        await pilot.press("up")
        assert all(c & 3 == view.cards[view.cursor] & 3 for c in view.selected)
        assert len(view.selected) > 1


async def test_select_and_play_by_mouse(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = hand(app)
        layout = HandLayout(len(view.cards), view.size.width)
        x = layout.left + 1  # the first card: 3♦
        await pilot.click(HandView, offset=(x, 2))
        assert view.selected == {0}
        await pilot.click("#btn-play")
        await pilot.pause()
        game = app.game
        assert game is not None
        assert game.match.deal.actions[0].play is not None
        assert game.match.deal.actions[0].play.mask == 1
        # Right-click raises a whole rank.
        layout = HandLayout(len(view.cards), view.size.width)
        eights = [i for i, c in enumerate(view.cards) if c >> 2 == 5]
        await pilot.click(
            HandView, offset=(layout.left + eights[0] * layout.width + 1, 2), button=3
        )
        assert len(view.selected) == len(eights) == 3


async def test_refused_play_shows_the_engine_reason(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("2", "enter")  # 4♥ alone: the first play must include 3♦
        await pilot.pause()
        assert message(app) == "First play must include 3♦"
        assert "First play must include 3♦" in screen_text(app)
        await pilot.press("c", "1", "2", "enter")  # 3♦ 4♥ is no combination
        assert message(app) == "Not a legal combination: 3♦ 4♥"
        await pilot.press("c", "enter")
        assert message(app).startswith("Select the cards to play first")
        await pilot.press("p")  # the leader may not pass
        assert message(app) == "You lead: you cannot pass"
        game = app.game
        assert game is not None and not game.match.deal.actions


async def test_pass_and_a_play_that_does_not_beat(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=FOLLOW_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Your Play" in status(app) and "beat Cat's 3♦" in status(app)
        assert not table(app).query_one("#btn-pass").disabled
        await pilot.press("1", "enter")  # 5♦ beats 3♦; then Ann, Bill and Cat play up to 7♥
        await pilot.pause()
        assert "beat Cat's 7♥" in status(app)
        await pilot.press("1", "enter")  # 5♠ does not beat 7♥
        assert message(app) == "That does not beat 7♥: it needs a higher single"
        game = app.game
        assert game is not None
        count = len(game.match.deal.actions)
        await pilot.press("c")  # the selection cleared, what was wrong with it goes too
        await pilot.pause()
        assert message(app) == ""
        await pilot.press("p")
        await pilot.pause()
        mine = game.match.deal.actions[count]
        assert mine.seat == 0 and mine.play is None and not mine.auto
        assert message(app) == ""
        assert "pass" in str(table(app).query_one("#trick").render())


async def test_autopass_passes_you_and_says_so(tmp_path: Path) -> None:
    # You hold the 13 lowest cards: once anyone plays a single above 6♦ you cannot answer,
    # and with autopass on you are passed at once every time (the deal plays itself out).
    low = parse_cards("3d 3c 3h 3s 4d 4c 4h 4s 5d 5c 5h 5s 6d").mask
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        from bigtwo.tui.controller import GameSetup

        app.start_game(GameSetup.from_prefs(app.prefs, seed=2, custom=((0, low),)))
        await pilot.pause()
        await pilot.press("1", "enter")  # 3♦
        await pilot.pause()
        game = app.game
        assert game is not None
        autos = [a for a in game.match.deal.actions if a.auto and a.seat == 0]
        assert len(autos) > 3, "you should have been passed automatically, trick after trick"
        assert isinstance(app.screen, ScoreSheet)  # the others played the deal out
        assert message(app).startswith("You passed automatically: no 1-card play beats")


async def test_hint_selects_a_legal_play(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        assert message(app).startswith("Hint: ")
        game = app.game
        assert game is not None
        legal = {p.mask for p in game.view(0).legal}
        assert hand(app).selection_mask in legal
        await pilot.press("enter")
        await pilot.pause()
        assert game.match.deal.actions[0].seat == 0


async def test_sort_by_suit_keeps_the_selection(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("1")
        before = set(hand(app).selected)
        await pilot.press("s")
        cards = hand(app).cards
        assert [c & 3 for c in cards] == sorted(c & 3 for c in cards)
        assert hand(app).selected == before
        await pilot.press("r")
        assert hand(app).cards == sorted(cards)
        assert app.prefs.sort == "rank"


# -- a whole deal, the score sheet, history ---------------------------------------------------
async def test_full_deal_to_the_score_sheet(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_deal(pilot, app)
        text = screen_text(app)
        game = app.game
        assert game is not None
        result = game.match.results[0]
        assert "Deal 1 of 10" in text and "*WIN!*" in text
        for seat, name in enumerate(game.names):
            assert name in text
            assert f"{result.points[seat]:+d}" in text
        if any(m == 2 for m in result.score.multipliers):
            assert "DOUBLE!" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert "Deal 2 of 10" in screen_text(app)


async def test_score_sheet_marks_double_and_zero_totals() -> None:
    from bigtwo.match import RuleSet
    from bigtwo.match.history import score_rows
    from bigtwo.match.match import Match
    from bigtwo.tui.dialogs import score_sheet_text

    hands = [
        parse_cards("3d"),
        parse_cards("3c 4d 4c 5d 5c 6d 6c 7d 7c 8d"),
        parse_cards("3h"),
        parse_cards("3s"),
    ]
    match = Match(RuleSet.preset("palm"), seed=1, hands=[h.mask for h in hands])
    match.play(0, "3d")
    text = score_sheet_text(
        score_rows(match), number=1, deals=10, show_cards_left=True, ascii_only=False
    ).plain
    assert "DOUBLE!" in text and "*WIN!*" in text
    assert "I will not play with real money" not in text
    zero = Match(RuleSet.preset("palm"), seed=1, hands=[h.mask for h in hands])
    rows = [replace(r, total=0, points=0) for r in score_rows(match)]
    assert (
        "I will not play with real money"
        in score_sheet_text(rows, number=1, deals=10, show_cards_left=False, ascii_only=False).plain
    )
    del zero


async def test_history_page_and_export(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, HistoryPage)
        text = screen_text(app)
        assert "=== Deal 1 of 10 (palm) ===" in text
        assert "You: 3♦" in text
        assert text.count("(hidden)") == 3  # the others' hands stay secret in play
        await pilot.press("e")
        await pilot.pause()
        files = list(tmp_path.glob("bigtwo-history-*-deal1.txt"))
        assert len(files) == 1
        content = files[0].read_text(encoding="utf-8")
        assert content.startswith("=== Deal 1 of 10 (palm) ===\nOpening hands:\n")
        assert "You: 3♦\n" in content and "(the deal is in play)" in content
        assert "Exported to" in screen_text(app)
        await pilot.press("g", "e")  # the whole game
        await pilot.pause()
        assert list(tmp_path.glob("bigtwo-history-*-game.txt"))
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


def test_the_history_is_exported_to_the_documents_folder_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make play`` then ``e`` wrote into the folder the game was started from (the
    checkout)."""
    from bigtwo.tui.app import default_export_dir

    monkeypatch.delenv("BIGTWO_EXPORT_DIR", raising=False)
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(tmp_path / "Documents"))
    monkeypatch.chdir(tmp_path)
    app = BigTwoApp(db_path=tmp_path / "b.db", seed=1, delay=0)
    assert app.export_dir == default_export_dir() == tmp_path / "Documents" / "bigtwo"
    monkeypatch.setenv("BIGTWO_EXPORT_DIR", str(tmp_path / "mine"))
    assert BigTwoApp(db_path=tmp_path / "b.db").export_dir == tmp_path / "mine"
    chosen = BigTwoApp(db_path=tmp_path / "b.db", export_dir=tmp_path / "x").export_dir
    assert chosen == tmp_path / "x"


async def test_history_after_a_deal_shows_every_hand(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_deal(pilot, app)
        await pilot.press("g")  # History from the score sheet
        await pilot.pause()
        assert isinstance(app.screen, HistoryPage)
        text = screen_text(app)
        assert "(hidden)" not in text and "Winner:" in screen_text(app) or "Lead:" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheet)  # back to the sheet, then on
        await pilot.press("enter")
        await pilot.pause()
        assert app.game is not None and app.game.match.deal_number == 2


# -- a whole game and the high scores -----------------------------------------------------------
# The Palm game's ten deals, played in full by the slow run (``make test-slow``, CI); ``make
# test`` reaches the final score of a one-deal game and enters a high score in test_tui_edges.
@pytest.mark.slow
async def test_ten_deals_then_high_score_entry(tmp_path: Path) -> None:
    deals = 10
    app = make_app(tmp_path, deals=deals)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for number in range(1, deals + 1):
            await play_deal(pilot, app)
            await pilot.press("enter")
            await pilot.pause()
            if number < deals:
                assert f"Deal {number + 1} of {deals}" in screen_text(app)
        assert isinstance(app.screen, FinalScore)
        game = app.game
        assert game is not None and len(game.match.results) == deals
        text = screen_text(app)
        assert f"Final score after {deals} deals" in text
        assert "New high score" in text
        await pilot.press("end", *["backspace"] * 12, *"Zoe", "enter")  # kept; still here
        await pilot.pause()
        assert isinstance(app.screen, FinalScore)
        await pilot.press("enter")  # New game
        await pilot.pause()
        score = game.match.totals[0]
        assert isinstance(app.screen, TableScreen)
        assert app.game is not game and f"Deal 1 of {deals}" in screen_text(app)
        await pilot.press("f4")
        await pilot.pause()
        text = screen_text(app)
        assert "Zoe" in text and f"{score:+d}" in text
        assert "Rounds" in text and "Seconds" in text and "Max deal" in text and "Balance" in text
        await pilot.press("escape", "f5")
        await pilot.pause()
        # Statistics of the person who played, under the name they typed (issue 15, item 1).
        stats = screen_text(app)
        assert "Zoe" in stats and "You " not in stats
    store = MatchStore(tmp_path / "bigtwo.db")
    best = store.high_scores()[0]
    assert (best.name, best.score, best.rounds) == ("Zoe", score, deals)
    assert not store.unfinished() or store.unfinished()[0].deal_number == 1
    store.close()


async def test_short_game_option_reaches_the_final_score(tmp_path: Path) -> None:
    app = make_app(tmp_path, deals=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_deal(pilot, app)
        assert "Final score" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FinalScore)
        await pilot.press("enter")  # keep the name shown: the final score stays
        await pilot.pause()
        assert isinstance(app.screen, FinalScore)
        assert "Saved. Enter: a new game; F8: replay the game." in screen_text(app)
        await pilot.press("enter")  # then a new game
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
    store = MatchStore(tmp_path / "bigtwo.db")
    try:
        assert len(store.high_scores()) == 1  # kept once, not again with the new game
    finally:
        store.close()


# -- preferences, resume --------------------------------------------------------------------------
async def test_preferences_persist_across_restarts(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f6")
        await pilot.pause()
        assert isinstance(app.screen, PrefsForm)
        form = app.screen
        form.query_one("#pref-speed").focus()
        await pilot.press("right")  # medium -> fast
        form.query_one("#pref-sort").focus()
        await pilot.press("right")  # rank -> suit
        form.query_one("#pref-autopass5").focus()
        await pilot.press("enter")  # off -> on
        form.query_one("#pref-rules").focus()
        await pilot.press("right")  # palm -> palm-hk
        name = form.query_one("#pref-name-1")
        name.focus()
        await pilot.press("end", *["backspace"] * 12, *"Dora")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert "Dora" in screen_text(app)
        assert "palm-hk" in message(app)
    store = MatchStore(tmp_path / "bigtwo.db")
    prefs = load_prefs(TuiStorage(store))
    store.close()
    assert (prefs.speed, prefs.sort, prefs.autopass_five, prefs.rules) == (
        "fast",
        "suit",
        True,
        "palm-hk",
    )
    assert prefs.names[1] == "Dora"
    again = make_app(tmp_path)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.prefs.speed == "fast" and again.prefs.names[1] == "Dora"
        if isinstance(again.screen, ResumeOffer):
            await pilot.press("n")  # a new game: its form, then its warning
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        cards = hand(again).cards
        assert [c & 3 for c in cards] == sorted(c & 3 for c in cards)  # sorted by suit
        assert again.game is not None and again.game.rules.name == "palm-hk"


async def test_resume_after_quit(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("1", "enter")
        await pilot.pause()
        await take_turn(pilot, app)
        game = app.game
        assert game is not None
        actions = list(game.match.deal.actions)
        dealt = game.match.deal.dealt
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 or app.return_code is None
    again = make_app(tmp_path)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeOffer)
        assert "deal 1 of 10" in screen_text(again)
        await pilot.press("enter")
        await pilot.pause()
        resumed = again.game
        assert resumed is not None
        assert resumed.match.deal.dealt == dealt
        assert [(a.seat, a.play and a.play.mask) for a in resumed.match.deal.actions] == [
            (a.seat, a.play and a.play.mask) for a in actions
        ]
        assert "Your" in status(again)
        await take_turn(pilot, again)  # and play goes on
        await pilot.press("q")
    # Declining asks for the new game (the New game form, which warns that the game left is
    # set aside); cancelling it asks again, and the game left stays until a new one starts.
    third = make_app(tmp_path)
    async with third.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(third.screen, ResumeOffer)
        text = screen_text(third)
        assert "Continue (Enter)" in text and "New game (N)" in text  # the keys are shown
        assert third.focused is not None and third.focused.id == "yes"
        await pilot.press("right")  # the arrows move between the buttons
        assert third.focused is not None and third.focused.id == "no"
        await pilot.press("left")
        assert third.focused is not None and third.focused.id == "yes"
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(third.screen, NewGameForm)
        await pilot.press("escape")  # not now: the offer again
        await pilot.pause()
        assert isinstance(third.screen, ResumeOffer)
        await pilot.press("right", "enter")  # New game, by its button
        await pilot.pause()
        assert isinstance(third.screen, NewGameForm)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(third.screen, Confirm)
        assert "set aside" in screen_text(third) and "deal 1 of 10" in screen_text(third)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(third.screen, TableScreen)
        assert third.game is not None and not third.game.match.deal.actions
    store = MatchStore(tmp_path / "bigtwo.db")
    try:  # the game set aside is offered no more: only the new one is unfinished
        assert len(store.unfinished()) == 1
    finally:
        store.close()


# -- hot seat -------------------------------------------------------------------------------------
# make test checks the first turns (two covers at least); the slow run (make test-slow, CI)
# the whole deal, to the score sheet.
@pytest.mark.parametrize(
    "turns",
    [
        pytest.param(12, id="first-turns"),
        pytest.param(None, id="whole-deal", marks=pytest.mark.slow),
    ],
)
async def test_hot_seat_cover_never_shows_two_hands(tmp_path: Path, turns: int | None) -> None:
    db = tmp_path / "bigtwo.db"
    set_prefs(db, humans=(True, False, True, False))
    app = make_app(tmp_path, seed=LEAD_SEED)
    covers = 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.hot_seat
        for _ in range(200 if turns is None else turns):
            if isinstance(app.screen, ScoreSheet):
                break
            dealt = game.match.deal.hands
            if isinstance(app.screen, Cover):
                covers += 1
                text = screen_text(app)
                assert "Next player's turn:" in text
                for seat in game.humans:  # no card of anyone's hand is on the cover
                    assert not any(f"│{label}│" in text for label in _labels(dealt[seat]))
                await pilot.press("x")  # any key lifts the cover and does nothing else
                await pilot.pause()
                continue
            shown = set(hand(app).cards)
            owners = [s for s in game.humans if shown and shown <= set(card_indices(dealt[s]))]
            assert len(owners) <= 1 and (not shown or owners == [game.viewer])
            text = screen_text(app)
            for seat in game.humans:
                if seat != game.viewer:
                    assert not any(f"│{label}│" in text for label in _labels(dealt[seat]))
            assert game.human_to_act == game.viewer
            await take_turn(pilot, app)
        assert turns is not None or isinstance(app.screen, ScoreSheet)
    assert covers >= 2


async def test_hot_seat_says_you_only_to_the_seat_on_show(tmp_path: Path) -> None:
    """With "You" at seat 1 and Zed at seat 3, Zed was told to "beat your 3♦ 3♣ 3♠" and the
    cover asked to pass the keyboard "to you"."""
    db = tmp_path / "bigtwo.db"
    set_prefs(db, humans=(True, False, True, False), names=("You", "Ann", "Zed", "Cat"))
    app = make_app(tmp_path, seed=LEAD_SEED)
    covers: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.hot_seat
        for _ in range(14):
            if isinstance(app.screen, ScoreSheet):
                break
            if isinstance(app.screen, Cover):
                covers.append(screen_text(app))
                await pilot.press("x")
                await pilot.pause()
                continue
            line = status(app)
            if game.viewer == 2:  # Zed on show: nobody else is "you"
                assert "beat your" not in line, line
            elif game.viewer == 0:
                assert ", You" not in line, line  # "Your Play", not "Your Play, You"
            await take_turn(pilot, app)
    text = "\n".join(covers)
    assert "Pass the keyboard to Zed" in text and "Pass the keyboard to Player 1" in text
    assert "Pass the keyboard to you" not in text


def _labels(mask: int) -> list[str]:
    from bigtwo.tui.render import card_label

    return [card_label(c).rjust(3) for c in card_indices(mask)]


async def test_new_game_form_players_seats_and_custom_deal(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f7")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameForm)
        form.query_one("#new-rules").focus()
        while form.query_one("#new-rules").value != "deduction":  # type: ignore[attr-defined]
            await pilot.press("right")
        form.query_one("#new-players").focus()
        while form.query_one("#new-players").value != 2:  # type: ignore[attr-defined]
            await pilot.press("right")
        form.query_one("#new-custom").focus()
        await pilot.press("right")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)  # the game in play is not thrown away unasked
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, CustomDealForm)
        # Pick 3 of the 13 on the grid, for your seat: the top-left corner of the grid (spades
        # row) by keys, one by click.
        app.screen.query_one("#grid").focus()
        await pilot.press("space", "right", "space")
        await pilot.click("#grid", offset=(6 + 4 * 12 + 2, 4))  # 2 of the third suit row
        await pilot.pause()
        chosen = app.screen.query_one("#grid").chosen  # type: ignore[attr-defined]
        assert chosen.bit_count() == 3
        typed = app.screen.query_one("#cards-0").value  # type: ignore[attr-defined]
        assert parse_cards(typed).mask == chosen  # the grid wrote your cards in notation
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        game = app.game
        assert game is not None
        assert game.players == 2 and game.rules.name == "deduction"
        assert game.match.deal.dealt[0] & chosen == chosen
        assert game.match.deal.dealt[0].bit_count() == 13
        assert "Deal 1 of 10" in screen_text(app)


async def test_pages_tracker_help_menu(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("f3")
        await pilot.pause()
        text = screen_text(app)
        assert "Cards played:" in text and "♦" in text
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert isinstance(app.screen, Page)
        assert "Rules: palm" in screen_text(app)
        await pilot.press("escape", "m")
        await pilot.pause()
        await pilot.click("#menu-tracker")
        await pilot.pause()
        assert "Cards played:" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


async def test_speed_waits_and_a_key_skips_the_wait(tmp_path: Path) -> None:
    db = tmp_path / "bigtwo.db"
    set_prefs(db)
    app = BigTwoApp(db_path=db, seed=LEAD_SEED, delay=30, export_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("1", "enter")
        await pilot.pause()
        game = app.game
        assert game is not None
        assert len(game.match.deal.actions) == 1  # Ann is still "thinking"
        assert "Ann's turn" in status(app)
        await pilot.press("f")
        await pilot.pause()
        assert game.human_to_act == 0
        assert "Your" in status(app)


async def test_ascii_mode_draws_only_ascii(tmp_path: Path) -> None:
    app = make_app(tmp_path, ascii_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert text.isascii(), [ch for ch in text if not ch.isascii()][:10]
        assert "3d" in text


async def test_unknown_rules_refused_in_words() -> None:
    from bigtwo.cli import main

    assert main(["play", "--rules", "nonsense"]) == 2


async def test_start_up_reaches_a_playable_table(tmp_path: Path) -> None:
    """How long it takes is measured by ``bigtwo bench startup``, not asserted here: a test
    must not fail on a slow machine."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.ready and "Your Lead" in status(app)


@pytest.mark.parametrize("preset", ["palm-hk", "hongkong", "taiwan", "textbook"])
async def test_other_presets_play_a_deal(tmp_path: Path, preset: str) -> None:
    app = make_app(tmp_path, rules=preset)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_deal(pilot, app, limit=120)
        assert "Deal 1 of" in screen_text(app)
