"""The local table: the terminal game plays through the table service, as the server does."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine.cards import Mask, parse_cards
from bigtwo.engine.errors import BigTwoError
from bigtwo.service import Command, Op, TableService, hash_token
from bigtwo.service.local import LocalTable
from bigtwo.service.request import table_config
from bigtwo.store.tables import SQLiteStore
from bigtwo.tui.controller import GameController, GameSetup, SeatSetup

TUI = Path(__file__).resolve().parents[1] / "src" / "bigtwo" / "tui"


def setup(humans: tuple[bool, ...] = (True, False, False, False), **kw: Any) -> GameSetup:
    seats = tuple(
        SeatSetup(name, human, "random")
        for name, human in zip(("You", "Ann", "Bill", "Cat"), humans, strict=False)
    )
    return GameSetup(seats=seats, seed=kw.pop("seed", 4), **kw)


def cheapest(game: GameController, seat: int) -> None:
    view = game.view(seat)
    if view.legal:
        game.play(seat, view.legal[0])
    else:
        game.pass_(seat)


def play_deal(game: GameController) -> None:
    """Every person plays the cheapest play, the computers theirs, to the deal's end."""
    for _ in range(400):
        if game.deal_over:
            return
        game.run_computers()
        seat = game.human_to_act
        if seat is not None:
            if game.hot_seat:
                game.reveal(seat)
            cheapest(game, seat)
    raise AssertionError("the deal did not end")


# -- one loop --------------------------------------------------------------------------------
def test_the_terminal_package_does_not_run_its_own_match() -> None:
    """No module of the terminal game imports Match or Deal (but to name them in types)."""
    found = []
    for path in sorted(TUI.glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        typing_only: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                typing_only |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and id(node) not in typing_only:
                names = {a.name for a in node.names}
                if names & {"Match", "Deal"}:
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_the_same_seed_gives_the_same_game_here_and_on_the_server() -> None:
    """A terminal game and a server table (a room request as the lobby checks it) with the
    same seed and computer levels play the same cards, move for move."""
    seed = 77
    game = GameController(setup(seed=seed, deals=1))
    play_deal(game)
    here = [(a.seat, a.play and a.play.mask) for a in game.match.deal.actions]

    request = {"preset": "palm", "seats": ["human", *["computer:random"] * 3], "seed": seed}
    request["deals"] = 1
    config = table_config(request, allow_seed=True)
    table = TableService(config, "SRV")
    table.apply(Command(Op.JOIN, seat=0, name="You", token=hash_token("t")), 0.0)
    table.connect(0, 0.0)
    table.submit(Command(Op.READY, seat=0), 0.0)
    assert table.game is not None
    while not table.game.deal.over:
        view = table.game.deal.view(0)
        cards = view.legal[0].mask if view.legal else None
        table.submit(Command(Op.ACT, seat=0, cards=cards), 0.0)
    there = [(a.seat, a.play and a.play.mask) for a in table.game.deal.actions]
    assert here == there
    assert any(s != 0 and p is not None for s, p in here)  # the computers did play


def test_the_screen_reads_the_mirror_of_the_seat_on_show() -> None:
    game = GameController(setup((True, False, True, False)))
    game.reveal(0)
    mirror = game.local.mirrors[0]
    assert game.hand() == mirror.hand == game.match.deal.hands[0]
    assert game.local.mirrors[2].hand == game.match.deal.hands[2]
    assert game.view().hand == mirror.hand and game.view().counts == tuple(mirror.counts)
    # Neither mirror ever held the other person's cards.
    assert game.local.mirrors[0].hand & game.match.deal.hands[2] == 0


def test_a_local_table_stores_every_command_and_resumes_by_replaying(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.db", checkpoint=False)
    game = GameController(setup(), store=store, clock=lambda: 0.0)
    game.play(0, parse_cards("3d").mask)
    game.run_computers()
    code = game.local.code
    before = game.local.service.snapshot(0)
    store.close()

    again = SQLiteStore(tmp_path / "t.db", checkpoint=False)
    stored = again.load(code)
    assert stored is not None and stored.commands[0]["op"] == "join"
    local = LocalTable.restore(stored, again, code, clock=lambda: 0.0)
    back = GameController.resume(local, game.table_data(), clock=lambda: 0.0)
    assert local.service.snapshot(0) == before
    assert back.mirror.hand == game.mirror.hand and back.human_to_act == 0
    cheapest(back, 0)  # and it plays on, stored
    again.close()


# -- the service commands the Palm game needs --------------------------------------------------
def test_autopass_switches_change_mid_deal_and_each_action_keeps_its_own() -> None:
    game = GameController(setup(autopass=True))
    game.play(0, parse_cards("3d").mask)
    game.run_computers()
    count = len(game.match.deal.actions)
    game.set_autopass(False, True)
    assert (game.match.autopass, game.match.autopass_five) == (False, True)
    view = game.view()
    assert (view.autopass, view.autopass_five) == (False, True)
    cheapest(game, 0)
    game.run_computers()
    switches = game.match.action_switches()
    assert len(switches) > count + 1
    # Your turn had been checked for autopass before the change; every later one after it.
    assert all(s.autopass and not s.autopass_five for s in switches[: count + 1])
    assert all(s.autopass_five and not s.autopass for s in switches[count + 1 :])
    assert game.view().action_switches[-1] == switches[-1]  # the mirror saw the change


def test_computer_level_changes_from_the_next_deal() -> None:
    game = GameController(setup())
    game.set_level("greedy")
    assert all(s.config.level == "random" for s in game.local.service.seats[1:])
    play_deal(game)
    game.next_deal()
    assert all(s.config.level == "greedy" for s in game.local.service.seats[1:])


def test_rules_change_with_the_next_game_not_the_next_deal() -> None:
    """Rough edge 10: the rule set changed in Preferences mixed two rule sets in one game."""
    game = GameController(setup(deals=2))
    assert game.set_rules("palm-hk")
    play_deal(game)
    game.next_deal()
    assert game.rules.name == "palm" and game.match.ruleset.name == "palm"
    assert game.next_rules == "palm-hk"
    play_deal(game)
    assert game.game_over
    nxt = game.new_game()
    assert nxt.rules.name == "palm-hk"
    assert not game.set_rules("textbook") or game.players in (2, 3, 4)


def test_chosen_cards_for_any_seat_and_any_deal() -> None:
    first = parse_cards("3d 3c 3h 3s").mask
    game = GameController(setup(custom=((1, 2, first),)))
    assert game.match.deal.dealt[2] & first == first
    later = parse_cards("2s 2h 2c 2d As").mask
    game.choose_cards(1, Mask(later), deal=2)  # a computer's seat, a later deal
    with pytest.raises(BigTwoError, match="another seat"):
        game.choose_cards(3, Mask(parse_cards("2s").mask), deal=2)
    with pytest.raises(BigTwoError, match="deals 2 to"):
        game.choose_cards(0, Mask(parse_cards("4d").mask), deal=1)  # deal 1 is dealt
    play_deal(game)
    game.next_deal()
    assert game.match.deal.dealt[1] & later == later


def test_play_this_deal_again() -> None:
    game = GameController(setup())
    dealt = game.match.deal.dealt
    play_deal(game)
    game.replay_deal()
    game.next_deal()
    assert game.match.deal_number == 2 and game.match.deal.dealt == dealt


def test_between_deals_the_table_waits_for_every_person_here() -> None:
    game = GameController(setup((True, False, True, False)))
    play_deal(game)
    assert game.local.waiting_for_next() == [0, 2]
    game.next_deal(0)
    assert game.local.between == 2 and game.deal_number == 1
    game.next_deal(2)
    assert game.local.between is None and game.deal_number == 2


def test_a_resumed_game_keeps_the_time_played(tmp_path: Path) -> None:
    from bigtwo.store.matches import MatchStore
    from bigtwo.tui.storage import TuiStorage

    now = [0.0]
    storage = TuiStorage(MatchStore(tmp_path / "b.db"))
    game = GameController(setup(), store=storage.tables, clock=lambda: now[0])
    now[0] = 30.0
    game.play(0, parse_cards("3d").mask)
    storage.save_game(game)
    saved = storage.unfinished()
    assert saved is not None
    back = storage.load(saved, clock=lambda: now[0])
    assert back is not None and back.seconds == 30
    storage.close()


def test_computers_move_at_their_deadline_and_hurry_plays_them_out() -> None:
    from bigtwo.store.tables import MemoryStore

    now = [0.0]
    config = setup(seed=1).table_config()  # Cat (seat 3) leads: the computers go first
    table = LocalTable.open(config, MemoryStore(), {0: "You"}, clock=lambda: now[0], delay=2.0)
    assert table.computer_to_act() and table.deadline() == 2.0
    assert table.step() == [] and not table.mirrors[0].actions  # not yet
    now[0] = 2.0
    assert [e.type for e in table.step()][:1] == ["action"]  # one move, at its time
    assert len(table.mirrors[0].actions) == 1
    table.hurry()  # f: the rest of the computers at once
    assert not table.computer_to_act() and table.mirrors[0].my_turn


def test_settings_are_stored_with_the_game_and_replayed_on_resume() -> None:
    from bigtwo.store.tables import MemoryStore

    store = MemoryStore()
    game = GameController(setup(), store=store)
    game.set_autopass(False, False)
    game.set_level("greedy")
    game.set_rules("palm-hk")
    game.set_names(["Zed"])
    game.choose_cards(2, Mask(parse_cards("2s 2h").mask), deal=3)
    stored = store.load(game.local.code)
    assert stored is not None
    ops = [c["op"] for c in stored.commands]
    assert {"autopass", "level", "rules", "rename", "custom"} <= set(ops)
    back = LocalTable.restore(stored, store, game.local.code)
    service = back.service
    assert service.snapshot(0) == game.local.service.snapshot(0)
    assert service.next_level == "greedy" and service.custom == game.local.service.custom
    assert service.game is not None and service.game.names[0] == "Zed"


# -- undo: one person against computers takes back their last play ----------------------------
def test_undo_takes_back_your_play_and_the_replies_and_survives_a_restart() -> None:
    from bigtwo.store.tables import MemoryStore

    store = MemoryStore()
    game = GameController(setup(seed=5), store=store)
    game.run_computers()
    hand_before = game.hand()
    actions_before = list(game.mirror.actions)
    snapshot_before = game.local.service.snapshot(0)["view"]
    cheapest(game, 0)
    game.run_computers()
    assert game.hand() != hand_before and len(game.mirror.actions) > len(actions_before)
    game.undo()
    assert game.hand() == hand_before
    assert game.mirror.actions == actions_before
    assert game.human_to_act == 0 and game.mirror.my_turn
    assert game.local.service.snapshot(0)["view"] == snapshot_before
    assert game.match.deal.hands[0] == hand_before
    stored = store.load(game.local.code)
    assert stored is not None and stored.commands[-1]["op"] == "undo"
    back = LocalTable.restore(stored, store, game.local.code)
    assert back.service.snapshot(0) == game.local.service.snapshot(0)
    # Play on from the undo: the restored table and this one stay the same.
    cheapest(game, 0)
    game.run_computers()
    assert game.mirror.my_turn or game.deal_over


def test_undo_with_nothing_to_undo_and_in_hot_seat_says_why() -> None:
    game = GameController(setup(seed=5))
    game.run_computers()
    with pytest.raises(BigTwoError, match="nothing to undo"):
        game.undo()
    hot = GameController(setup((True, True, False, False)))
    assert "hot-seat" in hot.undo_off()
    with pytest.raises(BigTwoError, match="hot-seat"):
        hot.undo()
    with pytest.raises(BigTwoError, match="one person playing against computers"):
        hot.local.undo(0)  # the table itself refuses it too
    play_deal(game)
    with pytest.raises(BigTwoError, match="deal is over"):
        game.undo()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 12))
def test_undo_restores_the_position_before_your_play_on_any_deal(seed: int, moves: int) -> None:
    """On any deal, after any number of your moves: your next play, the computers' replies,
    then undo, give back exactly the table you had (and the stored log says the same)."""
    from bigtwo.store.tables import MemoryStore

    store = MemoryStore()
    game = GameController(setup(seed=seed, deals=1), store=store)
    for _ in range(moves):
        game.run_computers()
        if game.deal_over:
            return
        cheapest(game, 0)
    game.run_computers()
    if game.deal_over:
        return
    before = game.local.service.snapshot(0)
    cheapest(game, 0)
    if game.deal_over:
        return  # the play won the deal: it stands
    game.run_computers()
    if game.deal_over:  # a computer went out: the deal's plays stand
        with pytest.raises(BigTwoError, match="deal is over"):
            game.undo()
        return
    game.undo()
    after = game.local.service.snapshot(0)
    assert after["view"] == before["view"]
    assert after["room"]["seats"] == before["room"]["seats"]
    stored = store.load(game.local.code)
    assert stored is not None
    back = LocalTable.restore(stored, store, game.local.code)
    assert back.service.snapshot(0) == after
