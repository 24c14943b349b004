"""The one family of errors the engine raises, each saying in words what went wrong: front
ends catch :class:`BigTwoError` and show its message, so no user ever sees a traceback for bad
input. This module only defines the types; it never decides legality itself.
"""

from __future__ import annotations


class BigTwoError(Exception):
    """Base of every error bigtwo raises for bad input or an illegal action."""


class NotationError(BigTwoError, ValueError):
    """Card notation that cannot be read; the message names the bad token."""

    def __init__(self, message: str, token: str = "") -> None:
        super().__init__(message)
        self.token = token


class RulesError(BigTwoError, ValueError):
    """A rule set with an unknown, malformed or contradictory option.

    ``problems`` lists every problem found, each in words (a house-rules file with three
    mistakes is told about all three at once); the message names the file and lists them.
    """

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = list(problems) if problems else [message]

    @classmethod
    def listing(cls, where: str, problems: list[str]) -> RulesError:
        """One error for every problem of the rules read from ``where`` (a file, a preset).

        >>> print(RulesError.listing("house.toml", ["a", "b"]))
        house.toml has 2 problems:
          - a
          - b
        """
        if len(problems) == 1:
            return cls(f"{where}: {problems[0]}", problems)
        lines = "\n".join(f"  - {p}" for p in problems)
        return cls(f"{where} has {len(problems)} problems:\n{lines}", problems)


class IllegalAction(BigTwoError):
    """An action the deal refuses; the message is the reason, fit to show a player.

    ``reason`` names the reason in one word and ``params`` its details (cards in notation,
    numbers), so that a front end can word it in another language."""

    reason = "illegal"

    def __init__(self, message: str, reason: str = "", **params: str | int) -> None:
        super().__init__(message)
        if reason:
            self.reason = reason
        self.params = params


class NotYourTurn(IllegalAction):
    """The seat acted out of turn."""

    reason = "not_your_turn"


class NotYourCards(IllegalAction):
    """The seat tried to play cards it does not hold."""

    reason = "not_your_cards"


class NotACombination(IllegalAction):
    """The cards do not form a play under the rules."""

    reason = "not_a_combination"


class MustInclude(IllegalAction):
    """The opening play must contain the lead card."""

    reason = "must_include"


class DoesNotBeat(IllegalAction):
    """The play does not beat the last play of the trick."""

    reason = "does_not_beat"


class CannotPass(IllegalAction):
    """A leader may not pass."""

    reason = "cannot_pass"


class DealOver(IllegalAction):
    """No action is possible once a player has gone out."""

    reason = "deal_over"
