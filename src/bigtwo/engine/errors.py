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
    """A rule set with an unknown, malformed or contradictory option."""


class IllegalAction(BigTwoError):
    """An action the deal refuses; the message is the reason, fit to show a player."""


class NotYourTurn(IllegalAction):
    """The seat acted out of turn."""


class NotYourCards(IllegalAction):
    """The seat tried to play cards it does not hold."""


class NotACombination(IllegalAction):
    """The cards do not form a play under the rules."""


class MustInclude(IllegalAction):
    """The opening play must contain the lead card."""


class DoesNotBeat(IllegalAction):
    """The play does not beat the last play of the trick."""


class CannotPass(IllegalAction):
    """A leader may not pass."""


class DealOver(IllegalAction):
    """No action is possible once a player has gone out."""
