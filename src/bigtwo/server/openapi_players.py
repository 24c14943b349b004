"""The lobby API's description of players' accounts, ratings and the leaderboard
(:mod:`bigtwo.server.accounts`), a part of :mod:`.openapi`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ..protocol import PasswordRequest, SeatToken, SignInRequest
from .openapi_parts import NO_ROOM, NOT_JSON, Answer, _op


# -- players' accounts (bigtwo.server.accounts) ----------------------------------------------
class FamilyRating(Answer):
    rating: int = Field(description="The conservative estimate, scaled (README: Players)")
    games: int
    wins: int


class AccountAnswer(Answer):
    signed_in: bool = Field(description="false: a guest (and nothing else is said)")
    name: str | None = Field(None, description="Plain text, NFKC-normalised")
    ratings: dict[str, FamilyRating] | None = Field(None, description="By family")


class AccountSeat(Answer):
    code: str
    seat: int
    token: str = Field(description="Secret: say hello with it")


class AccountSeats(Answer):
    seats: list[AccountSeat] = Field(description="Tables not over yet, newest first")


class RatedSeat(Answer):
    seat: int
    name: str | None = Field(description="The account's name; null: a computer or a guest")
    who: Literal["account", "guest", "computer", "former"]
    place: int
    points: int
    before: int
    after: int


class RatedAnswer(Answer):
    code: str
    rated: bool
    family: str | None = None
    settled: bool | None = None
    outcome: str | None = Field(None, description="rated, or ended early (not rated)")
    seats: list[RatedSeat] | None = None


class RankedPlayer(FamilyRating):
    rank: int | None = Field(description="null: too few games to be ranked")
    name: str


class Leaderboard(Answer):
    family: str
    min_games: int = Field(description="Rated games before a player is ranked")
    players: list[RankedPlayer] = Field(description="The best hundred, best first")
    you: RankedPlayer | None = Field(description="The signed-in player; null: signed out")


class Profile(Answer):
    name: str
    ratings: dict[str, dict[str, Any]] = Field(description="By family: rating and its history")
    games: list[dict[str, Any]] = Field(
        description="Recent rated games (each with its seat, rounds, seconds, best deal and "
        "the deals whose coach's review of that seat is kept); a private room's only to its "
        "players"
    )
    total_rounds: int = Field(description="Deals played in rated games (the Palm's rounds)")
    total_seconds: int = Field(description="Seconds of play in rated games")
    max_score: int | None = Field(description="The most points in one deal; null: no game")
    score_balance: int = Field(description="Every rated game's points summed")
    points_per_deal: float | None = Field(description="The score balance a deal")


ACCOUNT_DECLARED: tuple[type[BaseModel], ...] = (
    SignInRequest,
    PasswordRequest,
    SeatToken,
    AccountAnswer,
    AccountSeats,
    RatedAnswer,
    Leaderboard,
    Profile,
)


def account_paths() -> dict[str, Any]:
    """The paths of players' accounts, ratings and the leaderboard."""
    signed = {401: "signed_out: sign in first", **NOT_JSON}
    checked = {
        400: "Bad request body",
        401: "signed_out, or bad_sign_in: not the account's password",
        **NOT_JSON,
        429: "rate_limited: too many failed tries (params.seconds, params.minutes)",
    }
    profile = _op("A player's profile", "Profile", {404: "no_player"})
    profile["parameters"] = [
        {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
    ]
    cookie = "Sets the session cookie (HttpOnly, SameSite=Lax; Secure over https)."
    return {
        "/api/account": {"get": _op("The signed-in player (or a guest)", "AccountAnswer")},
        "/api/account/register": {
            "post": _op(
                "Make an account and sign in",
                "AccountAnswer",
                {
                    400: "Bad request body",
                    409: "name_taken",
                    **NOT_JSON,
                    422: "bad_name or bad_password (the message says why)",
                    429: "rate_limited: too many accounts made from this address",
                },
                body="SignInRequest",
                status=201,
                description=cookie,
            )
        },
        "/api/account/sign-in": {
            "post": _op(
                "Sign in",
                "AccountAnswer",
                {
                    400: "Bad request body",
                    401: "bad_sign_in: the same for a wrong password and an unknown name",
                    **NOT_JSON,
                    429: "rate_limited: too many failed sign-ins from this address or for "
                    "this name (params.seconds, params.minutes)",
                },
                body="SignInRequest",
                description=cookie + " A new session each time: the browser's old one ends.",
            )
        },
        "/api/account/sign-out": {"post": _op("Sign out (the session ends)", None, NOT_JSON)},
        "/api/account/password": {
            "post": _op(
                "Change the password: every other session ends",
                "AccountAnswer",
                {**checked, 422: "bad_password"},
                body="PasswordRequest",
            )
        },
        "/api/account/delete": {
            "post": _op(
                "Delete the account; its games stay, under 'a former player'",
                None,
                checked,
                body="PasswordRequest",
            )
        },
        "/api/account/seats": {
            "get": _op(
                "The account's seats at tables not over, with tokens", "AccountSeats", signed
            ),
            "post": _op(
                "Keep a seat with the account: it follows the player to another browser",
                None,
                {**signed, 400: "Bad request body", 403: "unauthorized", 404: "no_room"},
                body="SeatToken",
            ),
        },
        "/api/rooms/{code}/rated": {
            "get": _op(
                "Whether the room is rated, and its game's ratings",
                "RatedAnswer",
                NO_ROOM,
                room=True,
            ),
            "post": _op(
                "The host makes the room rated (a whole game under a standard preset)",
                "RatedAnswer",
                {
                    400: "Bad request body",
                    403: "unauthorized: not the host's token",
                    **NO_ROOM,
                    409: "not_ratable: params.reason started, rules or seeded",
                    **NOT_JSON,
                },
                body="SeatToken",
                room=True,
            ),
        },
        "/api/leaderboard": {
            "get": _op(
                "The best players of a family of rules (?family=bigtwo or revolution)",
                "Leaderboard",
                {400: "bad_request: an unknown family"},
            )
        },
        "/api/players/{name}": {"get": profile},
    }
