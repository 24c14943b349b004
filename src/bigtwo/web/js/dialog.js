// @ts-check
// A simple modal dialog with a title, a body and buttons.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * @param {object} options
 * @param {string} options.title
 * @param {import("./dom.js").Child} options.body
 * @param {((close: () => void) => import("./dom.js").Child) | null} [options.buttons] the buttons, given the function that closes the dialog
 * @param {string} [options.className]
 * @param {() => void} [options.onClose]
 */
export function showDialog({ title, body, buttons = null, className = "", onClose = () => {} }) {
  const dialog = h("dialog", { class: className, "aria-labelledby": "dialog-title" });
  const close = () => dialog.close();
  const foot = buttons ? buttons(close) : [h("button", { class: "btn", type: "button", onclick: close }, t("action.close"))];
  dialog.append(
    h("div", { class: "dialog-head" }, h("h2", { id: "dialog-title" }, title)),
    h("div", { class: "dialog-body" }, body),
    h("div", { class: "dialog-foot" }, foot));
  dialog.addEventListener("close", () => {
    dialog.remove();
    onClose();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
