// @ts-check
// The players around the table: avatar, name, cards left, the turn indicator with its
// timer, and what each did last in the trick (passed, away, computer).
import { h } from "./dom.js";
import { avatar, emptyAvatar } from "./avatars.js";
import { cardElement } from "./cards.js";
import { t, tOr } from "./i18n.js";
import { turnSeat } from "./state.js";

/** @typedef {import("./state.js").Model} Model */
/** @typedef {import("./state.js").Player} Player */

/**
 * Where each other seat sits on screen, seen from `me`, in turn order.
 * @param {number} me
 * @param {number} players
 */
export function placesFrom(me, players) {
  const others = [];
  for (let k = 1; k < players; k++) others.push((me + k) % players);
  /** @type {Record<number, string[]>} */
  const layouts = { 1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"] };
  const names = layouts[others.length] || [];
  return others.map((seat, i) => ({ seat, place: names[i] }));
}

/**
 * A player's picture; a seat no one has taken, an empty ring.
 * @param {{seat: number, kind?: string, avatar?: number | null, taken?: boolean}} player
 * @param {number} size
 */
export function playerAvatar(player, size) {
  if (player.kind !== "computer" && player.taken === false) return emptyAvatar(size);
  return avatar({
    index: player.avatar ?? player.seat,
    computer: player.kind === "computer",
    seat: player.seat,
    size,
  });
}

/** Seconds left on a timer (null when there is none). @param {import("./state.js").Timer | null} timer @param {number} [now] */
export function secondsLeft(timer, now = Date.now()) {
  if (!timer || !timer.endsAt) return null;
  return Math.max(0, Math.ceil((timer.endsAt - now) / 1000));
}

/** @param {Model} model @param {number} seat */
export function timerBits(model, seat) {
  const timer = model.timer;
  if (!timer || timer.seat !== seat || turnSeat(model) !== seat) return [];
  const left = secondsLeft(timer);
  const share = timer.seconds ? Math.max(0, Math.min(1, (timer.endsAt - Date.now()) / (timer.seconds * 1000))) : 0;
  return [
    h("div", { class: "timer", "aria-label": t("seat.timer", { seconds: left }), dataset: { timerSeat: String(seat) } }, `${left}s`),
    h("div", { class: "timer-bar", "aria-hidden": "true" }, h("div", { style: { width: `${share * 100}%` } })),
  ];
}

/** What the seat did last in the trick in progress: "Pass", "Auto pass" or nothing. @param {Model} model @param {number} seat */
function lastMove(model, seat) {
  const trick = model.deal?.trick || [];
  for (let i = trick.length - 1; i >= 0; i--) {
    if (trick[i].seat !== seat) continue;
    if (trick[i].cards) return null;
    if (trick[i].move === "skip") return t("seat.jumped");
    if (trick[i].move && trick[i].move !== "pass") continue; // revolution: a function, an answer or a draw
    return trick[i].auto ? t("seat.autopassed") : t("seat.passed");
  }
  return null;
}

/** @param {Model} model @param {number} seat @param {string} place */
export function seatPanel(model, seat, place) {
  const player = model.players[seat] || { seat, name: t("seat.empty"), kind: "human" };
  const count = model.deal?.counts[seat] ?? 0;
  const turn = turnSeat(model) === seat;
  const moved = lastMove(model, seat);
  const revCount = model.deal?.rev?.revolutionCounts[seat];
  const label = [
    player.name || t("seat.empty"),
    player.kind === "computer" ? t("seat.computer") : "",
    model.deal ? t("seat.cardsLeft", { count }) : "",
    revCount !== undefined ? t("rev.count", { count: revCount }) : "",
    turn ? t("seat.theirTurn") : "",
  ].filter(Boolean).join(", ");
  const backs = h("div", { class: "backs", "aria-hidden": "true" },
    Array.from({ length: Math.min(count, 13) }, () => cardElement(null)));
  return h("section", {
    class: `seat seat-${place} ${turn ? "turn" : ""} ${player.away ? "away" : ""}`,
    "aria-label": label,
    dataset: { seat: String(seat), place },
  },
    h("div", { class: "avatar-wrap" }, playerAvatar(player, 54),
      model.deal ? h("span", { class: `count ${count > 0 && count <= 2 ? "low" : ""}`, "aria-hidden": "true", title: t("seat.cardsLeftShort") }, String(count)) : null,
      revCount !== undefined ? h("span", { class: "rev-count", "aria-hidden": "true", title: t("rev.count", { count: revCount }), dataset: { revCount: String(revCount) } }, `★${revCount}`) : null),
    h("div", { class: "who" },
      h("div", { class: "name" }, player.name || t("seat.empty")),
      h("div", { class: "meta" },
        player.kind === "computer" ? h("span", { class: "badge" }, tOr(`level.${player.level}`, player.level ?? "")) : null,
        !player.name && player.kind !== "computer" ? h("span", { class: "badge" }, t("seat.waiting")) : null,
        player.away ? h("span", { class: "badge" }, t("seat.away")) : null),
      timerBits(model, seat),
      moved ? h("div", { class: "bubble" }, moved) : null),
    model.deal ? backs : null);
}
