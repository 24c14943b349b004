// The client's picture of one table, built only from what the server sends this seat:
// a full "sync" and then numbered events applied in order. Rendering reads this model;
// nothing here decides what is legal (the server sends the legal plays with each turn).
import { toCards } from "./cards.js";

export function emptyModel(code, seat) {
  return {
    code,
    seat, // our seat, or null when watching
    v: 0,
    room: null,
    status: "waiting",
    players: [],
    rules: {},
    dealsTotal: 0,
    deal: null,
    results: [],
    totals: [],
    matchOver: false,
    closed: "",
    chat: [],
    timer: null, // {seat, endsAt (local ms), seconds}
    nextDeal: null, // between deals: {deal, seconds, waiting: [seats], endsAt (local ms) or null}
    rematch: null, // once the match is over and a new game was opened: {code, by}
    notices: [], // things to tell the player: [{text, kind}]
  };
}

/** Decode the HTML escaping the server puts on typed text (names, chat), to show as text. */
export function plain(text) {
  if (!text || !/[&<>]/.test(text)) return text ?? "";
  return new DOMParser().parseFromString(`<!doctype html><body>${text}`, "text/html").body.textContent;
}

function playersFrom(seats) {
  return seats.map((s) => ({
    seat: s.seat,
    name: plain(s.name),
    kind: s.kind,
    level: s.level,
    taken: s.taken,
    ready: s.ready,
    control: s.control,
    connected: s.connected,
    away: s.kind === "human" && s.taken && (s.connected === false || s.control === "computer"),
    avatar: s.avatar ?? nameAvatar(s.name, s.seat),
  }));
}

/** Servers that do not store an avatar: derive one from the name, the same on every screen. */
export function nameAvatar(name, seat) {
  let hash = seat;
  for (const ch of name || "") hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return hash % 8;
}

function setRoom(model, room) {
  model.room = room;
  model.status = room.status;
  model.closed = room.closed || "";
  model.rules = room.rules || {};
  model.dealsTotal = room.deals;
  model.players = playersFrom(room.seats || []);
  model.totals = room.totals || model.players.map(() => 0);
  const known = new Map(model.results.map((r) => [r.number, r]));
  model.results = (room.results || []).map((r) => ({
    ...(known.get(r.deal) || {}),
    number: r.deal,
    winner: r.winner,
    points: r.points,
    counts: r.counts,
    // Every seat's cards left, public once the deal is over (older servers: only ours).
    cardsLeft: r.left ? r.left.map(toCards) : known.get(r.deal)?.cardsLeft || [],
    multipliers: r.multipliers || multipliersFor(model.rules, r.counts),
  }));
  model.matchOver = room.status === "finished" && room.closed === "match over";
  const next = room.next_deal;
  model.nextDeal = next ? { ...next, endsAt: model.nextDeal?.deal === next.deal ? model.nextDeal.endsAt : null } : null;
  model.rematch = room.rematch ? { ...(model.rematch?.code === room.rematch ? model.rematch : {}), code: room.rematch } : null;
}

/** The band each loser reached (DOUBLE! at 10+ cards in palm), from the rules' scoring. */
export function multipliersFor(rules, counts = []) {
  const bands = rules?.scoring?.multipliers || [];
  return counts.map((n) => {
    let factor = 1;
    for (const [threshold, multiple] of bands) if (n > 0 && n >= threshold) factor = multiple;
    return factor;
  });
}

function newDeal(model, data) {
  const actions = (data.actions || []).map(readAction);
  model.deal = {
    number: data.deal,
    leader: data.leader,
    turn: data.turn,
    counts: data.counts,
    table: readTable(data.table),
    passes: data.passes,
    locked: data.locked || [],
    winner: data.winner ?? null,
    over: data.winner !== null && data.winner !== undefined,
    opening: data.opening ?? null,
    actions,
    trick: trickOf(actions),
    played: actions.flatMap((a) => a.cards || []),
    hand: data.hand !== undefined ? toCards(data.hand) : model.deal?.number === data.deal ? model.deal.hand : [],
    legal: (data.legal || []).map(toCards),
    canPass: !!data.can_pass,
  };
  if (data.deals) model.dealsTotal = data.deals;
}

function readTable(table) {
  return table ? { seat: table.seat, cards: toCards(table.cards), kind: table.kind } : null;
}

function readAction(a) {
  return {
    seat: a.seat,
    cards: a.cards === null || a.cards === undefined ? null : toCards(a.cards),
    kind: a.kind,
    auto: !!a.auto,
    reason: a.reason || "",
    trickOver: !!a.trick_over,
    by: a.by,
  };
}

/** The actions of the trick in progress: those after the last one that ended a trick. */
function trickOf(actions) {
  let start = 0;
  actions.forEach((a, i) => {
    if (a.trickOver) start = i + 1;
  });
  return actions.slice(start);
}

/** Apply a full resync. */
export function applySync(model, msg) {
  model.v = msg.v;
  if (msg.seat !== undefined) model.seat = msg.seat;
  setRoom(model, msg.room);
  if (msg.view) {
    newDeal(model, msg.view);
    if (model.deal.winner === null || model.deal.winner === undefined) model.deal.over = false;
  } else model.deal = null;
  model.chat = (msg.chat || []).map(chatLine);
  model.timer = null;
  applyClock(model, msg.clock);
}

function chatLine(e) {
  return { seat: e.seat, name: plain(e.name), text: plain(e.text), v: e.v };
}

/**
 * The clock the server says is running (a "clock" message, or "clock" in welcome and sync):
 * a player's turn timer {seat, ms}, or between deals {seat: null, ms, next_deal}; null: none.
 */
export function applyClock(model, clock) {
  if (clock === undefined) return;
  if (!clock) {
    model.timer = null;
    return;
  }
  const endsAt = Date.now() + clock.ms;
  if (clock.seat === null || clock.seat === undefined) {
    if (clock.next_deal) {
      model.nextDeal = { deal: clock.next_deal, waiting: [], ...(model.nextDeal || {}), endsAt };
      model.nextDeal.deal = clock.next_deal;
    }
    return;
  }
  model.timer = { seat: clock.seat, endsAt, seconds: model.room?.options?.turn_seconds || clock.ms / 1000 };
}

/**
 * Apply one event. Returns a list of effects for the view: {type: "deal_end", result},
 * {type: "match_end"}, {type: "refresh"}, {type: "action", action}.
 */
export function applyEvent(model, e) {
  if (e.v !== undefined) model.v = Math.max(model.v, e.v);
  const effects = [];
  const seatOf = (n) => model.players[n];
  switch (e.type) {
    case "joined":
      if (seatOf(e.seat)) Object.assign(seatOf(e.seat), { name: plain(e.name), taken: true, ready: false, avatar: e.avatar ?? nameAvatar(e.name, e.seat) });
      break;
    case "left":
      if (seatOf(e.seat)) Object.assign(seatOf(e.seat), { name: "", taken: false, ready: false });
      break;
    case "ready":
      if (seatOf(e.seat)) seatOf(e.seat).ready = e.ready;
      break;
    case "started":
      model.status = "playing";
      model.dealsTotal = e.deals;
      (e.names || []).forEach((name, i) => {
        if (seatOf(i)) seatOf(i).name = plain(name);
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
      if (model.deal && e.opening !== undefined) model.deal.opening = e.opening;
      break;
    case "turn":
      if (model.deal) {
        model.deal.legal = (e.legal || []).map(toCards);
        model.deal.canPass = !!e.can_pass;
        model.deal.turn = e.seat;
      }
      break;
    case "action":
      applyAction(model, e, effects);
      break;
    case "deal_end": {
      const result = {
        number: e.deal,
        winner: e.winner,
        counts: e.counts,
        points: e.points,
        // Every seat's cards left (older servers send only counts: ours we know anyway).
        cardsLeft: (e.left || []).map(toCards),
        multipliers: e.multipliers || multipliersFor(model.rules, e.counts),
        waits: !!e.next_deal, // the next deal waits for us to read this
      };
      if (!result.cardsLeft.length && model.seat !== null && model.deal?.number === e.deal) {
        result.cardsLeft = e.counts.map(() => null);
        result.cardsLeft[model.seat] = [...model.deal.hand];
      }
      model.results = model.results.filter((r) => r.number !== e.deal).concat([result]);
      model.totals = e.totals;
      if (model.deal && model.deal.number === e.deal) {
        model.deal.over = true;
        model.deal.winner = e.winner;
        model.deal.counts = e.counts;
      }
      model.timer = null;
      const next = e.next_deal;
      model.nextDeal = next ? { ...next, endsAt: next.seconds === null ? null : Date.now() + next.seconds * 1000 } : null;
      effects.push({ type: "deal_end", result });
      break;
    }
    case "next":
      if (model.nextDeal) model.nextDeal.waiting = (model.nextDeal.waiting || []).filter((s) => s !== e.seat);
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
    case "control":
      if (seatOf(e.seat)) {
        seatOf(e.seat).control = e.control;
        seatOf(e.seat).away = e.control === "computer";
      }
      break;
    case "presence":
      if (seatOf(e.seat)) {
        seatOf(e.seat).connected = e.connected;
        seatOf(e.seat).away = !e.connected || seatOf(e.seat).control === "computer";
      }
      break;
    case "quit":
      if (seatOf(e.seat)) Object.assign(seatOf(e.seat), { control: "quit", away: true });
      break;
    case "closed":
      model.status = "finished";
      model.closed = e.reason;
      effects.push({ type: "closed" });
      break;
    default:
      break;
  }
  return effects;
}

function applyAction(model, e, effects) {
  const deal = model.deal;
  if (!deal || deal.number !== e.deal) return;
  const action = readAction(e);
  deal.actions.push(action);
  if (action.cards) {
    deal.played.push(...action.cards);
    if (action.seat === model.seat) {
      const gone = new Set(action.cards);
      deal.hand = deal.hand.filter((c) => !gone.has(c));
    }
  }
  if (action.trickOver) {
    // Keep the trick's winning play in view (faded) until the next lead.
    const won = [...deal.trick, action].findLast((a) => a.cards);
    deal.lastTrick = won ? { seat: won.seat, cards: won.cards } : null;
  }
  deal.trick = action.trickOver ? [] : [...deal.trick, action];
  deal.turn = e.turn;
  deal.counts = e.counts;
  deal.table = readTable(e.table);
  deal.passes = e.passes;
  deal.locked = e.locked || [];
  deal.winner = e.winner ?? null;
  deal.over = deal.winner !== null;
  // The legal plays were for the turn just taken; the next "turn" event brings new ones.
  deal.legal = [];
  deal.canPass = false;
  if (model.timer && model.timer.seat !== e.turn) model.timer = null;
  effects.push({ type: "action", action });
}
