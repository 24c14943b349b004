"""Rules as data: every preset loads and cites its source, every option can be set from
TOML, unknown or contradictory options are refused in words, and scoring follows the
examples of RULES.md and the seeds."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bigtwo.engine import Rules, RulesError, preset_names
from bigtwo.engine.rules import FIVE_CARD_KINDS
from bigtwo.match.settings import MatchRules, RuleSet, Scoring

PRESETS = preset_names()
PALM_STRAIGHTS = (
    "A2345", "23456", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA",
)  # fmt: skip
NO_WRAP = ("34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA", "JQKA2")


def test_every_required_preset_exists() -> None:
    required = {
        "palm",
        "palm-hk",
        "textbook",
        "deduction",
        "hongkong",
        "taiwan",
        "pusoy-dos",
        "charlesworth2018",
    }
    assert required <= set(PRESETS)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_loads_names_itself_and_cites_a_source(name: str) -> None:
    rules = Rules.preset(name)
    assert rules.name == name
    assert len(rules.source) > 20
    cites = ("seed", "pagat", "arXiv", "Wikipedia")
    assert any(word in rules.source for word in cites), rules.source
    assert Rules.preset(name) is rules  # loaded once
    assert rules.default_players in rules.players
    for players in rules.players:
        assert rules.hand_size(players) * players <= 52


@pytest.mark.parametrize("name", ["hongkong", "taiwan", "pusoy-dos"])
def test_regional_presets_say_what_was_chosen(name: str) -> None:
    source = Rules.preset(name).source
    assert "Chosen here" in source
    for topic in ("suits", "leads", "straights", "flushes", "point"):
        assert topic in source, (name, topic)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_round_trips_through_plain_data(name: str) -> None:
    rules = Rules.preset(name)
    assert Rules.from_mapping(rules.to_mapping()) == rules
    whole = RuleSet.preset(name)
    assert whole.rules == rules
    assert RuleSet.from_mapping(whole.to_mapping()) == whole
    # bigtwo rules show writes every option, of play and of the match, as a rules file
    # holds them: TOML that reads back as the same rules
    assert RuleSet.from_toml(whole.to_toml()) == whole
    written = tomllib.loads(whole.to_toml())
    for option in ("suit_order", "scoring", "deals_per_game", "autopass", "autopass_five"):
        assert option in written


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="Unknown rule preset 'nope'"):
        Rules.preset("nope")


# -- what each preset says ---------------------------------------------------------------
def test_palm_preset() -> None:
    palm = Rules.preset("palm")
    assert palm.suit_order == "dchs"
    assert (palm.lead_card, palm.first_play, palm.next_leader) == ("3d", "include", "lead_card")
    assert palm.players == (4,) and palm.hand_size(4) == 13
    assert palm.straights == PALM_STRAIGHTS
    assert palm.five_kinds == FIVE_CARD_KINDS
    assert palm.kinds_beat_lower and palm.flush_order == "top_card"
    assert palm.four_card_kinds == () and palm.bombs == () and palm.triples
    match = RuleSet.preset("palm").match
    assert match.deals_per_game == 10
    assert match.autopass and not match.autopass_five
    assert match.scoring.per_card == "rank" and match.scoring.multipliers == ((10, 2),)
    assert match.scoring.winner_collects
    assert Rules() == palm.replace(source="")
    assert MatchRules() == match


def test_palm_hk_differs_from_palm_in_two_rules_only() -> None:
    palm, hk = RuleSet.preset("palm"), RuleSet.preset("palm-hk")
    assert hk.rules.next_leader == "winner"
    assert hk.rules.straights == ("A2345",) + PALM_STRAIGHTS[2:] + ("23456",)
    differing = {k for k, v in hk.to_mapping().items() if palm.to_mapping()[k] != v}
    assert differing == {"name", "source", "next_leader", "straights"}


def test_textbook_preset() -> None:
    tb = Rules.preset("textbook")
    assert tb.straights == NO_WRAP
    assert tb.flush_order == "suit_first"
    assert tb.players == (4,) and tb.lead_card == "3d" and tb.first_play == "include"
    assert RuleSet.preset("textbook").scoring.per_card == "none"


def test_deduction_preset() -> None:
    d = Rules.preset("deduction")
    assert d.players == (2, 3, 4)
    assert [d.hand_size(p) for p in (2, 3, 4)] == [13, 13, 13]
    assert d.leftover == "aside" and d.lead_card == "3d"
    assert d.straights == PALM_STRAIGHTS and d.five_kinds == FIVE_CARD_KINDS
    match = RuleSet.preset("deduction").match
    assert not match.scoring.winner_collects and match.deals_per_game == 10


def test_hongkong_preset() -> None:
    hk = Rules.preset("hongkong")
    assert hk.suit_order == "dchs" and hk.lead_card == "3d" and hk.kinds_beat_lower
    assert [hk.hand_size(p) for p in (2, 3, 4)] == [13, 17, 13]
    assert hk.leftover == "to_leader"
    assert RuleSet.preset("hongkong").scoring.multipliers == ((10, 2), (13, 3))


def test_taiwan_preset() -> None:
    tw = Rules.preset("taiwan")
    assert tw.suit_order == "cdhs" and tw.lead_card == "3c"
    assert tw.bombs == ("four_of_a_kind", "straight_flush")
    assert not tw.kinds_beat_lower


def test_pusoy_dos_preset() -> None:
    pd = Rules.preset("pusoy-dos")
    assert pd.suit_order == "cshd" and pd.lead_card == "3c"
    assert pd.flush_order == "suit_first" and pd.pass_lock


def test_charlesworth_preset() -> None:
    cw = Rules.preset("charlesworth2018")
    assert cw.first_play == "alone" and cw.lead_card == "3d"
    assert cw.straights == NO_WRAP and cw.straight_tiebreak == "highest_card"
    assert cw.five_kinds == ("straight", "flush", "full_house", "straight_flush")
    assert cw.four_card_kinds == ("two_pair", "bare_four")
    assert not cw.straight_flush_beatable and not cw.pass_lock
    scoring = RuleSet.preset("charlesworth2018").scoring
    assert scoring.per_card == "one" and scoring.multipliers == ()
    assert cw.players == (4,) and cw.hand_size(4) == 13


def test_lead_card_index() -> None:
    assert Rules.preset("palm").lead_card_index() == 0
    assert Rules.preset("taiwan").lead_card_index() == 1
    assert Rules().replace(lead_card="lowest").lead_card_index() is None


def test_hand_size_of_an_unsupported_player_count() -> None:
    with pytest.raises(RulesError, match="palm is not played by 3 players"):
        Rules.preset("palm").hand_size(3)


# -- house rules ---------------------------------------------------------------------------
HOUSE = """
base = "palm"
name = "our table"
source = "the kitchen"
pass_lock = true
last_card = true
bombs = ["four_of_a_kind"]
players = [3, 4]
cards_per_player = { 3 = 17, 4 = 13 }

[scoring]
multipliers = [[10, 2], [13, 3]]
"""


def test_house_rules_from_toml() -> None:
    house = RuleSet.from_toml(HOUSE)
    rules = house.rules
    assert rules.name == "our table" and rules.source == "the kitchen"
    assert rules.pass_lock and rules.last_card and rules.bombs == ("four_of_a_kind",)
    assert rules.hand_size(3) == 17
    # untouched options keep the base preset's values, also inside [scoring]
    assert rules.straights == PALM_STRAIGHTS and house.scoring.per_card == "rank"
    assert house.scoring.multipliers == ((10, 2), (13, 3))
    assert house.match.deals_per_game == 10 and house.match.autopass


def test_house_rules_from_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE, encoding="utf-8")
    assert RuleSet.from_file(path) == RuleSet.from_toml(HOUSE)
    with pytest.raises(RulesError, match="Cannot read rules file"):
        RuleSet.from_file(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(RulesError, match="not UTF-8"):
        RuleSet.from_file(bad)


def test_house_rules_without_base_start_from_defaults() -> None:
    assert Rules.from_toml("triples = false").triples is False
    assert Rules.from_toml("").straights == PALM_STRAIGHTS
    assert RuleSet.from_toml("autopass = false").match.autopass is False


def test_the_engine_alone_refuses_the_match_settings() -> None:
    # The rules of play know nothing of the match: only the whole rules file reads these.
    with pytest.raises(RulesError, match="unknown option 'deals_per_game'"):
        Rules.from_toml("deals_per_game = 3")
    assert not hasattr(Rules.preset("palm"), "autopass")


def test_every_option_can_be_set_from_toml() -> None:
    text = """
    suit_order = "cshd"
    players = [2, 3]
    default_players = 3
    cards_per_player = { 2 = 20, 3 = 17 }
    leftover = "to_leader"
    lead_card = "lowest"
    first_play = "any"
    next_leader = "winner"
    straights = ["34567", "JQKA2"]
    straight_tiebreak = "highest_card"
    flush_order = "suit_first"
    five_kinds = ["straight", "flush", "full_house", "straight_flush"]
    kinds_beat_lower = false
    four_card_kinds = ["two_pair", "bare_four"]
    triples = false
    bombs = ["bare_four"]
    straight_flush_beatable = false
    pass_lock = true
    last_card = true
    deals_per_game = 3
    autopass = false
    autopass_five = false
    [scoring]
    per_card = "one"
    rank_values = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5]
    multipliers = [[7, 4]]
    winner_collects = false
    """
    house = RuleSet.from_toml(text)
    rules, match = house.rules, house.match
    assert rules.suit_order == "cshd" and rules.players == (2, 3) and rules.default_players == 3
    assert rules.cards_per_player == ((2, 20), (3, 17)) and rules.leftover == "to_leader"
    assert (rules.lead_card, rules.first_play, rules.next_leader) == ("lowest", "any", "winner")
    assert rules.straights == ("34567", "JQKA2") and rules.straight_tiebreak == "highest_card"
    assert rules.flush_order == "suit_first" and not rules.kinds_beat_lower
    assert rules.five_kinds == ("straight", "flush", "full_house", "straight_flush")
    assert rules.four_card_kinds == ("two_pair", "bare_four") and not rules.triples
    assert rules.bombs == ("bare_four",) and not rules.straight_flush_beatable
    assert rules.pass_lock and rules.last_card and match.deals_per_game == 3
    assert not match.autopass and not match.autopass_five
    assert match.scoring == Scoring("one", (1,) * 12 + (5,), ((7, 4),), False)
    # every option was set above, so a new option must be added to this test
    keys = {line.split("=")[0].strip() for line in text.splitlines() if "=" in line}
    assert set(RuleSet().to_mapping()) - {"name", "source", "scoring"} <= keys


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colour = 'red'", "unknown option 'colour'"),
        ("[scoring]\nbonus = 1", "unknown key 'bonus'"),
        ("base = 'nope'", "Unknown rule preset 'nope'"),
        ("base = 3", "'base' must be a preset name"),
        ("pass_lock = 'yes'", "option 'pass_lock' must be true or false"),
        ("deals_per_game = 'ten'", "option 'deals_per_game' must be a whole number"),
        ("deals_per_game = true", "option 'deals_per_game' must be a whole number"),
        ("suit_order = 4", "option 'suit_order' must be text"),
        ("straights = '34567'", "option 'straights' must be a list"),
        ("straights = [34567]", "option 'straights' must list text"),
        ("players = ['4']", "option 'players' must list whole numbers"),
        ("scoring = 3", "option 'scoring' must be a table"),
        ("[scoring]\nmultipliers = [[10]]", "malformed"),
        ("[scoring]\nrank_values = ['x']", "malformed"),
        ("[scoring]\nwinner_collects = 'no'", "winner_collects must be true or false"),
        ("[scoring]\nper_card = 1", "per_card must be text"),
        ("cards_per_player = 13", "must map player counts to cards"),
        ("cards_per_player = { four = 13 }", "must map player counts to cards"),
        ("this is = not toml =", "not valid TOML"),
    ],
)
def test_malformed_options_are_refused_in_words(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        RuleSet.from_toml(text, origin="house.toml")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"suit_order": "dchh"}, "suit_order must name d, c, h, s once each"),
        ({"lead_card": "4d"}, "lead_card must be one of 3d, 3c, lowest"),
        ({"first_play": "never"}, "first_play must be one of"),
        ({"next_leader": "loser"}, "next_leader must be one of"),
        ({"straight_tiebreak": "x"}, "straight_tiebreak must be one of"),
        ({"flush_order": "x"}, "flush_order must be one of"),
        ({"leftover": "burn"}, "leftover must be one of"),
        ({"players": [5]}, "players must be a list drawn from 2, 3 and 4"),
        ({"players": []}, "players must be a list drawn from 2, 3 and 4"),
        ({"players": [3]}, "default_players 4 is not in players"),
        ({"players": [3, 4], "cards_per_player": {4: 13}}, "says nothing for 3 players"),
        ({"cards_per_player": {4: 14}}, "4 players cannot get 14 cards each"),
        ({"cards_per_player": {4: 0}}, "4 players cannot get 0 cards each"),
        ({"first_play": "alone", "lead_card": "lowest"}, "first_play 'alone' needs a named"),
        ({"straights": ["3456"]}, "'3456' is not a sequence of five different ranks"),
        ({"straights": ["33456"]}, "'33456' is not a sequence of five different ranks"),
        ({"straights": ["34567", "76543"]}, "listed twice"),
        ({"straights": []}, "straights are a kind but no sequences are listed"),
        ({"five_kinds": ["straight", "royal"]}, "'royal' is not a five-card kind"),
        ({"five_kinds": ["flush", "flush"]}, "five_kinds names a kind twice"),
        ({"five_kinds": ["straight", "flush"]}, "straight_flush must be a kind too"),
        ({"four_card_kinds": ["three_pair"]}, "'three_pair' is not a four-card kind"),
        ({"four_card_kinds": ["two_pair", "two_pair"]}, "four_card_kinds names a kind twice"),
        ({"four_card_kinds": ["bare_four"]}, "both a five-card and a four-card play"),
        ({"bombs": ["two_pair"]}, "bomb 'two_pair' is not a kind these rules have"),
        ({"bombs": ["straight_flush", "straight_flush"]}, "bombs names a kind twice"),
        ({"scoring": {"per_card": "suit"}}, "per_card must be one of rank, one, none"),
        ({"scoring": {"rank_values": [1, 2]}}, "rank_values needs 13 values"),
        ({"scoring": {"multipliers": [[0, 2]]}}, "multipliers must be"),
        ({"deals_per_game": 0}, "deals_per_game must be at least 1"),
        ({"autopass": False, "autopass_five": True}, "autopass_five extends autopass"),
    ],
)
def test_contradictory_or_impossible_options_are_refused(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        RuleSet.from_mapping({"base": "palm", **options})


def test_replace_checks_options() -> None:
    palm = Rules.preset("palm")
    assert palm.replace(pass_lock=True).pass_lock
    assert not palm.pass_lock  # presets are values, never changed in place
    with pytest.raises(RulesError, match="unknown option 'pass_locks'"):
        palm.replace(pass_lock=True, pass_locks=True)


def test_rules_are_frozen_and_hashable() -> None:
    palm = Rules.preset("palm")
    with pytest.raises(AttributeError):
        palm.pass_lock = True  # type: ignore[misc]
    assert len({palm, Rules.preset("palm"), palm.replace(pass_lock=True)}) == 2


# -- scoring -------------------------------------------------------------------------------
def test_palm_scoring_examples() -> None:
    scoring = RuleSet.preset("palm").scoring
    nine = list(range(9))  # 3d 4d 5d 6d 7d 8d 9d Td Jd
    assert scoring.charge(9, nine)[0] == 45
    assert scoring.charge(10, nine + [9])[0] == 110  # ... Qd: ten cards pay double
    # -1 point for a 3, -2 for a 4, -13 for a 2 (seeds 000, 001, 003)
    assert [scoring.charge(1, [r])[0] for r in (0, 1, 12)] == [1, 2, 13]
    assert scoring.charge(0, [])[0] == 0


def test_deduction_scoring_bands() -> None:
    scoring = RuleSet.preset("deduction").scoring
    assert [scoring.charge(n, [0] * n)[0] for n in (1, 9, 10, 12, 13)] == [1, 9, 20, 24, 39]


def test_count_scoring_presets() -> None:
    for name in ("hongkong", "taiwan"):
        scoring = RuleSet.preset(name).scoring
        assert [scoring.charge(n, [12] * n)[0] for n in (5, 10, 13)] == [5, 20, 39]
    for name in ("pusoy-dos", "charlesworth2018"):
        assert RuleSet.preset(name).scoring.charge(13, [12] * 13)[0] == 13
    assert RuleSet.preset("textbook").scoring.charge(13, [12] * 13)[0] == 0


def test_multiplier_bands_in_any_order() -> None:
    scoring = Scoring(per_card="one", multipliers=((13, 3), (10, 2)))
    assert [scoring.charge(n, [0] * n)[0] for n in (9, 10, 13)] == [9, 20, 39]


def test_house_rules_report_every_problem_naming_the_file(tmp_path: Path) -> None:
    """Issue 15, item 16: a straight that is not five ranks in a row is refused; errors name
    the house-rules file (not its base preset), and every problem is reported at once."""
    house = tmp_path / "house.toml"
    house.write_text(
        'base = "palm"\nstraights = ["34567", "A2346"]\nlead_card = "4d"\n'
        "deals_per_game = 0\ncolour = 'red'\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesError) as caught:
        RuleSet.from_file(house)
    message = str(caught.value)
    assert message.startswith(f"{house} has 4 problems:"), message
    assert "palm" not in message.split(":")[0]
    for part in (
        "the straight 'A2346' is not five ranks in a row",
        "lead_card must be one of",
        "deals_per_game must be at least 1",
        "unknown option 'colour'",
    ):
        assert part in message
    assert len(caught.value.problems) == 4


@pytest.mark.parametrize("seq", ["A2346", "76543", "35467", "9TJQA"])
def test_a_straight_must_be_ranks_in_a_row_low_to_high(seq: str) -> None:
    with pytest.raises(RulesError, match=f"'{seq}' is not five ranks in a row"):
        Rules.from_mapping({"straights": ["34567", seq]}, origin="house.toml")


def test_every_listed_straight_of_the_presets_is_a_run() -> None:
    for name in preset_names():
        assert Rules.preset(name).straights  # loading checked them: all are runs
    assert Rules.from_mapping({"straights": ["QKA23"]}).straights == ("QKA23",)
