// @ts-check
// The score sheet after each deal (everyone's cards left face up, DOUBLE! and TRIPLE! as the
// server scored them, WIN!, points, totals) and the final scores at the end of the game, as
// the Palm score form shows them.
import { h } from "./dom.js";
import { cardRow, sortCards } from "./cards.js";
import { playerAvatar } from "./seats.js";
import { t } from "./i18n.js";

/** @typedef {import("./state.js").Model} Model */
/** @typedef {import("./state.js").Result} Result */

/** @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : String(n));
/** @param {number} n */
const tone = (n) => (n > 0 ? "pos" : n < 0 ? "neg" : "");

/** @param {number} multiplier */
function bandLabel(multiplier) {
  if (multiplier >= 3) return t("score.triple");
  if (multiplier === 2) return t("score.double");
  return "";
}

/** The table for one finished deal. @param {Model} model @param {Result} result */
export function dealTable(model, result) {
  const rows = model.players.map((player, seat) => {
    const left = result.cardsLeft[seat];
    const count = result.counts[seat];
    const won = result.winner === seat;
    const multiplier = result.multipliers[seat];
    const band = bandLabel(multiplier);
    return h("tr", { class: won ? "winner" : "", dataset: { seat: String(seat) } },
      h("td", {}, h("div", { class: "row" }, playerAvatar(player, 28), h("span", {}, player.name))),
      h("td", { class: "num", dataset: { cardsLeft: String(count) } }, String(count)),
      // Face up: the deal is over.
      h("td", { class: "cards-col", dataset: { left: left.length ? left.join(" ") : undefined } },
        left.length ? cardRow(sortCards(left, "suit"), "tiny") : null),
      h("td", { dataset: { multiplier: String(multiplier) } },
        won ? h("span", { class: "win" }, t("score.win")) : band ? h("span", { class: `double ${multiplier >= 3 ? "triple" : ""}` }, band) : null),
      h("td", { class: `num ${tone(result.points[seat])}`, dataset: { points: String(result.points[seat]) } }, signed(result.points[seat])),
      h("td", { class: "num", dataset: { total: String(model.totals[seat]) } }, String(model.totals[seat])));
  });
  return h("table", { class: "score-table", "aria-label": t("score.dealN", { n: result.number }) },
    h("thead", {}, h("tr", {},
      h("th", {}, t("score.player")), h("th", { class: "num" }, t("score.left")), h("th", { class: "cards-col" }, t("score.cards")),
      h("th", {}, ""), h("th", { class: "num" }, t("score.points")), h("th", { class: "num" }, t("score.total")))),
    h("tbody", {}, rows));
}

/** Every deal so far, one row each, with the running totals. @param {Model} model */
export function allDealsTable(model) {
  return h("table", { class: "score-table", "aria-label": t("score.allDeals") },
    h("thead", {}, h("tr", {}, h("th", {}, t("score.deal")), model.players.map((p) => h("th", { class: "num" }, p.name)))),
    h("tbody", {},
      model.results.map((r) => h("tr", {},
        h("td", {}, String(r.number)),
        model.players.map((_, s) => h("td", { class: `num ${tone(r.points[s])}` },
          `${signed(r.points[s])}${r.winner === s ? " ★" : ""}`)))),
      h("tr", {}, h("th", {}, t("score.total")), model.players.map((_, s) => h("th", { class: "num" }, String(model.totals[s]))))));
}

/** The final standings: highest total first. @param {Model} model */
export function finalTable(model) {
  const order = model.players.map((p, s) => ({ p, s, total: model.totals[s] })).sort((a, b) => b.total - a.total);
  return h("table", { class: "score-table final", "aria-label": t("score.final") },
    h("tbody", {}, order.map(({ p, s, total }, i) => h("tr", { class: i === 0 ? "winner" : "", dataset: { seat: String(s) } },
      h("td", { class: "final-rank" }, String(i + 1)),
      h("td", {}, h("div", { class: "row" }, playerAvatar(p, 32), h("strong", {}, p.name))),
      h("td", { class: `num final-rank ${tone(total)}` }, String(total))))));
}

/**
 * When the next deal starts, in words: at your "Next deal" (alone with computers), or when
 * every person at the table has pressed it, at the latest after the table's pause.
 * @param {Model} model
 */
function nextRule(model) {
  const people = model.players.filter((p) => p.kind === "human").length;
  const seconds = model.nextDeal?.seconds;
  if (people <= 1) return t("score.nextWhenYou");
  return seconds ? t("score.nextWhenAllOrCap", { n: seconds }) : t("score.nextWhenAll");
}

/**
 * Twice a second while a score sheet waits: the countdown to the next deal and whom the
 * table still waits for.
 * @param {Model} model
 */
export function tickScoreSheet(model) {
  const next = model.nextDeal;
  const left = next?.endsAt ? Math.max(0, Math.ceil((next.endsAt - Date.now()) / 1000)) : null;
  const others = (next?.waiting || []).filter((s) => s !== model.seat).map((s) => model.players[s]?.name || t("seat.n", { n: s + 1 }));
  const parts = [left === null ? "" : t("score.nextIn", { n: left }), others.length ? t("table.nextDealWaiting", { names: others.join(", ") }) : ""];
  const text = parts.filter(Boolean).join(" — ");
  for (const el of document.querySelectorAll("[data-next-countdown]")) if (el.textContent !== text) el.textContent = text;
}

/**
 * What the score sheet's buttons do; a missing one is not offered.
 * @typedef {object} SheetActions
 * @property {() => void} [next]
 * @property {(() => void) | null} [restart]
 * @property {() => void} [leave]
 * @property {() => void} [replay]
 * @property {() => void} [record]
 * @property {() => void} [review] the coach's review of this deal (review.js)
 */

/**
 * Open the score sheet as a dialog. actions: {next, restart, leave} callbacks; `next` is
 * offered while deals remain, restart/leave once the game is over.
 * @param {Model} model
 * @param {Result} result
 * @param {SheetActions} actions
 */
export function showScoreSheet(model, result, actions) {
  const over = model.matchOver;
  // "waits": the table waits for us between deals (our "next" deals again sooner).
  const waits = !over && !!model.nextDeal && model.nextDeal.deal === result.number + 1;
  const dialog = h("dialog", { class: "score-sheet", "aria-labelledby": "score-title",
    dataset: { deal: String(result.number), final: over ? "1" : undefined, waits: waits ? "1" : undefined } });
  const close = () => dialog.close();
  const head = h("div", { class: "dialog-head" },
    h("h2", { id: "score-title" }, over ? t("score.finalTitle") : t("score.dealOf", { n: result.number, of: model.dealsTotal || "?" })));
  const body = h("div", { class: "dialog-body" },
    over ? [h("h3", {}, t("score.final")), finalTable(model), h("h3", {}, t("score.lastDeal", { n: result.number }))] : null,
    dealTable(model, result),
    model.results.length > 1 ? h("details", { open: over ? true : undefined }, h("summary", {}, t("score.allDeals")), allDealsTable(model)) : null);
  const { restart, replay, record, review } = actions;
  const reviewButton = review ? h("button", { class: "btn", type: "button", "data-review-deal": "", onclick: () => review() }, t("review.open")) : null;
  const buttons = over
    ? [
        restart ? h("button", { class: "btn primary", type: "button", onclick: () => { close(); restart(); } }, t("action.newGame")) : null,
        replay ? h("button", { class: "btn", type: "button", "data-replay-match": "", onclick: () => { close(); replay(); } }, t("action.replay")) : null,
        record ? h("button", { class: "btn", type: "button", "data-download-record": "", onclick: () => record() }, t("action.downloadRecord")) : null,
        reviewButton,
        h("button", { class: "btn", type: "button", onclick: () => { close(); actions.leave?.(); } }, t("action.leave")),
        h("button", { class: "btn", type: "button", onclick: close }, t("action.close")),
      ]
    : [
        waits ? h("span", { class: "muted", "data-next-rule": "" }, nextRule(model)) : null,
        waits ? h("span", { class: "muted", "data-next-countdown": "", "aria-live": "off" }) : null,
        reviewButton,
        h("button", { class: "btn primary", type: "button", "data-next-deal": "", onclick: close }, t("action.nextDeal")),
      ];
  dialog.append(head, body, h("div", { class: "dialog-foot" }, buttons));
  dialog.addEventListener("close", () => {
    dialog.remove();
    // Between deals a sheet closed in any way (Next deal, Esc) has been read: say next, so
    // that a table without a timer, which waits for everyone's, does not wait for ever.
    if (!over) actions.next?.();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
