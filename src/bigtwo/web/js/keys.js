// @ts-check
// Keyboard shortcuts at the table. Keys typed into a text box are left alone.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { showDialog } from "./dialog.js";
import { showReference } from "./revolution.js";

export const SHORTCUTS = [
  ["Enter", "keys.play"],
  ["P", "keys.pass"],
  ["C / Esc", "keys.clear"],
  ["H", "keys.hint"],
  ["R", "keys.sortRank"],
  ["S", "keys.sortSuit"],
  ["A", "keys.sameRank"],
  ["Shift+A", "keys.sameSuit"],
  ["← →", "keys.move"],
  ["Space / ↑ ↓", "keys.select"],
  ["1 … 9, 0", "keys.nth"],
  ["T", "keys.chat"],
  ["F", "keys.functions"],
  ["?", "keys.help"],
];

export function showShortcuts() {
  showDialog({
    title: t("keys.title"),
    body: h("div", { class: "keys" }, SHORTCUTS.flatMap(([key, what]) => [h("kbd", {}, key), h("span", {}, t(what))])),
  });
}

/** @param {EventTarget | null} target */
function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

/**
 * Bind the table's keys; returns a function that unbinds them.
 * @param {import("./table.js").TableScreen} screen
 */
export function bindTableKeys(screen) {
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    if (document.querySelector("dialog[open], .cover")) return;
    const hand = screen.hand;
    const key = e.key;
    let handled = true;
    if (key === "Enter" && !(e.target instanceof HTMLButtonElement)) screen.play();
    else if (key === "p" || key === "P") screen.pass();
    else if (key === "Escape" || key === "c" || key === "C") screen.clearSelection();
    else if (key === "h" || key === "H") screen.hint();
    else if (key === "r" || key === "R") screen.sort("rank");
    else if (key === "s" || key === "S") screen.sort("suit");
    else if (key === "a") hand.selectAllOf("rank");
    else if (key === "A") hand.selectAllOf("suit");
    else if (key === "t" || key === "T") {
      screen.side.show("chat");
      screen.side.toggle(true);
      screen.render();
      screen.chat.input.focus();
    } else if (key === "?") showShortcuts();
    else if ((key === "f" || key === "F") && screen.model.deal?.rev) showReference(); // Big 2 RevolutioN's functions
    else if (/^[0-9]$/.test(key)) {
      const index = key === "0" ? 9 : Number(key) - 1;
      const card = hand.cards[index];
      if (card !== undefined) hand.toggle(card);
    } else if ((key === "ArrowLeft" || key === "ArrowRight") && !hand.el.contains(document.activeElement)) {
      /** @type {HTMLElement | undefined} */ (hand.el.children[hand.focus])?.focus();
    } else handled = false;
    if (handled) e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
