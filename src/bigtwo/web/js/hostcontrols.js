// @ts-check
// The host's controls at the table, in a dialog: kick a player, give a seat to a computer,
// change the turn timer, the away time and what spectators may do, close the room (the
// button the lobby's "Your rooms" shows too).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, errorOf } from "./net.js";
import { showDialog } from "./dialog.js";

/** @typedef {import("./state.js").Model} Model */
/** @typedef {{seat: number | null, token: string | null, socket: import("./net.js").TableSocket}} HostConn */

/**
 * The host's button that closes room `code` for everyone: the first press asks, the second
 * closes (POST /api/rooms/{code}/close with the host's seat token).
 * @param {string} code @param {string} token the host's seat token
 * @param {{status: HTMLElement, onClosed: () => void}} options where a refusal is said, and what follows a close
 */
export function closeRoomButton(code, token, { status, onClosed }) {
  const button = h("button", { class: "btn small danger", type: "button", "data-close-room": code }, t("host.closeRoom"));
  button.addEventListener("click", async () => {
    if (!button.dataset.sure) {
      button.dataset.sure = "1";
      button.textContent = t("host.closeSure");
      return;
    }
    button.disabled = true;
    status.textContent = "";
    try {
      await api.closeRoom(code, token);
      onClosed();
    } catch (err) {
      status.textContent = errorOf(err).message; // the server's refusal, in words
      button.disabled = false;
    }
  });
  return button;
}

const HOST_TIMERS = [0, 10, 15, 30, 60, 120]; // turn timers the host may pick at the table (0: none)
const HOST_AWAY = [0, 15, 30, 60, 120, 300]; // away times (0: never)

/**
 * Open the host's controls for the table ``model`` shows, acting through the host's own
 * connection.
 * @param {HostConn} conn @param {Model} model
 */
export function showHostControls(conn, model) {
  const room = model.room;
  if (!room) return;
  const status = h("p", { class: "error", role: "alert", "data-host-error": "" });
  /** @param {() => Promise<unknown>} ask @param {() => void} close */
  const send = async (ask, close) => {
    status.textContent = "";
    try {
      await ask();
      close();
    } catch (err) {
      status.textContent = errorOf(err).message; // the server's refusal, in words
    }
  };
  /** @param {string} name @param {number[]} values @param {number | null} value @param {string} none */
  const choice = (name, values, value, none) => {
    const all = value && !values.includes(value) ? [...values, value].sort((a, b) => a - b) : values;
    return h("select", { name }, all.map((v) => h("option", { value: v, selected: (value || 0) === v ? true : undefined },
      v ? t("lobby.seconds", { n: v }) : none)));
  };
  const timer = choice("turn_seconds", HOST_TIMERS, room.options.turn_seconds, t("lobby.noTimer"));
  const away = choice("away_seconds", HOST_AWAY, room.options.away_seconds, t("lobby.never"));
  const spectators = h("input", { type: "checkbox", name: "spectators", checked: room.options.spectators ? true : undefined });
  const spectatorChat = h("input", { type: "checkbox", name: "spectator_chat", checked: room.options.spectator_chat ? true : undefined });
  const assists = h("input", { type: "checkbox", name: "assists", checked: room.options.assists !== false ? true : undefined });
  const waiting = model.status === "waiting";
  let close = () => {};
  const seats = model.players.filter((p) => p.seat !== conn.seat && p.kind === "human" && p.control !== "quit" && (p.taken || waiting));
  const body = [
    h("ul", { class: "rooms", "aria-label": t("table.seats") }, seats.map((p) => h("li", { class: "room", dataset: { hostSeat: String(p.seat) } },
      h("div", { class: "room-head" },
        h("span", {}, h("strong", {}, t("seat.n", { n: p.seat + 1 })), " ", p.taken ? p.name : t("seat.free")),
        h("span", { class: "row" },
          p.taken ? h("button", { class: "btn small", type: "button", "data-kick": String(p.seat), onclick: () => send(() => conn.socket.kick(p.seat), close) }, t("host.kick")) : null,
          h("button", { class: "btn small", type: "button", "data-computer": String(p.seat), onclick: () => send(() => conn.socket.computer(p.seat), close) }, t("host.computer")))))),
    ),
    h("div", { class: "row" },
      h("label", { class: "field" }, h("span", {}, t("lobby.timer")), timer),
      h("label", { class: "field" }, h("span", {}, t("lobby.away")), away)),
    h("label", { class: "field inline" }, spectators, h("span", {}, t("lobby.spectators"))),
    h("label", { class: "field inline" }, spectatorChat, h("span", {}, t("lobby.spectatorChat"))),
    h("label", { class: "field inline" }, assists, h("span", {}, t("lobby.assists"))),
    conn.token && model.status !== "finished"
      ? h("div", { class: "row" }, closeRoomButton(room.code, conn.token, { status, onClosed: () => close() }), h("span", { class: "muted" }, t("host.closeHint")))
      : null,
    status,
  ];
  const save = () => send(() => conn.socket.settings({
    turn_seconds: Number(timer.value) || null,
    away_seconds: Number(away.value) || null,
    spectators: spectators.checked,
    spectator_chat: spectatorChat.checked,
    assists: assists.checked,
  }), close);
  showDialog({
    title: t("host.title"),
    className: "host-controls",
    body,
    buttons: (closeIt) => {
      close = closeIt;
      return [h("button", { class: "btn primary", type: "button", "data-host-save": "", onclick: save }, t("host.save")),
        h("button", { class: "btn", type: "button", onclick: closeIt }, t("action.close"))];
    },
  });
}
