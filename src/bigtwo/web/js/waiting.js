// @ts-check
// Before the match: who sits where, who is ready, the share link, and a Ready button for
// each seat this browser holds.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { playerAvatar } from "./seats.js";
import { toast, copyText } from "./toast.js";

/**
 * seats: the seats held here; onReady(seat, ready); link: the share link.
 * @param {import("./state.js").Model} model
 * @param {{seats: number[], onReady: (seat: number, ready: boolean) => void, link: string}} options
 */
export function waitingView(model, { seats, onReady, link }) {
  const chips = model.players.map((p) => h("li", { class: "chip", dataset: { seat: String(p.seat) } },
    playerAvatar(p, 20),
    p.kind === "computer" ? `${p.name} (${t("seat.computer")})` : p.taken ? p.name : t("seat.free"),
    p.kind === "human" && p.taken ? (p.ready ? " ✓" : ` · ${t("seat.notReady")}`) : ""));
  const buttons = seats.map((seat) => {
    const ready = model.players[seat]?.ready;
    const label = ready ? t("action.notReady")
      : seats.length > 1 ? t("action.readyAs", { name: model.players[seat]?.name }) : t("action.ready");
    return h("button", {
      class: `btn ${ready ? "" : "primary"}`, type: "button", "data-ready-seat": String(seat), onclick: () => onReady(seat, !ready),
    }, label);
  });
  const input = h("input", { type: "text", readonly: true, value: link, "aria-label": t("lobby.shareLink"), "data-share-link": "" });
  const copy = async () => toast((await copyText(link, input)) ? t("lobby.copied") : t("lobby.copyHint"));
  return h("div", { class: "waiting panel-dark" },
    h("h2", {}, t("table.waitingTitle")),
    h("ul", { class: "room-seats", "aria-label": t("table.seats") }, chips),
    h("p", {}, t("table.shareHint")),
    h("div", { class: "share" }, input, h("button", { class: "btn small", type: "button", onclick: copy }, t("lobby.copy"))),
    h("div", { class: "row" }, buttons));
}
