// @ts-check
// Short notices at the top of the screen, two at a time.
import { h } from "./dom.js";

/** @param {string} text @param {number} [ms] */
export function toast(text, ms = 2600) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const el = h("div", { class: "toast" }, text);
  while (box.children.length >= 2) box.firstElementChild?.remove(); // two at a time, the newest
  box.append(el);
  setTimeout(() => el.remove(), ms);
}

/**
 * Copy text to the clipboard; falls back to selecting an input for old or insecure pages.
 * @param {string} text
 * @param {HTMLInputElement | null} [input]
 */
export async function copyText(text, input = null) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}
