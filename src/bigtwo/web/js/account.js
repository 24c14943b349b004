// @ts-check
// Players' accounts in the browser: the top bar's account button and its dialog (sign in,
// register, sign out, change the password, delete the account); the seats kept with the
// account, which another browser signed in to it takes back; and a new room's "rated game"
// choice. The session is the server's HttpOnly cookie: this page never sees it.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { request, errorOf } from "./net.js";
import { showDialog } from "./dialog.js";
import { rememberSeat } from "./prefs.js";
import { toast } from "./toast.js";

/** @typedef {{rating: number, games: number, wins: number}} FamilyRating */
/** @typedef {{signed_in: boolean, name: string, ratings: Record<string, FamilyRating>}} Me */

/** The signed-in player (null: a guest). @type {Me | null} */
let me = null;
/** @type {HTMLButtonElement | null} */
let button = null;

/** The signed-in player, as last asked. */
export const signedIn = () => me;

/** @param {Me | null} who */
function setMe(who) {
  me = who;
  if (button) {
    button.textContent = me ? me.name : t("account.signIn");
    button.dataset.signedIn = me ? "yes" : "no";
  }
  window.dispatchEvent(new CustomEvent("account-changed"));
}

/** Ask the server who is signed in here, and take back the seats kept with the account. */
export async function refreshAccount() {
  try {
    const who = await request("GET", "/api/account");
    setMe(who.signed_in ? who : null);
  } catch {
    setMe(null);
  }
  if (!me) return;
  try {
    const held = await request("GET", "/api/account/seats");
    for (const s of held.seats) rememberSeat(s.code, { seat: s.seat, token: s.token });
  } catch {
    // the seats come back at the next look
  }
}

/**
 * Keep a seat just taken with the account (nothing for a guest), and make the room rated if
 * asked (the host's seat only). A refusal is said in a toast: the seat is taken either way.
 * @param {string} code @param {string} token @param {{rated?: boolean}} [options]
 */
export async function keepSeat(code, token, { rated = false } = {}) {
  if (!me) return;
  try {
    await request("POST", "/api/account/seats", { code, token });
    if (rated) await request("POST", `/api/rooms/${encodeURIComponent(code)}/rated`, { token });
  } catch (err) {
    toast(errorOf(err).message, 5000);
  }
}

/** The new room form's "rated game" box, shown to a signed-in player. */
export function ratedField() {
  const box = h("input", { type: "checkbox", name: "rated" });
  const label = h("label", { class: "field inline", "data-rated": "" }, box, h("span", {}, t("account.ratedRoom")));
  const sync = () => {
    label.hidden = !me;
    if (!me) box.checked = false;
  };
  window.addEventListener("account-changed", sync);
  sync();
  return label;
}

/** The account button in the top bar, before `beside`. @param {HTMLElement} beside */
export function mountAccount(beside) {
  button = h("button", { type: "button", class: "btn small", id: "account-button", onclick: () => showAccount() }, t("account.signIn"));
  beside.before(button);
  refreshAccount();
}

/** @param {string} label @param {HTMLElement} control */
const field = (label, control) => h("label", { class: "field" }, h("span", {}, label), control);

/** @param {string} name @param {string} [autocomplete] */
const password = (name, autocomplete = "current-password") => h("input", { type: "password", name, autocomplete, maxlength: 200 });

export function showAccount() {
  if (me) showSignedIn(me);
  else showSignIn();
}

function showSignIn() {
  const name = h("input", { type: "text", name: "account-name", autocomplete: "username", maxlength: 24 });
  const secret = password("password");
  const status = h("p", { class: "error", role: "alert" });
  /** @param {string} path @param {() => void} close */
  const send = async (path, close) => {
    status.textContent = "";
    try {
      setMe(await request("POST", path, { name: name.value, password: secret.value }));
      await refreshAccount();
      close();
    } catch (err) {
      status.textContent = errorOf(err).message;
    }
  };
  showDialog({
    title: t("account.title"),
    className: "account-dialog",
    body: [h("p", { class: "muted" }, t("account.why")), field(t("account.name"), name), field(t("account.password"), secret), status],
    buttons: (close) => [
      h("button", { class: "btn", type: "button", onclick: close }, t("action.cancel")),
      h("button", { class: "btn", type: "button", "data-register": "", onclick: () => send("/api/account/register", close) }, t("account.register")),
      h("button", { class: "btn primary", type: "button", "data-sign-in": "", onclick: () => send("/api/account/sign-in", close) }, t("account.signIn")),
    ],
  });
  name.focus();
}

/** @param {Me} who */
function showSignedIn(who) {
  const status = h("p", { class: "error", role: "alert" });
  const now = password("password");
  const next = password("new", "new-password");
  /** @param {string} path @param {object} body @param {() => void} close */
  const send = async (path, body, close) => {
    status.textContent = "";
    try {
      const answer = await request("POST", path, body);
      setMe(answer.deleted ? null : answer.name ? answer : null);
      close();
    } catch (err) {
      status.textContent = errorOf(err).message;
    }
  };
  const ratings = Object.entries(who.ratings).map(([family, r]) =>
    h("li", {}, t(`family.${family}`), ": ", h("strong", { "data-rating": family }, String(r.rating)), " ", t("account.games", { n: r.games })));
  showDialog({
    title: who.name,
    className: "account-dialog",
    body: [
      h("ul", { class: "ratings" }, ratings),
      h("p", {}, h("a", { href: `#/players/${encodeURIComponent(who.name)}` }, t("profile.title")), " · ",
        h("a", { href: "#/leaderboard" }, t("leaderboard.title"))),
      h("details", {}, h("summary", {}, t("account.change")), field(t("account.password"), now), field(t("account.newPassword"), next)),
      status,
    ],
    buttons: (close) => [
      h("button", { class: "btn", type: "button", "data-delete-account": "", onclick: () => {
        if (!now.value) {
          status.textContent = t("account.deleteNeedsPassword");
          return;
        }
        if (confirm(t("account.deleteSure"))) send("/api/account/delete", { password: now.value }, close);
      } }, t("account.delete")),
      h("button", { class: "btn", type: "button", onclick: () => send("/api/account/password", { password: now.value, new: next.value }, close) }, t("account.change")),
      h("button", { class: "btn primary", type: "button", "data-sign-out": "", onclick: () => send("/api/account/sign-out", {}, close) }, t("account.signOut")),
    ],
  });
}
