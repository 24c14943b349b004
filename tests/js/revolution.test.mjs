// The browser's table model at a Big 2 RevolutioN table (src/bigtwo/web/js/state.js), fed the
// messages a revolution room sends (docs/protocol.md, "Revolution tables") in node: the
// Gathering, the deck and the counts, the Characters we may activate, a counter window that
// asks us and its clock, the draw after a pass, a face-down draw by another seat, the
// revolution marker, a resync in the middle of a window (and after our answer to it), and the
// end by exhaustion. Cards in the model are numbers: a normal card rank * 4 + suit (3♦ = 0 …
// 2♠ = 51), a Revolution card its twin + 52 (Q♠* = 91).
import { test, mock } from "node:test";
import assert from "node:assert/strict";

// Card names are worded through i18n, which marks the page's language on <html>: node has no page.
/** @type {any} */ (globalThis).document = { documentElement: { lang: "" } };
const { emptyModel, applySync, applyEvent, applyClock } = await import("../../src/bigtwo/web/js/state.js");
const { toCard, toCards, cardText, cardSymbol, rankOf, suitOf, isCharacter, functionOf, sortCards } = await import("../../src/bigtwo/web/js/cards.js");

/** @typedef {import("../../src/bigtwo/web/js/protocol.js").Room} Room */
/** @typedef {import("../../src/bigtwo/web/js/protocol.js").View} View */
/** @typedef {import("../../src/bigtwo/web/js/protocol.js").ActionEvent} ActionEvent */
/** @typedef {import("../../src/bigtwo/web/js/protocol.js").DealEvent} DealEvent */
/** @typedef {import("../../src/bigtwo/web/js/protocol.js").PublicState} PublicState */

const NOW = 1_700_000_000_000;
mock.method(Date, "now", () => NOW);

/** A four-seat revolution room: Ann (us, seat 0) and three computers. @returns {Room} */
function room() {
  const computer = (/** @type {number} */ seat) => ({
    seat, name: `Computer ${seat + 1}`, kind: /** @type {const} */ ("computer"), level: "greedy", taken: true, ready: true,
    control: /** @type {const} */ ("computer"), connected: true, avatar: null,
  });
  return {
    code: "REVO22", title: "", status: "playing", closed: "", preset: "revolution",
    rules: { name: "revolution", suit_order: "dchs", revolution: { functions: { J: "jump", Q: "counter", K: "command", A: "exchange", 2: "revolution" }, counter_seconds: 5 } },
    players: 4, deals: 1, deal: 1,
    options: {
      turn_seconds: null, away_seconds: null, computer_delay: 0, takeover_level: "greedy", autopass: true, autopass_five: false,
      public: true, spectators: true, spectator_chat: false, seeded: true, between_deals_seconds: null,
    },
    seats: [
      { seat: 0, name: "Ann", kind: "human", taken: true, ready: true, control: "player", connected: true, avatar: 3 },
      computer(1), computer(2), computer(3),
    ],
    totals: [0, 0, 0, 0], results: [], next_deal: null, rematch: null, host: 0, v: 3,
  };
}

/**
 * The public state of the hand after a move (docs/protocol.md): whose turn, the phase, the
 * counts, the Gathering and the deck.
 * @param {Partial<PublicState>} [changes]
 * @returns {PublicState & {to_act: number, phase: "act" | "counter" | "draw" | "over"}}
 */
function state(changes = {}) {
  return {
    turn: 0, to_act: 0, phase: "act", counts: [13, 13, 13, 12], revolution_counts: [0, 0, 0, 0],
    gathering: "6h* 7c* Ac* 2s*", deck_left: 48, reversed: false, table: { seat: 3, cards: "3d", kind: "single" },
    passes: 0, pending: null, winner: null, end: null, locked: [], ...changes,
  };
}

/** @param {number} v @param {number} seat @param {Partial<ActionEvent>} fields @returns {ActionEvent} */
function action(v, seat, fields) {
  return { type: "action", v, deal: 1, by: "player", seat, move: "play", cards: null, auto: false, trick_over: false, ...state(), ...fields };
}

/** Seat 0 at the start of the hand (a deal event, its hand, its first turn). */
function dealt() {
  const model = emptyModel("REVO22", 0);
  applySync(model, { type: "sync", v: 3, seat: 0, room: room(), view: null, chat: [], clock: null });
  /** @type {DealEvent} */
  const deal = { type: "deal", v: 4, deal: 1, deals: 1, leader: 3, actions: [], ...state({ turn: 3, to_act: 3, counts: [13, 13, 13, 13], table: null }) };
  applyEvent(model, deal);
  applyEvent(model, { type: "hand", v: 5, deal: 1, cards: "5d 5s 9h Ts Qs 2s 2s* Qd*", opening: null });
  return model;
}

test("Revolution cards are written with a star and stand beside their twins", () => {
  assert.equal(toCard("Qs*"), 91);
  assert.equal(toCard("Q♠*"), 91);
  assert.deepEqual(toCards("2s 2s* 3d*"), [51, 103, 52]);
  assert.equal(cardText(91), "Qs*");
  assert.equal(cardSymbol(103), "2♠*");
  assert.equal(rankOf(91), rankOf(39));
  assert.equal(suitOf(91), 3);
  assert.deepEqual([isCharacter(91), isCharacter(39), isCharacter(toCard("Tc*"))], [true, false, false]);
  assert.deepEqual([functionOf(toCard("Js*")), functionOf(91), functionOf(toCard("Kd*")), functionOf(toCard("Ah*")), functionOf(103)],
    ["jump", "counter", "command", "exchange", "revolution"]);
  assert.equal(functionOf(toCard("9s*")), null);
  assert.deepEqual(sortCards(toCards("2s* Qd* 5d 2s 9h")), toCards("5d 9h Qd* 2s 2s*"));
});

test("a revolution hand: the Gathering, the deck, the counts and our starred cards", () => {
  const model = dealt();
  const deal = model.deal;
  assert.ok(deal && deal.rev);
  assert.deepEqual(deal.rev, {
    phase: "act", toAct: 3, revolutionCounts: [0, 0, 0, 0], gathering: toCards("6h* 7c* Ac* 2s*"), deckLeft: 48,
    reversed: false, pending: null, end: null, discards: [], activate: [], counters: [], draws: [], prompt: null,
  });
  assert.deepEqual(deal.hand, toCards("5d 5s 9h Ts Qs 2s 2s* Qd*"));
  assert.deepEqual(deal.counts, [13, 13, 13, 13]);
});

test("our turn offers a Character; activating it discards it and opens a counter window", () => {
  const model = dealt();
  applyEvent(model, { type: "turn", v: 12, deal: 1, seat: 0, phase: "act", legal: ["5d", "2s*"], can_pass: true,
    activate: [{ card: "2s*", function: "revolution" }], counters: [], draws: [] });
  const deal = model.deal;
  assert.ok(deal?.rev);
  assert.deepEqual(deal.rev.activate, [{ card: 103, fn: "revolution" }]);
  assert.deepEqual(deal.legal, [[8], [103]]);
  assert.equal(deal.canPass, true);

  const effects = applyEvent(model, action(13, 0, {
    move: "activate", cards: "2s*", function: "revolution",
    ...state({ to_act: 1, phase: "counter", pending: { seat: 0, function: "revolution", card: "2s*", target: null } }),
  }));
  assert.deepEqual(effects, [{ type: "action", action: {
    seat: 0, cards: null, kind: null, auto: false, reason: "", trickOver: false, by: "player", move: "activate", shown: [103], fn: "revolution",
  } }]);
  assert.deepEqual(deal.rev.pending, { seat: 0, fn: "revolution", card: 103, target: null });
  assert.equal(deal.rev.phase, "counter");
  assert.equal(deal.rev.toAct, 1);
  assert.deepEqual(deal.rev.discards, [103]);
  assert.deepEqual(deal.rev.activate, [], "what we may do waits for the next turn event");
  assert.deepEqual(deal.played, [], "an activated card is not played");
  assert.equal(deal.rev.prompt, null, "the window does not ask the seat that opened it");

  // Every other seat lets it stand: the order of cards is reversed.
  applyEvent(model, action(14, 1, { by: "computer", move: "decline", ...state({ to_act: 2, phase: "counter", pending: { seat: 0, function: "revolution", card: "2s*", target: null } }) }));
  applyEvent(model, action(15, 3, { by: "computer", move: "decline", ...state({ reversed: true }) }));
  applyEvent(model, action(16, 0, { by: "auto", move: "effect", function: "revolution", ...state({ reversed: true }) }));
  assert.equal(deal.rev.reversed, true);
  assert.equal(deal.rev.pending, null);
  assert.equal(deal.rev.phase, "act");
});

test("a counter window asks us with its clock, takes our answer and closes", () => {
  const model = dealt();
  const pending = { seat: 3, function: "command", card: "Kd*", target: null };
  applyEvent(model, action(20, 3, { by: "computer", move: "activate", cards: "Kd*", function: "command",
    ...state({ turn: 3, to_act: 0, phase: "counter", pending }) }));
  const effects = applyEvent(model, { type: "counter", v: 21, deal: 1, seat: 3, function: "command", card: "Kd*", target: null, seconds: 5, counters: ["Qd*"] });
  assert.deepEqual(effects, [{ type: "counter", seat: 3 }]);
  const rev = model.deal?.rev;
  assert.ok(rev);
  assert.deepEqual(rev.prompt, { seat: 3, fn: "command", card: 92, target: null, counters: [88], seconds: 5, endsAt: NOW + 5000, answer: null });
  assert.deepEqual(rev.discards, [92]);
  // The server's clock for the window (a reconnect gets it in its welcome) moves its end.
  applyClock(model, { seat: null, ms: 3200, counter: true });
  assert.equal(rev.prompt?.endsAt, NOW + 3200);
  assert.equal(model.timer, null);
  assert.equal(model.nextDeal, null, "a counter clock is not the wait between deals");

  applyEvent(model, { type: "answered", v: 22, deal: 1, seat: 0, answer: "counter" });
  assert.equal(rev.prompt?.answer, "counter");
  // Our counter is applied: the window closes, the function is cancelled.
  applyEvent(model, action(23, 0, { move: "counter", cards: "Qd*", function: "command", ...state({ turn: 3, to_act: 3 }) }));
  assert.equal(rev.prompt, null);
  assert.equal(rev.pending, null);
  assert.deepEqual(rev.discards, [92, 88]);
});

test("the draw after a pass: what we may take, our card seen, another seat's face-down draw hidden", () => {
  const model = dealt();
  applyEvent(model, action(30, 0, { move: "pass", ...state({ phase: "draw", passes: 1 }) }));
  applyEvent(model, { type: "turn", v: 31, deal: 1, seat: 0, phase: "draw", legal: [], can_pass: false, activate: [], counters: [],
    draws: ["deck", "Ac*", "6h*", "7c*", "2s*"] });
  const deal = model.deal;
  assert.ok(deal?.rev);
  assert.equal(deal.rev.phase, "draw");
  assert.deepEqual(deal.rev.draws, ["deck", 97, 66, 69, 103]);
  assert.equal(deal.canPass, false);

  applyEvent(model, action(32, 0, { move: "draw", cards: "Qh*", source: "deck", ...state({ phase: "draw", revolution_counts: [1, 0, 0, 0], deck_left: 47 }) }));
  assert.deepEqual(deal.actions.at(-1), { seat: 0, cards: null, kind: null, auto: false, reason: "", trickOver: false, by: "player", move: "draw", shown: [90], source: "deck" });
  assert.deepEqual(deal.rev.draws, []);
  assert.deepEqual(deal.rev.revolutionCounts, [1, 0, 0, 0]);
  assert.equal(deal.rev.deckLeft, 47);

  applyEvent(model, action(33, 0, { move: "stop", ...state({ turn: 1, to_act: 1, revolution_counts: [1, 0, 0, 0], deck_left: 47 }) }));
  applyEvent(model, action(34, 1, { by: "computer", move: "pass", ...state({ turn: 1, to_act: 1, phase: "draw", revolution_counts: [1, 0, 0, 0], deck_left: 47 }) }));
  applyEvent(model, action(35, 1, { by: "computer", move: "draw", cards: null, source: "deck", ...state({ turn: 1, to_act: 1, phase: "draw", revolution_counts: [1, 1, 0, 0], deck_left: 46 }) }));
  const theirs = deal.actions.at(-1);
  assert.equal(theirs?.shown, null, "one was drawn: which, only its drawer knows");
  assert.equal(deal.turn, 1);
  // A card revealed into the Gathering is told by seat -1.
  applyEvent(model, action(36, -1, { by: "auto", move: "reveal", cards: "Jd*", ...state({ turn: 2, to_act: 2, gathering: "6h* 7c* Jd* 2s*", revolution_counts: [1, 1, 0, 0], deck_left: 45 }) }));
  assert.deepEqual(deal.rev.gathering, toCards("6h* 7c* Jd* 2s*"));
  assert.deepEqual(deal.played, []);
});

test("a resync in the middle of a counter window asks us again, with the Qs in our hand", () => {
  const model = emptyModel("REVO22", 0);
  /** @type {View} */
  const view = {
    deal: 1, seat: 0, leader: 3, opening: null, played: "3d", discards: "Jd*", hand: "5d 9h Qs Qd* Qc*",
    actions: [{ seat: 3, move: "play", cards: "3d", auto: false, trick_over: false }, { seat: 1, move: "activate", cards: "Jd*", function: "jump", auto: false, trick_over: false }],
    choices: { phase: "counter", legal: [], can_pass: false, activate: [], counters: [], draws: [] },
    ...state({ turn: 1, to_act: 2, phase: "counter", pending: { seat: 1, function: "jump", card: "Jd*", target: null } }),
  };
  applySync(model, { type: "sync", v: 40, seat: 0, room: room(), view, chat: [], clock: { seat: null, ms: 2500, counter: true } });
  const deal = model.deal;
  assert.ok(deal?.rev);
  assert.deepEqual(deal.played, [0]);
  assert.deepEqual(deal.rev.discards, [84]);
  assert.deepEqual(deal.rev.prompt, { seat: 1, fn: "jump", card: 84, target: null, counters: toCards("Qd* Qc*"), seconds: 0, endsAt: NOW + 2500, answer: null });
  assert.equal(deal.actions[1].move, "activate");
  assert.deepEqual(deal.actions[1].shown, [84]);
});

test("a resync after we answered the window shows our answer and does not ask again", () => {
  /** @param {"counter" | "decline" | null | undefined} answered @param {ReturnType<typeof emptyModel>} [model] */
  const synced = (answered, model = emptyModel("REVO22", 0)) => {
    /** @type {View} */
    const view = {
      deal: 1, seat: 0, leader: 3, opening: null, played: "3d", discards: "Jd*", hand: "5d 9h Qs Qd* Qc*",
      actions: [{ seat: 3, move: "play", cards: "3d", auto: false, trick_over: false }, { seat: 1, move: "activate", cards: "Jd*", function: "jump", auto: false, trick_over: false }],
      choices: { phase: "counter", legal: [], can_pass: false, activate: [], counters: [], draws: [] },
      ...state({ turn: 1, to_act: 2, phase: "counter", pending: { seat: 1, function: "jump", card: "Jd*", target: null } }),
    };
    if (answered !== undefined) view.answered = answered;
    applySync(model, { type: "sync", v: 40, seat: 0, room: room(), view, chat: [], clock: { seat: null, ms: 2500, counter: true } });
    return model;
  };
  // A reload: a fresh model, and the view says we declined (the engine asks seat 2 first).
  const declined = synced("decline");
  assert.equal(declined.deal?.rev?.prompt?.answer, "decline");
  assert.deepEqual(declined.deal?.rev?.prompt?.counters, toCards("Qd* Qc*"));
  assert.equal(synced("counter").deal?.rev?.prompt?.answer, "counter");
  // Not answered (null), or a server that does not say (no field): asked again.
  assert.equal(synced(null).deal?.rev?.prompt?.answer, null);
  assert.equal(synced(undefined).deal?.rev?.prompt?.answer, null);
  // A resync of the same model: the server's word wins over what the model kept.
  const model = synced(null);
  applyEvent(model, { type: "answered", v: 41, deal: 1, seat: 0, answer: "decline" });
  assert.equal(model.deal?.rev?.prompt?.answer, "decline");
  assert.equal(synced("decline", model).deal?.rev?.prompt?.answer, "decline");
  const kept = synced(undefined, synced("counter"));
  assert.equal(kept.deal?.rev?.prompt?.answer, "counter", "a view that does not say keeps what we knew");
  // The window closes (our answer applied in turn): the prompt goes, answer and all.
  applyEvent(model, action(42, 2, { move: "decline", ...state({ turn: 1, to_act: 3, phase: "counter", pending: { seat: 1, function: "jump", card: "Jd*", target: null } }) }));
  assert.equal(model.deal?.rev?.prompt?.answer, "decline");
  applyEvent(model, action(43, 3, { move: "decline", ...state({ turn: 1, to_act: 0, phase: "counter", pending: { seat: 1, function: "jump", card: "Jd*", target: null } }) }));
  applyEvent(model, action(44, 0, { move: "decline", ...state({ turn: 1, to_act: 1, phase: "act" }) }));
  assert.equal(model.deal?.rev?.prompt, null);
});

test("a hand ended by exhaustion: the end, the cards left with their stars", () => {
  const model = dealt();
  const effects = applyEvent(model, {
    type: "deal_end", v: 90, deal: 1, winner: 2, counts: [4, 5, 2, 2], points: [-4, -5, 0, 0], totals: [-4, -5, 0, 0],
    left: ["5d 9h Ts Qs 2s*", "3c 4c 5c 6c 7c", "8d 8h", "Ac Ad Kd*"], multipliers: [1, 1, 1, 1], next_deal: null, end: "exhaustion",
  });
  assert.equal(effects[0].type, "deal_end");
  assert.equal(model.deal?.over, true);
  assert.equal(model.deal?.rev?.end, "exhaustion");
  assert.equal(model.deal?.rev?.phase, "over");
  assert.deepEqual(model.results[0].cardsLeft[0], toCards("5d 9h Ts Qs 2s*"));
  assert.deepEqual(model.results[0].cardsLeft[3], [45, 44, 92]);
});

test("a house rule that moves a function moves its icon and its place on the reference card", async () => {
  const { setCharacterFunctions, ranksWith } = await import("../../src/bigtwo/web/js/cards.js");
  setCharacterFunctions({ J: "none", 2: "jump" });
  try {
    assert.equal(functionOf(toCard("Js*")), null);
    assert.equal(functionOf(toCard("2s*")), "jump");
    assert.deepEqual(ranksWith("jump"), ["2"]);
    assert.deepEqual(ranksWith("revolution"), []);
    assert.equal(functionOf(toCard("Qs*")), "counter", "the functions the rules leave alone stay");
  } finally {
    setCharacterFunctions(null);
  }
  assert.deepEqual(ranksWith("jump"), ["J"]);
});
