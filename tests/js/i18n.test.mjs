// The browser's wording of the server's refusals (src/bigtwo/web/js/i18n.js), in node: each
// code and its params in the page's language, the narrower `reason` first, and the server's
// English words only for a code the client does not know.
import { test } from "node:test";
import assert from "node:assert/strict";

// setLang marks the page's language on <html>; node has no page, so a stand-in takes it.
/** @type {any} */ (globalThis).document = { documentElement: { lang: "" } };
const { refusalWords, setLang } = await import("../../src/bigtwo/web/js/i18n.js");

const beat = { reason: "does_not_beat", cards: "7♦" };

test("a refused play is worded in Chinese with its cards", () => {
  setLang("zh-Hant");
  assert.equal(refusalWords("illegal", beat, "That does not beat 7♦: it needs a higher single"), "這手牌大不過 7♦");
  assert.equal(refusalWords("table_full", { code: "ABC234", seats: 4 }, "Table ABC234 is full"), "牌桌 ABC234 已滿：4 個座位都有人了");
});

test("in English the client's own words, seats counted from 1", () => {
  setLang("en");
  assert.equal(refusalWords("illegal", beat, "ignored"), "That does not beat 7♦");
  assert.equal(refusalWords("no_seat", { seat: 0 }, "There is no seat 0"), "Nobody sits at seat 1");
});

test("a reason the client does not know falls back to the code's words", () => {
  setLang("zh-Hant");
  assert.equal(refusalWords("illegal", { reason: "new_rule" }, "Some new rule"), "不能這樣出牌");
});

test("only a code the client does not know shows the server's English", () => {
  setLang("zh-Hant");
  assert.equal(refusalWords("brand_new", {}, "Something new went wrong"), "Something new went wrong");
});

test("plain words: one of something, and sorting said in full", async () => {
  const { t } = await import("../../src/bigtwo/web/js/i18n.js");
  setLang("en");
  assert.equal(t("lobby.dealsN", { n: 1 }), "1 deal");
  assert.equal(t("lobby.dealsN", { n: 4 }), "4 deals");
  assert.equal(t("seat.cardsLeft", { count: 1 }), "1 card left");
  assert.equal(t("seat.timer", { seconds: 1 }), "1 second left");
  assert.equal(t("action.sortRank"), "Sort by rank");
  assert.equal(t("action.sortSuit"), "Sort by suit");
  setLang("zh-Hant");
  assert.equal(t("lobby.dealsN", { n: 1 }), "1 局");
  assert.equal(t("action.sortSuit"), "按花色");
});

test("a refusal of Big 2 RevolutioN is worded in both languages with its card", () => {
  const counter = { reason: "only_q_counters", card: "Q♦" };
  setLang("zh-Hant");
  assert.equal(refusalWords("illegal", counter, "Only a Revolution Q can counter"), "只有革命 Q 可以反制：Q♦ 不行");
  setLang("en");
  assert.equal(refusalWords("illegal", counter, "ignored"), "Only a Revolution Q can counter: Q♦ cannot");
  assert.equal(refusalWords("illegal", { reason: "functions_used", limit: 1 }, "ignored"), "You have used this turn's functions (at most 1)");
});

test("a play of another size than the one to beat says how many cards it takes", () => {
  const five = { reason: "does_not_beat", cards: "3♦ 4♦ 5♦ 6♦ 2♦" };
  setLang("en");
  assert.equal(refusalWords("illegal", { ...five, played: 1 }, "ignored"), "That does not beat 3♦ 4♦ 5♦ 6♦ 2♦: it takes a play of 5 cards");
  assert.equal(refusalWords("illegal", { ...beat, played: 2 }, "ignored"), "That does not beat 7♦: it takes a single card");
  // The same size: only what it does not beat.
  assert.equal(refusalWords("illegal", { ...five, played: 5 }, "ignored"), "That does not beat 3♦ 4♦ 5♦ 6♦ 2♦");
  setLang("zh-Hant");
  assert.equal(refusalWords("illegal", { ...five, played: 1 }, "ignored"), "這手牌大不過 3♦ 4♦ 5♦ 6♦ 2♦：要出 5 張牌");
});
