// @ts-check
// The client's picture of one table, built only from what the server sends this seat:
// a full "sync" and then numbered events applied in order. Rendering reads this model;
// nothing here decides what is legal (the server sends the legal plays with each turn).
import { toCard, toCards, functionOf } from "./cards.js";
import { shownName } from "./i18n.js";

/** @typedef {import("./protocol.js").Room} Room */
/** @typedef {import("./protocol.js").RoomSeat} RoomSeat */
/** @typedef {import("./protocol.js").Rules} Rules */
/** @typedef {import("./protocol.js").NextDeal} NextDeal */
/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").DealEvent} DealEvent */
/** @typedef {import("./protocol.js").ActionData} ActionData */
/** @typedef {import("./protocol.js").TablePlay} TablePlay */
/** @typedef {import("./protocol.js").Clock} Clock */
/** @typedef {import("./protocol.js").ChatEvent} ChatEvent */
/** @typedef {import("./protocol.js").SyncMessage} SyncMessage */
/** @typedef {import("./protocol.js").TableEvent} TableEvent */
/** @typedef {import("./protocol.js").PresenceMessage} PresenceMessage */
/** @typedef {import("./protocol.js").ActionEvent} ActionEvent */
/** @typedef {import("./protocol.js").SeatKind} SeatKind */
/** @typedef {import("./protocol.js").SeatControl} SeatControl */
/** @typedef {import("./protocol.js").RoomStatus} RoomStatus */
/** @typedef {import("./protocol.js").MoveBy} MoveBy */
/** @typedef {import("./protocol.js").Move} Move */
/** @typedef {import("./protocol.js").PublicState} PublicState */
/** @typedef {import("./protocol.js").RevolutionChoices} RevolutionChoices */
/** @typedef {import("./protocol.js").RevolutionPhase} RevolutionPhase */

/**
 * A seat as the table shows it.
 * @typedef {object} Player
 * @property {number} seat
 * @property {string} name
 * @property {SeatKind} kind
 * @property {string} [level]
 * @property {boolean} taken
 * @property {boolean} ready
 * @property {SeatControl} control
 * @property {boolean} connected
 * @property {boolean} away a person's seat with nobody there: disconnected, or played by a computer
 * @property {number} avatar the picture to show (0 to 7)
 */

/**
 * One play or pass, cards as numbers (3♦ = 0 … 2♠ = 51, a Revolution card 52 … 103); cards
 * null: a pass (or, at a revolution table, a move that plays nothing: see move).
 * @typedef {object} Action
 * @property {number} seat
 * @property {number[] | null} cards the cards played (a play only)
 * @property {string | null} kind
 * @property {boolean} auto
 * @property {string} reason
 * @property {boolean} trickOver
 * @property {MoveBy} [by] who made it (events say; a resync's list of actions does not)
 * @property {Move} [move] at a revolution table: the move (a play, a pass or any other)
 * @property {number[] | null} [shown] revolution: the card a move other than a play shows (null: none, or hidden)
 * @property {string} [fn] revolution: the function activated, countered or in effect
 * @property {number} [target] revolution: the seat an exchange gives to
 * @property {"deck" | "gathering"} [source] revolution: where a draw came from
 */

/**
 * A function waiting in its counter window.
 * @typedef {{seat: number, fn: string, card: number, target: number | null}} PendingFunction
 */

/**
 * A counter window that asks this seat: the function, the Revolution Qs it may counter with,
 * the clock (endsAt in local ms) and its answer once given.
 * @typedef {PendingFunction & {counters: number[], seconds: number, endsAt: number, answer: "counter" | "decline" | null}} CounterPrompt
 */

/**
 * What a revolution hand adds to a deal (Big 2 RevolutioN; null at other tables).
 * @typedef {object} Revolution
 * @property {RevolutionPhase} phase
 * @property {number} toAct whose answer is awaited (another seat than turn in a counter window)
 * @property {number[]} revolutionCounts Revolution cards in each hand (Deal.counts: normal cards)
 * @property {number[]} gathering the face-up cards beside the deck
 * @property {number} deckLeft
 * @property {boolean} reversed the order of cards is reversed
 * @property {PendingFunction | null} pending
 * @property {"out" | "exhaustion" | null} end
 * @property {number[]} discards Character cards discarded (activated, or countering)
 * @property {Array<{card: number, fn: string}>} activate Characters we may activate now
 * @property {number[]} counters
 * @property {Array<number | "deck">} draws what we may draw now, after a pass
 * @property {CounterPrompt | null} prompt the counter window asking us, while it is open
 */

/** @typedef {{seat: number, cards: number[], kind: string}} Play */

/**
 * The deal in play as this seat sees it.
 * @typedef {object} Deal
 * @property {number} number
 * @property {number} leader
 * @property {number} turn
 * @property {number[]} counts
 * @property {Play | null} table the play to beat; null at a lead
 * @property {number} passes
 * @property {number[]} locked
 * @property {number | null} winner
 * @property {boolean} over
 * @property {string | null} opening the card the first play must include, for its holder
 * @property {Action[]} actions
 * @property {Action[]} trick the actions of the trick in progress
 * @property {number[]} played
 * @property {number[]} hand
 * @property {number[][]} legal
 * @property {boolean} canPass
 * @property {{seat: number, cards: number[], actions: Action[]} | null} [lastTrick] the last trick won: the play that won it, and its every play and pass
 * @property {Revolution} [rev] Big 2 RevolutioN's part of the hand (absent at other tables)
 */

/**
 * A finished deal.
 * @typedef {object} Result
 * @property {number} number
 * @property {number} winner
 * @property {number[]} points
 * @property {number[]} counts
 * @property {number[][]} cardsLeft every seat's cards left, public once the deal is over
 * @property {number[]} multipliers 1, or 2 for DOUBLE!, 3 for TRIPLE!, per seat
 * @property {boolean} [waits] the next deal waits for us to read this
 */

/** @typedef {{seat: number | null, name: string, text: string, v: number}} ChatLine */
/** A turn timer: endsAt in local ms. @typedef {{seat: number, endsAt: number, seconds: number}} Timer */
/** Between deals: when the wait ends (local ms), null when it has no limit or is not known. @typedef {NextDeal & {endsAt: number | null}} Waiting */

/**
 * @typedef {object} Model
 * @property {string} code
 * @property {number | null} seat our seat, or null when watching
 * @property {number} v the newest event held
 * @property {Room | null} room
 * @property {RoomStatus} status
 * @property {Player[]} players
 * @property {Rules | null} rules
 * @property {number} dealsTotal
 * @property {Deal | null} deal
 * @property {Result[]} results
 * @property {number[]} totals
 * @property {boolean} matchOver
 * @property {string} closed
 * @property {ChatLine[]} chat
 * @property {Timer | null} timer
 * @property {Waiting | null} nextDeal
 * @property {{code: string, by?: number} | null} rematch once the match is over and a new game was opened
 * @property {number | null} host the host's seat
 * @property {string | null} invite a private room's invitation key (players only)
 */

/**
 * What an event means for the view beyond the model.
 * @typedef {{type: "new_deal"} | {type: "action", action: Action} | {type: "deal_end", result: Result}
 *   | {type: "match_end"} | {type: "chat"} | {type: "closed"}
 *   | {type: "rematch", code: string, by: number, seat?: number, token?: string}
 *   | {type: "removed", reason: string} | {type: "freed", seat: number, name: string}
 *   | {type: "busy", busy: boolean, level: string, usual: string} | {type: "counter", seat: number}} Effect
 */

/**
 * @param {string} code
 * @param {number | null} seat
 * @returns {Model}
 */
export function emptyModel(code, seat) {
  return {
    code,
    seat,
    v: 0,
    room: null,
    status: "waiting",
    players: [],
    rules: null,
    dealsTotal: 0,
    deal: null,
    results: [],
    totals: [],
    matchOver: false,
    closed: "",
    chat: [],
    timer: null,
    nextDeal: null,
    rematch: null,
    host: null,
    invite: null,
  };
}

/** @param {RoomSeat[]} seats @returns {Player[]} */
function playersFrom(seats) {
  return seats.map((s) => ({
    seat: s.seat,
    name: shownName(s.name),
    kind: s.kind,
    level: s.level,
    taken: s.taken,
    ready: s.ready,
    control: s.control,
    connected: s.connected,
    away: s.kind === "human" && s.taken && (!s.connected || s.control === "computer"),
    avatar: s.avatar ?? nameAvatar(s.name, s.seat),
  }));
}

/**
 * A picture for a player who chose none (a terminal client's player, a name in a match
 * record): one derived from the name, the same on every screen.
 * @param {string} name
 * @param {number} seat
 */
export function nameAvatar(name, seat) {
  let hash = seat;
  for (const ch of name) hash = (hash * 31 + /** @type {number} */ (ch.codePointAt(0))) >>> 0;
  return hash % 8;
}

/**
 * The seat whose turn it is while the deal is being played; null once it is over, or when
 * the room closed mid-deal (the host closed it, every player quit): then nobody's turn.
 * @param {Model} model
 * @returns {number | null}
 */
export function turnSeat(model) {
  const deal = model.deal;
  if (!deal || deal.over || model.closed || model.status === "finished") return null;
  return deal.turn;
}

/** @param {Model} model @param {Room} room */
function setRoom(model, room) {
  model.room = room;
  model.status = room.status;
  model.closed = room.closed;
  model.rules = room.rules;
  model.dealsTotal = room.deals;
  model.players = playersFrom(room.seats);
  model.totals = room.totals;
  const known = new Map(model.results.map((r) => [r.number, r]));
  model.results = room.results.map((r) => ({
    ...known.get(r.deal),
    number: r.deal,
    winner: r.winner,
    points: r.points,
    counts: r.counts,
    cardsLeft: r.left.map(toCards),
    multipliers: r.multipliers,
  }));
  model.matchOver = room.status === "finished" && room.closed === "match over";
  const next = room.next_deal;
  model.nextDeal = next ? { ...next, endsAt: model.nextDeal?.deal === next.deal ? model.nextDeal.endsAt : null } : null;
  model.rematch = room.rematch ? { ...(model.rematch?.code === room.rematch ? model.rematch : {}), code: room.rematch } : null;
  model.host = room.host ?? null;
}

/**
 * A new deal: from a "deal" event, or a resync's view of the deal in play.
 * @param {Model} model
 * @param {DealEvent | View} data
 */
function newDeal(model, data) {
  const actions = data.actions.map(readAction);
  // A resync's view holds what a "deal" event leaves to "hand" and "turn" (and names the opening card).
  const view = "opening" in data ? data : null;
  const choices = view?.choices;
  const known = model.deal?.number === data.deal ? model.deal : null;
  model.deal = {
    number: data.deal,
    leader: data.leader,
    turn: data.turn,
    counts: data.counts,
    table: readTable(data.table),
    passes: data.passes,
    locked: data.locked,
    winner: data.winner,
    over: data.winner !== null,
    opening: view ? view.opening : null,
    actions,
    trick: trickOf(actions),
    played: actions.flatMap((a) => a.cards || []),
    hand: view?.hand !== undefined ? toCards(view.hand) : known ? known.hand : [],
    legal: (choices?.legal ?? view?.legal ?? []).map(toCards),
    canPass: !!(choices?.can_pass ?? view?.can_pass),
  };
  const lastTrick = lastTrickOf(actions); // a resync's deal: the last trick won, for "Last trick"
  if (lastTrick) model.deal.lastTrick = lastTrick;
  if ("deals" in data) model.dealsTotal = data.deals;
  if (data.phase !== undefined) {
    const rev = emptyRevolution();
    model.deal.rev = rev;
    readRevolution(rev, data);
    rev.discards = view?.discards !== undefined ? toCards(view.discards) : known?.rev?.discards ?? [];
    if (choices) readChoices(rev, choices);
    // A window open at a resync asks us too (unless we opened it): with our Revolution Qs,
    // and with our answer when the view says we gave one (then nothing is asked again).
    const pending = rev.pending;
    if (pending && rev.phase === "counter" && model.seat !== null && pending.seat !== model.seat) {
      const kept = known?.rev?.prompt;
      rev.prompt = kept && kept.card === pending.card ? kept : {
        ...pending, counters: model.deal.hand.filter((c) => functionOf(c) === "counter"), seconds: 0, endsAt: 0, answer: null,
      };
      if (view?.answered !== undefined) rev.prompt.answer = view.answered;
    }
  }
}

/** @returns {Revolution} */
function emptyRevolution() {
  return {
    phase: "act", toAct: 0, revolutionCounts: [], gathering: [], deckLeft: 0, reversed: false, pending: null, end: null,
    discards: [], activate: [], counters: [], draws: [], prompt: null,
  };
}

/**
 * The public part of a revolution hand, from a deal or action event or a resync's view.
 * @param {Revolution} rev
 * @param {PublicState} data
 */
function readRevolution(rev, data) {
  rev.phase = data.phase ?? rev.phase;
  rev.toAct = data.to_act ?? data.turn;
  rev.revolutionCounts = data.revolution_counts ?? rev.revolutionCounts;
  rev.gathering = data.gathering !== undefined ? toCards(data.gathering) : rev.gathering;
  rev.deckLeft = data.deck_left ?? rev.deckLeft;
  rev.reversed = !!data.reversed;
  const p = data.pending;
  rev.pending = p ? { seat: p.seat, fn: p.function, card: toCard(p.card), target: p.target } : null;
  rev.end = data.end ?? null;
  if (rev.phase !== "counter" || !rev.pending || (rev.prompt && rev.prompt.card !== rev.pending.card)) rev.prompt = null;
}

/**
 * What we may do now (a turn event, or a resync's choices).
 * @param {Revolution} rev
 * @param {Partial<RevolutionChoices>} c
 */
function readChoices(rev, c) {
  rev.activate = (c.activate || []).map((a) => ({ card: toCard(a.card), fn: a.function }));
  rev.counters = (c.counters || []).map(toCard);
  rev.draws = (c.draws || []).map((d) => (d === "deck" ? "deck" : toCard(d)));
}

/** @param {TablePlay | null} table @returns {Play | null} */
function readTable(table) {
  return table ? { seat: table.seat, cards: toCards(table.cards), kind: table.kind } : null;
}

/** @param {ActionData & {by?: MoveBy}} a @returns {Action} */
function readAction(a) {
  const cards = a.cards === null ? null : toCards(a.cards);
  const move = a.move;
  /** @type {Action} */
  const action = {
    seat: a.seat,
    cards: move === undefined || move === "play" ? cards : null,
    kind: a.kind ?? null,
    auto: a.auto,
    reason: a.reason ?? "",
    trickOver: a.trick_over,
    by: a.by,
  };
  if (move === undefined) return action; // a 52-card table: a play, or a pass when cards is null
  action.move = move;
  if (move !== "play") action.shown = cards;
  if (a.function !== undefined) action.fn = a.function;
  if (a.target !== undefined) action.target = a.target;
  if (a.source !== undefined) action.source = a.source;
  return action;
}

/**
 * The actions of the trick in progress: those after the last one that ended a trick.
 * @param {Action[]} actions
 */
function trickOf(actions) {
  let start = 0;
  actions.forEach((a, i) => {
    if (a.trickOver) start = i + 1;
  });
  return actions.slice(start);
}

/**
 * The last trick won (a resync's list of actions): its winning play and every action of it.
 * @param {Action[]} actions
 */
function lastTrickOf(actions) {
  const ends = actions.flatMap((a, i) => (a.trickOver ? [i] : []));
  if (!ends.length) return null;
  const trick = actions.slice(ends.length > 1 ? ends[ends.length - 2] + 1 : 0, ends[ends.length - 1] + 1);
  const won = trick.findLast((a) => a.cards);
  return won?.cards ? { seat: won.seat, cards: won.cards, actions: trick } : null;
}

/**
 * Apply a full resync.
 * @param {Model} model
 * @param {SyncMessage} msg
 */
export function applySync(model, msg) {
  model.v = msg.v;
  model.seat = msg.seat;
  setRoom(model, msg.room);
  if (msg.view) newDeal(model, msg.view);
  else model.deal = null;
  model.chat = msg.chat.map(chatLine);
  model.invite = msg.invite ?? null;
  model.timer = null;
  applyClock(model, msg.clock);
}

/**
 * After a resync between deals (a reload, or back after the link was gone): the score sheet
 * the others have open, the last deal's, when the table waits for the next deal.
 * @param {Model} model
 * @returns {Result | null}
 */
export function sheetAfterSync(model) {
  const last = model.results.at(-1);
  const next = model.nextDeal;
  if (!last || model.matchOver || !next || next.deal !== last.number + 1) return null;
  if (model.seat === null || !next.waiting.includes(model.seat)) return null; // read already, or watching
  return { ...last, waits: true };
}

/** @param {ChatEvent} e @returns {ChatLine} */
function chatLine(e) {
  return { seat: e.seat, name: e.name, text: e.text, v: e.v };
}

/**
 * The clock the server says is running (a "clock" message, or "clock" in welcome and sync):
 * a player's turn timer {seat, ms}, or between deals {seat: null, ms, next_deal}; null: none.
 * @param {Model} model
 * @param {Clock | null} clock
 */
export function applyClock(model, clock) {
  if (!clock) {
    model.timer = null;
    return;
  }
  const endsAt = Date.now() + clock.ms;
  if ("counter" in clock) {
    // Revolution: the counter window's clock (a turn timer waits meanwhile).
    const prompt = model.deal?.rev?.prompt;
    if (prompt) prompt.endsAt = endsAt;
    model.timer = null;
    return;
  }
  if (clock.seat === null) {
    model.nextDeal = { deal: clock.next_deal, seconds: null, waiting: [], ...model.nextDeal, endsAt };
    model.nextDeal.deal = clock.next_deal;
    return;
  }
  model.timer = { seat: clock.seat, endsAt, seconds: model.room?.options.turn_seconds || clock.ms / 1000 };
}

/**
 * Apply one numbered event (or a "presence" message). Returns what it means for the view
 * beyond the model (see Effect).
 * @param {Model} model
 * @param {TableEvent | PresenceMessage} e
 * @returns {Effect[]}
 */
export function applyEvent(model, e) {
  if ("v" in e) model.v = Math.max(model.v, e.v);
  /** @type {Effect[]} */
  const effects = [];
  /** @param {number} n @returns {Player | undefined} */
  const seatOf = (n) => model.players[n];
  switch (e.type) {
    case "joined": {
      const player = seatOf(e.seat);
      if (player) Object.assign(player, { name: e.name, taken: true, ready: false, avatar: e.avatar ?? nameAvatar(e.name, e.seat) });
      if (player && e.kind === "computer") Object.assign(player, { kind: "computer", level: e.level, ready: true, control: "computer", away: false });
      // The first player to sit down hosts the room (a "host" event says when that changes).
      if (model.host === null && e.kind !== "computer") {
        model.host = e.seat;
        if (model.room) model.room.host = e.seat;
      }
      break;
    }
    case "left": {
      const player = seatOf(e.seat);
      // A seat whose player never came (or went) is freed for someone else: the table is told.
      if (player && (e.reason === "never connected" || e.reason === "away")) effects.push({ type: "freed", seat: e.seat, name: player.name });
      if (player) Object.assign(player, { name: "", taken: false, ready: false });
      if (e.seat === model.seat && (e.reason === "kicked" || e.reason === "computer")) effects.push({ type: "removed", reason: e.reason });
      break;
    }
    case "host":
      model.host = e.seat;
      if (model.room) model.room.host = e.seat;
      break;
    case "settings":
      if (model.room) Object.assign(model.room.options, { turn_seconds: e.turn_seconds, away_seconds: e.away_seconds, spectators: e.spectators, spectator_chat: e.spectator_chat });
      if (model.room && e.assists !== undefined) model.room.options.assists = e.assists;
      break;
    case "ready": {
      const player = seatOf(e.seat);
      if (player) player.ready = e.ready;
      break;
    }
    case "started":
      model.status = "playing";
      model.dealsTotal = e.deals;
      e.names.forEach((name, i) => {
        const player = seatOf(i);
        if (player) player.name = name;
      });
      model.totals = model.players.map(() => 0);
      model.results = [];
      break;
    case "deal":
      newDeal(model, e);
      model.nextDeal = null;
      effects.push({ type: "new_deal" });
      break;
    case "hand":
      if (model.deal && model.deal.number === e.deal) model.deal.hand = toCards(e.cards);
      if (model.deal) model.deal.opening = e.opening;
      break;
    case "turn":
      if (model.deal) {
        model.deal.legal = e.legal.map(toCards);
        model.deal.canPass = e.can_pass;
        model.deal.turn = e.seat;
        if (model.deal.rev) readChoices(model.deal.rev, e);
      }
      break;
    case "counter": {
      // Revolution: a counter window asks us (every other seat is asked at once).
      const rev = model.deal?.number === e.deal ? model.deal.rev : null;
      if (rev) {
        rev.prompt = {
          seat: e.seat, fn: e.function, card: toCard(e.card), target: e.target, counters: e.counters.map(toCard),
          seconds: e.seconds, endsAt: Date.now() + e.seconds * 1000, answer: null,
        };
        effects.push({ type: "counter", seat: e.seat });
      }
      break;
    }
    case "answered": {
      const prompt = model.deal?.number === e.deal ? model.deal.rev?.prompt : null;
      if (prompt) prompt.answer = e.answer;
      break;
    }
    case "action":
      applyAction(model, e, effects);
      break;
    case "deal_end": {
      /** @type {Result} */
      const result = {
        number: e.deal,
        winner: e.winner,
        counts: e.counts,
        points: e.points,
        cardsLeft: e.left.map(toCards),
        multipliers: e.multipliers,
        waits: !!e.next_deal, // the next deal waits for us to read this
      };
      model.results = model.results.filter((r) => r.number !== e.deal).concat([result]);
      model.totals = e.totals;
      if (model.deal && model.deal.number === e.deal) {
        model.deal.over = true;
        model.deal.winner = e.winner;
        model.deal.counts = e.counts;
        if (model.deal.rev) {
          model.deal.rev.phase = "over";
          model.deal.rev.prompt = null;
          model.deal.rev.end = e.end ?? model.deal.rev.end;
        }
      }
      model.timer = null;
      const next = e.next_deal;
      model.nextDeal = next ? { ...next, endsAt: next.seconds === null ? null : Date.now() + next.seconds * 1000 } : null;
      effects.push({ type: "deal_end", result });
      break;
    }
    case "next":
      if (model.nextDeal) model.nextDeal.waiting = model.nextDeal.waiting.filter((s) => s !== e.seat);
      break;
    case "rematch":
      model.rematch = { code: e.code, by: e.by };
      effects.push({ type: "rematch", code: e.code, by: e.by, seat: e.seat, token: e.token });
      break;
    case "match_end":
      model.totals = e.totals;
      model.matchOver = true;
      model.status = "finished";
      model.closed = "match over";
      effects.push({ type: "match_end" });
      break;
    case "chat":
      model.chat.push(chatLine(e));
      if (model.chat.length > 200) model.chat.shift();
      effects.push({ type: "chat" });
      break;
    case "control": {
      const player = seatOf(e.seat);
      if (player) {
        player.control = e.control;
        player.away = e.control === "computer";
      }
      break;
    }
    case "presence": {
      const player = seatOf(e.seat);
      if (player) {
        player.connected = e.connected;
        player.away = !e.connected || player.control === "computer";
      }
      break;
    }
    case "quit": {
      const player = seatOf(e.seat);
      if (player) Object.assign(player, { control: "quit", away: true });
      if (e.seat === model.seat && (e.reason === "kicked" || e.reason === "computer")) effects.push({ type: "removed", reason: e.reason });
      break;
    }
    case "busy":
      effects.push({ type: "busy", busy: e.busy, level: e.level, usual: e.usual });
      break;
    case "closed":
      model.status = "finished";
      model.closed = e.reason;
      effects.push({ type: "closed" });
      break;
    default:
      break; // an event type this client does not know: counted as seen, nothing more
  }
  return effects;
}

/**
 * @param {Model} model
 * @param {ActionEvent} e
 * @param {Effect[]} effects
 */
function applyAction(model, e, effects) {
  const deal = model.deal;
  if (!deal || deal.number !== e.deal) return;
  const action = readAction(e);
  deal.actions.push(action);
  if (deal.rev) {
    readRevolution(deal.rev, e);
    // Character cards activated, and the Qs that counter them, lie face up.
    if ((action.move === "activate" || action.move === "counter") && action.shown) deal.rev.discards.push(...action.shown);
    deal.rev.activate = [];
    deal.rev.counters = [];
    deal.rev.draws = [];
  }
  if (action.cards) {
    deal.opening = null; // the deal's first play has been made: later leads need no card
    deal.played.push(...action.cards);
    if (action.seat === model.seat) {
      const gone = new Set(action.cards);
      deal.hand = deal.hand.filter((c) => !gone.has(c));
    }
  }
  if (action.trickOver) {
    // Keep the trick's winning play in view (faded) until the next lead, and the whole trick
    // for "Last trick".
    const trick = [...deal.trick, action];
    const won = trick.findLast((a) => a.cards);
    deal.lastTrick = won?.cards ? { seat: won.seat, cards: won.cards, actions: trick } : null;
  }
  deal.trick = action.trickOver ? [] : [...deal.trick, action];
  deal.turn = e.turn;
  deal.counts = e.counts;
  deal.table = readTable(e.table);
  deal.passes = e.passes;
  deal.locked = e.locked;
  deal.winner = e.winner;
  deal.over = deal.winner !== null;
  // The legal plays were for the turn just taken; the next "turn" event brings new ones.
  deal.legal = [];
  deal.canPass = false;
  if (model.timer && (model.timer.seat !== e.turn || deal.rev?.phase === "counter")) model.timer = null;
  effects.push({ type: "action", action });
}
