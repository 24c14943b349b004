// @ts-check
// The beliefs panel: what the cards played tell a seated player of each opponent's hand (the
// chance of a 2, an ace, a card beating the single on the table, a pair, a triple, a
// five-card play: each of the last three one that beats the table's play when that is of its
// kind, and its column says so), from that seat's public view alone. The server counts them
// (POST /api/rooms/{code}/beliefs, bigtwo.coach.beliefs); this panel asks again after each
// action while it is open. Offered to a player in a deal of either game (at a Big 2 RevolutioN
// table each opponent's Revolution cards are counted too, a starred card standing for its
// twin) while the host leaves the room's assists on: the host turning them off during the
// match hides the panel at once for everyone, and on again shows it to whoever had it open.
// Never to a spectator.
import { h, mount, shortened } from "./dom.js";
import { t } from "./i18n.js";
import { api, errorOf } from "./net.js";

/** @typedef {import("./state.js").Model} Model */

export const CHANCES = ["two", "ace", "beats_single", "pair", "triple", "five"];
/** The chances that are of plays beating the table's when it holds this many cards. @type {Record<string, number>} */
const BEATING = { pair: 2, triple: 3, five: 5 };

/** A column's words: "beats the pair" where the table's play is a pair, else "a pair". @param {string} chance @param {number} beating */
export function columnKey(chance, beating) {
  return beating && BEATING[chance] === beating ? `beliefs.beats_${chance}` : `beliefs.${chance}`;
}

/**
 * Whether the panel may be offered at this table now.
 * @param {Model} model @param {string | null} token
 */
export function beliefsOffered(model, token) {
  return model.seat !== null && !!token && model.status === "playing" && !!model.deal && !model.deal.over
    && model.room?.options.assists !== false;
}

/** A chance as the panel shows it: a whole percentage, "≈" before an estimate. @param {{p: number, exact: boolean} | null} c */
export function chanceText(c) {
  if (!c) return "–";
  return `${c.exact ? "" : "≈"}${Math.round(c.p * 100)}%`;
}

export class BeliefsPanel {
  /** @param {string} code */
  constructor(code) {
    this.code = code;
    this.open = false;
    /** @type {string} the position last asked about ("deal:actions") */
    this.asked = "";
    this.busy = false;
    this.el = h("aside", { class: "beliefs-panel", hidden: true, "aria-labelledby": "beliefs-title", "data-beliefs-panel": "" });
    /** @type {Model | null} */
    this.model = null;
    /** @type {string | null} */
    this.token = null;
  }

  /** The table's button that shows or hides the panel (null where it is not offered). @param {Model} model @param {string | null} token */
  button(model, token) {
    if (!beliefsOffered(model, token)) return null;
    return h("button", { class: "btn small", type: "button", "aria-expanded": String(this.open), "aria-controls": "beliefs-panel",
      "data-beliefs": "", onclick: () => this.toggle() }, shortened(t("beliefs.toggle"), t("beliefs.toggleShort")));
  }

  toggle() {
    this.open = !this.open;
    this.asked = "";
    if (this.model) this.update(this.model, this.token);
    document.querySelector("[data-beliefs]")?.setAttribute("aria-expanded", String(this.open));
  }

  /** Each render of the table: hidden, or asked again once the deal moved on. @param {Model} model @param {string | null} token */
  update(model, token) {
    this.model = model;
    this.token = token;
    const shown = this.open && beliefsOffered(model, token);
    this.el.hidden = !shown;
    this.el.id = "beliefs-panel";
    if (!shown || !model.deal) return;
    this.place();
    const where = `${model.deal.number}:${model.deal.actions.length}`;
    if (where === this.asked || this.busy) return;
    this.asked = where;
    if (!this.el.childElementCount) mount(this.el, this.head(), h("p", { class: "muted" }, t("beliefs.loading")));
    this.fetch(model, /** @type {string} */ (token));
  }

  /**
   * Where the panel goes on a phone (app.css): upright, a sheet under your hand, over its
   * buttons; sideways, a column right of your hand, over the right seat, under the bar. Either
   * way the play to beat and your hand stay in view, and the player closes it to act.
   */
  place() {
    const view = this.el.parentElement;
    const cards = [...(view?.querySelectorAll(".hand .hand-card") ?? [])].map((c) => c.getBoundingClientRect());
    const line = [...(view?.querySelectorAll(".me-head > *") ?? [])].map((c) => c.getBoundingClientRect()); // your name, turn, clock, cards left
    const bar = view?.querySelector(".infobar")?.getBoundingClientRect();
    if (cards.length) {
      this.el.style.setProperty("--beliefs-top", `${Math.ceil(Math.max(...cards.map((c) => c.bottom))) + 3}px`);
      this.el.style.setProperty("--beliefs-left", `${Math.ceil(Math.max(...[...cards, ...line].map((c) => c.right))) + 8}px`);
    }
    if (bar) this.el.style.setProperty("--beliefs-bar", `${Math.round(bar.bottom) + 4}px`);
  }

  head() {
    return h("div", { class: "beliefs-head" },
      h("h3", { id: "beliefs-title" }, t("beliefs.title")),
      h("button", { class: "btn small", type: "button", "aria-label": t("action.close"), "data-beliefs-close": "", onclick: () => this.toggle() }, "✕"));
  }

  /** @param {Model} model @param {string} token */
  async fetch(model, token) {
    this.busy = true;
    try {
      const data = await api.beliefs(this.code, token);
      this.draw(data, model);
    } catch (err) {
      mount(this.el, this.head(), h("p", { class: "error", role: "alert" }, errorOf(err).message));
    } finally {
      this.busy = false;
    }
    if (this.model) this.update(this.model, this.token); // the deal moved on meanwhile
  }

  /** @param {{game?: string, beating?: number, opponents: {seat: number, cards: number, starred?: number, chances: Record<string, {p: number, se: number, exact: boolean} | null>}[]}} data @param {Model} model */
  draw(data, model) {
    mount(this.el, this.head(),
      // One column an opponent and one row a chance: narrow enough for a phone or the side
      // column, where seven columns of a row an opponent were not.
      h("table", { class: "beliefs-table" },
        h("thead", {}, h("tr", {}, h("td", {}), data.opponents.map((o) => h("th", { scope: "col", dataset: { beliefsSeat: String(o.seat) } },
          h("span", { class: "beliefs-name" }, model.players[o.seat]?.name ?? t("seat.n", { n: o.seat + 1 })),
          h("span", { class: "beliefs-count" }, o.starred === undefined
            ? t("beliefs.cards", { n: o.cards }) : t("beliefs.starredCards", { n: o.cards, m: o.starred })))))),
        h("tbody", {}, CHANCES.map((c) => h("tr", {},
          h("th", { scope: "row", dataset: { column: c } }, t(columnKey(c, data.beating ?? 0))),
          data.opponents.map((o) => h("td", { class: "num", dataset: { chance: c, p: o.chances[c] ? String(o.chances[c]?.p) : undefined } }, chanceText(o.chances[c]))))))),
      h("p", { class: "muted small" }, t("beliefs.note")),
      data.game === "revolution" ? h("p", { class: "muted small", "data-beliefs-starred": "" }, t("beliefs.starred")) : null);
  }
}
