"""What the table service tells its players agrees with the engine, action by action.

Whole matches of every preset, at every player count it allows, with autopass on and off, are
played through a :class:`TableService` (people choosing at random, or computers). Beside the
table a second :class:`Deal` is dealt the same cards and given each action as its event
announces it; after every ``deal`` and ``action`` event, what the event says of the deal
(whose turn, the cards each seat holds, the play to beat and who made it, passes, locked
seats, the winner, whether the trick is over) must be exactly that deal's own state, and
after every command the table's own deal must be in that state too. The expected values are
read from the engine here, never from the service's event helpers.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bigtwo.engine import Deal, Rules, preset_names
from bigtwo.engine.cards import card_text, to_mask
from bigtwo.engine.views import SeatView
from bigtwo.match.match import Match
from bigtwo.match.settings import RuleSet
from bigtwo.service import Command, Op, SeatConfig, TableConfig, TableService
from bigtwo.service import hash_token as token_of
from bigtwo.service.events import Event
from depths import depths

DEALS_PER_TABLE = 6


def engine_state(view: SeatView) -> dict[str, Any]:
    """The public state of a deal as the engine keeps it, in the events' notation."""
    return {
        "turn": view.turn,
        "counts": list(view.counts),
        "table": None
        if view.to_beat is None
        else {
            "seat": view.to_beat_seat,
            "cards": card_text(view.to_beat.mask),
            "kind": view.to_beat.kind.value,
        },
        "passes": view.passes,
        "locked": [s for s in range(view.players) if view.locked >> s & 1],
        "winner": view.winner,
    }


def said_state(data: dict[str, Any]) -> dict[str, Any]:
    return {key: data[key] for key in ("turn", "counts", "table", "passes", "locked", "winner")}


class Shadow:
    """A deal kept beside the table from its events alone, checking each one on arrival."""

    def __init__(self, table: TableService) -> None:
        self.table = table
        self.deal: Deal | None = None
        self.number = 0
        self.checked = 0  # action events checked
        self.trick_ends = 0
        self.autopasses = 0

    def see(self, events: list[Event]) -> None:
        for event in events:
            if event.type == "deal":
                self._new_deal(event.data)
            elif event.type == "action":
                self._action(event.data)

    def _new_deal(self, data: dict[str, Any]) -> None:
        match = self.table.game
        assert match is not None and data["deal"] == match.deal_number
        rules = self.table.rules
        # The leader the match chose: the previous winner under next_leader = "winner".
        leader = None
        if rules.next_leader == "winner" and match.results:
            leader = match.results[-1].winner
        deal = Deal(rules, match.deal.dealt, leader=leader)
        # The actions before anyone chose (the card played alone, autopasses after it).
        opening = list(deal.actions)
        for said in data["actions"][len(opening) :]:
            self._apply(deal, said)
        assert [self._said(a) for a in deal.actions] == data["actions"]
        assert data["leader"] == deal.leader
        assert said_state(data) == engine_state(deal.view(None)), f"deal {data['deal']}"
        self.deal, self.number = deal, data["deal"]

    def _action(self, data: dict[str, Any]) -> None:
        deal = self.deal
        assert deal is not None and data["deal"] == self.number
        action = self._apply(deal, data)
        where = f"deal {self.number}, action {len(deal.actions)}: {data}"
        assert self._said(action) == {k: data[k] for k in self._said(action)}, where
        assert said_state(data) == engine_state(deal.view(None)), where
        self.checked += 1
        self.trick_ends += action.trick_over
        self.autopasses += action.auto

    @staticmethod
    def _apply(deal: Deal, said: dict[str, Any]) -> Any:
        if said["cards"] is None:
            return deal.pass_(said["seat"], auto=said["auto"], reason=said["reason"])
        return deal.play(said["seat"], said["cards"])

    @staticmethod
    def _said(action: Any) -> dict[str, Any]:
        return {
            "seat": action.seat,
            "cards": None if action.play is None else card_text(action.play.mask),
            "kind": None if action.play is None else action.play.kind.value,
            "auto": action.auto,
            "reason": action.reason,
            "trick_over": action.trick_over,
        }

    def agrees_with_table(self) -> None:
        """The table's own deal, if still the one shadowed, is in the shadow's state."""
        match = self.table.game
        assert match is not None and self.deal is not None
        if match.deal_number == self.number:
            live = match.deal
            assert engine_state(live.view(None)) == engine_state(self.deal.view(None))
            assert live.actions == self.deal.actions


def play_table(
    preset: str, players: int, seed: int, house: dict[str, Any], *, computers: bool, autopass: bool
) -> Shadow:
    """Seat everyone, play every deal to the end, and check every event on the way."""
    rng = random.Random(f"{preset}:{players}:{seed}")
    seats = tuple(
        SeatConfig("computer", rng.choice(("random", "greedy")))
        if computers and s
        else SeatConfig()
        for s in range(players)
    )
    config = TableConfig(
        preset=preset,
        rules=house,
        seats=seats,
        seed=seed,
        deals=DEALS_PER_TABLE,
        autopass=autopass,
        autopass_five=rng.random() < 0.5,
        away_seconds=None,
    )
    table = TableService(config, "AGREE")
    shadow = Shadow(table)
    for s in table.free_seats():
        shadow.see(table.apply(Command(Op.JOIN, seat=s, name=f"P{s}", token=token_of(f"t{s}")), 0))
        table.connect(s, 0)
    for s in range(players):
        if table.seats[s].human:
            shadow.see(table.submit(Command(Op.READY, seat=s), 0)[1])
    pass_bias = rng.choice((0.2, 0.5, 0.8))
    for _ in range(5000):
        if table.status != "playing":
            break
        assert table.game is not None
        deal = table.game.deal
        view = deal.view(deal.turn)
        if view.can_pass and (not view.legal or rng.random() < pass_bias):
            cards = None
        else:
            cards = rng.choice(view.legal).mask
        shadow.see(table.submit(Command(Op.ACT, seat=deal.turn, cards=cards), 0)[1])
        shadow.agrees_with_table()
    assert table.status == "finished", "the match did not end"
    assert shadow.number == DEALS_PER_TABLE
    return shadow


# Every preset at every player count it allows; and, so that passing out of a trick is met
# with two and three players too, the presets for those counts with pass_lock added.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    (preset, players, {}) for preset in preset_names() for players in Rules.preset(preset).players
] + [
    (preset, players, {"pass_lock": True})
    for preset in ("deduction", "hongkong")
    for players in Rules.preset(preset).players
]


# make test plays one seed of each case (four matches: computers or not, autopass on or off);
# the thorough run (marked slow: make test-slow, CI) five.
@pytest.mark.parametrize("seeds", depths(1, 5))
@pytest.mark.parametrize(
    ("preset", "players", "house"),
    CASES,
    ids=[f"{p}-{n}" + "".join(f"-{k}" for k in h) for p, n, h in CASES],
)
def test_every_action_event_says_what_the_engine_knows(
    preset: str, players: int, house: dict[str, Any], seeds: int
) -> None:
    checked = trick_ends = autopasses = 0
    for seed in range(seeds):
        for computers in (False, True):
            for autopass in (True, False):
                shadow = play_table(
                    preset, players, seed, house, computers=computers, autopass=autopass
                )
                checked += shadow.checked
                trick_ends += shadow.trick_ends
                autopasses += shadow.autopasses
    # The matches did reach what the check is about: many actions, trick ends, autopasses.
    assert checked > 500 * seeds and trick_ends > 50 * seeds and autopasses > 10 * seeds


def test_pass_lock_ends_a_trick_when_every_other_seat_has_passed() -> None:
    """Pusoy dos: a seat that passed sits out the trick, and a play that leaves nobody to
    answer ends the trick at once: the event says the player leads again at an empty table."""
    rules = Rules.preset("pusoy-dos")
    hands = [  # pusoy dos: 3c leads
        "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c",
        "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2d",
        "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah 2h",
        "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s",
    ]
    config = TableConfig(preset="pusoy-dos", seats=(SeatConfig(),) * 4, deals=1, autopass=False)
    table = TableService(config, "LOCK")
    for s in range(4):
        table.apply(Command(Op.JOIN, seat=s, name=f"P{s}", token=token_of(f"t{s}")), 0)
    for s in range(4):
        table.apply(Command(Op.READY, seat=s), 0)
    assert table.game is not None
    # Before anyone acts, the table's match is replaced by one dealt these hands.
    table.game = Match(
        RuleSet.preset("pusoy-dos"), table.game.names, hands=hands, deals=1, autopass=False
    )
    shadow = Shadow(table)
    shadow.deal, shadow.number = Deal(rules, hands), 1
    moves = [(0, "3c"), (1, "4d"), (2, None), (3, None), (0, "5c"), (1, None)]
    for seat, cards in moves:
        mask = None if cards is None else to_mask(cards)
        events = table.apply(Command(Op.ACT, seat=seat, cards=mask), 0)
        shadow.see(events)
        shadow.agrees_with_table()
    # Seats 2 and 3 passed at 4d and sit out; seat 1 passed at 5c: the trick is seat 0's.
    last = [e for e in events if e.type == "action"][-1].data
    assert last["trick_over"] and last["table"] is None and last["turn"] == 0
    assert last["locked"] == [] and last["passes"] == 0


def test_the_table_announces_the_state_the_match_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    """The service works nothing out again: each action event carries, field for field, the
    public state that :meth:`Match.take_turn` returned for that action, one event per returned
    action and in the same order. A state altered on its way out of the match shows up in the
    events unchanged, which a service recomputing counts, passes or locks would not do."""
    from bigtwo.match.match import Applied
    from bigtwo.service.events import public_state

    returned: list[list[Applied]] = []
    take_turn = Match.take_turn

    def marked(self: Match, seat: int, cards: Any) -> list[Applied]:
        applied = take_turn(self, seat, cards)
        # Mark each state so that only a copy of it can reach the event: passes -1 and the
        # counts reversed are no state a deal is ever in.
        applied = [
            Applied(a.action, a.state._replace(passes=-1 - i, counts=a.state.counts[::-1]))
            for i, a in enumerate(applied)
        ]
        returned.append(applied)
        return applied

    monkeypatch.setattr(Match, "take_turn", marked)
    config = TableConfig(preset="hongkong", seats=(SeatConfig(),) * 4, seed=3, deals=1)
    table = TableService(config, "SAID")
    for s in range(4):
        table.apply(Command(Op.JOIN, seat=s, name=f"P{s}", token=token_of(f"t{s}")), 0)
    for s in range(4):
        table.apply(Command(Op.READY, seat=s), 0)
    rng = random.Random(3)
    announced = autopassed = 0
    for _ in range(200):
        if table.status != "playing":
            break
        assert table.game is not None
        view = table.game.deal.view(table.game.deal.turn)
        pass_ = view.can_pass and (not view.legal or rng.random() < 0.4)
        pick = None if pass_ else rng.choice(view.legal).mask
        events = table.apply(Command(Op.ACT, seat=view.turn, cards=pick), 0)
        actions = [e.data for e in events if e.type == "action"]
        applied = returned[-1]
        assert len(actions) == len(applied)
        for data, (_, state) in zip(actions, applied, strict=True):
            assert {key: data[key] for key in public_state(state)} == public_state(state)
        announced += len(actions)
        autopassed += len(actions) - 1
    # Many actions were announced, autopasses among them, each from the match's own state.
    assert announced > 40 and autopassed > 0
