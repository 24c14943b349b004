// @ts-check
// The coach's review of a finished deal (POST /api/rooms/{code}/review): the server judges
// each decision of one seat in its worker pool, so the first answers say "pending" and this
// view asks again until the review is done. Then it shows the deal's accuracy, its three
// costliest decisions first, a small plot of the points lost per decision, and the list of
// decisions with their marks; choosing one shows that seat's hand and the table then, the
// move played and the better one. Opened from the score sheet and the replay viewer.
import { h, svg, mount } from "./dom.js";
import { cardRow, cardsSymbols, sortCards, toCards } from "./cards.js";
import { t } from "./i18n.js";
import { api, errorOf } from "./net.js";

const POLL_MS = 600;
const BAR = 14; // the plot's width per decision
const PLOT_HEIGHT = 72;

/**
 * One decision as the server reviewed it (docs/protocol.md, "The coach").
 * @typedef {object} Decision
 * @property {number} step
 * @property {"forced" | "fine" | "inaccuracy" | "mistake" | "blunder"} mark
 * @property {string} move
 * @property {string | null} move_cards
 * @property {number} lost
 * @property {string} [better]
 * @property {string | null} [better_cards]
 * @property {number} [loss]
 * @property {number} [se]
 * @property {string} hand
 * @property {number[]} counts
 * @property {string | null} table
 * @property {number | null} table_seat
 */
/**
 * @typedef {object} DealReview
 * @property {number} deal
 * @property {number} seat
 * @property {number} scale
 * @property {number | null} accuracy
 * @property {Decision[]} decisions
 * @property {number[]} costliest
 */

/**
 * Open the review of ``seat`` in ``deal`` of the table ``code`` as a dialog (over the score
 * sheet or the replay). ``token``: the seat's, needed while the match is being played.
 * @param {{code: string, deal: number, seat: number, token?: string | null, names: string[]}} what
 */
export function openReview({ code, deal, seat, token = null, names }) {
  const name = names[seat] || t("seat.n", { n: seat + 1 });
  const status = h("p", { class: "muted", role: "status", "data-review-status": "" }, t("review.starting"));
  const body = h("div", { class: "dialog-body review-body" }, status);
  const dialog = h("dialog", { class: "review-dialog", "aria-labelledby": "review-title", "data-review": "", dataset: { deal: String(deal), seat: String(seat) } },
    h("div", { class: "dialog-head" }, h("h2", { id: "review-title" }, t("review.title", { n: deal, name }))),
    body,
    h("div", { class: "dialog-foot" }, h("button", { class: "btn", type: "button", "data-review-close": "", onclick: () => dialog.close() }, t("action.close"))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  /** @type {{deal: number, seat?: number, token?: string}} */
  const asked = token ? { deal, seat, token } : { deal, seat };
  const poll = async () => {
    if (!dialog.isConnected) return;
    try {
      const answer = await api.review(code, asked);
      if (answer.status === "done") {
        mount(body, new ReviewView(/** @type {DealReview} */ (answer.review), names).el);
        return;
      }
      status.textContent = answer.total ? t("review.pending", { done: answer.done, total: answer.total }) : t("review.starting");
      setTimeout(poll, POLL_MS);
    } catch (err) {
      mount(body, h("p", { class: "error", role: "alert", "data-review-error": "" }, t("review.failed", { reason: errorOf(err).message })));
    }
  };
  poll();
  return dialog;
}

/**
 * What "Review this deal" does at a table, or undefined where it is not offered: during the
 * match to a player of their own seat only, where the host left assists on; once the match
 * is over to anyone (the record is public then).
 * @param {import("./state.js").Model} model @param {string} code @param {string | null} token @param {number} deal
 * @returns {(() => void) | undefined}
 */
export function reviewAction(model, code, token, deal) {
  const names = model.players.map((p) => p.name);
  // A spectator's token holds no seat: once the match is over none is needed.
  if (model.matchOver) return () => openReview({ code, deal, seat: model.seat ?? 0, token: model.seat === null ? null : token, names });
  if (model.seat === null || !token || model.room?.options.assists === false) return undefined;
  const seat = model.seat;
  return () => openReview({ code, deal, seat, token, names });
}

/** The percentage shown for a share (0 … 1). @param {number} share */
const percent = (share) => String(Math.round(share * 100));

/** A move in words of the page: its cards, or "pass". @param {string} words @param {string | null | undefined} cards */
const moveText = (words, cards) => (cards ? cardsSymbols(toCards(cards)) : words === "pass" ? t("review.pass") : words);

/** A review shown: the summary, the plot, the decisions and the one chosen. */
export class ReviewView {
  /** @param {DealReview} review @param {string[]} names */
  constructor(review, names) {
    this.review = review;
    this.names = names;
    const first = review.costliest[0] ?? review.decisions.findIndex((d) => d.mark !== "forced");
    this.chosen = Math.max(0, first);
    this.list = h("ol", { class: "review-moves", "aria-label": t("review.moves") });
    this.detail = h("section", { class: "review-detail", "aria-live": "polite", "data-review-detail": "" });
    this.plotEl = h("div", { class: "review-plot-box" });
    this.el = h("div", { class: "review" },
      h("p", { class: "review-accuracy", "data-review-accuracy": review.accuracy ?? "" },
        review.accuracy === null ? t("review.noAccuracy") : t("review.accuracy", { pct: percent(review.accuracy) })),
      this.costliest(),
      this.plotEl,
      h("div", { class: "review-columns" }, this.list, this.detail));
    this.render();
  }

  /** The three costliest decisions, first, each a way to it. */
  costliest() {
    const { decisions, costliest } = this.review;
    return h("section", { class: "review-costliest", "data-review-costliest": "" },
      h("h3", {}, t("review.costliest")),
      costliest.length
        ? h("ol", {}, costliest.map((i) => h("li", {},
            h("button", { class: "btn small", type: "button", dataset: { reviewCostly: String(i) }, onclick: () => this.choose(i) },
              `${t("review.decisionN", { n: i + 1 })} · ${t(`mark.${decisions[i].mark}`)} · −${decisions[i].lost.toFixed(1)}`))))
        : h("p", { class: "muted" }, t("review.noneCostly")));
  }

  /** @param {number} index */
  choose(index) {
    this.chosen = index;
    this.render();
    /** @type {HTMLElement | null} */ (this.list.querySelector(`[data-review-step="${index}"]`))?.focus();
  }

  render() {
    const { decisions, scale } = this.review;
    mount(this.plotEl, plot(decisions, scale, this.chosen));
    mount(this.list, decisions.map((d, i) => h("li", { class: `mark-${d.mark}` },
      h("button", { type: "button", class: "review-move", "aria-pressed": String(i === this.chosen), dataset: { reviewStep: String(i), mark: d.mark },
        onclick: () => this.choose(i) },
        h("span", { class: "review-n" }, `${i + 1}.`), " ", moveText(d.move, d.move_cards), " ",
        h("span", { class: `review-mark mark-${d.mark}` }, t(`mark.${d.mark}`))))));
    const d = decisions[this.chosen];
    if (!d) {
      mount(this.detail);
      return;
    }
    /** @param {number} s */
    const name = (s) => this.names[s] || t("seat.n", { n: s + 1 });
    mount(this.detail,
      h("h3", {}, t("review.decisionN", { n: this.chosen + 1 }), " ", h("span", { class: `review-mark mark-${d.mark}` }, t(`mark.${d.mark}`))),
      h("p", { "data-review-played": "" }, t("review.played", { move: moveText(d.move, d.move_cards) })),
      d.better !== undefined ? h("p", { "data-review-better": "" }, t("review.better", { move: moveText(d.better, d.better_cards) })) : null,
      d.loss !== undefined ? h("p", {}, t("review.lost", { lost: (d.loss ?? 0).toFixed(2), se: (d.se ?? 0).toFixed(2) })) : null,
      h("h4", {}, t("review.hand")),
      h("div", { "data-review-hand": d.hand }, cardRow(sortCards(toCards(d.hand), "rank"), "tiny")),
      d.table
        ? h("div", { class: "review-table", "data-review-table": d.table },
            h("p", {}, t("review.tableThen", { cards: cardsSymbols(toCards(d.table)), name: name(d.table_seat ?? 0) })), cardRow(toCards(d.table), "tiny"))
        : h("p", { class: "muted" }, t("review.lead")),
      h("p", { class: "muted" }, t("review.counts", { counts: d.counts.map((c, s) => `${name(s)} ${c}`).join(" · ") })));
  }
}

/**
 * The points lost per decision as a bar each, coloured by its mark; the chosen one outlined.
 * @param {Decision[]} decisions @param {number} scale @param {number} chosen
 */
export function plot(decisions, scale, chosen) {
  const most = Math.max(scale / 2, ...decisions.map((d) => d.lost), 0.001);
  const width = Math.max(decisions.length * BAR, BAR);
  return svg("svg", { class: "review-plot", viewBox: `0 0 ${width} ${PLOT_HEIGHT}`, role: "img", "aria-label": t("review.plot"), "data-review-plot": "", preserveAspectRatio: "none" },
    svg("line", { x1: 0, y1: PLOT_HEIGHT - 0.5, x2: width, y2: PLOT_HEIGHT - 0.5, class: "review-axis" }),
    decisions.map((d, i) => {
      const height = Math.max(d.lost > 0 ? 2 : 1, (d.lost / most) * (PLOT_HEIGHT - 4));
      return svg("rect", { x: i * BAR + 2, y: PLOT_HEIGHT - height, width: BAR - 4, height,
        class: `review-bar mark-${d.mark} ${i === chosen ? "chosen" : ""}`, dataset: { lost: String(d.lost) } },
        svg("title", {}, t("review.plotBar", { n: i + 1, mark: t(`mark.${d.mark}`), lost: d.lost.toFixed(1) })));
    }));
}
