// @ts-check
// The app: language and preferences, the top bar, and the router between the lobby, a
// table (playing, joining or watching) and the replay viewer. Routes live in the hash:
//   #/            lobby
//   #/t/CODE      a table (rejoins the seats this browser holds, else offers to join)
//   #/t/CODE/watch  watch a table (?invite=KEY: a private room's invitation)
//   #/replay[/CODE] the replay viewer
//   #/leaderboard[/FAMILY]  the best players; #/players/NAME  a player's profile
import { $, h, mount } from "./dom.js";
import { setLang, translatePage, t } from "./i18n.js";
import { api, errorOf } from "./net.js";
import { prefs, setPrefs, seatsAt, pruneStorage, rememberSeat } from "./prefs.js";
import { LobbyScreen, JoinScreen } from "./lobby.js";
import { TableScreen } from "./table.js";
import { ReplayScreen } from "./replay.js";
import { showPrefs } from "./prefsdialog.js";
import { chooseIdentity } from "./welcome.js";
import { mountAccount } from "./account.js";
import { LeaderboardScreen } from "./leaderboard.js";
import { ProfileScreen } from "./profile.js";

/** The screen shown: the lobby, joining, a table or the replay viewer. @type {{destroy(): void} | null} */
let screen = null;

function parseHash() {
  const [path, query = ""] = (location.hash.replace(/^#/, "") || "/").split("?");
  return { parts: path.split("/").filter(Boolean), query: new URLSearchParams(query) };
}

function route() {
  screen?.destroy();
  screen = null;
  document.querySelectorAll("dialog, .cover").forEach((el) => el.remove());
  const root = $("#app");
  const { parts, query } = parseHash();
  if (parts[0] === "t" && parts[1]) {
    const code = parts[1].toUpperCase();
    const seats = seatsAt(code);
    /** @param {{watch?: string | boolean, seats?: import("./prefs.js").HeldSeat[]}} options */
    const table = (options) => {
      const shown = new TableScreen(root, code, { ...options, onLeave: () => (location.hash = "#/") });
      screen = shown;
      if (query.get("start") === "1") autoReady(shown);
    };
    const invite = query.get("invite");
    const seat = Number(query.get("seat"));
    const token = query.get("token");
    if (parts[2] === "continue" && token && Number.isInteger(seat) && seat >= 0) {
      // A seat brought from another device: kept here, and the link (its token) out of the address bar.
      rememberSeat(code, { seat, token });
      history.replaceState(null, "", `#/t/${code}`);
      table({ seats: seatsAt(code) });
    } else if (parts[2] === "watch" && invite) watchInvited(root, code, invite, (token) => table({ watch: token }));
    else if (parts[2] === "watch") table({ watch: true });
    else if (seats.length) table({ seats });
    else {
      screen = new JoinScreen(root, code, {
        onSeated: () => route(),
        onWatch: () => (location.hash = `#/t/${code}/watch`),
      });
    }
  } else if (parts[0] === "replay") {
    screen = new ReplayScreen(root, parts[1] || null);
  } else if (parts[0] === "leaderboard") {
    screen = new LeaderboardScreen(root, parts[1]);
  } else if (parts[0] === "players" && parts[1]) {
    screen = new ProfileScreen(root, decodeURIComponent(parts[1]));
  } else {
    screen = new LobbyScreen(root);
  }
  root.focus({ preventScroll: true });
}

/**
 * A private room's invitation: a spectator's token for it, then the table; else the refusal.
 * @param {HTMLElement} root @param {string} code @param {string} invite @param {(token: string) => void} show
 */
function watchInvited(root, code, invite, show) {
  const asked = location.hash;
  api.join(code, { as: "spectator", invite }).then(
    (joined) => location.hash === asked && show(joined.token),
    (err) => location.hash === asked && mount(root, h("div", { class: "lobby" }, h("section", { class: "panel" },
      h("h2", {}, t("join.title", { code })), h("p", { class: "error", role: "alert" }, errorOf(err).message),
      h("a", { class: "btn", href: "#/" }, t("action.backToLobby"))))));
}

/**
 * A room made here with no one else to wait for: say ready for every seat held here.
 * @param {TableScreen} table
 */
function autoReady(table) {
  const once = setInterval(() => {
    if (!table.conns.every((c) => c.model.room)) return;
    clearInterval(once);
    for (const c of table.conns) {
      const me = c.seat === null ? undefined : c.model.players[c.seat];
      if (c.model.status === "waiting" && me && !me.ready) table.ready(c, true);
    }
    history.replaceState(null, "", `#/t/${table.code}`);
  }, 50);
  setTimeout(() => clearInterval(once), 10000);
}

function start() {
  // The server's share link /r/CODE arrives here as ?room=CODE.
  const search = new URLSearchParams(location.search);
  const room = search.get("room");
  const invite = search.get("invite"); // a private room's invitation link: to watch it
  if (room) history.replaceState(null, "", `/#/t/${room.toUpperCase()}${invite ? `/watch?invite=${encodeURIComponent(invite)}` : ""}`);
  setLang(prefs().lang);
  translatePage();
  pruneStorage();
  $("#prefs-button").addEventListener("click", () => showPrefs());
  mountAccount($("#prefs-button")); // players' accounts: sign in, rating, seats kept
  // The mute switch: the turn's tone is off until the player turns it on.
  const sound = $("#sound-button");
  const showSound = () => {
    sound.setAttribute("aria-pressed", String(prefs().sound));
    sound.textContent = "♪"; // struck through while off (css), said by aria-pressed
  };
  sound.addEventListener("click", () => {
    setPrefs({ sound: !prefs().sound });
    showSound();
  });
  showSound();
  window.addEventListener("hashchange", route);
  window.addEventListener("lang-changed", () => {
    setLang(prefs().lang);
    translatePage();
    route();
  });
  route();
  if (!prefs().name) chooseIdentity(); // the first visit: a name and a picture of their own
}

start();
