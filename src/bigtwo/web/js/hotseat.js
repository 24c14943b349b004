// @ts-check
// Hot-seat play on one device: a cover over the table between two people's turns, so
// the next player does not see the hand of the one before (the Palm "Next Player's Turn").
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * Cover the screen until `name` says they are at the device; then call onReveal.
 * @param {string} name
 * @param {() => void} onReveal
 */
export function coverScreen(name, onReveal) {
  const button = h("button", { class: "btn primary", type: "button", "data-reveal": "" }, t("hotseat.show", { name }));
  const cover = h("div", { class: "cover", role: "dialog", "aria-modal": "true", "aria-labelledby": "cover-title", "data-cover": name },
    h("h2", { id: "cover-title" }, t("hotseat.title", { name })),
    h("p", {}, t("hotseat.pass", { name })),
    button);
  button.addEventListener("click", () => {
    cover.remove();
    onReveal();
  });
  document.body.append(cover);
  setTimeout(() => button.focus(), 0);
  return cover;
}
