// The links to a table and the Share dialog: the room's link, a private room's invitation
// for spectators, and a player's own link to their seat for another device.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { copyText } from "./toast.js";
import { showDialog } from "./dialog.js";

/** @typedef {import("./table.js").Conn} Conn */

/** @param {string} code */
export const shareLink = (code) => `${location.origin}/r/${code}`;
/**
 * A private link to this player's seat, for their other device: in the page's hash, which
 * browsers never send to a server, and read once (main.js keeps the seat and drops the link).
 * @param {string} code @param {number} seat @param {string} token
 */
export const continueLink = (code, seat, token) =>
  `${location.origin}/#/t/${code}/continue?seat=${seat}&token=${encodeURIComponent(token)}`;
/** A private room's link for spectators. @param {string} code @param {string} invite */
export const inviteLink = (code, invite) => `${location.origin}/r/${code}?invite=${encodeURIComponent(invite)}`;

/**
 * The Share dialog: the link copied, the code, a private room's invitation, and (folded)
 * the link to our own seat, shown only to the player who holds it.
 * @param {string} code @param {Conn[]} conns @param {Conn} shown the seat on show
 */
export async function showShare(code, conns, shown) {
  const link = shareLink(code);
  const input = h("input", { type: "text", value: link, readonly: true, "aria-label": t("lobby.shareLink") });
  const ok = await copyText(link, input);
  const invite = conns.map((c) => c.model.invite).find(Boolean);
  // Our own seat on another device: the link carries the seat's token, so it is shown only
  // here, to the player who holds it (never in the room's link, never to anyone else).
  const mine = shown.token !== null && shown.seat !== null ? shown : null;
  showDialog({
    title: t("table.shareTitle"),
    body: [h("p", {}, ok ? t("lobby.copied") : t("lobby.copyHint")), h("div", { class: "share" }, input),
      h("p", { class: "muted" }, t("table.codeIs", { code })),
      invite ? [h("p", {}, t("table.inviteHint")),
        h("div", { class: "share" }, h("input", { type: "text", value: inviteLink(code, invite), readonly: true, "aria-label": t("table.inviteLink"), "data-invite-link": "" }))] : null,
      mine ? h("details", { class: "continue" }, h("summary", {}, t("table.continueTitle")),
        h("p", {}, t("table.continueHint")),
        h("div", { class: "share" }, h("input", { type: "text", value: continueLink(code, /** @type {number} */ (mine.seat), /** @type {string} */ (mine.token)), readonly: true, "aria-label": t("table.continueTitle"), "data-continue-link": "" }))) : null],
  });
}
