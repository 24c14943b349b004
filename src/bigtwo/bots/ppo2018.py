"""The ``ppo2018`` computer players: the Charlesworth (2018) PPO network as a bigtwo bot.

The network itself (encoder, action indices, forward pass) is :mod:`.ppo2018_net`; this module
only translates. From a :class:`~bigtwo.engine.views.SeatView` it builds the history of
``(seat, cards or None)`` the encoder reads and maps the engine's legal plays (the mask is
the engine's, under whatever rules are in force, less the ♦♣♠ triple of a four of a kind that
the original program never offered) to network action indices, then lets
the network choose: ``ppo2018`` samples the masked softmax as the original program did,
``ppo2018-greedy`` takes the highest logit.

Under ``charlesworth2018`` every state and play is one the network was trained on. Under
other four-player rules, masked by that preset's legal plays, three things need a translation,
chosen here:

* a five-card four of a kind (``palm`` and others) has no action of its own among the
  network's five-card moves; it is mapped to the network's four-of-a-kind action on its four
  cards, and when several kickers give the same action the cheapest kicker is played;
* plays the 2018 rules do not know appear in the history as their nearest 2018 kind, built
  from cards outside the acting hand: a straight through A or 2 (A2345, 23456) as a straight
  with the same middle card, a five-card four of a kind as a full house on its rank. The
  card-based inputs (which aces, twos and high cards were played) are then set from the real
  cards;
* states the network cannot be shown at all (not four players, or a hand of more than 13
  cards) are played by the ``strong`` player instead.

The network's data files are looked up by :func:`.ppo2018_net.find_data_dir` (never copied into
the repository); making one of these bots without them raises a ``BigTwoError`` saying where
to put them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..engine.cards import Mask, card_indices
from ..engine.plays import Kind, Play
from . import ppo2018_net as net_mod
from . import register_bot
from .base import Bot
from .strong import StrongBot

if TYPE_CHECKING:
    from ..engine.views import SeatView
    from ..match.views import TableView

_NETWORK: net_mod.Network | None = None


def network() -> net_mod.Network:
    """The trained network, loaded once per process."""
    global _NETWORK
    if _NETWORK is None:
        _NETWORK = net_mod.Network.load()
    return _NETWORK


# -- the history as the 2018 encoder reads it ---------------------------------------------------

_HIGH_BITS = range(367, 383)
_OPP_BASES = (286, 313, 340)


def _encodable(mask: Mask) -> bool:
    """Whether the 2018 rules know the play (so the encoder can classify it)."""
    cards = card_indices(mask)
    n = len(cards)
    ranks = sorted(c >> 2 for c in cards)
    if n <= 3:
        return len(set(ranks)) == 1
    if n == 4:
        return len(set(ranks)) == 1 or (ranks[0] == ranks[1] and ranks[2] == ranks[3])
    if n != 5:
        return False
    if len({c & 3 for c in cards}) == 1:
        return True  # a flush, or a straight flush
    if len(set(ranks)) == 5:
        return ranks[4] - ranks[0] == 4
    return sorted(ranks.count(r) for r in set(ranks)) == [2, 3]


def stand_in(mask: Mask, hand: Mask) -> Mask:
    """A play the 2018 rules know, of the nearest kind to ``mask``, from cards not in ``hand``.

    Straights through A or 2 become a straight with the same middle card (cards sorted by
    index, as the encoder reads a straight); other five-card plays (a four of a kind with a
    kicker) become a full house on the rank they hold most of. Returns 0 when no such cards
    are free, which the caller treats as an unencodable state.
    """
    free = [[c for c in range(r * 4, r * 4 + 4) if not hand >> c & 1] for r in range(13)]
    cards = card_indices(mask)
    ranks = [c >> 2 for c in cards]
    if len(set(ranks)) == 5:
        middle = min(max(ranks[2], 2), 10)
        for centre in sorted(range(2, 11), key=lambda r: abs(r - middle)):
            run = [free[r] for r in range(centre - 2, centre + 3)]
            if not all(run):
                continue
            picked = [options[0] for options in run]
            if len({c & 3 for c in picked}) == 1:
                # one suit would read as a straight flush: take another suit somewhere
                for i, options in enumerate(run):
                    other = [c for c in options if c & 3 != picked[0] & 3]
                    if other:
                        picked[i] = other[0]
                        break
            if len({c & 3 for c in picked}) > 1:
                return Mask(sum(1 << c for c in picked))
        return Mask(0)
    main = max(set(ranks), key=ranks.count)
    if len(free[main]) >= 3:
        for r in range(13):
            if r != main and len(free[r]) >= 2:
                return Mask(sum(1 << c for c in free[main][:3] + free[r][:2]))
    return Mask(0)


def history_of(view: SeatView) -> list[tuple[int, Mask | None]]:
    """The public history as ``(seat, cards or None)``, plays the 2018 rules do not know
    replaced by :func:`stand_in` plays."""
    out: list[tuple[int, Mask | None]] = []
    for action in view.actions:
        if action.play is None:
            out.append((action.seat, None))
            continue
        mask = action.play.mask
        if not _encodable(mask):
            mask = stand_in(mask, view.hand)
            if not mask:
                raise net_mod.Ppo2018InputError("No stand-in for a play the network cannot read")
        out.append((action.seat, mask))
    return out


def encode_view(view: SeatView) -> np.ndarray:
    """The 412-long input for the view's seat (see the module docstring for translations)."""
    assert view.seat is not None
    seat = view.seat
    history = history_of(view)
    bits = set(net_mod.encode_bits(seat, view.hand, history, view.counts, view.players))
    if any(a.play is not None and not _encodable(a.play.mask) for a in view.actions):
        # stand-ins played other cards: set the card-based inputs from the real plays
        played_by = [0] * view.players
        for a in view.actions:
            if a.play is not None:
                played_by[a.seat] |= a.play.mask
        bits -= set(_HIGH_BITS)
        bits.update(367 + c - 36 for c in card_indices(view.played) if c >= 36)
        for rel, base in enumerate(_OPP_BASES, start=1):
            opp = (seat + rel) % view.players
            bits -= set(range(base + 13, base + 21))
            bits.update(base + 13 + c - 44 for c in card_indices(Mask(played_by[opp])) if c >= 44)
    x = np.zeros(net_mod.INPUT_SIZE, dtype=np.float32)
    x[sorted(bits)] = 1.0
    return x


def action_of(hand: int, play: Play) -> int:
    """The network's action for an engine play (a five-card four of a kind: its four)."""
    if play.kind is Kind.FOUR_OF_A_KIND and play.size == 5:
        ranks = [c >> 2 for c in card_indices(play.mask)]
        main = max(set(ranks), key=ranks.count)
        four = play.mask & (0xF << (main * 4))
        return net_mod.action_index(hand, four)
    return net_mod.action_index(hand, play.mask)


def legal_actions(view: SeatView) -> dict[int, Play | None]:
    """Network action -> the engine move it stands for: the view's legal plays (the cheapest
    of any that share an action) and, when allowed, the pass. Plays the original program
    never offered (:func:`.ppo2018_net.never_offered`) are left out, so the network only
    chooses among moves it was trained with."""
    out: dict[int, Play | None] = {}
    for play in view.legal:  # cheapest first, so the first play of an action is kept
        if not net_mod.never_offered(view.hand, play.mask):
            out.setdefault(action_of(view.hand, play), play)
    if view.can_pass:
        out[net_mod.ACTION_PASS] = None
    return out


# -- the players ----------------------------------------------------------------------------------


class Ppo2018Bot(Bot):
    """The 2018 network sampling its policy, as the original program played."""

    name = "ppo2018"
    greedy = False

    def __init__(self) -> None:
        network()  # fail here, with the reason, when the data files are missing
        self._fallback = StrongBot()

    @property
    def net(self) -> net_mod.Network:
        # looked up, not stored: a bot is pickled to worker processes with each decision,
        # and the weights (3 MB) should not travel with it
        return network()

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        if not view.legal:
            return None
        if view.players != 4 or view.hand.bit_count() > 13:
            return self._fallback.choose(view, rng)
        try:
            x = encode_view(view)
            actions = legal_actions(view)
        except net_mod.Ppo2018InputError:
            return self._fallback.choose(view, rng)
        index = net_mod.choose(self.net, x, list(actions), rng, self.greedy)
        return actions[index]

    def probabilities(self, view: SeatView) -> list[tuple[Play | None, float]]:
        """The masked policy over the view's moves, most likely first (for analysis)."""
        actions = legal_actions(view)
        logits, _ = self.net.forward(encode_view(view))
        keys: Sequence[int] = sorted(actions)
        scores = np.asarray([logits[i] for i in keys], dtype=np.float64)
        probs = np.exp(scores - scores.max())
        probs /= probs.sum()
        ranked = sorted(zip(keys, probs, strict=True), key=lambda kp: -kp[1])
        return [(actions[k], float(p)) for k, p in ranked]


class Ppo2018GreedyBot(Ppo2018Bot):
    """The 2018 network always taking its highest-logit legal move (deterministic)."""

    name = "ppo2018-greedy"
    greedy = True


register_bot("ppo2018", Ppo2018Bot)
register_bot("ppo2018-greedy", Ppo2018GreedyBot)
