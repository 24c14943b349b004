// @ts-check
// The lobby: the rooms this browser has a seat in (rejoin; the host closes one), create a room
// (preset, options, seats human or computer, turn timer, hot-seat), list the open rooms to
// join or watch, join by code, and open the replay viewer.
import { h, mount } from "./dom.js";
import { cardElement } from "./cards.js";
import { shownName, t, tOr } from "./i18n.js";
import { prefs, setPrefs, rememberSeat, myName, heldTables, forgetTable } from "./prefs.js";
import { nameOrAsk } from "./welcome.js";
import { api, errorOf } from "./net.js";
import { nameAvatar } from "./state.js";
import { avatar, emptyAvatar } from "./avatars.js";
import { keepSeat, ratedField } from "./account.js";
import { closeRoomButton } from "./hostcontrols.js";


/** @typedef {import("./protocol.js").Room} Room */

const COMPUTER_DELAY = { slow: 2, normal: 1, fast: 0.4 }; // seconds a play stays before the next
const TIMERS = [0, 15, 30, 60, 120];
const AWAY = [0, 30, 60, 120, 300]; // seconds away before a computer plays for someone (0: never)
const PUBLIC_TIMER = 30; // a public room's turn timer unless the host says otherwise (the server's too)
const ROOMS_PAGE = 10; // open rooms fetched and shown at a time
const COUNTER_SECONDS = [5, 10, 20, 30]; // revolution: how long a counter window waits (the rules' default is 5)
const HOTSEAT_COUNTER = 20; // time enough to hand the device over for a counter

/** The value of the form control called `name` under root. @param {ParentNode} root @param {string} name */
const valueIn = (root, name) => /** @type {HTMLInputElement | HTMLSelectElement} */ (root.querySelector(`[name=${name}]`)).value;
/** Whether the checkbox called `name` under root is ticked. @param {ParentNode} root @param {string} name */
const checkedIn = (root, name) => /** @type {HTMLInputElement} */ (root.querySelector(`[name=${name}]`)).checked;

export class LobbyScreen {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {import("./protocol.js").Preset[]} */
    this.presets = [];
    this.levels = ["greedy"];
    this.rooms = h("ul", { class: "rooms", "aria-live": "polite", "aria-label": t("lobby.openRooms") });
    this.moreRooms = h("div", { class: "row" });
    // The rooms this browser has a seat in: hidden while there are none.
    this.mine = h("ul", { class: "rooms", "aria-label": t("mine.title") });
    this.minePanel = h("section", { class: "panel mine", hidden: true, "data-your-rooms": "" },
      h("h2", {}, t("mine.title")), h("p", { class: "muted" }, t("mine.hint")), this.mine);
    this.pages = 1; // pages of open rooms shown: only those are fetched
    this.error = h("p", { class: "error", role: "alert" });
    mount(root, h("p", { class: "loading" }, t("app.loading")));
    this.load();
    this.poll = setInterval(() => this.refreshRooms(), 4000);
  }

  destroy() {
    clearInterval(this.poll);
  }

  async load() {
    try {
      const [info, presets] = await Promise.all([api.info(), api.presets()]);
      this.levels = info.levels;
      this.presets = presets.presets;
    } catch (err) {
      this.error.textContent = errorOf(err).message;
    }
    // Drawn once the presets and levels are known, so nothing typed is drawn over.
    this.build();
    this.refreshRooms();
    this.refreshMine();
  }

  build() {
    const fan = h("div", { class: "fan", "aria-hidden": "true" },
      [51, 47, 43, 39, 0].map((c, i) => {
        const el = cardElement(c);
        el.style.transform = `rotate(${(i - 2) * 9}deg) translateY(${Math.abs(i - 2) * 3}px)`;
        return el;
      }));
    mount(this.root, h("div", { class: "lobby" },
      h("section", { class: "hero" }, fan,
        h("div", {}, h("h1", {}, t("lobby.welcome")), h("p", {}, t("lobby.tagline")))),
      this.error,
      this.minePanel,
      this.createForm(),
      h("div", { class: "stack" },
        h("section", { class: "panel" },
          h("div", { class: "room-head" }, h("h2", {}, t("lobby.openRooms")),
            h("button", { class: "btn small", type: "button", onclick: () => { this.refreshRooms(); this.refreshMine(); } }, t("lobby.refresh"))),
          this.rooms, this.moreRooms),
        h("section", { class: "panel" }, h("h2", {}, t("lobby.joinByCode")), this.codeForm()),
        h("section", { class: "panel" }, h("h2", {}, t("lobby.replays")),
          h("p", {}, t("lobby.replaysHint")),
          h("a", { class: "btn", href: "#/replay", "data-open-replay": "" }, t("lobby.openReplay"))))));
  }

  codeForm() {
    const input = h("input", { type: "text", name: "code", maxlength: 12, placeholder: "ABC234", "aria-label": t("lobby.code"), autocapitalize: "characters" });
    return h("form", {
      class: "row",
      onsubmit: (e) => {
        e.preventDefault();
        const code = input.value.trim().toUpperCase().replace(/.*\/(r|t)\//, "");
        if (code) location.hash = `#/t/${code}`;
      },
    }, input, h("button", { class: "btn", type: "submit" }, t("lobby.go")));
  }

  // -- creating a room ----------------------------------------------------------------------
  createForm() {
    const p = prefs();
    const presetNames = this.presets.length ? this.presets.map((x) => x.name) : ["palm"];
    const form = h("form", { class: "panel create", "aria-labelledby": "create-title" });
    /** @param {string} label @param {HTMLElement} control @param {string} [cls] */
    const field = (label, control, cls = "") => h("label", { class: `field ${cls}` }, h("span", {}, label), control);
    /** @param {string} name @param {Array<[string | number, string]>} options [value, label] pairs @param {string | number} value */
    const select = (name, options, value) => h("select", { name },
      options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) ? true : undefined }, label)));
    const preset = select("preset", presetNames.map((n) => [n, tOr(`preset.${n}`, n)]), presetNames.includes("palm") ? "palm" : presetNames[0]);
    const players = select("players", [[4, "4"], [3, "3"], [2, "2"]], 4);
    const deals = h("input", { type: "number", name: "deals", min: 1, max: 100, value: 10, "aria-label": t("lobby.deals") });
    const pace = select("computer_delay", [["2", t("prefs.slow")], ["1", t("prefs.normal")], ["0.4", t("prefs.fast")], ["0", t("lobby.instant")]],
      String(COMPUTER_DELAY[p.speed] ?? 1));
    const timer = select("turn_seconds", TIMERS.map((s) => [s, s ? t("lobby.seconds", { n: s }) : t("lobby.noTimer")]), PUBLIC_TIMER);
    const away = select("away_seconds", AWAY.map((s) => [s, s ? t("lobby.seconds", { n: s }) : t("lobby.never")]), 60);
    const spectators = h("input", { type: "checkbox", name: "spectators", checked: true });
    const autopass = h("input", { type: "checkbox", name: "autopass", checked: p.autopass ? true : undefined });
    const autopassFive = h("input", { type: "checkbox", name: "autopass_five", checked: p.autopassFive ? true : undefined });
    const hotseat = h("input", { type: "checkbox", name: "hotseat" });
    const isPublic = h("input", { type: "checkbox", name: "public", checked: true });
    const spectatorChat = h("input", { type: "checkbox", name: "spectator_chat" });
    const assists = h("input", { type: "checkbox", name: "assists", checked: true });
    const title = h("input", { type: "text", name: "title", maxlength: 60, placeholder: t("lobby.titlePlaceholder") });
    const seed = h("input", { type: "text", name: "seed", inputmode: "numeric", placeholder: t("lobby.seedPlaceholder"), "aria-label": t("lobby.seed") });
    const counterSeconds = select("counter_seconds", COUNTER_SECONDS.map((s) => [s, t("lobby.seconds", { n: s })]), COUNTER_SECONDS[0]);
    let counterChosen = false; // the player picked a time: hot-seat no longer changes it
    counterSeconds.addEventListener("change", () => (counterChosen = true));
    hotseat.addEventListener("change", () => {
      if (!counterChosen) counterSeconds.value = String(hotseat.checked ? HOTSEAT_COUNTER : COUNTER_SECONDS[0]);
    });
    const counterField = field(t("lobby.counterSeconds"), counterSeconds);
    const seatRows = h("div", { class: "seat-rows" });
    // A room against computers alone is neither listed nor timed (nobody to wait for, nobody
    // to find it), one with other people is both, until the player sets either themselves.
    let listingChosen = false;
    isPublic.addEventListener("change", () => (listingChosen = true));
    timer.addEventListener("change", () => (listingChosen = true));
    const syncListing = () => {
      if (listingChosen) return;
      const people = [...seatRows.querySelectorAll(".seat-row")].filter((row) => valueIn(row, "kind") === "human").length;
      isPublic.checked = people > 1;
      timer.value = String(people > 1 ? PUBLIC_TIMER : 0);
    };
    /** The computer levels the preset chosen plays with (a revolution room: the levels that play it). */
    const levels = () => this.presets.find((x) => x.name === preset.value)?.levels?.filter((l) => this.levels.includes(l)) || this.levels;
    const drawSeats = () => {
      const n = Number(players.value);
      const old = [...seatRows.querySelectorAll(".seat-row")].map((row) => ({
        kind: valueIn(row, "kind"), level: valueIn(row, "level"), name: valueIn(row, "seat-name"),
      }));
      mount(seatRows, Array.from({ length: n }, (_, i) => {
        const offered = levels();
        const fallback = offered.includes("strong") ? "strong" : offered.includes("greedy") ? "greedy" : offered[0];
        const prev = old[i] || { kind: i === 0 ? "human" : "computer", level: fallback, name: i === 0 ? myName() : p.names[i] || "" };
        const kind = select("kind", [["human", t("seat.human")], ["computer", t("seat.computer")]], prev.kind);
        const level = select("level", offered.map((l) => [l, tOr(`level.${l}`, l)]), offered.includes(prev.level) ? prev.level : fallback);
        // The first seat is ours: the welcome dialog's name fills it when it is still empty.
        const name = h("input", { type: "text", name: "seat-name", maxlength: 24, value: prev.name, "aria-label": t("lobby.seatName", { n: i + 1 }), class: "seat-name", "data-my-name": i === 0 ? "" : undefined });
        const sync = () => {
          level.disabled = kind.value !== "computer";
          level.hidden = kind.value !== "computer";
        };
        kind.addEventListener("change", sync);
        kind.addEventListener("change", syncListing);
        kind.setAttribute("aria-label", t("lobby.seatKind", { n: i + 1 }));
        level.setAttribute("aria-label", t("lobby.seatLevel", { n: i + 1 }));
        sync();
        return h("div", { class: "seat-row", dataset: { seat: String(i) } }, h("strong", {}, t("seat.n", { n: i + 1 })), kind, level, name);
      }));
    };
    const syncPreset = () => {
      const info = this.presets.find((x) => x.name === preset.value);
      if (!info) return;
      for (const opt of players.options) opt.disabled = !info.players.includes(Number(opt.value));
      if (!info.players.includes(Number(players.value))) players.value = String(info.players.includes(4) ? 4 : info.players[0]);
      deals.value = String(info.deals);
      counterField.hidden = preset.value !== "revolution";
      drawSeats();
    };
    preset.addEventListener("change", syncPreset);
    players.addEventListener("change", () => { drawSeats(); syncListing(); });
    drawSeats();
    syncPreset();
    syncListing();
    const status = h("p", { class: "error", role: "alert" });
    const submit = h("button", { class: "btn primary", type: "submit", "data-create": "" }, t("lobby.create"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      submit.disabled = true;
      status.textContent = "";
      try {
        await this.create(form, { hotseat: hotseat.checked });
      } catch (err) {
        status.textContent = errorOf(err).message;
      } finally {
        submit.disabled = false;
      }
    });
    mount(form,
      h("h2", { id: "create-title" }, t("lobby.createTitle")),
      h("div", { class: "row" }, field(t("lobby.preset"), preset, "grow"), field(t("lobby.players"), players), field(t("lobby.deals"), deals)),
      h("fieldset", {}, h("legend", {}, t("lobby.seats")), seatRows,
        h("label", { class: "field inline" }, hotseat, h("span", {}, t("lobby.hotseat")))),
      h("div", { class: "row" }, field(t("lobby.timer"), timer), counterField, field(t("lobby.away"), away), field(t("lobby.pace"), pace), field(t("lobby.title"), title, "grow")),
      h("div", { class: "row" },
        h("label", { class: "field inline" }, autopass, h("span", {}, t("prefs.autopass"))),
        h("label", { class: "field inline" }, autopassFive, h("span", {}, t("prefs.autopassFive"))),
        h("label", { class: "field inline" }, isPublic, h("span", {}, t("lobby.public"))),
        h("label", { class: "field inline" }, spectators, h("span", {}, t("lobby.spectators"))),
        h("label", { class: "field inline" }, spectatorChat, h("span", {}, t("lobby.spectatorChat"))),
        h("label", { class: "field inline" }, assists, h("span", {}, t("lobby.assists"))),
        ratedField()),
      h("p", { class: "muted" }, t("lobby.privateHint")),
      h("details", {}, h("summary", {}, t("lobby.more")), field(t("lobby.seed"), seed)),
      status,
      h("div", { class: "row" }, submit));
    return form;
  }

  /** @param {HTMLFormElement} form @param {{hotseat: boolean}} options */
  async create(form, { hotseat }) {
    const data = new FormData(form);
    const rows = [...form.querySelectorAll(".seat-row")];
    const names = rows.map((row) => valueIn(row, "seat-name").trim());
    // A computer gives way to a person of its name (yours, or one typed for a person's seat):
    // it goes unnamed, and the server calls it "Computer N" rather than the person "Ann (2)".
    const people = new Set([myName() || "", ...rows.map((row, i) => (valueIn(row, "kind") === "human" ? names[i] : ""))].map((n) => n.trim().toLowerCase()).filter(Boolean));
    /** @type {import("./protocol.js").SeatRequest[]} */
    const seats = rows.map((row, i) => {
      const kind = valueIn(row, "kind");
      const name = people.has(names[i].toLowerCase()) ? "" : names[i];
      return kind === "computer" ? { kind, level: valueIn(row, "level"), name } : { kind: "human" };
    });
    /** @type {import("./protocol.js").RoomRequest} */
    const config = {
      preset: String(data.get("preset")),
      seats,
      deals: Number(data.get("deals")) || undefined,
      autopass: checkedIn(form, "autopass"),
      autopass_five: checkedIn(form, "autopass_five"),
      computer_delay: Number(data.get("computer_delay")),
      public: checkedIn(form, "public"),
      spectators: checkedIn(form, "spectators"),
      // Said either way: a public room would otherwise get the server's default timer.
      turn_seconds: Number(data.get("turn_seconds")) || null,
      away_seconds: Number(data.get("away_seconds")) || null,
      spectator_chat: checkedIn(form, "spectator_chat"),
      assists: checkedIn(form, "assists"),
    };
    const title = String(data.get("title") || "").trim();
    if (title) config.title = title;
    // Revolution: the counter window's clock (a rule of the preset, 5 s unless changed).
    const counter = Number(data.get("counter_seconds"));
    if (config.preset === "revolution" && counter && counter !== COUNTER_SECONDS[0]) config.rules = { revolution: { counter_seconds: counter } };
    const seed = String(data.get("seed") || "").trim();
    if (seed) config.seed = Number(seed);
    const humanSeats = seats.map((s, i) => (s.kind === "human" ? i : -1)).filter((i) => i >= 0);
    if (!humanSeats.length) throw new Error(t("lobby.needHuman"));
    if (names[humanSeats[0]]) setPrefs({ name: names[humanSeats[0]] });
    else if (!(await nameOrAsk())) throw new Error(t("lobby.needName")); // never a made-up name
    setPrefs({ names: names.map((n, i) => n || prefs().names[i] || "") });
    const made = await api.createRoom(config);
    const mine = hotseat ? humanSeats : [humanSeats[0]];
    for (const seat of mine) {
      const name = names[seat] || (seat === humanSeats[0] ? myName() : t("seat.n", { n: seat + 1 }));
      // Our own picture for our seat; on a shared device the others get one from their name.
      const picture = seat === humanSeats[0] ? prefs().avatar : nameAvatar(name, seat);
      const joined = await api.join(made.code, { name, seat, avatar: picture });
      rememberSeat(made.code, { seat: joined.seat, token: joined.token, name });
      if (seat === humanSeats[0]) await keepSeat(made.code, joined.token, { rated: checkedIn(form, "rated") });
    }
    // Alone against computers (or every human here): get ready at once.
    const start = mine.length === humanSeats.length;
    location.hash = `#/t/${made.code}${start ? "?start=1" : ""}`;
  }

  // -- your rooms ---------------------------------------------------------------------------
  /** The rooms still being played where this browser holds a seat (the server checks each
   * seat's token); the seats that hold nothing now are forgotten. */
  async refreshMine() {
    const held = heldTables();
    if (!held.length) {
      this.minePanel.hidden = true;
      return;
    }
    /** @type {Awaited<ReturnType<typeof api.mine>>} */
    let answer;
    try {
      answer = await api.mine(held.map((table) => ({ code: table.code, token: table.seats[0].token })));
    } catch (err) {
      mount(this.mine, h("li", { class: "error" }, errorOf(err).message));
      this.minePanel.hidden = false;
      return;
    }
    for (const code of answer.gone) forgetTable(code);
    this.minePanel.hidden = !answer.rooms.length;
    mount(this.mine, answer.rooms.map(({ room, seat }) => this.myRoomItem(room, seat)));
  }

  /** One of your rooms: where it stands, Rejoin, and Close for its host. @param {Room} room @param {number} seat */
  myRoomItem(room, seat) {
    const status = h("span", { class: "error", role: "alert" });
    const token = heldTables(Infinity).find((table) => table.code === room.code)?.seats.find((s) => s.seat === seat)?.token;
    const where = room.status === "playing" && room.deal ? t("mine.deal", { deal: room.deal, deals: room.deals }) : t(`status.${room.status}`);
    return h("li", { class: "room", dataset: { myRoom: room.code } },
      roomHead(room, `${where} · ${t("seat.n", { n: seat + 1 })}${room.host === seat ? ` · ${t("mine.host")}` : ""}`),
      h("div", { class: "row" },
        h("a", { class: "btn small primary", href: `#/t/${room.code}`, "data-rejoin": room.code }, t("mine.rejoin")),
        room.host === seat && token ? closeRoomButton(room.code, token, { status, onClosed: () => this.refreshMine() }) : null,
        status));
  }

  // -- open rooms ---------------------------------------------------------------------------
  /** The pages of open rooms shown (newest first), and a button for the next page. */
  async refreshRooms() {
    /** @type {Room[]} */
    const rooms = [];
    let cursor = null;
    let total = 0;
    try {
      for (let page = 0; page < this.pages; page++) {
        const got = await api.rooms(ROOMS_PAGE, cursor);
        rooms.push(...got.rooms);
        total = got.total;
        cursor = got.next;
        if (cursor === null) break;
      }
    } catch (err) {
      mount(this.rooms, h("li", { class: "error" }, errorOf(err).message));
      return;
    }
    mount(this.moreRooms, cursor !== null
      ? h("button", { class: "btn small", type: "button", "data-more-rooms": "", onclick: () => { this.pages += 1; this.refreshRooms(); } },
          t("lobby.moreRooms", { n: rooms.length, of: total }))
      : null);
    if (!rooms.length) {
      mount(this.rooms, h("li", { class: "muted" }, t("lobby.noRooms")));
      return;
    }
    mount(this.rooms, rooms.map((room) => this.roomItem(room)));
  }

  /** @param {Room} room */
  roomItem(room) {
    const seats = room.seats.map((s) => h("span", { class: `chip ${s.kind === "human" && !s.taken ? "free" : ""}` },
      s.kind === "computer" || s.taken ? avatar({ computer: s.kind === "computer", seat: s.seat, index: s.avatar ?? nameAvatar(s.name, s.seat), size: 18 }) : null,
      s.kind === "computer" || s.taken ? shownName(s.name) : t("seat.free")));
    const free = room.seats.filter((s) => s.kind === "human" && !s.taken);
    return h("li", { class: "room", dataset: { code: room.code } },
      roomHead(room, `${t("lobby.dealsN", { n: room.deals })}${room.options.turn_seconds ? ` · ${t("lobby.perTurn", { n: room.options.turn_seconds })}` : ""}`),
      h("div", { class: "room-seats" }, seats),
      h("div", { class: "row" },
        free.length ? h("a", { class: "btn small primary", href: `#/t/${room.code}`, "data-join": room.code }, t("lobby.join")) : null,
        room.options.spectators ? h("a", { class: "btn small", href: `#/t/${room.code}/watch`, "data-watch": room.code }, t("lobby.watch")) : null));
  }
}

/** Joining a table from a link: pick a free seat (with your name) or watch. */
export class JoinScreen {
  /**
   * @param {HTMLElement} root
   * @param {string} code
   * @param {{onSeated: () => void, onWatch: () => void}} options
   */
  constructor(root, code, { onSeated, onWatch }) {
    this.root = root;
    this.code = code;
    this.onSeated = onSeated;
    this.onWatch = onWatch;
    mount(root, h("p", { class: "loading" }, t("app.loading")));
    this.load();
  }

  destroy() {}

  async load() {
    /** @type {Room} */
    let room;
    try {
      room = (await api.room(this.code)).room;
    } catch (err) {
      mount(this.root, h("div", { class: "lobby" }, h("section", { class: "panel" },
        h("h2", {}, t("join.title", { code: this.code })), h("p", { class: "error", role: "alert" }, errorOf(err).message),
        h("a", { class: "btn", href: "#/" }, t("action.backToLobby")))));
      return;
    }
    const name = h("input", { type: "text", maxlength: 24, value: myName(), "aria-label": t("prefs.name"), name: "name", "data-my-name": "" });
    const status = h("p", { class: "error", role: "alert" });
    /** @param {number} seat */
    const sit = async (seat) => {
      status.textContent = "";
      try {
        const who = name.value.trim() || (await nameOrAsk());
        if (!who) {
          status.textContent = t("lobby.needName");
          return;
        }
        setPrefs({ name: who });
        const joined = await api.join(this.code, { name: who, seat, avatar: prefs().avatar });
        rememberSeat(this.code, { seat: joined.seat, token: joined.token, name: who });
        await keepSeat(this.code, joined.token);
        this.onSeated();
      } catch (err) {
        status.textContent = errorOf(err).message;
      }
    };
    const waiting = room.status === "waiting";
    mount(this.root, h("div", { class: "lobby" }, h("section", { class: "panel join" },
      h("h2", {}, room.title || t("join.title", { code: this.code })),
      h("p", { class: "muted" }, `${tOr(`preset.${room.preset}`, room.preset)} · ${t("lobby.dealsN", { n: room.deals })} · ${t(`status.${room.status}`)}`),
      waiting ? h("label", { class: "field" }, h("span", {}, t("prefs.name")), name) : h("p", {}, t("join.started")),
      h("ul", { class: "rooms" }, room.seats.map((s) => h("li", { class: "room" },
        h("div", { class: "room-head" },
          h("span", { class: "row" }, s.kind === "computer" || s.taken ? avatar({ computer: s.kind === "computer", seat: s.seat, index: s.avatar ?? nameAvatar(s.name, s.seat), size: 28 }) : emptyAvatar(28),
            h("strong", {}, t("seat.n", { n: s.seat + 1 })),
            s.kind === "computer" ? `${s.name} (${tOr(`level.${s.level}`, s.level ?? "")})` : s.taken ? s.name : t("seat.free")),
          waiting && s.kind === "human" && !s.taken
            ? h("button", { class: "btn small primary", type: "button", "data-sit": String(s.seat), onclick: () => sit(s.seat) }, t("join.sit")) : null)))),
      status,
      h("div", { class: "row" },
        room.options.spectators && room.options.public ? h("button", { class: "btn", type: "button", "data-watch": "", onclick: () => this.onWatch() }, t("lobby.watch")) : null,
        h("a", { class: "btn", href: "#/" }, t("action.backToLobby"))))));
  }
}

/**
 * A room's line in a list: its title (or "Table CODE" where it has none) and what it is. The
 * code shows once: after a title of the host's, else in the title's place.
 * @param {Room} room @param {string} more
 */
function roomHead(room, more) {
  const preset = tOr(`preset.${room.preset}`, room.preset);
  return h("div", { class: "room-head" },
    h("span", { class: "room-title" }, room.title || t("table.room", { code: room.code })),
    h("span", { class: "muted" }, `${room.title ? `${room.code} · ` : ""}${preset} · ${more}`));
}
