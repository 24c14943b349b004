"""Big 2 RevolutioN in the terminal game, played as a person would: Textual's Pilot presses
the keys of the table (``a`` activates the raised Character card, ``y`` counters and ``x``
lets a function stand, ``d`` and ``1``-``4`` draw after a pass, Enter stops drawing, ``k``
shows the reference card) and the screen is read back as plain text.

The games run on known seeds against ``greedy`` computers with no wait between moves, and
with the app's clock standing still, so no counter window runs out while a test reads it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from bigtwo.bots import bot_names
from bigtwo.bots.levels import by_strength
from bigtwo.engine.revolution import Move, Phase
from bigtwo.tui.app import BigTwoApp
from bigtwo.tui.dialogs import Cover, ResumeOffer, ScoreSheet
from bigtwo.tui.forms import NewGameForm
from bigtwo.tui.pages import Page
from bigtwo.tui.render import POSITION_KEYS, card_label
from bigtwo.tui.table import TableScreen
from test_tui import SIZE, hand, make_app, message, screen_text, set_prefs, status

SEED = 1  # you pass and draw early, start a revolution, and counter Bill's exchange with Q♦*


def revolution_app(tmp_path: Path, *, seed: int = SEED, **kwargs: Any) -> BigTwoApp:
    """An app whose preferences start a game of Big 2 RevolutioN, its clock standing still."""
    humans = kwargs.pop("humans", (True, False, False, False))
    players = kwargs.pop("players", 4)
    set_prefs(tmp_path / "bigtwo.db", rules="revolution", humans=humans, players=players)
    kwargs.setdefault("clock", lambda: 1.0)
    return make_app(tmp_path, seed=seed, **kwargs)


async def raise_cards(pilot: Pilot[None], app: BigTwoApp, mask: int) -> None:
    """Raise ``mask`` by the key under each card."""
    view = hand(app)
    for card in [c for c in view.cards if mask >> c & 1]:
        index = view.cards.index(card)
        assert index < len(POSITION_KEYS)
        await pilot.press(POSITION_KEYS[index])


class Person:
    """What a person at the screen does, by keys: answer a counter window (counter when they
    hold a Q), draw from the deck after a pass, activate each function they may (once
    ``activate`` allows), pass once early on to draw, else make the cheapest play. Keeps
    what the screen showed at each kind of moment."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}
        self.passed = False
        self.activated = 0
        self.draws = True  # after a pass: draw from the deck (else stop at once, Enter)

    def note(self, what: str, read: Any) -> None:
        """Keep the first sight of a kind of moment (the screen is read only then)."""
        if what not in self.seen:
            self.seen[what] = read()

    async def act(self, pilot: Pilot[None], app: BigTwoApp) -> None:
        game = app.game
        assert game is not None
        rv = game.revolution_view()
        if game.mirror.asked:
            counters = [c for c in rv.choices if c.move is Move.COUNTER]
            if "asked" not in self.seen:  # Enter plays nothing while the question is open
                await pilot.press("enter")
                self.note("enter when asked", lambda: message(app))
            self.note("asked", lambda: screen_text(app))
            if counters:
                self.note("counter prompt", lambda: status(app))
            await pilot.press("y" if counters else "x")
            if counters:
                self.seen["countered"] = ""
        elif rv.phase is Phase.DRAW and not self.draws:
            await pilot.press("enter")
        elif rv.phase is Phase.DRAW:
            self.note("draw prompt", lambda: screen_text(app))
            await pilot.press("d")
            await pilot.pause()
            self.note("drew", lambda: screen_text(app))
        else:
            activations = [c for c in rv.choices if c.move is Move.ACTIVATE and c.target < 0]
            plays = [c for c in rv.choices if c.move is Move.PLAY]
            if activations and not self.activated:
                await raise_cards(pilot, app, activations[0].cards)
                await pilot.press("a")
                await pilot.pause()
                self.activated += 1
                self.seen["activated"] = screen_text(app)
            elif rv.can_pass and (not self.passed or not plays):
                self.passed = True
                await pilot.press("p")
            else:  # raised at once, as the other tests of the table do (one key a turn)
                hand(app).select_mask(plays[0].cards)  # type: ignore[arg-type]
                await pilot.press("enter")
        await pilot.pause()


async def test_a_revolution_hand_by_keys(tmp_path: Path) -> None:
    """The Gathering, the deck, the counts and the marker on the table; you pass and draw,
    start a revolution, and counter a computer's exchange (Bill's, to Cat) with your Q♦*."""
    app = revolution_app(tmp_path)
    person = Person()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert (
            game is not None and game.rules.game == "revolution" and game.rules.name == "revolution"
        )
        text = screen_text(app)
        assert "Gathering 6♥* 7♣* A♣* 2♠*" in text  # the four face-up Revolution cards
        assert "Trick 1  deck 48" in text  # the Revolution deck's count
        assert "Cat        3♦" in text and "12 +0* cards" in text  # Cat led 3♦
        assert text.count("13 +0* cards") == 2  # normal and Revolution counts
        assert "13+0*" in text.splitlines()[0]  # yours, on the top bar
        assert "Your Play  - beat Cat's 3♦" in status(app)
        assert "REVOLUTION" not in text
        for _ in range(60):
            if "countered" in person.seen or isinstance(app.screen, ScoreSheet):
                break
            await person.act(pilot, app)
        seen = person.seen
        assert {"draw prompt", "drew", "activated", "counter prompt", "countered"} <= set(seen)
        # After a pass: what may be drawn, and the draw told in the trick, face up to you.
        assert "Draw: d the deck, 1-4 the Gathering, Enter stops" in seen["draw prompt"]
        assert "Gathering: 1 " in seen["draw prompt"]  # numbered while you draw
        assert "You        draw from the deck (" in seen["drew"]  # face up to you
        assert "+1*" in seen["drew"]  # your count of Revolution cards on the top bar
        # Your revolution: the card and its function in the trick, the marker on the table.
        assert "↻ revolution" in seen["activated"]
        assert "REVOLUTION: order reversed" in seen["activated"]
        assert "↻ REVOLUTION" in seen["activated"].splitlines()[0]
        # Bill's exchange is put to you: counter with your Q, or let it stand; then it is.
        assert (
            "First answer the function: y counters it, x lets it stand" in seen["enter when asked"]
        )
        prompt = seen["counter prompt"]
        assert prompt.startswith("5s  ")  # the clock, counter_seconds from the question
        assert "Bill activated A♣* ⇄ exchange to Cat. Counter with Q♦*? y/x" in prompt
        # Your counter cancels it when the window comes to you; play has moved on since, and
        # the game's history says what happened (g).
        await pilot.press("g")
        await pilot.pause()
        history = str(app.screen.query_one("#page-body").render())
        assert "Bill activates A♣*: exchange on Cat" in history
        assert "You counter with Q♦*" in history
        await pilot.press("escape")
        await pilot.pause()
        assert any(m.move is Move.COUNTER and m.seat == 0 for m in game.mirror.moves)


async def test_functions_reference_refusals_and_ascii(tmp_path: Path) -> None:
    """k shows the five functions; a refused activation says why in words; --ascii marks
    Revolution cards with a star and draws no suit symbol; the table fits 70 x 22."""
    app = revolution_app(tmp_path, ascii_only=True)
    person = Person()
    async with app.run_test(size=(70, 22)) as pilot:
        await pilot.pause()
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, Page)
        reference = screen_text(app)
        for function in ("jump", "counter", "command", "exchange", "revolution"):
            assert function in reference
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        # A normal card raised and a: no function; the reason in words.
        await pilot.press("1", "a")
        assert "Raise one Character card" in message(app) or "no function" in message(app)
        await pilot.press("c")
        for _ in range(40):
            if "activated" in person.seen:
                break
            await person.act(pilot, app)
        text = person.seen["activated"]
        assert not any(symbol in text for symbol in "♦♣♥♠↻")
        assert "revolution" in text and "@ REVOLUTION" in text
        assert "*" in screen_text(app)  # Revolution cards in hand, the Gathering: Qs*
        assert "Gathering" in screen_text(app) or "deck" in screen_text(app)


async def test_hot_seat_cover_for_the_countering_person(tmp_path: Path) -> None:
    """Two people at one screen: a function puts the counter window to each of them in turn
    behind the cover, which says why it came up; the clock starts once the cover is lifted,
    and when it runs out that person lets the function stand."""
    now = [1.0]
    app = revolution_app(tmp_path, humans=(True, False, True, False), clock=lambda: now[0])
    people = Person()
    covers: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.hot_seat
        for _ in range(120):
            if isinstance(app.screen, ScoreSheet):
                break
            if isinstance(app.screen, Cover):
                text = screen_text(app)
                covers.append(text)
                if "may counter it" in text:
                    break
                await pilot.press("space")
                await pilot.pause()
                continue
            await people.act(pilot, app)
        assert isinstance(app.screen, Cover) and "may counter it" in covers[-1]
        asked = game.asked()
        assert asked and asked[0] != game.viewer
        assert not hand(app).cards  # nobody's cards under the cover
        now[0] += 30  # time spent behind the cover does not count
        await pilot.press("space")
        await pilot.pause()
        assert game.viewer == asked[0]
        assert status(app).startswith("5s  ") and "activated" in status(app)
        table = app.table
        assert table is not None
        now[0] += 2.5
        table._counter_clock()  # what its twice-a-second timer does
        await pilot.pause()
        assert status(app).startswith("3s  ")
        now[0] += 3  # the clock shows 0: a key would still answer
        table._counter_clock()
        await pilot.pause()
        assert status(app).startswith("0s  ") and asked[0] in game.asked()
        now[0] += 1
        table._counter_clock()
        await pilot.pause()
        assert "Time is up" in message(app)
        assert asked[0] not in game.asked()  # the answer is in: the function stands for them


async def test_new_game_form_offers_the_revolution(tmp_path: Path) -> None:
    """F7: the revolution among the rule sets, with its own computer levels, 2 to 4 players
    and no custom deal; the score sheet counts normal cards only."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f7")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameForm)
        rules = form.query_one("#new-rules")
        rules.focus()
        await pilot.press("left")  # the last rule set: the list wraps round
        assert rules.value == "revolution"  # type: ignore[attr-defined]
        await pilot.pause()
        level = form.query_one("#new-level")
        offered = [v for v, _ in level.options]  # type: ignore[attr-defined]
        assert offered == by_strength(bot_names("revolution"))  # weakest first
        players = [v for v, _ in form.query_one("#new-players").options]  # type: ignore[attr-defined]
        assert players == [2, 3, 4]
        custom = [v for v, _ in form.query_one("#new-custom").options]  # type: ignore[attr-defined]
        assert custom == [False]
        form.query_one("#new-players").focus()
        while form.query_one("#new-players").value != 2:  # type: ignore[attr-defined]
            await pilot.press("right")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("y")  # set aside the game in play
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        game = app.game
        assert game is not None and game.rules.game == "revolution" and game.players == 2
        assert "revolution" in screen_text(app) and "deck" in screen_text(app)

        assert game.local.service.seats[1].config.level in bot_names("revolution")
        # Play the hand out by keys: the score sheet counts normal cards only.
        person = Person()
        # Plays when it can and draws nothing: the end comes soon.
        person.activated, person.passed, person.draws = 1, True, False
        for _ in range(200):
            if isinstance(app.screen, ScoreSheet):
                break
            await person.act(pilot, app)
        assert isinstance(app.screen, ScoreSheet)
        sheet = screen_text(app)
        assert "Revolution cards cost nothing" in sheet
        assert "Cards (c)" not in sheet  # no chosen cards for the revolution
        assert game.played.results and sum(game.totals) <= 0


async def test_a_game_of_the_revolution_resumes(tmp_path: Path) -> None:
    """Quit in the middle of a hand; the next start offers to continue it, and it goes on
    where it was, from its table's stored commands."""
    app = revolution_app(tmp_path)
    person = Person()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(3):  # pass, then draw
            await person.act(pilot, app)
        game = app.game
        assert game is not None and game.mirror.moves
        moves, cards = list(game.mirror.moves), game.hand()
        await pilot.press("q")
        await pilot.pause()
    again = make_app(tmp_path, seed=SEED, clock=lambda: 1.0)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeOffer)
        assert "revolution: deal 1 of 10" in screen_text(again)
        await pilot.press("enter")
        await pilot.pause()
        resumed = again.game
        assert resumed is not None and resumed.rules.game == "revolution"
        assert resumed.mirror.moves == moves and resumed.hand() == cards
        assert "Gathering" in screen_text(again)


async def test_an_exchange_names_the_card_and_the_player(tmp_path: Path) -> None:
    """Take a Character from the Gathering after a pass (its number), then exchange: raise
    the A* and the card to give, a, and the player's number; the trick tells the card given,
    face up to you."""
    app = revolution_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None
        await pilot.press("p")
        await pilot.pause()
        ace = next(c for c in game.mirror.gathering if c >= 52 and (c - 52) >> 2 == 11)
        await pilot.press(str(game.mirror.gathering.index(ace) + 1))  # a whole draw
        await pilot.pause()
        assert ace in hand(app).cards and "take A♣*" in screen_text(app)
        for _ in range(10):  # to your turn again
            if game.human_to_act == 0:
                break
            await pilot.pause()
        low = min(c for c in hand(app).cards if c < 52)
        await raise_cards(pilot, app, 1 << ace | 1 << low)
        await pilot.press("a")
        await pilot.pause()
        assert "to whom? 1 Ann  2 Bill  3 Cat" in status(app)
        await pilot.press("2")
        await pilot.pause()
        trick = str(app.table.query_one("#trick").render()) if app.table else ""
        assert "A♣* ⇄ exchange to Bill" in trick
        # Nobody countered it on this deal: the card is Bill's now, and only you two see it.
        last = game.mirror.moves[-5:]
        assert [m.move for m in last] == [Move.ACTIVATE] + [Move.DECLINE] * 3 + [Move.EFFECT]
        assert last[-1].cards == 1 << low and low not in hand(app).cards
        assert f"⇄ give {card_label(low)} to Bill" in trick


async def test_a_network_table_sends_the_moves_of_the_revolution() -> None:
    """At a server's table the same screen sends each move of the expansion as its protocol
    message (docs/protocol.md), a Revolution card with its star; the table's events reach
    the client's mirror as they would over the WebSocket."""
    import asyncio

    from bigtwo.client import TableClient
    from bigtwo.service import Command, Op, SeatConfig, TableConfig, TableService, hash_token
    from bigtwo.tui.netgame import NetGame

    seats = (SeatConfig(), *(SeatConfig("computer", "greedy"),) * 3)
    table = TableService(TableConfig(preset="revolution", seats=seats, seed=SEED, deals=1), "NET")
    table.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), 0.0)
    table.connect(0, 0.0)
    game = NetGame(TableClient("ws://127.0.0.1:9/ws/NET", "t"))
    sent: list[dict[str, Any]] = []
    once: list[str] = []  # the moves that would not be sent again after a reconnect

    async def request(message: dict[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        sent.append({k: v for k, v in message.items() if k != "id"})
        if not kwargs.get("resend"):
            once.append(message["type"])
        return {}

    game.client.request = request  # type: ignore[method-assign]
    game.client.seen = 7

    def told(cmd: Command | None) -> None:
        _, events = table.submit(cmd, 1.0)
        for event in events:
            if event.reaches(0):
                game.mirror.apply(event.message())

    game.mirror.apply(table.snapshot(0))  # the sync after hello
    told(Command(Op.READY, seat=0))
    assert game.rules.game == "revolution" and game.mirror.my_turn
    game.pass_(0)
    told(Command(Op.ACT, seat=0, cards=None))
    assert game.mirror.phase is Phase.DRAW
    ace = next(c for c in game.mirror.gathering if c >= 52 and (c - 52) >> 2 == 11)
    game.draw(0, None)
    game.draw(0, ace)
    game.stop(0)
    told(Command(Op.DRAW, seat=0, cards=1 << ace))  # type: ignore[arg-type]
    while not game.mirror.my_turn:
        told(None)
    low = min(c for c in range(52) if game.hand() >> c & 1)
    game.activate(0, ace, 2, low)
    await asyncio.sleep(0)  # the messages go out in the background
    assert sent == [
        {"type": "pass", "v": 7},
        {"type": "draw", "source": "deck", "v": 7},
        {"type": "draw", "source": "Ac*", "v": 7},
        {"type": "stop", "v": 7},
        {
            "type": "activate",
            "card": "Ac*",
            "target": 2,
            "give": card_label(low, ascii_only=True),
            "v": 7,
        },
    ]
    # Every move waits out a lost connection and goes again with its id, as the browser's do
    # (the server applies an id once).
    assert once == []
    try:
        game.decline(0)
    except Exception as exc:  # nothing asks this seat: refused in words, nothing sent
        assert "no function to answer" in str(exc)
    else:
        raise AssertionError("a decline with no counter window was sent")
    await game.close()
