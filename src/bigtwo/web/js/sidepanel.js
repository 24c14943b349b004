// @ts-check
// The side panel beside the table (a drawer on narrow screens): the cards-played tracker,
// then tabs for chat, the game history and the scores of every deal.
import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { trackerView } from "./tracker.js";
import { historyView } from "./history.js";
import { allDealsTable } from "./scoresheet.js";

export class SidePanel {
  /**
   * chat: a Chat; onChange(): redraw; onDownload(): download the history.
   * @param {{chat: import("./chat.js").Chat, onChange: () => void, onDownload: () => void}} options
   */
  constructor({ chat, onChange, onDownload }) {
    this.chat = chat;
    this.onChange = onChange;
    this.onDownload = onDownload;
    /** @type {"chat" | "history" | "scores"} */
    this.tab = "chat";
    this.el = h("aside", { class: "side", "aria-label": t("side.label") });
    this.tracker = h("section", { class: "tracker-box", "aria-label": t("tracker.title") });
    this.tabs = h("div", { class: "tabs", role: "tablist" });
    this.body = h("div", { class: "tab-body", role: "tabpanel", id: "side-panel" });
    const close = h("button", { class: "btn small side-close", type: "button", "aria-label": t("action.close"), onclick: () => this.toggle(false) }, "✕");
    // Open over the table (a phone's drawer), it says when our turn comes and goes back.
    this.turn = h("button", { class: "btn primary side-turn", type: "button", hidden: true, "data-side-turn": "", onclick: () => this.toggle(false) }, t("side.yourTurn"));
    mount(this.el, h("div", { class: "side-head" }, this.turn, close), this.tracker, this.tabs, this.body);
  }

  get open() {
    return this.el.classList.contains("open");
  }

  toggle(open = !this.open) {
    this.el.classList.toggle("open", open);
    this.onChange();
  }

  /** @param {"chat" | "history" | "scores"} tab */
  show(tab) {
    this.tab = tab;
    this.onChange();
  }

  /**
   * @param {import("./state.js").Model} model
   * @param {import("./history.js").Archive} archive
   * @param {boolean} [yourTurn] our turn (or a counter window asking us)
   */
  render(model, archive, yourTurn = false) {
    this.turn.hidden = !yourTurn;
    mount(this.tracker, h("h3", {}, t("tracker.title")), trackerView(model));
    /** @type {Array<["chat" | "history" | "scores", string]>} */
    const tabs = [["chat", t("side.chat")], ["history", t("side.history")], ["scores", t("side.scores")]];
    mount(this.tabs, tabs.map(([key, label]) => h("button", {
      type: "button", role: "tab", "aria-selected": String(this.tab === key), "aria-controls": "side-panel",
      dataset: { tab: key }, onclick: () => this.show(key),
    }, label)));
    if (this.tab === "chat") {
      // The chat box stays in place, so typing is never interrupted by the game.
      this.chat.render(model.chat);
      if (this.body.firstChild !== this.chat.el || this.body.children.length !== 1) mount(this.body, this.chat.el);
    } else if (this.tab === "history") mount(this.body, historyView(archive, model, this.onDownload));
    else mount(this.body, model.results.length ? allDealsTable(model) : h("p", { class: "muted" }, t("score.none")));
  }
}
