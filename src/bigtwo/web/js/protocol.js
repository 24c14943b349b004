// @ts-check
// The shapes of what the server and this client say to each other (docs/protocol.md): the
// HTTP lobby's answers, the WebSocket messages and numbered events the server sends, and the
// messages the client sends. Types only, for the checker: nothing here runs. Cards travel in
// the project's notation, a play or hand as one string of cards separated by spaces
// ("3d 4c 5h"), lowest first. Names, titles and chat arrive as the text people typed.

/** @typedef {"waiting" | "playing" | "finished"} RoomStatus */
/** @typedef {"human" | "computer"} SeatKind */
/**
 * Who acts for a seat: its player, a computer (a computer seat, or one playing for an away
 * player), or nobody (the player quit and a computer finishes the match).
 * @typedef {"player" | "computer" | "quit"} SeatControl
 */
/**
 * Who made a move: a player, a computer, the turn timer, or the rules (an automatic pass).
 * @typedef {"player" | "computer" | "timer" | "auto"} MoveBy
 */

/**
 * A seat as the room shows it.
 * @typedef {object} RoomSeat
 * @property {number} seat
 * @property {string} name
 * @property {SeatKind} kind
 * @property {string} [level] the computer's level (computer seats only)
 * @property {boolean} taken
 * @property {boolean} ready
 * @property {SeatControl} control
 * @property {boolean} connected
 * @property {number | null} avatar the picture its player chose (0 to 7), or null
 */

/**
 * The rule options of a room: every option of the preset, as `bigtwo rules show` lists them
 * (suit_order: the suits from lowest to highest, as "dchs"). The client reads only a few.
 * @typedef {{name: string, suit_order: string, [option: string]: unknown}} Rules
 */

/**
 * The options a room was made with.
 * @typedef {object} RoomOptions
 * @property {number | null} turn_seconds
 * @property {number | null} away_seconds
 * @property {number} computer_delay
 * @property {string} takeover_level
 * @property {boolean | null} autopass
 * @property {boolean | null} autopass_five
 * @property {boolean} public
 * @property {boolean} spectators
 * @property {boolean} spectator_chat
 * @property {boolean} [assists] the coach during the match (false: the host turned it off)
 * @property {boolean} seeded
 * @property {number | null} between_deals_seconds
 */

/**
 * A finished deal as the room lists it.
 * @typedef {object} RoomResult
 * @property {number} deal
 * @property {number} winner
 * @property {number[]} points
 * @property {number[]} counts cards left, per seat
 * @property {string[]} left each seat's cards left ("" for the winner)
 * @property {number[]} multipliers per seat: 1, or 2 for DOUBLE!, 3 for TRIPLE!
 */

/**
 * Between deals: the deal to come, the longest wait (null: no limit) and the seats whose
 * players have not said "next" yet.
 * @typedef {object} NextDeal
 * @property {number} deal
 * @property {number | null} seconds
 * @property {number[]} waiting
 */

/**
 * A room (GET /api/rooms/{code}, and in every "sync").
 * @typedef {object} Room
 * @property {string} code
 * @property {string} title
 * @property {RoomStatus} status
 * @property {string} closed why a finished room closed ("match over", "every player quit", "host closed the room"), else ""
 * @property {string} preset
 * @property {Rules} rules
 * @property {number} players
 * @property {number} deals
 * @property {number} deal
 * @property {RoomOptions} options
 * @property {RoomSeat[]} seats
 * @property {number[]} totals
 * @property {RoomResult[]} results
 * @property {NextDeal | null} next_deal
 * @property {string | null} rematch the code of the table opened for a new game, once there is one
 * @property {number | null} host the host's seat (null while nobody sits there)
 * @property {number} v
 */

// -- HTTP lobby ---------------------------------------------------------------------------------

/**
 * GET /api
 * @typedef {object} ApiInfo
 * @property {string} server
 * @property {number} protocol
 * @property {string[]} presets
 * @property {string[]} levels
 */

/**
 * One preset of GET /api/presets ({presets: Preset[]}).
 * @typedef {object} Preset
 * @property {string} name
 * @property {number[]} players
 * @property {string} source
 * @property {number} deals
 * @property {string[]} [levels] the computer levels that play it (absent: every level of GET /api)
 */

/**
 * A seat asked for when creating a room: a kind, or a computer with a level and a name.
 * @typedef {{kind: "human"} | {kind: "computer", level: string, name: string}} SeatRequest
 */

/**
 * The body of POST /api/rooms (every field optional).
 * @typedef {object} RoomRequest
 * @property {string} [preset]
 * @property {SeatRequest[]} [seats]
 * @property {number} [deals]
 * @property {boolean} [autopass]
 * @property {boolean} [autopass_five]
 * @property {number} [computer_delay]
 * @property {boolean} [public] false: a private room, watched only with its invitation link
 * @property {boolean} [spectators]
 * @property {boolean} [spectator_chat]
 * @property {boolean} [assists]
 * @property {number | null} [turn_seconds] null: no timer (absent: the server's default)
 * @property {number | null} [away_seconds] null: a computer never takes over
 * @property {string} [title]
 * @property {number} [seed] only on servers started with --allow-seeds
 * @property {Record<string, unknown>} [rules] options of the preset changed for this room
 */

/**
 * POST /api/rooms
 * @typedef {object} RoomMade
 * @property {string} code
 * @property {string} ws
 * @property {string} link
 * @property {Room} room
 * @property {string} [invite] a private room's invitation key
 * @property {string} [watch_link] a private room's invitation link
 */

/**
 * GET /api/rooms?limit=&cursor=: a page of the open rooms, newest first.
 * @typedef {object} RoomsPage
 * @property {Room[]} rooms
 * @property {number | null} next the cursor of the next page; null: the last
 * @property {number} total
 */

/**
 * GET /api/rooms/{code}
 * @typedef {object} RoomFound
 * @property {string} ws
 * @property {string} link
 * @property {Room} room
 */

/**
 * The body of POST /api/rooms/{code}/join: taking a seat, or watching a private room with
 * its invitation key ({"as": "spectator", "invite": KEY}).
 * @typedef {object} JoinRequest
 * @property {string} [name]
 * @property {number} [seat]
 * @property {number} [avatar]
 * @property {"player" | "spectator"} [as]
 * @property {string} [invite]
 */

/**
 * POST /api/rooms/{code}/join for a seat, and (with the new room) /rematch.
 * @typedef {object} Seated
 * @property {string} code
 * @property {"player"} role
 * @property {number} seat
 * @property {string} token the seat's only credential
 * @property {string} ws
 * @property {string} link
 */

/** @typedef {{error: string, message: string}} ApiErrorBody */

// -- the table's WebSocket: the state of a deal ---------------------------------------------------

/**
 * The play to beat and who made it.
 * @typedef {object} TablePlay
 * @property {number} seat
 * @property {string} cards
 * @property {string} kind
 */

/**
 * The public state after a change to a deal.
 * @typedef {object} PublicState
 * @property {number} turn the seat to act
 * @property {number[]} counts cards in each hand
 * @property {TablePlay | null} table null at a lead
 * @property {number} passes
 * @property {number[]} locked seats passed out of the trick (rules with pass locks)
 * @property {number | null} winner null until the deal ends
 * @property {number} [to_act] revolution: the seat whose answer is awaited (another seat in a counter window)
 * @property {RevolutionPhase} [phase] revolution: what the turn is at
 * @property {number[]} [revolution_counts] revolution: Revolution cards in each hand (counts: normal cards)
 * @property {string} [gathering] revolution: the Gathering's face-up cards
 * @property {number} [deck_left] revolution: cards left in the Revolution deck
 * @property {boolean} [reversed] revolution: the order of cards is reversed
 * @property {Pending | null} [pending] revolution: the function in the counter window
 * @property {"out" | "exhaustion" | null} [end] revolution: how the hand ended
 */

/** @typedef {"act" | "counter" | "draw" | "over"} RevolutionPhase */
/**
 * A function activated and waiting in its counter window: who, which, with which card, on whom.
 * @typedef {{seat: number, function: string, card: string, target: number | null}} Pending
 */
/**
 * The moves of a revolution hand: besides plays and passes, a Character activated, a
 * counter window answered, its function's effect, a draw or its stop after a pass, a jumped
 * turn, a card of the deck revealed into the Gathering (seat -1).
 * @typedef {"play" | "pass" | "activate" | "counter" | "decline" | "effect" | "draw" | "stop" | "skip" | "reveal"} Move
 */
/**
 * What the seat may do now at a revolution table (a turn event, and a sync's view).
 * @typedef {object} RevolutionChoices
 * @property {RevolutionPhase} phase
 * @property {string[]} legal
 * @property {boolean} can_pass
 * @property {Array<{card: string, function: string}>} activate the Characters it may activate
 * @property {string[]} counters
 * @property {string[]} draws "deck" and the Gathering's cards it may take
 */

/**
 * One action of a deal (a play, or a pass when cards is null).
 * @typedef {object} ActionData
 * @property {number} seat
 * @property {string | null} cards
 * @property {string | null} [kind] (revolution tables: the kind of a play is on the table's play)
 * @property {boolean} auto
 * @property {string} [reason]
 * @property {boolean} trick_over
 * @property {Move} [move] revolution: the move (cards: the play, or the card the move shows; null: hidden or none)
 * @property {string} [function] revolution: the function activated, countered or in effect
 * @property {number} [target] revolution: the seat an exchange gives to
 * @property {"deck" | "gathering"} [source] revolution: where a draw came from
 */

/**
 * A seat's whole view of the deal in play, in a "sync"; a spectator's has no hand. At a
 * revolution table a seat's view also says its own answer to the open counter window
 * (answered: null when none is open or it has not answered; never another seat's).
 * @typedef {PublicState & {
 *   deal: number, seat: number | null, leader: number, opening: string | null,
 *   actions: ActionData[], played: string, legal?: string[], can_pass?: boolean, hand?: string,
 *   discards?: string, choices?: RevolutionChoices, answered?: "counter" | "decline" | null,
 * }} View
 */

/**
 * The running clock: a player's turn timer, or between deals the wait for the next deal.
 * At a revolution table, the open counter window's clock ({seat: null, ms, counter: true}).
 * @typedef {{seat: number, ms: number} | {seat: null, ms: number, next_deal: number} | {seat: null, ms: number, counter: true}} Clock
 */

// -- numbered events (every one has a type and its number v) ---------------------------------------

/**
 * A player sat down, or (kind "computer") the host gave the seat to a computer.
 * @typedef {{type: "joined", v: number, seat: number, name: string, avatar: number | null, kind?: SeatKind, level?: string}} JoinedEvent
 */
/** @typedef {"left" | "never connected" | "away" | "kicked" | "computer"} LeftReason */
/** @typedef {{type: "left", v: number, seat: number, reason?: LeftReason}} LeftEvent */
/** @typedef {{type: "ready", v: number, seat: number, ready: boolean}} ReadyEvent */
/** @typedef {{type: "started", v: number, players: number, deals: number, names: string[]}} StartedEvent */
/** @typedef {PublicState & {type: "deal", v: number, deal: number, deals: number, leader: number, actions: ActionData[]}} DealEvent */
/** @typedef {{type: "hand", v: number, deal: number, cards: string, opening: string | null}} HandEvent */
/** @typedef {{type: "turn", v: number, deal: number, seat: number, legal: string[], can_pass: boolean} & Partial<RevolutionChoices>} TurnEvent */
/**
 * Revolution: a counter window asks this seat (every other seat is asked at once).
 * @typedef {{type: "counter", v: number, deal: number, seat: number, function: string, card: string, target: number | null, seconds: number, counters: string[]}} CounterEvent
 */
/** Revolution: this seat's answer to the counter window is taken. @typedef {{type: "answered", v: number, deal: number, seat: number, answer: "counter" | "decline"}} AnsweredEvent */
/** @typedef {PublicState & ActionData & {type: "action", v: number, deal: number, by: MoveBy}} ActionEvent */
/**
 * @typedef {{
 *   type: "deal_end", v: number, deal: number, winner: number, counts: number[], points: number[],
 *   totals: number[], left: string[], multipliers: number[], next_deal: NextDeal | null, end?: "out" | "exhaustion",
 * }} DealEndEvent
 */
/** @typedef {{type: "next", v: number, seat: number, deal: number}} NextEvent */
/** @typedef {{type: "match_end", v: number, totals: number[], ranking: number[], deals: number}} MatchEndEvent */
/** A chat line; seat is null for a spectator. @typedef {{type: "chat", v: number, seat: number | null, name: string, text: string}} ChatEvent */
/** @typedef {{type: "control", v: number, seat: number, control: "computer" | "player", reason: "away" | "returned"}} ControlEvent */
/** @typedef {{type: "quit", v: number, seat: number, reason?: "quit" | "kicked" | "computer"}} QuitEvent */
/** @typedef {{type: "host", v: number, seat: number | null}} HostEvent */
/**
 * The host changed the room's settings.
 * @typedef {{type: "settings", v: number, turn_seconds: number | null, away_seconds: number | null, spectators: boolean, spectator_chat: boolean, assists?: boolean, by: number}} SettingsEvent
 */
/** @typedef {{type: "closed", v: number, reason: string}} ClosedEvent */
/**
 * A new game was opened; a player seated there gets its seat and token in its own copy.
 * @typedef {{type: "rematch", v: number, code: string, by: number, seat?: number, token?: string}} RematchEvent
 */

/**
 * The server is busy: the computers play at a quicker level than their own (or, busy false,
 * at their own again).
 * @typedef {{type: "busy", v: number, busy: boolean, level: string, usual: string, message: string}} BusyEvent
 */

/**
 * @typedef {JoinedEvent | LeftEvent | ReadyEvent | StartedEvent | DealEvent | HandEvent | TurnEvent
 *   | ActionEvent | DealEndEvent | NextEvent | MatchEndEvent | ChatEvent | ControlEvent | QuitEvent
 *   | ClosedEvent | RematchEvent | HostEvent | SettingsEvent
 *   | BusyEvent | CounterEvent | AnsweredEvent} TableEvent
 */

// -- unnumbered server messages ----------------------------------------------------------------------

/**
 * @typedef {{
 *   type: "welcome", protocol: number, room: string, role: "player" | "spectator",
 *   seat: number | null, latest: number, clock: Clock | null,
 * }} WelcomeMessage
 */
/**
 * A full resync: after it the client holds event v.
 * @typedef {{
 *   type: "sync", v: number, seat: number | null, room: Room, view: View | null,
 *   chat: ChatEvent[], clock: Clock | null, invite?: string | null,
 * }} SyncMessage
 */
/** A player's connection came or went. @typedef {{type: "presence", seat: number, connected: boolean}} PresenceMessage */
/** @typedef {{type: "clock"} & Clock} ClockMessage */
/** @typedef {{type: "ack", id: string, event: number, duplicate?: boolean}} AckMessage */
/** @typedef {Record<string, string | number>} RefusalParams the details a refusal is worded with (docs/protocol.md) */
/** @typedef {{type: "error", id: string | null, code: string, message: string, params: RefusalParams}} ErrorMessage */
/** @typedef {{type: "pong", id: string | null}} PongMessage */
/** @typedef {{type: "bye", reason: string}} ByeMessage */

/**
 * Anything the server sends on the table's WebSocket.
 * @typedef {TableEvent | WelcomeMessage | SyncMessage | PresenceMessage | ClockMessage | AckMessage
 *   | ErrorMessage | PongMessage | ByeMessage} ServerMessage
 */

// -- client messages -----------------------------------------------------------------------------------

/**
 * The first message: a seat's or spectator's token, or (without one) a spectator's name.
 * @typedef {{type: "hello", protocol: number, token?: string, watch?: boolean, since?: number, name?: string, batch?: boolean}} HelloMessage
 */
/** @typedef {{type: "play", cards: string | string[], v: number, id: string, seat?: number}} PlayMessage */
/** @typedef {{type: "pass", v: number, id: string, seat?: number}} PassMessage */
/** @typedef {{type: "ready", ready?: boolean, id?: string}} ReadyMessage */
/** @typedef {{type: "next", id?: string}} NextMessage */
/** @typedef {{type: "chat", text: string, id?: string}} ChatMessage */
/** @typedef {{type: "quit", id?: string}} QuitMessage */
/** @typedef {{type: "sync", id?: string}} SyncRequest */
/** @typedef {{type: "ping", id?: string}} PingMessage */
/** The host only. @typedef {{type: "kick", seat: number, id?: string}} KickMessage */
/** The host only. @typedef {{type: "computer", seat: number, level?: string, id?: string}} ComputerMessage */
/**
 * The host only.
 * @typedef {{type: "settings", turn_seconds: number | null, away_seconds: number | null, spectators: boolean, spectator_chat: boolean, assists?: boolean, id?: string}} SettingsMessage
 */

/**
 * Revolution: activate a Character (an exchange names the seat given to and the normal card given).
 * @typedef {{type: "activate", card: string, target?: number, give?: string, v: number, id: string}} ActivateMessage
 */
/** Revolution: cancel the function in the counter window with a Revolution Q. @typedef {{type: "counter", card: string, v: number, id: string}} CounterMessage */
/** Revolution: let the function in the counter window stand. @typedef {{type: "decline", v: number, id: string}} DeclineMessage */
/** Revolution: after a pass, take the deck's top card ("deck") or a card of the Gathering. @typedef {{type: "draw", source: string, v: number, id: string}} DrawMessage */
/** Revolution: after a pass, draw no more. @typedef {{type: "stop", v: number, id: string}} StopMessage */

/**
 * Anything the client sends after its hello.
 * @typedef {PlayMessage | PassMessage | ReadyMessage | NextMessage | ChatMessage | QuitMessage
 *   | SyncRequest | PingMessage | KickMessage | ComputerMessage | SettingsMessage
 *   | ActivateMessage | CounterMessage | DeclineMessage | DrawMessage | StopMessage} ClientMessage
 */

export {};
