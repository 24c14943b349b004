"""Every rule override a room request is accepted with plays: tables built from overrides
at the edges of what the request declaration accepts (values taken from every preset, the
bounds of the numbers) play a whole deal without a command failing part-way. Before the
numbers were bounded, a crafted override made a table fail at its first deal end."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bigtwo.engine.rules import preset_names
from bigtwo.match.settings import RuleSet
from bigtwo.service import Command, ConfigError, TableService, hash_token
from bigtwo.service.commands import Op
from bigtwo.service.declare import MAX_RULE_NUMBER
from bigtwo.service.request import table_config


def _values() -> dict[str, list[Any]]:
    """For each rule option, every value some preset gives it, and a few edges."""
    out: dict[str, list[Any]] = {}
    for name in preset_names():
        rules = RuleSet.preset(name)
        for key, value in {**rules.rules.to_mapping(), **rules.match.to_mapping()}.items():
            if key not in ("name", "source") and value not in out.setdefault(key, []):
                out[key].append(value)
    top = MAX_RULE_NUMBER
    out["scoring"] += [
        {"multipliers": [[1, top]], "rank_values": [top] * 13},
        {"multipliers": [[13, top], [1, top - 1]], "per_card": "one"},
        {"rank_values": [-top] * 13, "winner_collects": False},
        {"multipliers": [[1.5, 9999.5]], "rank_values": [0.5] * 13},
    ]
    out["deals_per_game"] += [1, top]
    out["cards_per_player"] += [1, 5, 12, 17]
    return out


VALUES = _values()
OVERRIDES = st.dictionaries(
    st.sampled_from(sorted(VALUES)), st.none(), min_size=1, max_size=4
).flatmap(
    lambda keys: st.fixed_dictionaries({k: st.sampled_from(VALUES[k]) for k in keys})
)  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(list(preset_names())),
    players=st.sampled_from([2, 3, 4]),
    rules=OVERRIDES,
)
def test_every_accepted_override_plays_a_deal(preset: str, players: int, rules: Any) -> None:
    request = {
        "preset": preset,
        "seats": ["human"] + ["computer:random"] * (players - 1),
        "rules": rules,
        "deals": 1,
    }
    try:
        config = table_config(request)
    except ConfigError:
        return  # refused in words: fine
    table = TableService(config, "T")
    table.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), 0.0)
    table.connect(0, 0.0)
    table.submit(Command(Op.READY, seat=0), 0.0)  # a Faulted here fails the test
    for _ in range(500):
        if table.status != "playing" or table.game is None:
            break
        if table.game.deal.turn == 0:
            view = table.game.view(0)
            cards = None if view.can_pass else view.legal[0].mask
            table.submit(Command(Op.ACT, seat=0, cards=cards), 0.0)
        else:
            table.submit(None, 0.0)
    assert table.status == "finished"
    table.info()  # GET /api/rooms/{code} answers
