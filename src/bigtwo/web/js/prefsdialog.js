// @ts-check
// The preferences dialog: your name, the computer players' names, avatar, speed, autopass,
// sort order and language. Saved in localStorage through prefs.js.
import { h } from "./dom.js";
import { t, languages } from "./i18n.js";
import { prefs, setPrefs, myName } from "./prefs.js";
import { avatar, AVATAR_COUNT } from "./avatars.js";
import { showDialog } from "./dialog.js";
import { showShortcuts } from "./keys.js";
import { allowNotifications } from "./cues.js";

export function showPrefs() {
  const p = prefs();
  const name = h("input", { type: "text", maxlength: 24, value: p.name, placeholder: myName(), name: "name" });
  const others = [1, 2, 3].map((i) => h("input", { type: "text", maxlength: 24, value: p.names[i] || "", "aria-label": t("prefs.computerName", { n: i + 1 }) }));
  let chosen = p.avatar;
  const picks = Array.from({ length: AVATAR_COUNT }, (_, i) => h("button", {
    type: "button", "aria-pressed": String(i === chosen), "aria-label": t("prefs.avatarN", { n: i + 1 }),
    onclick: (e) => {
      chosen = i;
      const picked = /** @type {HTMLElement} */ (e.currentTarget);
      for (const b of picked.parentElement?.children || []) b.setAttribute("aria-pressed", String(b === picked));
    },
  }, avatar({ index: i, size: 40 })));
  /** @param {string[][]} options [value, label] pairs @param {string} value */
  const select = (options, value) => h("select", {}, options.map(([v, label]) => h("option", { value: v, selected: v === value ? true : undefined }, label)));
  const speed = select([["slow", t("prefs.slow")], ["normal", t("prefs.normal")], ["fast", t("prefs.fast")]], p.speed);
  const sort = select([["rank", t("prefs.sortRank")], ["suit", t("prefs.sortSuit")], ["custom", t("prefs.sortCustom")]], p.sort);
  const lang = select([["", t("prefs.langAuto")], ...languages()], p.lang);
  const autopass = h("input", { type: "checkbox", checked: p.autopass ? true : undefined });
  const autopassFive = h("input", { type: "checkbox", checked: p.autopassFive ? true : undefined });
  const notify = h("input", { type: "checkbox", name: "notify", checked: p.notify ? true : undefined });
  // Asked on the player's click, as browsers require; refused: the box goes back.
  notify.addEventListener("change", async () => {
    if (notify.checked && !(await allowNotifications())) notify.checked = false;
  });
  /** @param {string} label @param {HTMLElement} control */
  const field = (label, control) => h("label", { class: "field" }, h("span", {}, label), control);
  /** @param {HTMLElement} control @param {string} label */
  const check = (control, label) => h("label", { class: "field inline" }, control, h("span", {}, label));
  showDialog({
    title: t("prefs.title"),
    className: "prefs-dialog",
    body: [
      field(t("prefs.name"), name),
      h("div", { class: "field" }, h("span", {}, t("prefs.avatar")), h("div", { class: "avatar-pick" }, picks)),
      h("fieldset", {}, h("legend", {}, t("prefs.computerNames")), h("div", { class: "row" }, others)),
      h("div", { class: "row" }, field(t("prefs.speed"), speed), field(t("prefs.sort"), sort), field(t("prefs.lang"), lang)),
      check(autopass, t("prefs.autopass")),
      check(autopassFive, t("prefs.autopassFive")),
      h("p", { class: "muted" }, t("prefs.autopassNote")),
      check(notify, t("prefs.notify")),
    ],
    buttons: (close) => [
      h("button", { class: "btn", type: "button", onclick: () => showShortcuts() }, t("keys.title")),
      h("button", { class: "btn", type: "button", onclick: close }, t("action.cancel")),
      h("button", {
        class: "btn primary", type: "button", "data-save-prefs": "",
        onclick: () => {
          const langChanged = lang.value !== p.lang;
          setPrefs({
            name: name.value.trim(),
            names: [name.value.trim(), ...others.map((o, i) => o.value.trim() || p.names[i + 1])],
            avatar: chosen,
            speed: /** @type {import("./prefs.js").Prefs["speed"]} */ (speed.value),
            sort: /** @type {import("./prefs.js").Prefs["sort"]} */ (sort.value),
            lang: lang.value,
            autopass: autopass.checked,
            autopassFive: autopassFive.checked,
            notify: notify.checked,
          });
          close();
          if (langChanged) window.dispatchEvent(new CustomEvent("lang-changed"));
        },
      }, t("action.save")),
    ],
  });
}
