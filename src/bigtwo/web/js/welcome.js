// @ts-check
// The first visit: the player chooses the name and picture the other players will see. Both
// are kept in the preferences (localStorage); until a name is chosen none is sent for them.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { prefs, setPrefs } from "./prefs.js";
import { avatar, AVATAR_COUNT } from "./avatars.js";
import { showDialog } from "./dialog.js";

/** A dialog open now, so that two callers share it. @type {Promise<string> | null} */
let asking = null;

/**
 * Ask for a name and a picture; resolves with the name once saved, or with "" when the
 * player closes the dialog without one.
 * @returns {Promise<string>}
 */
export function chooseIdentity() {
  if (asking) return asking;
  asking = new Promise((resolve) => {
    let chosen = prefs().avatar;
    const name = h("input", {
      type: "text", maxlength: 24, name: "name", required: true, autocomplete: "nickname",
      value: prefs().name, "aria-label": t("prefs.name"), "data-welcome-name": "",
    });
    const status = h("p", { class: "error", role: "alert" });
    const picks = Array.from({ length: AVATAR_COUNT }, (_, i) => h("button", {
      type: "button", "aria-pressed": String(i === chosen), "aria-label": t("prefs.avatarN", { n: i + 1 }),
      onclick: (e) => {
        chosen = i;
        const picked = /** @type {HTMLElement} */ (e.currentTarget);
        for (const b of picked.parentElement?.children || []) b.setAttribute("aria-pressed", String(b === picked));
      },
    }, avatar({ index: i, size: 40 })));
    let saved = "";
    const dialog = showDialog({
      title: t("welcome.title"),
      className: "welcome-dialog",
      body: [
        h("p", {}, t("welcome.intro")),
        h("label", { class: "field" }, h("span", {}, t("prefs.name")), name),
        h("div", { class: "field" }, h("span", {}, t("prefs.avatar")), h("div", { class: "avatar-pick" }, picks)),
        status,
      ],
      buttons: (close) => [
        h("button", { class: "btn", type: "button", onclick: close }, t("welcome.later")),
        h("button", {
          class: "btn primary", type: "button", "data-welcome-save": "",
          onclick: () => {
            const typed = name.value.trim();
            if (!typed) {
              status.textContent = t("welcome.needName");
              name.focus();
              return;
            }
            saved = typed;
            setPrefs({ name: typed, avatar: chosen });
            // The page under the dialog asks for our name too (the lobby's first seat, a
            // join page's "Your name"): what was typed here goes there, over nothing typed.
            for (const field of document.querySelectorAll("input[data-my-name]")) {
              if (field instanceof HTMLInputElement && !field.value.trim()) field.value = typed;
            }
            close();
          },
        }, t("welcome.save")),
      ],
      onClose: () => {
        asking = null;
        resolve(saved);
      },
    });
    dialog.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && e.target === name) {
        e.preventDefault();
        /** @type {HTMLButtonElement | null} */ (dialog.querySelector("[data-welcome-save]"))?.click();
      }
    });
  });
  return asking;
}

/** The player's name, asking for it first when none was chosen ("" if they would not say). */
export async function nameOrAsk() {
  return prefs().name || (await chooseIdentity());
}
