// @ts-check
// The cards-played tracker (the Palm "monitor which cards are played"): a rank by suit grid
// where played cards are struck out and your own are marked.
import { h } from "./dom.js";
import { RANK_LABELS, SUITS, cardName, suitIcon } from "./cards.js";
import { t } from "./i18n.js";

/** @param {import("./state.js").Model} model */
export function trackerView(model) {
  const all = model.deal?.played || [];
  // A Revolution card (52 …) is marked on its normal twin's cell, with a star.
  const played = new Set(all.filter((c) => c < 52));
  const twins = new Set(all.filter((c) => c >= 52).map((c) => c - 52));
  const mine = new Set((model.deal?.hand || []).map((c) => c % 52));
  const suitRows = [3, 2, 1, 0].map((suit) =>
    h("tr", {},
      h("th", { scope: "row", "aria-label": t(`suit.${SUITS[suit]}`) }, suitIcon(suit, 14)),
      RANK_LABELS.map((label, rank) => {
        const card = rank * 4 + suit;
        const state = played.has(card) ? "played" : mine.has(card) ? "mine" : "out";
        const twin = twins.has(card); // its Revolution twin played: a star after the rank
        return h("td", {
          class: `${state}${twin ? " twin" : ""}`, "aria-label": `${cardName(card)}: ${t(`tracker.${state}`)}${twin ? `, ${t("tracker.twin")}` : ""}`,
          title: twin ? t("tracker.twin") : undefined, dataset: { card: String(card) },
        }, label);
      })));
  const left = 52 - played.size;
  return h("div", { class: "tracker-wrap" },
    h("table", { class: "tracker", "aria-label": t("tracker.title") }, h("tbody", {}, suitRows)),
    h("p", { class: "muted" }, t("tracker.summary", { played: played.size, left })));
}
