// The coach's choices in the browser, in node: when the beliefs panel and "Review this deal"
// are offered (beliefs.js, review.js): never to a spectator of a match in play, never where
// the host turned the assists off, and how a chance is shown.
import { test } from "node:test";
import assert from "node:assert/strict";

/** @type {any} */ (globalThis).document = { documentElement: { lang: "" } };
const { applyEvent, emptyModel } = await import("../../src/bigtwo/web/js/state.js");
const { beliefsOffered, chanceText, columnKey } = await import("../../src/bigtwo/web/js/beliefs.js");
const en = /** @type {Record<string, string>} */ ((await import("../../src/bigtwo/web/js/strings-en.js")).STRINGS_EN);
const zh = /** @type {Record<string, string>} */ ((await import("../../src/bigtwo/web/js/strings-zh.js")).STRINGS_ZH);
const { reviewAction } = await import("../../src/bigtwo/web/js/review.js");

/**
 * A table in play: seat 0's view (seat null: a spectator's), assists as given.
 * @param {number | null} seat @param {boolean} [assists] @param {string} [preset]
 */
function table(seat, assists = true, preset = "palm") {
  const model = emptyModel("ABC234", seat);
  model.status = "playing";
  model.room = /** @type {any} */ ({ preset, options: { assists } });
  model.deal = /** @type {any} */ ({ number: 1, over: false, actions: [] });
  model.players = /** @type {any} */ ([{ name: "Ann" }, { name: "Bill" }, { name: "Cat" }, { name: "Dan" }]);
  return model;
}

test("the beliefs panel is a seated player's, in a deal of either game, with assists on", () => {
  assert.equal(beliefsOffered(table(0), "token"), true);
  assert.equal(beliefsOffered(table(null), "watch-token"), false);
  assert.equal(beliefsOffered(table(0), null), false);
  assert.equal(beliefsOffered(table(0, false), "token"), false);
  assert.equal(beliefsOffered(table(0, true, "revolution"), "token"), true);
  assert.equal(beliefsOffered(table(null, true, "revolution"), "watch-token"), false);
  const between = table(0);
  /** @type {any} */ (between.deal).over = true;
  assert.equal(beliefsOffered(between, "token"), false);
});

test("the host's settings event turns the panel off and on for everyone at once", () => {
  const model = table(0);
  for (const assists of [false, true]) {
    applyEvent(model, /** @type {any} */ ({ type: "settings", v: 9, turn_seconds: null, away_seconds: null,
      spectators: true, spectator_chat: false, assists, by: 0 }));
    assert.equal(model.room?.options.assists, assists);
    assert.equal(beliefsOffered(model, "token"), assists);
  }
});

test("a chance is a whole percentage, an estimate marked", () => {
  assert.equal(chanceText({ p: 0.8182, exact: true }), "82%");
  assert.equal(chanceText({ p: 0.254, exact: false }), "≈25%");
  assert.equal(chanceText(null), "–");
});

test("a column of plays beating the table's says so, in both languages", () => {
  assert.equal(columnKey("pair", 2), "beliefs.beats_pair");
  assert.equal(columnKey("triple", 3), "beliefs.beats_triple");
  assert.equal(columnKey("five", 5), "beliefs.beats_five");
  assert.equal(columnKey("pair", 3), "beliefs.pair");
  assert.equal(columnKey("pair", 0), "beliefs.pair");
  assert.equal(columnKey("beats_single", 1), "beliefs.beats_single");
  for (const key of ["beliefs.beats_pair", "beliefs.beats_triple", "beliefs.beats_five"]) {
    assert.ok(en[key] && zh[key], key);
  }
});

test("a deal's review is offered to its player during the match, to anyone after", () => {
  assert.equal(typeof reviewAction(table(0), "ABC234", "token", 1), "function");
  assert.equal(reviewAction(table(null), "ABC234", "watch-token", 1), undefined);
  assert.equal(reviewAction(table(0, false), "ABC234", "token", 1), undefined);
  const over = table(null, false);
  over.matchOver = true;
  assert.equal(typeof reviewAction(over, "ABC234", "watch-token", 1), "function");
});
