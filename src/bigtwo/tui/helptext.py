"""The help screen's words: the rules of a preset written out from its data, and the keys.

The rules text is generated from :class:`~bigtwo.match.settings.RuleSet`, never typed by hand per
preset, so help can never disagree with what the engine enforces. Pure text; nothing drawn.
"""

from __future__ import annotations

import re

from ..engine.cards import SUIT_SYMBOLS, Card
from ..match.settings import RuleSet
from .words import count

_SUIT_NAMES = {"d": "diamonds", "c": "clubs", "h": "hearts", "s": "spades"}


def _suits(order: str, ascii_only: bool) -> str:
    if ascii_only:
        return " < ".join(f"{_SUIT_NAMES[s]} ({s})" for s in order)
    return " < ".join(f"{_SUIT_NAMES[s]} {SUIT_SYMBOLS['dchs'.index(s)]}" for s in order)


def _seq(seq: str) -> str:
    return seq  # the Palm help writes sequences as TJQKA, A2345


_REFERENCES = re.compile(r"\s*\((?:seeds?|sections?) [^)]*\)")


def player_words(source: str) -> str:
    """A preset's source as a player reads it: without the project's references to its
    documents ("(seed 004)"), which mean nothing at the table."""
    return _REFERENCES.sub("", source).strip()


def first_sentence(source: str) -> str:
    """The first sentence of a preset's source, in whole words, for a one-line note.

    >>> first_sentence("Pusoy Dos (Philippines), pagat.com. Chosen here: suits c<s<h<d")
    'Pusoy Dos (Philippines), pagat.com'
    """
    text = player_words(source)
    end = text.find(". ")
    return (text[:end] if end > 0 else text).rstrip(".")


def rules_help(ruleset: RuleSet, *, ascii_only: bool = False) -> str:
    """The rules of ``ruleset`` in words, in the order a new player needs them."""
    rules, settings = ruleset.rules, ruleset.match
    lines: list[str] = []
    lines.append(f"Rules: {rules.name}")
    if rules.source:
        lines.append(f"  ({player_words(rules.source)})")
    lines.append("")
    players = ", ".join(str(p) for p in rules.players)
    sizes = ", ".join(f"{n} players get {c} cards" for n, c in rules.cards_per_player)
    lines.append(f"Players: {players}. {sizes}.")
    lines.append("Ranks low to high: 3 4 5 6 7 8 9 10 J Q K A 2.")
    lines.append(f"Suits low to high: {_suits(rules.suit_order, ascii_only)}.")
    lines.append("")
    lines.append("Aim: be the first to play all your cards.")
    if rules.lead_card == "lowest":
        lead = "The holder of the lowest card dealt leads the first trick"
    else:
        card = Card.parse(rules.lead_card)
        shown = str(card) if ascii_only else card.symbol()
        lead = f"The holder of {shown} leads the first trick"
    if rules.first_play == "include":
        lead += ", and the first play must include that card."
    elif rules.first_play == "alone":
        lead += " with that card alone."
    else:
        lead += "."
    lines.append(lead)
    if rules.next_leader == "winner":
        lines.append("From the second deal on, the winner of the last deal leads, with any play.")
    lines.append(
        "A trick: the leader plays any combination; each player in turn beats it with a"
        " combination of the same size, or passes. When all the others have passed, the last"
        " player to play leads a new trick. The leader may not pass."
    )
    if rules.pass_lock:
        lines.append("A player who passes may not play again until the trick ends.")
    lines.append("")
    lines.append("Combinations:")
    lines.append("  single - by rank, then suit")
    lines.append("  pair - two of a rank; by rank, then the higher suit in the pair")
    if rules.triples:
        lines.append("  triple - three of a rank; by rank")
    for kind in rules.four_card_kinds:
        lines.append(f"  {kind.replace('_', ' ')} - four cards")
    kinds = [k.replace("_", " ") for k in rules.five_kinds]
    if kinds:
        joiner = " < " if rules.kinds_beat_lower else ", "
        lines.append(f"  five cards, low to high: {joiner.join(kinds)}")
        if rules.kinds_beat_lower:
            lines.append("    a higher kind beats any lower kind")
        else:
            lines.append("    a five-card play only meets its own kind")
    if rules.straights:
        lines.append("  straights, low to high: " + " < ".join(_seq(s) for s in rules.straights))
        if rules.straight_tiebreak == "top_of_sequence":
            lines.append("    the same sequence: by the suit of its top card")
        else:
            lines.append("    the same sequence: by the highest card")
    if "flush" in rules.five_kinds:
        if rules.flush_order == "suit_first":
            lines.append("  flushes: by suit first, then by the highest card")
        else:
            lines.append("  flushes: by the highest card (rank, then suit)")
    if "full_house" in rules.five_kinds:
        lines.append("  full house: by the rank of the triple")
    if "four_of_a_kind" in rules.five_kinds:
        lines.append("  four of a kind (plus any fifth card): by the rank of the four")
    if rules.bombs:
        bombs = ", ".join(b.replace("_", " ") for b in rules.bombs)
        lines.append(f"  bombs ({bombs}) beat any play that is not a bomb")
    if rules.last_card:
        lines.append("When the next player has one card left, a single must be your highest.")
    lines.append("")
    lines.append("Scoring:")
    s = settings.scoring
    if s.per_card == "none":
        lines.append("  No points: the cards each player has left are reported.")
    else:
        if s.per_card == "rank":
            lines.append("  Each card left costs by rank: 3 = 1, 4 = 2, ... A = 12, 2 = 13.")
        else:
            lines.append("  Each card left costs 1 point.")
        for threshold, factor in s.multipliers:
            word = {2: "double", 3: "triple"}.get(factor, f"x{factor}")
            lines.append(f"  With {threshold} or more cards left the cost is {word}.")
        if s.winner_collects:
            lines.append("  The winner receives what the others pay, so each deal sums to zero.")
        else:
            lines.append("  Costs are deducted; the fewest deducted wins.")
    lines.append(f"A game is {count(settings.deals_per_game, 'deal')}; then the totals are final.")
    lines.append(
        f"Autopass: {'on' if settings.autopass else 'off'} by default for 1-, 2- and 3-card"
        f" plays; {'on' if settings.autopass_five else 'off'} for 5-card plays (see Preferences)."
    )
    return "\n".join(lines)


KEYS_HELP = """\
Keys at the table:
  Left / Right   move along your hand      Space    raise or lower that card
  1-9, 0, ! @ #  raise or lower a card by the key shown under it
  Down           raise all cards of that rank
  Up             raise all cards of that suit
  Enter          play the raised cards (or skip the computers' wait)
  p              pass                      c / Esc  clear the selection
  r / s          sort by rank / by suit    h        hint
  f              skip the wait for the computers
  l              the last trick won, every play and pass
  u              undo your last play (one person against computers only)
  b              beliefs: what the cards played tell of each hand (v on the
                 score sheet or in the replay: the coach's review of a deal)
  A              assists (beliefs, reviews) off or on for all: the host's
  m              menu                      q        quit (the game is kept)
  F1 or ?  help            F2 or g  history         F3 or t  cards played
  F4 or o  high scores     F5 or i  statistics      F6 or ,  preferences
  F7 or n  new game
Mouse: click a card to raise it; right-click for its whole rank,
shift-click (or middle-click) for its whole suit; click the buttons
under your hand.
Big 2 RevolutioN (rule set revolution) adds:
  a              activate the raised Character card (an exchange: raise the
                 A* and the normal card to give, a, then the player's key)
  y / x          counter the function with your Revolution Q / let it stand
  d, 1-4         after a pass: draw the deck's top card / a Gathering card
  Enter          stop drawing               k or F9  the five functions"""
# Every line fits the help page at 80 columns (76 after its padding and scroll bar).
KEYS_WIDTH = 76
