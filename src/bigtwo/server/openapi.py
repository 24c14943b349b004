"""The OpenAPI 3.1 description of the HTTP lobby API, served at ``/openapi.json``.

Written by hand (not generated) so that it says exactly what the endpoints accept and answer,
including each error; the WebSocket table protocol is described in docs/protocol.md, which
this spec links to. Keep it in step with :mod:`bigtwo.server.app` (a test checks the paths).
"""

from __future__ import annotations

from typing import Any

from .. import __version__
from .protocol import PROTOCOL


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict[str, Any]:
    return _json(_ref("Error"), description)


def openapi_spec() -> dict[str, Any]:
    code_param = {
        "name": "code",
        "in": "path",
        "required": True,
        "description": "Room code: 6 letters and digits (no 0, O, 1, I or L).",
        "schema": {"type": "string", "pattern": "^[A-Za-z2-9]{6}$"},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "bigtwo game server",
            "version": __version__,
            "description": (
                "Lobby API of the Big Two game server. Tables are played over the WebSocket "
                f"`/ws/{{code}}` with the JSON table protocol version {PROTOCOL} described in "
                "docs/protocol.md. Errors are JSON objects with a machine `error` code and a "
                "`message` in words."
            ),
        },
        "paths": {
            "/api": {
                "get": {
                    "summary": "Server, protocol version, rule presets and computer levels",
                    "responses": {"200": _json(_ref("ServerInfo"), "Server information")},
                }
            },
            "/api/presets": {
                "get": {
                    "summary": "The rule presets a room may use",
                    "responses": {"200": _json(_ref("Presets"), "Rule presets")},
                }
            },
            "/api/rooms": {
                "get": {
                    "summary": "Open rooms: public tables still waiting for players",
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "properties": {"rooms": {"type": "array", "items": _ref("Room")}},
                            },
                            "Open rooms",
                        )
                    },
                },
                "post": {
                    "summary": "Create a room",
                    "requestBody": {
                        "required": False,
                        "content": {"application/json": {"schema": _ref("RoomRequest")}},
                    },
                    "responses": {
                        "201": _json(
                            _ref("RoomCreated"), "The room, its code, share link and WebSocket URL"
                        ),
                        "413": _error("Body too large"),
                        "422": _error(
                            "An option is unknown or out of range (the message says which)"
                        ),
                        "429": _error("Too many requests"),
                        "503": _error("The server holds as many tables as it can"),
                    },
                },
            },
            "/api/rooms/{code}": {
                "get": {
                    "summary": "One room: seats, status, scores (no cards, no seed)",
                    "parameters": [code_param],
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "properties": {
                                    "ws": {"type": "string"},
                                    "link": {"type": "string"},
                                    "room": _ref("Room"),
                                },
                            },
                            "The room",
                        ),
                        "404": _error("No such room"),
                    },
                }
            },
            "/api/rooms/{code}/join": {
                "post": {
                    "summary": "Take a seat (or watch) and get the token to say hello with",
                    "parameters": [code_param],
                    "requestBody": {
                        "required": False,
                        "content": {"application/json": {"schema": _ref("JoinRequest")}},
                    },
                    "responses": {
                        "200": _json(
                            _ref("Joined"), "Seated (or watching): keep the token to rejoin"
                        ),
                        "400": _error("Bad request body"),
                        "403": _error("Spectators not allowed"),
                        "404": _error("No such room"),
                        "409": _error("table_full (every seat taken), seat_taken, or started"),
                        "429": _error("Too many requests"),
                    },
                }
            },
            "/api/rooms/{code}/rematch": {
                "post": {
                    "summary": "A new game for the players of a finished table",
                    "description": (
                        "Opens a table with the same options and rules (a new shuffle), the "
                        "same computer players, and every player still at this table seated "
                        "where they sat; each connected player gets its token there in the "
                        "`rematch` event. Asked again, it answers with the same table."
                    ),
                    "parameters": [code_param],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("RematchRequest")}},
                    },
                    "responses": {
                        "201": _json(_ref("Rematch"), "The new table, and your seat there"),
                        "200": _json(_ref("Rematch"), "The new table opened before"),
                        "400": _error("Bad request body"),
                        "403": _error("unauthorized: the token holds no seat at this table"),
                        "404": _error("No such room"),
                        "409": _error("not_over, or the new game started without you"),
                        "429": _error("Too many requests"),
                        "503": _error("The server holds as many tables as it can"),
                    },
                }
            },
            "/api/rooms/{code}/record": {
                "get": {
                    "summary": "The finished match as a JSON record (every hand: only when over)",
                    "parameters": [code_param],
                    "responses": {
                        "200": _json({"type": "object"}, "The record (bigtwo-record format)"),
                        "404": _error("No such room, or no match played"),
                        "409": _error("not_over: the match is still being played"),
                    },
                }
            },
            "/api/rooms/{code}/history": {
                "get": {
                    "summary": "The finished match's history as text",
                    "parameters": [code_param],
                    "responses": {
                        "200": {
                            "description": "Text",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        },
                        "404": _error("No such room, or no match played"),
                        "409": _error("not_over: the match is still being played"),
                    },
                }
            },
            "/r/{code}": {
                "get": {
                    "summary": "Share link: redirects to the browser client, or gives the room",
                    "parameters": [code_param],
                    "responses": {
                        "200": {"description": "The room"},
                        "307": {"description": "To the browser client"},
                    },
                }
            },
            "/api/stats": {
                "get": {
                    "summary": "Load: tables, connections, memory",
                    "responses": {"200": _json(_ref("Stats"), "Server load")},
                }
            },
            "/healthz": {
                "get": {"summary": "Liveness", "responses": {"200": {"description": "Alive"}}}
            },
            "/openapi.json": {
                "get": {
                    "summary": "This document",
                    "responses": {"200": {"description": "OpenAPI"}},
                }
            },
        },
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error", "message"],
                    "properties": {
                        "error": {
                            "type": "string",
                            "description": "bad_json, bad_request, too_big, no_room, table_full, "
                            "seat_taken, started, no_spectators, busy, rate_limited, not_over, "
                            "unauthorized",
                        },
                        "message": {"type": "string"},
                    },
                },
                "ServerInfo": {
                    "type": "object",
                    "properties": {
                        "server": {"type": "string"},
                        "protocol": {"type": "integer"},
                        "presets": {"type": "array", "items": {"type": "string"}},
                        "levels": {"type": "array", "items": {"type": "string"}},
                    },
                },
                "Presets": {
                    "type": "object",
                    "properties": {
                        "presets": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "name": {"type": "string"},
                                    "players": {"type": "array", "items": {"type": "integer"}},
                                    "source": {"type": "string"},
                                    "deals": {"type": "integer"},
                                },
                            },
                        }
                    },
                },
                "Seat": {
                    "oneOf": [
                        {
                            "type": "string",
                            "description": '"human", "computer" or "computer:LEVEL"',
                        },
                        {
                            "type": "object",
                            "properties": {
                                "kind": {"enum": ["human", "computer"]},
                                "level": {"type": "string"},
                                "name": {"type": "string", "maxLength": 24},
                            },
                            "additionalProperties": False,
                        },
                    ]
                },
                "RoomRequest": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "preset": {"type": "string", "default": "textbook"},
                        "rules": {"type": "object", "description": "Rule options over the preset"},
                        "seats": {
                            "type": "array",
                            "items": _ref("Seat"),
                            "minItems": 2,
                            "maxItems": 4,
                        },
                        "players": {
                            "type": "integer",
                            "description": "All-human seats, when 'seats' is absent",
                        },
                        "deals": {"type": "integer", "minimum": 1, "maximum": 1000},
                        "seed": {
                            "type": "integer",
                            "description": "Only on servers run with --allow-seeds",
                        },
                        "turn_seconds": {
                            "type": ["number", "null"],
                            "minimum": 0.2,
                            "maximum": 3600,
                        },
                        "away_seconds": {"type": ["number", "null"], "minimum": 0.1, "default": 60},
                        "computer_delay": {
                            "type": "number",
                            "minimum": 0,
                            "maximum": 10,
                            "default": 0,
                        },
                        "takeover_level": {"type": "string", "default": "greedy"},
                        "autopass": {"type": ["boolean", "null"]},
                        "autopass_five": {"type": ["boolean", "null"]},
                        "title": {"type": "string", "maxLength": 60},
                        "public": {"type": "boolean", "default": True},
                        "spectators": {"type": "boolean", "default": True},
                        "between_deals_seconds": {
                            "type": ["number", "null"],
                            "minimum": 0,
                            "maximum": 600,
                            "description": "Most seconds between deals (the next starts "
                            "sooner when every player says next); null: no limit; default 8 "
                            "with a turn timer, else 0 (at once)",
                        },
                    },
                },
                "Room": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "title": {"type": "string"},
                        "status": {"enum": ["waiting", "playing", "finished"]},
                        "closed": {"type": "string"},
                        "preset": {"type": "string"},
                        "rules": {"type": "object"},
                        "players": {"type": "integer"},
                        "deals": {"type": "integer"},
                        "deal": {"type": "integer"},
                        "options": {"type": "object"},
                        "seats": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "seat": {"type": "integer"},
                                    "name": {"type": "string"},
                                    "kind": {"enum": ["human", "computer"]},
                                    "level": {"type": "string"},
                                    "taken": {"type": "boolean"},
                                    "ready": {"type": "boolean"},
                                    "control": {"enum": ["player", "computer", "quit"]},
                                    "connected": {"type": "boolean"},
                                    "avatar": {"type": ["integer", "null"]},
                                },
                            },
                        },
                        "totals": {"type": "array", "items": {"type": "integer"}},
                        "results": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "deal": {"type": "integer"},
                                    "winner": {"type": "integer"},
                                    "points": {"type": "array", "items": {"type": "integer"}},
                                    "counts": {"type": "array", "items": {"type": "integer"}},
                                    "left": {
                                        "type": "array",
                                        "items": {"type": "string"},
                                        "description": "Each seat's cards left (public once "
                                        "the deal is over)",
                                    },
                                    "multipliers": {
                                        "type": "array",
                                        "items": {"type": "integer"},
                                        "description": "2: DOUBLE!, 3: TRIPLE!",
                                    },
                                },
                            },
                        },
                        "next_deal": {
                            "type": ["object", "null"],
                            "description": "Between deals: {deal, seconds, waiting}",
                        },
                        "rematch": {
                            "type": ["string", "null"],
                            "description": "The code of the table opened for a new game",
                        },
                        "v": {"type": "integer", "description": "Newest event number"},
                    },
                },
                "RoomCreated": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "ws": {"type": "string"},
                        "link": {"type": "string"},
                        "room": _ref("Room"),
                    },
                },
                "JoinRequest": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "name": {"type": "string", "maxLength": 24},
                        "seat": {
                            "type": "integer",
                            "description": "A free seat; default the first",
                        },
                        "as": {"enum": ["player", "spectator"], "default": "player"},
                        "avatar": {"type": "integer", "minimum": 0, "maximum": 7},
                    },
                },
                "RematchRequest": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["token"],
                    "properties": {
                        "token": {"type": "string", "description": "Your seat token here"}
                    },
                },
                "Rematch": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "role": {"enum": ["player"]},
                        "seat": {"type": "integer"},
                        "token": {"type": "string", "description": "Secret: your seat there"},
                        "ws": {"type": "string"},
                        "link": {"type": "string"},
                        "room": _ref("Room"),
                    },
                },
                "Joined": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "role": {"enum": ["player", "spectator"]},
                        "seat": {"type": ["integer", "null"]},
                        "token": {"type": "string", "description": "Secret: say hello with it"},
                        "ws": {"type": "string"},
                        "link": {"type": "string"},
                    },
                },
                "Stats": {
                    "type": "object",
                    "properties": {
                        "tables": {"type": "integer"},
                        "playing": {"type": "integer"},
                        "waiting": {"type": "integer"},
                        "connections": {"type": "integer"},
                        "uptime_s": {"type": "number"},
                        "thinking": {
                            "type": "object",
                            "description": "Computer players: mode, workers, moves, "
                            "fallbacks (out of time), in_flight, ms_mean, ms_max",
                        },
                        "rss_mb": {"type": "number"},
                        "peak_rss_mb": {"type": "number"},
                    },
                },
            }
        },
    }
