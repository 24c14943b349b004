// @ts-check
// The buttons under your hand: Play, Pass, Clear, Hint, the two sorts and "all of a rank /
// suit". Built once and updated in place, so a button keeps the keyboard focus.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {"play" | "pass" | "clear" | "hint" | "sort-rank" | "sort-suit" | "same-rank" | "same-suit"} ButtonKey */

/** @type {Array<[ButtonKey, string, string, string]>} [key, shortcut, style, label key] */
const BUTTONS = [
  ["play", "Enter", "primary", "action.play"],
  ["pass", "P", "", "action.pass"],
  ["clear", "C", "", "action.clear"],
  ["hint", "H", "", "action.hint"],
  ["sort-rank", "R", "secondary", "action.sortRank"],
  ["sort-suit", "S", "secondary", "action.sortSuit"],
  ["same-rank", "A", "secondary", "action.sameRank"],
  ["same-suit", "Shift+A", "secondary", "action.sameSuit"],
];

export class ActionBar {
  /** @param {Record<ButtonKey, () => void>} handlers what each button does */
  constructor(handlers) {
    /** @type {Record<ButtonKey, HTMLButtonElement>} */
    this.buttons = /** @type {Record<ButtonKey, HTMLButtonElement>} */ ({});
    for (const [key, shortcut, style] of BUTTONS) {
      this.buttons[key] = h("button", {
        class: `btn ${style}`, type: "button", "data-action": key, "aria-keyshortcuts": shortcut, onclick: handlers[key],
      });
    }
    const b = this.buttons;
    this.el = h("div", { class: "actions", role: "toolbar", "aria-label": t("actions.label") },
      b.play, b.pass, b.clear, b.hint, h("span", { class: "sep", "aria-hidden": "true" }),
      b["sort-rank"], b["sort-suit"], b["same-rank"], b["same-suit"]);
  }

  /**
   * myTurn: we may act; selected: cards raised; lead: nothing on the table; canPass; cards: any in
   * hand; asked: the turn's choices have come (the seat's "turn" can follow the play before it).
   * @param {{myTurn: boolean, selected: number, lead: boolean, canPass: boolean, cards: number, asked: boolean}} state
   */
  update({ myTurn, selected, lead, canPass, cards, asked }) {
    /** @type {Record<ButtonKey, boolean>} */
    const disabled = {
      play: !myTurn || !selected,
      pass: !myTurn || !canPass,
      clear: !selected,
      hint: !myTurn || !asked,
      "sort-rank": false,
      "sort-suit": false,
      "same-rank": !cards,
      "same-suit": !cards,
    };
    for (const [key, shortcut, , labelKey] of BUTTONS) {
      const el = this.buttons[key];
      const label = key === "play" && myTurn && lead ? t("action.lead") : t(labelKey);
      if (el.textContent !== label) el.textContent = label;
      el.title = `${label} (${shortcut})`;
      el.disabled = disabled[key];
    }
  }
}
