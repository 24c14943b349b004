"""What the coach's tests share: a game played by ``expert`` in every seat (``bigtwo simulate
--seats expert,expert,expert,expert --deals 2 --seed 3``, palm), and deals with an error
planted by hand, finished by the ``strong`` player."""

from __future__ import annotations

import random

from bigtwo.bots.strong import StrongBot
from bigtwo.match.match import Match
from bigtwo.match.record_formats import read_game
from bigtwo.match.settings import RuleSet

EXPERT_RECORD = """\
bigtwo-record 1
# Big Two game record, one line per action: see docs/record-format.md
rules palm
deals 2
seed 3
autopass on
autopass-five off
seat 0 Ann
seat 1 Bill
seat 2 Cat
seat 3 Dan
player 0 expert
player 1 expert
player 2 expert
player 3 expert

deal 1
hand 0 4c 5c 6d 7d 7h 8h 9d Jh Qc Ad 2d 2c 2h
hand 1 3h 4s 6s 8c 8s 9s Tc Ts Jd Qd Qs Ks Ac
hand 2 3c 3s 4d 6c 7s 9c 9h Td Th Js Qh Kh Ah
hand 3 3d 4h 5d 5h 5s 6h 7c 8d Jc Kd Kc As 2s
play 3 3d
play 0 7h
play 1 8c
play 2 Td
play 3 Jc
play 0 Qc
play 1 Ac
pass 2
play 3 As
pass 0
pass 1 auto no 1-card play beats the table
pass 2 auto no 1-card play beats the table
play 3 5h 5s
play 0 2d 2c
pass 1 auto no 2-card play beats the table
pass 2 auto no 2-card play beats the table
pass 3 auto no 2-card play beats the table
play 0 4c
play 1 4s
play 2 7s
pass 3
play 0 Jh
pass 1
play 2 Js
pass 3
play 0 Ad
pass 1 auto no 1-card play beats the table
play 2 Ah
pass 3
pass 0
pass 1 auto no 1-card play beats the table
play 2 9c 9h
play 3 Kd Kc
pass 0 auto no 2-card play beats the table
pass 1 auto no 2-card play beats the table
pass 2 auto no 2-card play beats the table
play 3 2s
pass 0 auto no 1-card play beats the table
pass 1 auto no 1-card play beats the table
pass 2 auto no 1-card play beats the table
play 3 4h 5d 6h 7c 8d
winner 3
left 6 10 7 0
points -38 -148 -37 223
totals -38 -148 -37 223
deal 2
hand 0 3c 3h 4d 4h 5h 5s 6h 8c 8s Jd Kc Ks As
hand 1 3d 3s 4c 7h 7s 8h Th Js Kd Kh Ac 2d 2c
hand 2 5c 6d 6c 6s 7d 8d 9h 9s Jc Jh Qd Qh Qs
hand 3 4s 5d 7c 9d 9c Td Tc Ts Qc Ad Ah 2h 2s
play 1 3d 3s
play 2 6d 6c
play 3 Ad Ah
pass 0 auto no 2-card play beats the table
play 1 2d 2c
pass 2 auto no 2-card play beats the table
pass 3
pass 0 auto no 2-card play beats the table
play 1 7h 7s
pass 2
pass 3
play 0 8c 8s
pass 1
pass 2
pass 3
play 0 5h 5s
pass 1
pass 2
pass 3
play 0 4d 4h
pass 1
pass 2
pass 3
play 0 3c 3h
pass 1
pass 2
pass 3
play 0 Jd
play 1 Js
play 2 Qs
pass 3
play 0 As
pass 1 auto no 1-card play beats the table
pass 2 auto no 1-card play beats the table
play 3 2h
pass 0 auto no 1-card play beats the table
pass 1 auto no 1-card play beats the table
pass 2 auto no 1-card play beats the table
play 3 9d 9c Td Tc Ts
pass 0
pass 1
pass 2
play 3 4s
play 0 6h
play 1 Th
play 2 Qh
play 3 2s
pass 0 auto no 1-card play beats the table
pass 1 auto no 1-card play beats the table
pass 2 auto no 1-card play beats the table
play 3 5d
play 0 Kc
play 1 Kh
pass 2 auto no 1-card play beats the table
pass 3 auto no 1-card play beats the table
play 0 Ks
winner 0
left 0 4 9 2
points 106 -31 -60 -15
totals 68 -179 -97 208
"""

# A weak hand (one 2, no pair above 9s) and three ordinary ones.
WEAK = "4d 5c 6s 8h 9c Tc Jh Qd Ks 3c 7d 9h 2s"
OTHERS = (
    "3d 5h 7c 9s Jd Kh Ac 4s 6d 8c Th Qs 2c",
    "3h 4c 5s 6h 7s 8d Td Jc Qc Kd Ad 2d 3s",
    "4h 5d 6c 7h 8s 9d Ts Js Qh Kc Ah As 2h",
)


def expert_game() -> Match:
    game = read_game(EXPERT_RECORD)
    assert isinstance(game, Match)
    return game


def finish(match: Match, seed: int = 0) -> None:
    """Play the deal in hand to its end with the ``strong`` player in every seat."""
    bot = StrongBot()
    rng = random.Random(seed)
    while not match.deal.over:
        seat = match.deal.turn
        match.act(seat, bot.choose(match.view(seat), rng))


def two_led_alone() -> tuple[Match, int]:
    """A palm-hk game whose second deal the winner of the first leads (no card must open it)
    with the weak hand, leading its one 2 (2♠) alone; the deal finished by ``strong``. The
    match and the seat that erred."""
    match = Match(RuleSet.preset("palm-hk"), seed=1, deals=2)
    finish(match)
    winner = match.results[-1].winner
    hands = [WEAK if s == winner else OTHERS[(s - winner - 1) % 4] for s in range(4)]
    match.next_deal(hands=hands)
    match.play(winner, "2s")
    finish(match)
    return match, winner
