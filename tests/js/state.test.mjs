// The browser client's table model (src/bigtwo/web/js/state.js), fed the messages the server
// sends (docs/protocol.md) in node, without a browser: a sync, then numbered events, and the
// exact model and effects after each. Cards in the model are numbers: rank * 4 + suit, so
// 3♦ = 0, 3♥ = 2, 4♦ = 4 … 2♠ = 51.
import { test, mock } from "node:test";
import assert from "node:assert/strict";

import { emptyModel, applySync, applyEvent, applyClock, nameAvatar, sheetAfterSync } from "../../src/bigtwo/web/js/state.js";

/** @typedef {import("../../src/bigtwo/web/js/protocol.js").Room} Room */
/** @typedef {import("../../src/bigtwo/web/js/protocol.js").View} View */
/** @typedef {import("../../src/bigtwo/web/js/protocol.js").SyncMessage} SyncMessage */
/** @typedef {import("../../src/bigtwo/web/js/protocol.js").ActionEvent} ActionEvent */
/** @typedef {import("../../src/bigtwo/web/js/state.js").Model} Model */

const NOW = 1_700_000_000_000;

/**
 * A four-seat room as the server describes it: Ann (us, seat 0), Bill (gone away), a
 * computer, and Cat (a computer plays for her).
 * @param {Partial<Room>} [changes]
 * @returns {Room}
 */
function room(changes = {}) {
  return {
    code: "K7RM2P",
    title: "Friday",
    status: "playing",
    closed: "",
    preset: "textbook",
    rules: { name: "textbook", suit_order: "dchs", lead_card: "3d" },
    players: 4,
    deals: 2,
    deal: 1,
    options: {
      turn_seconds: 30, away_seconds: 60, computer_delay: 0.8, takeover_level: "greedy", autopass: null,
      autopass_five: null, public: true, spectators: true, spectator_chat: false, seeded: false, between_deals_seconds: 8,
    },
    seats: [
      { seat: 0, name: "Ann", kind: "human", taken: true, ready: false, control: "player", connected: true, avatar: 3 },
      { seat: 1, name: "Bill", kind: "human", taken: true, ready: false, control: "player", connected: false, avatar: null },
      { seat: 2, name: "Computer 3", kind: "computer", level: "greedy", taken: true, ready: true, control: "computer", connected: true, avatar: null },
      { seat: 3, name: "Cat", kind: "human", taken: true, ready: false, control: "computer", connected: true, avatar: 5 },
    ],
    totals: [0, 0, 0, 0],
    results: [],
    next_deal: null,
    rematch: null,
    host: 0,
    v: 10,
    ...changes,
  };
}

/**
 * Seat 0's view of deal 1 before its first play: it holds 3♦ 3♥ 2♠ and must lead the 3♦.
 * @param {Partial<View>} [changes]
 * @returns {View}
 */
function view(changes = {}) {
  return {
    deal: 1, seat: 0, leader: 0, turn: 0, counts: [3, 3, 3, 3], table: null, passes: 0, locked: [], winner: null,
    opening: "3d", actions: [], played: "", legal: ["3d", "3d 3h"], can_pass: false, hand: "3d 3h 2s",
    ...changes,
  };
}

/** @param {Partial<SyncMessage>} [changes] @returns {SyncMessage} */
function sync(changes = {}) {
  return { type: "sync", v: 10, seat: 0, room: room(), view: view(), chat: [], clock: null, ...changes };
}

/** A model of seat 0 after a sync. @param {Partial<SyncMessage>} [changes] */
function synced(changes = {}) {
  const model = emptyModel("K7RM2P", 0);
  applySync(model, sync(changes));
  return model;
}

/**
 * An action event with the public state after it.
 * @param {number} v
 * @param {number} seat
 * @param {string | null} cards
 * @param {Partial<ActionEvent>} [changes]
 * @returns {ActionEvent}
 */
function action(v, seat, cards, changes = {}) {
  return {
    type: "action", v, deal: 1, seat, cards, kind: cards === null ? null : "single", auto: false, reason: "",
    trick_over: false, by: "player", turn: (seat + 1) % 4, counts: [3, 3, 3, 3], table: null, passes: 0,
    locked: [], winner: null, ...changes,
  };
}

/** The deal shown, read afresh (an assertion above may have narrowed `model.deal`). @param {Model} model */
const shown = (model) => model.deal;

const PLAYERS = [
  { seat: 0, name: "Ann", kind: "human", level: undefined, taken: true, ready: false, control: "player", connected: true, away: false, avatar: 3 },
  { seat: 1, name: "Bill", kind: "human", level: undefined, taken: true, ready: false, control: "player", connected: false, away: true, avatar: nameAvatar("Bill", 1) },
  { seat: 2, name: "Computer 3", kind: "computer", level: "greedy", taken: true, ready: true, control: "computer", connected: true, away: false, avatar: nameAvatar("Computer 3", 2) },
  { seat: 3, name: "Cat", kind: "human", level: undefined, taken: true, ready: false, control: "computer", connected: true, away: true, avatar: 5 },
];

test("a sync builds the whole model from the room and the seat's view", () => {
  const model = synced();
  assert.deepEqual(model, {
    code: "K7RM2P",
    seat: 0,
    v: 10,
    room: room(),
    status: "playing",
    players: PLAYERS,
    rules: { name: "textbook", suit_order: "dchs", lead_card: "3d" },
    dealsTotal: 2,
    deal: {
      number: 1, leader: 0, turn: 0, counts: [3, 3, 3, 3], table: null, passes: 0, locked: [], winner: null,
      over: false, opening: "3d", actions: [], trick: [], played: [], hand: [0, 2, 51], legal: [[0], [0, 2]],
      canPass: false,
    },
    results: [],
    totals: [0, 0, 0, 0],
    matchOver: false,
    closed: "",
    chat: [],
    timer: null,
    nextDeal: null,
    rematch: null,
    host: 0,
    invite: null,
  });
});

test("names, titles and chat stay the text people typed, even when it looks like HTML", () => {
  const typed = "Tom &amp; Jerry <b>";
  const seats = room().seats.map((s) => (s.seat === 1 ? { ...s, name: typed } : s));
  const chat = [{ type: /** @type {const} */ ("chat"), v: 9, seat: 1, name: typed, text: "<img src=x onerror=alert(1)> &lt;3" }];
  const model = synced({ room: room({ title: "Fish &amp; <i>Chips</i>", seats }), chat });
  assert.equal(model.room?.title, "Fish &amp; <i>Chips</i>");
  assert.equal(model.players[1].name, "Tom &amp; Jerry <b>");
  assert.deepEqual(model.chat, [{ seat: 1, name: "Tom &amp; Jerry <b>", text: "<img src=x onerror=alert(1)> &lt;3", v: 9 }]);

  applyEvent(model, { type: "chat", v: 11, seat: null, name: "Kim &amp; co", text: "a < b && c > d" });
  assert.deepEqual(model.chat.at(-1), { seat: null, name: "Kim &amp; co", text: "a < b && c > d", v: 11 });

  const lobby = synced({ room: room({ status: "waiting", deal: 0 }), view: null });
  applyEvent(lobby, { type: "joined", v: 11, seat: 1, name: "&lt;Dan&gt;", avatar: null });
  assert.equal(lobby.players[1].name, "&lt;Dan&gt;");
  assert.equal(lobby.players[1].avatar, nameAvatar("&lt;Dan&gt;", 1));
  applyEvent(lobby, { type: "started", v: 12, players: 4, deals: 2, names: ["Ann", "&lt;Dan&gt;", "Computer 3", "Cat & Co"] });
  assert.deepEqual(lobby.players.map((p) => p.name), ["Ann", "&lt;Dan&gt;", "Computer 3", "Cat & Co"]);
});

// The first play made, no later lead is told to include the opening card (every later lead of
// ours said "lead with 3♦" for the whole deal).
test("a trick: our play leaves our hand, passes follow, and the trick's winning play stays in view", () => {
  const model = synced();
  const ours = action(11, 0, "3d", { counts: [2, 3, 3, 3], table: { seat: 0, cards: "3d", kind: "single" } });
  const played = { seat: 0, cards: [0], kind: "single", auto: false, reason: "", trickOver: false, by: "player" };
  assert.deepEqual(applyEvent(model, ours), [{ type: "action", action: played }]);
  assert.equal(model.v, 11);
  assert.deepEqual(model.deal, {
    number: 1, leader: 0, turn: 1, counts: [2, 3, 3, 3], table: { seat: 0, cards: [0], kind: "single" }, passes: 0,
    locked: [], winner: null, over: false, opening: null, actions: [played], trick: [played], played: [0],
    hand: [2, 51], legal: [], canPass: false,
  });

  const table = { seat: 0, cards: "3d", kind: "single" };
  applyEvent(model, action(12, 1, null, { table, counts: [2, 3, 3, 3], passes: 1 }));
  applyEvent(model, action(13, 2, null, { table, counts: [2, 3, 3, 3], passes: 2, auto: true, reason: "cannot beat", by: "auto" }));
  applyEvent(model, action(14, 3, null, { trick_over: true, turn: 0, counts: [2, 3, 3, 3], by: "computer" }));
  /** @param {number} seat @param {boolean} auto @param {string} reason @param {boolean} trickOver @param {"player" | "auto" | "computer"} by */
  const pass = (seat, auto, reason, trickOver, by) => ({ seat, cards: null, kind: null, auto, reason, trickOver, by });
  const passes = [pass(1, false, "", false, "player"), pass(2, true, "cannot beat", false, "auto"), pass(3, false, "", true, "computer")];
  assert.deepEqual(model.deal, {
    number: 1, leader: 0, turn: 0, counts: [2, 3, 3, 3], table: null, passes: 0, locked: [], winner: null,
    over: false, opening: null, actions: [played, ...passes], trick: [], played: [0], hand: [2, 51], legal: [],
    canPass: false, lastTrick: { seat: 0, cards: [0], actions: [played, ...passes] },
  });

  applyEvent(model, { type: "turn", v: 15, deal: 1, seat: 0, legal: ["3h", "2s"], can_pass: false });
  const deal = /** @type {import("../../src/bigtwo/web/js/state.js").Deal} */ (shown(model));
  assert.deepEqual([model.v, deal.turn, deal.legal, deal.canPass], [15, 0, [[2], [51]], false]);
});

test("events of a deal no longer shown change nothing but the number seen", () => {
  const model = synced();
  const before = structuredClone(model.deal);
  assert.deepEqual(applyEvent(model, action(20, 1, "4d", { deal: 7 })), []);
  assert.deepEqual(model.deal, before);
  assert.equal(model.v, 20);
  // An event type this client does not know is counted as seen, and that is all.
  const unknown = /** @type {import("../../src/bigtwo/web/js/protocol.js").TableEvent} */ (/** @type {unknown} */ ({ type: "fireworks", v: 21 }));
  assert.deepEqual(applyEvent(model, unknown), []);
  assert.equal(model.v, 21);
  assert.deepEqual(model.deal, before);
});

test("a busy server's step down reaches the view as an effect to tell the player", () => {
  const model = synced();
  const busy = { type: /** @type {const} */ ("busy"), v: 21, busy: true, level: "strong", usual: "expert", message: "…" };
  assert.deepEqual(applyEvent(model, busy), [{ type: "busy", busy: true, level: "strong", usual: "expert" }]);
  assert.equal(model.v, 21);
});

test("the end of a deal: every seat's cards left, the server's multipliers, the wait for the next deal", (t) => {
  t.mock.method(Date, "now", () => NOW);
  const model = synced({ view: view({ counts: [1, 7, 4, 10], hand: "2s", legal: ["2s"], opening: null }) });
  applyEvent(model, action(11, 0, "2s", { counts: [0, 7, 4, 10], winner: 0, turn: 1 }));
  assert.equal(model.deal?.over, true);
  const left = ["", "4d 5d 6d 7d 8d 9d Td", "3c 3s 4c 4s", "5c 5h 6c 6h 7c 7h 8c 8h 9c 9h"];
  const effects = applyEvent(model, {
    type: "deal_end", v: 12, deal: 1, winner: 0, counts: [0, 7, 4, 10], points: [21, -7, -4, -10], totals: [21, -7, -4, -10],
    left, multipliers: [1, 1, 1, 2], next_deal: { deal: 2, seconds: 8, waiting: [0] },
  });
  const result = {
    number: 1, winner: 0, counts: [0, 7, 4, 10], points: [21, -7, -4, -10],
    cardsLeft: [[], [4, 8, 12, 16, 20, 24, 28], [1, 3, 5, 7], [9, 10, 13, 14, 17, 18, 21, 22, 25, 26]],
    multipliers: [1, 1, 1, 2], waits: true,
  };
  assert.deepEqual(effects, [{ type: "deal_end", result }]);
  assert.deepEqual(model.results, [result]);
  assert.deepEqual(model.totals, [21, -7, -4, -10]);
  assert.deepEqual(model.nextDeal, { deal: 2, seconds: 8, waiting: [0], endsAt: NOW + 8000 });
  assert.equal(model.timer, null);

  applyEvent(model, { type: "next", v: 13, seat: 0, deal: 2 });
  assert.deepEqual(model.nextDeal?.waiting, []);

  // A reconnect's sync brings the same result and wait from the room: what we knew of them stays.
  applySync(model, sync({
    v: 13,
    room: room({ results: [{ deal: 1, winner: 0, points: [21, -7, -4, -10], counts: [0, 7, 4, 10], left, multipliers: [1, 1, 1, 2] }], totals: [21, -7, -4, -10], next_deal: { deal: 2, seconds: 8, waiting: [] } }),
    view: view({ counts: [0, 7, 4, 10], hand: "", legal: [], opening: null, winner: 0, turn: 1 }),
  }));
  assert.deepEqual(model.results, [result]);
  assert.equal(model.deal?.over, true);
  assert.deepEqual(model.nextDeal, { deal: 2, seconds: 8, waiting: [], endsAt: NOW + 8000 });

  const dealt = applyEvent(model, {
    type: "deal", v: 14, deal: 2, deals: 2, leader: 3, turn: 3, counts: [13, 13, 13, 13], table: null, passes: 0,
    locked: [], winner: null, actions: [],
  });
  assert.deepEqual(dealt, [{ type: "new_deal" }]);
  assert.equal(model.nextDeal, null);
  applyEvent(model, { type: "hand", v: 15, deal: 2, cards: "3d 4d 5d", opening: "3d" });
  assert.deepEqual(model.deal, {
    number: 2, leader: 3, turn: 3, counts: [13, 13, 13, 13], table: null, passes: 0, locked: [], winner: null,
    over: false, opening: "3d", actions: [], trick: [], played: [], hand: [0, 4, 8], legal: [], canPass: false,
  });
});

test("the end of the match, and a new game opened for the same people", () => {
  const model = synced();
  assert.deepEqual(applyEvent(model, { type: "match_end", v: 30, totals: [5, -1, -2, -2], ranking: [0, 1, 2, 3], deals: 2 }), [{ type: "match_end" }]);
  assert.deepEqual([model.totals, model.matchOver, model.status, model.closed], [[5, -1, -2, -2], true, "finished", "match over"]);
  const effects = applyEvent(model, { type: "rematch", v: 31, code: "ABC234", by: 1, seat: 0, token: "t0k" });
  assert.deepEqual(effects, [{ type: "rematch", code: "ABC234", by: 1, seat: 0, token: "t0k" }]);
  assert.deepEqual(model.rematch, { code: "ABC234", by: 1 });
});

test("the lobby: seats taken, ready, freed; players away, back, quitting; the table closing", () => {
  const seats = room().seats.map((s) => (s.seat === 1 ? { ...s, name: "", taken: false, connected: false } : s));
  const model = synced({ room: room({ status: "waiting", deal: 0, seats }), view: null });
  assert.equal(model.deal, null);
  applyEvent(model, { type: "joined", v: 11, seat: 1, name: "Dan", avatar: 6 });
  applyEvent(model, { type: "ready", v: 12, seat: 1, ready: true });
  // Seated, but not connected yet: "presence" says when the player's connection comes.
  assert.deepEqual(model.players[1], { ...PLAYERS[1], name: "Dan", ready: true, away: false, avatar: 6 });
  applyEvent(model, { type: "left", v: 13, seat: 1 });
  assert.deepEqual(model.players[1], { ...PLAYERS[1], name: "", taken: false, ready: false, away: false, avatar: 6 });

  applyEvent(model, { type: "presence", seat: 1, connected: true });
  assert.deepEqual([model.players[1].connected, model.players[1].away, model.v], [true, false, 13]);
  applyEvent(model, { type: "control", v: 14, seat: 0, control: "computer", reason: "away" });
  assert.deepEqual([model.players[0].control, model.players[0].away], ["computer", true]);
  applyEvent(model, { type: "control", v: 15, seat: 0, control: "player", reason: "returned" });
  assert.deepEqual([model.players[0].control, model.players[0].away], ["player", false]);
  applyEvent(model, { type: "quit", v: 16, seat: 3 });
  assert.deepEqual([model.players[3].control, model.players[3].away], ["quit", true]);
  assert.deepEqual(applyEvent(model, { type: "closed", v: 17, reason: "every player quit" }), [{ type: "closed" }]);
  assert.deepEqual([model.status, model.closed, model.matchOver, model.v], ["finished", "every player quit", false, 17]);
});

test("the chat keeps the newest 200 lines", () => {
  const model = synced();
  for (let v = 11; v <= 215; v++) applyEvent(model, { type: "chat", v, seat: 0, name: "Ann", text: `line ${v}` });
  assert.equal(model.chat.length, 200);
  assert.deepEqual([model.chat[0].text, model.chat.at(-1)?.text], ["line 16", "line 215"]);
});

test("the clock: a player's turn timer, or the wait before the next deal", () => {
  mock.method(Date, "now", () => NOW);
  try {
    /** @type {Model} */
    const model = synced({ clock: { seat: 0, ms: 21480 } });
    assert.deepEqual(model.timer, { seat: 0, endsAt: NOW + 21480, seconds: 30 });
    // Another seat's turn: a play by seat 0 ends our timer.
    applyEvent(model, action(11, 0, "3d", { turn: 1 }));
    assert.equal(model.timer, null);
    applyClock(model, { seat: null, ms: 7990, next_deal: 2 });
    assert.deepEqual(model.nextDeal, { deal: 2, seconds: null, waiting: [], endsAt: NOW + 7990 });
    applyClock(model, null);
    assert.equal(model.timer, null);
  } finally {
    mock.restoreAll();
  }
});

test("the host's commands: a seat given to a computer, a kicked player, a new host, new settings", () => {
  const lobby = synced({ room: room({ status: "waiting", deal: 0 }), view: null, seat: 1 });
  applyEvent(lobby, { type: "joined", v: 11, seat: 3, name: "Computer 4", avatar: null, kind: "computer", level: "strong" });
  assert.deepEqual(
    { kind: lobby.players[3].kind, level: lobby.players[3].level, ready: lobby.players[3].ready, control: lobby.players[3].control },
    { kind: "computer", level: "strong", ready: true, control: "computer" });
  assert.deepEqual(applyEvent(lobby, { type: "left", v: 12, seat: 1, reason: "kicked" }), [{ type: "removed", reason: "kicked" }]);
  assert.equal(lobby.players[1].taken, false);
  const waiting = synced({ room: room({ status: "waiting", deal: 0 }), view: null });
  assert.deepEqual(applyEvent(waiting, { type: "left", v: 11, seat: 1, reason: "never connected" }),
    [{ type: "freed", seat: 1, name: "Bill" }]);
  applyEvent(lobby, { type: "host", v: 14, seat: 3 });
  assert.equal(lobby.host, 3);
  applyEvent(lobby, { type: "settings", v: 15, turn_seconds: 10, away_seconds: null, spectators: false, spectator_chat: false, by: 3 });
  assert.deepEqual(
    [lobby.room?.options.turn_seconds, lobby.room?.options.away_seconds, lobby.room?.options.spectators], [10, null, false]);
  const empty = synced({ room: room({ status: "waiting", deal: 0, host: null }), view: null });
  applyEvent(empty, { type: "joined", v: 11, seat: 2, name: "Di", avatar: null });
  assert.equal(empty.host, 2); // the first to sit down hosts
  const playing = synced();
  assert.deepEqual(applyEvent(playing, { type: "quit", v: 11, seat: 0, reason: "computer" }), [{ type: "removed", reason: "computer" }]);
});

test("a resync keeps the whole last trick won, for Last trick", () => {
  const actions = [
    { seat: 0, cards: "3d", kind: "single", auto: false, reason: "", trick_over: false },
    { seat: 1, cards: "2s", kind: "single", auto: false, reason: "", trick_over: false },
    { seat: 2, cards: null, kind: null, auto: true, reason: "cannot beat", trick_over: false },
    { seat: 3, cards: null, kind: null, auto: false, reason: "", trick_over: false },
    { seat: 0, cards: null, kind: null, auto: false, reason: "", trick_over: true },
    { seat: 1, cards: "4d", kind: "single", auto: false, reason: "", trick_over: false },
  ];
  const model = synced({ view: view({ actions, turn: 2, opening: null, table: { seat: 1, cards: "4d", kind: "single" } }) });
  const last = model.deal?.lastTrick;
  assert.ok(last);
  assert.deepEqual([last.seat, last.cards], [1, [51]]);
  assert.deepEqual(last.actions.map((a) => [a.seat, a.cards, a.auto]), [[0, [0], false], [1, [51], false], [2, null, true], [3, null, false], [0, null, false]]);
  assert.deepEqual(model.deal?.trick.map((a) => a.seat), [1]);
});

test("back between deals, a seat the table still waits for gets the score sheet again", () => {
  const left = ["", "4d", "3c", "5c"];
  const results = [{ deal: 1, winner: 0, points: [3, -1, -1, -1], counts: [0, 1, 1, 1], left, multipliers: [1, 1, 1, 1] }];
  /** @param {number[]} waiting @param {number | null} [seat] */
  const back = (waiting, seat = 0) => {
    const model = emptyModel("K7RM2P", seat);
    applySync(model, sync({
      seat,
      room: room({ results, totals: [3, -1, -1, -1], next_deal: { deal: 2, seconds: 60, waiting } }),
      view: view({ counts: [0, 1, 1, 1], hand: "", legal: [], opening: null, winner: 0, turn: 1 }),
    }));
    return model;
  };
  const sheet = sheetAfterSync(back([0, 1]));
  assert.deepEqual([sheet?.number, sheet?.waits, sheet?.points], [1, true, [3, -1, -1, -1]]);
  assert.equal(sheetAfterSync(back([1])), null); // we said next already: read
  assert.equal(sheetAfterSync(back([0, 1], null)), null); // watching
  assert.equal(sheetAfterSync(synced()), null); // a deal in play
});
