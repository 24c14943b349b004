// @ts-check
// The table screen: the seats, the trick, your hand and buttons, the message area and the
// side panel (chat, cards played, history). It holds one connection per seat this browser
// sits at (several in hot-seat play, none but a spectator's when watching) and renders the
// model of the seat whose turn it is.
import { h, mount, shortened, withNames } from "./dom.js";
import { cardText, setCharacterFunctions } from "./cards.js";
import { refusalWords, t, tOr } from "./i18n.js";
import { prefs, setPrefs, rememberSeat, forgetTable, savedOrder, saveOrder, myName, seatsAt } from "./prefs.js";
import { TableSocket, api, errorOf } from "./net.js";
import { turnCue, clearCue } from "./cues.js";
import { emptyModel, applySync, applyEvent, applyClock, sheetAfterSync, turnSeat } from "./state.js";
import { Hand } from "./hand.js";
import { ActionBar } from "./actionbar.js";
import { SidePanel } from "./sidepanel.js";
import { seatPanel, placesFrom, playerAvatar, timerBits } from "./seats.js";
import { trickView, statusText, lastTrickView } from "./trick.js";
import { waitingView } from "./waiting.js";
import { showScoreSheet, tickScoreSheet } from "./scoresheet.js";
import { reviewAction } from "./review.js";
import { BeliefsPanel } from "./beliefs.js";
import { Chat } from "./chat.js";
import { loadArchive, saveArchive, updateArchive, historyText, download } from "./history.js";
import { toast } from "./toast.js";
import { bindTableKeys } from "./keys.js";
import { coverScreen } from "./hotseat.js";
import { showHostControls } from "./hostcontrols.js";
import { shareLink, showShare } from "./share.js";
import { moveToTable, MOVE_MS } from "./motion.js";
import { revolutionStrip, revolutionPanel, panelKey, showReference, askExchange, tickCounterClock } from "./revolution.js";

/** @typedef {import("./state.js").Model} Model */
/** @typedef {import("./state.js").Effect} Effect */
/** @typedef {import("./state.js").Result} Result */
/** @typedef {import("./net.js").SocketStatus} SocketStatus */
/** @typedef {import("./net.js").StatusDetail} StatusDetail */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */

/**
 * One connection to the table: a seat this browser holds (seat null: watching), its socket
 * and its own model of the table.
 * @typedef {object} Conn
 * @property {number | null} seat
 * @property {string | null} token
 * @property {Model} model
 * @property {SocketStatus} status
 * @property {TableSocket} socket
 */



/** Our Revolution cards beside our name: "★ 2 Revolution cards" (on a phone "★ 2"). @param {number} count */
const revCountBits = (count) => h("span", { class: "muted-light rev-mine", title: t("rev.count", { count }), dataset: { revCount: String(count) } },
  "★ ", h("span", { class: "rev-full" }, t("rev.count", { count })), h("span", { class: "rev-short", "aria-hidden": "true" }, String(count)));

export class TableScreen {
  /**
   * seats: [{seat, token, name}] this browser holds; watch: a spectator token or true.
   * @param {HTMLElement} root
   * @param {string} code
   * @param {{seats?: import("./prefs.js").HeldSeat[], watch?: string | boolean | null, onLeave?: () => void}} [options]
   */
  constructor(root, code, { seats = [], watch = null, onLeave = () => {} } = {}) {
    this.root = root;
    this.code = code;
    this.onLeave = onLeave;
    this.archive = loadArchive(code);
    this.conns = seats.map((s) => this.connection(s.seat, { token: s.token }));
    if (!this.conns.length) this.conns.push(this.connection(null, typeof watch === "string" ? { token: watch } : { watch: true }));
    this.shown = this.conns[0];
    /** @type {number | null} hot-seat: whose cards may show */
    this.uncovered = this.conns.length > 1 ? null : this.shown.seat;
    /** @type {{text: string, refused: boolean} | null} */
    this.message = null;
    this.hintAt = -1;
    this.firstRender = true;
    /** @type {Result | null} the score sheet to open at the next drawing */
    this.pendingSheet = null;
    /** @type {HTMLElement | null} hot-seat: the cover over the table between two people's turns */
    this.cover = null;
    /** @type {number | null} the drawing asked for */
    this.frame = null;
    /** @type {string | null | undefined} the play on the table last drawn (undefined: none drawn yet) */
    this.tableKey = undefined;
    /**
     * The play moving to the table: since when, and where its cards come from (our hand's
     * cards, else the seat of whoever played it).
     * @type {{key: string, started: number, cards: Map<number, DOMRect>, from: DOMRect | null, seat: number} | null}
     */
    this.move = null;
    /** your seat, hand and buttons, kept between drawings */
    this.meEl = h("div", { class: "me" });
    /** Big 2 RevolutioN: what may be done beyond a play or a pass (drawn again only when it changes) */
    this.revPanel = h("div", { class: "rev-slot" });
    this.revKey = "";
    this.hand = new Hand({ onChange: () => this.onSelection(), label: t("hand.label") });
    this.hand.el.addEventListener("reordered", () => {
      setPrefs({ sort: "custom" });
      saveOrder(this.code, this.model.seat, this.model.deal?.number, this.hand.cards);
    });
    // A spectator at a table whose host turned spectators' chat off may read it, not write.
    this.chat = new Chat({
      onSend: (text) => this.say(text),
      closed: () => (this.model.seat === null && this.model.room && !this.model.room.options.spectator_chat ? t("chat.spectatorsMuted") : ""),
    });
    this.actions = new ActionBar({
      play: () => this.play(),
      pass: () => this.pass(),
      clear: () => this.clearSelection(),
      hint: () => this.hint(),
      "sort-rank": () => this.sort("rank"),
      "sort-suit": () => this.sort("suit"),
      "same-rank": () => this.hand.selectAllOf("rank"),
      "same-suit": () => this.hand.selectAllOf("suit"),
    });
    this.side = new SidePanel({ chat: this.chat, onChange: () => this.schedule(), onDownload: () => this.downloadHistory() });
    this.infobar = h("div", { class: "infobar" });
    this.felt = h("div", { class: "felt", role: "region", "aria-label": t("table.region") });
    this.beliefs = new BeliefsPanel(this.code);
    this.view = h("div", { class: "table-view", dataset: { code: this.code } }, this.infobar, this.felt, this.side.el, this.beliefs.el);
    this.build();
    this.unbindKeys = bindTableKeys(this);
    this.ticker = setInterval(() => this.tick(), 250);
    for (const c of this.conns) c.socket.connect();
  }

  get hotSeat() {
    return this.conns.length > 1;
  }

  get model() {
    return this.shown.model;
  }

  /**
   * @param {number | null} seat
   * @param {{token: string} | {watch: true}} auth
   * @returns {Conn}
   */
  connection(seat, auth) {
    const model = emptyModel(this.code, seat);
    const token = "token" in auth ? auth.token : null;
    /** @type {Conn} */
    const conn = {
      seat,
      token,
      model,
      status: "connecting",
      socket: new TableSocket({
        code: this.code,
        ...auth,
        name: myName(),
        since: () => model.v,
        onMessage: (msg) => this.onMessage(conn, msg),
        onStatus: (status, detail) => this.onStatus(conn, status, detail),
      }),
    };
    return conn;
  }

  destroy() {
    clearCue();
    clearInterval(this.ticker);
    this.unbindKeys();
    for (const c of this.conns) c.socket.close();
    document.querySelectorAll("dialog.score-sheet, .cover").forEach((el) => el.remove());
  }

  // -- messages from the server --------------------------------------------------------------
  /** @param {Conn} conn @param {SocketStatus} status @param {StatusDetail} [detail] */
  onStatus(conn, status, detail) {
    conn.status = status;
    if (status === "gone") {
      const code = detail && "code" in detail ? detail.code : undefined;
      if (code === 4401 || code === 4404) {
        this.setMessage(code === 4404 ? t("table.noRoom") : t("table.noSeat"), true);
        if (code === 4401) forgetTable(this.code);
      } else if (code === 4409) this.setMessage(t("table.replaced"), true);
    }
    this.schedule();
  }

  /** @param {Conn} conn @param {ServerMessage} msg */
  onMessage(conn, msg) {
    const model = conn.model;
    switch (msg.type) {
      case "welcome":
        model.seat = msg.seat;
        // The clock running now, so a reconnect shows the timer at once (a sync brings it too).
        if (!model.room) return;
        applyClock(model, msg.clock);
        break;
      case "sync": // back between deals (a reload, the link gone a while): the others' score sheet too
        applySync(model, msg);
        if (conn === this.conns[0] && !document.querySelector("dialog.score-sheet")) this.pendingSheet = sheetAfterSync(model) ?? this.pendingSheet;
        break;
      case "clock":
        applyClock(model, msg);
        break;
      case "presence":
        applyEvent(model, msg);
        break;
      case "error":
        if (!msg.id) this.setMessage(refusalWords(msg.code, msg.params, msg.message), true);
        return;
      case "ack":
      case "pong":
      case "bye":
        return;
      default:
        // A numbered event (one of a type this client does not know is still counted as seen).
        if (msg.v === undefined) return;
        for (const effect of applyEvent(model, msg)) this.effect(conn, effect);
    }
    if (conn === this.conns[0]) {
      updateArchive(this.archive, model);
      saveArchive(this.code, this.archive);
    }
    this.schedule();
  }

  /** @param {Conn} conn @param {Effect} effect */
  effect(conn, effect) {
    if (effect.type === "action") {
      const a = effect.action;
      if (conn === this.shown) {
        this.message = null;
        this.hintAt = -1;
      }
      if (a.seat === conn.seat && a.cards) this.hand.clear();
    } else if (effect.type === "deal_end" && conn === this.conns[0]) {
      this.pendingSheet = effect.result;
    } else if (effect.type === "new_deal" && conn === this.conns[0]) {
      // The table waited for us between deals and has dealt again: the sheet has been read.
      /** @type {HTMLDialogElement | null} */
      const open = document.querySelector("dialog.score-sheet[open][data-waits]");
      const deal = conn.model.deal;
      if (open && deal && Number(open.dataset.deal) < deal.number) open.close();
      if (this.pendingSheet?.waits) this.pendingSheet = null; // its wait is over unseen
    } else if (effect.type === "rematch") {
      // Our seat at the new game's table came with the news: keep it, to go there in one click.
      if (effect.token && effect.seat !== undefined && conn.seat !== null) {
        rememberSeat(effect.code, { seat: effect.seat, token: effect.token, name: conn.model.players[conn.seat]?.name });
      }
      if (conn === this.conns[0] && !this.conns.some((c) => c.seat === effect.by && c.seat !== null)) {
        const who = conn.model.players[effect.by]?.name || t("seat.n", { n: effect.by + 1 });
        toast(t("table.rematchBy", { name: who }));
      }
    } else if (effect.type === "freed" && conn === this.conns[0]) {
      toast(t("table.seatFreed", { n: effect.seat + 1, name: effect.name }));
    } else if (effect.type === "removed") {
      // The host freed our seat or gave it to a computer: this browser holds it no more.
      this.setMessage(t(effect.reason === "kicked" ? "table.kicked" : "table.givenAway"), true);
      forgetTable(this.code);
    } else if (effect.type === "match_end" && conn === this.conns[0]) {
      this.pendingSheet = conn.model.results.at(-1) || this.pendingSheet;
    } else if (effect.type === "busy" && conn === this.conns[0]) {
      const key = effect.busy ? "table.busy" : "table.notBusy";
      toast(t(key, { level: effect.level, usual: effect.usual }));
    } else if (effect.type === "chat" && conn === this.conns[0]) {
      const line = conn.model.chat.at(-1);
      if (line && line.seat !== conn.seat && window.innerWidth < 980) toast(`${line.name}: ${line.text}`);
    }
  }

  // -- actions -------------------------------------------------------------------------------
  async play() {
    const cards = this.hand.selectedCards();
    const model = this.model;
    if (!this.myTurn() || !cards.length) return;
    try {
      await this.shown.socket.play(cards.map(cardText), model.v);
    } catch (err) {
      this.refused(err, { played: cards.length });
    }
  }

  async pass() {
    if (this.model.deal?.rev?.phase === "draw") return; // passed already: the panel offers the draw or stop
    if (!this.myTurn() || !this.model.deal?.canPass) {
      if (this.myTurn()) this.setMessage(t("table.cannotPass"), true);
      return;
    }
    try {
      await this.shown.socket.pass(this.model.v);
    } catch (err) {
      this.refused(err);
    }
  }

  // -- Big 2 RevolutioN's moves ------------------------------------------------------------
  /** Activate a Character; an exchange asks first for the card to give and to whom. @param {number} card @param {string} fn */
  activate(card, fn) {
    const conn = this.shown;
    if (!this.myTurn()) return;
    const send = (/** @type {{target?: number, give?: string}} */ exchange) =>
      conn.socket.activate(cardText(card), conn.model.v, exchange).catch((err) => this.refused(err));
    if (fn === "exchange") askExchange(conn.model, card, this.hand.selectedCards(), (target, give) => send({ target, give: cardText(give) }));
    else send({});
  }

  /** Answer the counter window that asks the seat on show: cancel it with this Q. @param {number} card */
  counter(card) {
    const conn = this.shown;
    conn.socket.counter(cardText(card), conn.model.v).catch((err) => this.refused(err));
  }

  /** Answer the counter window: let the function stand. */
  decline() {
    const conn = this.shown;
    conn.socket.decline(conn.model.v).catch((err) => this.refused(err));
  }

  /** After a pass: take the deck's top card or a card of the Gathering. @param {number | "deck"} source */
  draw(source) {
    const conn = this.shown;
    if (!this.myTurn()) return;
    conn.socket.draw(source === "deck" ? "deck" : cardText(source), conn.model.v).catch((err) => this.refused(err));
  }

  /** After a pass: draw no more. */
  stopDrawing() {
    const conn = this.shown;
    if (!this.myTurn()) return;
    conn.socket.stop(conn.model.v).catch((err) => this.refused(err));
  }

  /**
   * @param {unknown} err a RequestError, or anything a request threw
   * @param {Record<string, string | number>} [sent] what was asked, for the words (errorOf)
   */
  refused(err, sent = {}) {
    const { code, message } = errorOf(err, sent);
    if (code === "stale") this.shown.socket.resync();
    this.setMessage(code === "network" || code === "timeout" ? t("table.offline") : message, true);
  }

  hint() {
    const legal = this.model.deal?.legal || [];
    // Not before the turn's choices have come (the seat's "turn" can follow the play before it).
    if (!this.myTurn() || !this.asked()) return;
    if (!legal.length) {
      this.hand.clear();
      this.setMessage(t("table.hintPass"), false);
      return;
    }
    this.hintAt = (this.hintAt + 1) % legal.length;
    this.hand.selectOnly(legal[this.hintAt]);
    this.setMessage(t("table.hintShow", { n: this.hintAt + 1, of: legal.length }), false);
  }

  clearSelection() {
    this.hintAt = -1;
    if (this.message && !this.message.refused) this.message = null;
    this.hand.clear();
    this.schedule();
  }

  /** @param {"rank" | "suit"} by */
  sort(by) {
    setPrefs({ sort: by });
    saveOrder(this.code, this.model.seat, null, []);
    this.hand.sort(by, this.model.rules?.suit_order || "dchs");
  }

  /** @param {Conn} [conn] @param {boolean} [on] */
  async ready(conn = this.shown, on = true) {
    try {
      await conn.socket.ready(on);
    } catch (err) {
      this.setMessage(errorOf(err).message, true);
    }
  }

  /** @param {string} text */
  async say(text) {
    try {
      await this.shown.socket.chat(text); // in hot-seat play, as whoever holds the device
    } catch (err) {
      toast(errorOf(err).message);
    }
  }

  async leave() {
    const playing = this.model.status === "playing" && this.model.seat !== null;
    if (playing && !confirm(t("table.confirmQuit"))) return;
    for (const c of this.conns) {
      if (c.seat !== null && this.model.status !== "finished") await c.socket.quit().catch(() => {});
    }
    forgetTable(this.code);
    this.onLeave();
  }

  /** A new game for the same people (the server's rematch): a new table with the same
   * options and players, where every seat this browser holds here is seated again. */
  async restart() {
    const mine = this.conns.filter((c) => c.seat !== null && c.token);
    if (!mine.length) return;
    try {
      let code = null;
      for (const c of mine) {
        if (c.seat === null || !c.token) continue;
        const made = await api.rematch(this.code, c.token); // the first asks, the rest join
        code = made.code;
        rememberSeat(made.code, { seat: made.seat, token: made.token, name: this.model.players[c.seat]?.name });
      }
      location.hash = `#/t/${code}?start=1`;
    } catch (err) {
      toast(errorOf(err).message);
    }
  }

  /** Go to the new game someone opened: as a player when we hold a seat there, else watch. */
  followRematch() {
    const code = this.model.rematch?.code;
    if (!code) return;
    if (this.model.seat === null) location.hash = `#/t/${code}/watch`;
    else if (seatsAt(code).length) location.hash = `#/t/${code}?start=1`;
    else this.restart(); // we missed our token (a reload): ask for our seat again
  }

  /** Between deals: tell the server every player here has read the score sheet. */
  async nextDeal() {
    const waiting = this.model.nextDeal?.waiting || [];
    for (const c of this.conns) if (c.seat !== null && waiting.includes(c.seat)) await c.socket.next().catch(() => {});
  }

  myTurn() {
    const d = this.model.deal;
    // At a revolution table the turn waits while a counter window is open.
    return !!d && this.model.seat !== null && turnSeat(this.model) === this.model.seat && this.uncovered === this.model.seat
      && d.rev?.phase !== "counter";
  }

  /** @param {string} text @param {boolean} [refused] */
  setMessage(text, refused = false) {
    this.message = text ? { text, refused } : null;
    this.schedule();
  }

  onSelection() {
    if (this.message?.refused) this.message = null;
    this.renderActions();
  }

  // -- hot-seat ------------------------------------------------------------------------------
  /** In hot-seat play, show the seat whose turn it is, behind a cover until they are ready. */
  pickShown() {
    if (!this.hotSeat) return;
    const anyModel = this.conns[0].model;
    let turn = turnSeat(anyModel);
    if (turn === null) return;
    // Revolution: a counter window asks the people here one at a time, in turn order from
    // the seat after the one who activated, each behind the cover; then the turn goes on.
    const pending = anyModel.deal?.rev?.phase === "counter" ? anyModel.deal.rev.pending : null;
    if (pending) {
      const players = anyModel.players.length || 4;
      const asked = this.conns
        .filter((c) => c.seat !== null && c.model.deal?.rev?.prompt && !c.model.deal.rev.prompt.answer)
        .sort((a, b) => ((/** @type {number} */ (a.seat) - pending.seat + players) % players) - ((/** @type {number} */ (b.seat) - pending.seat + players) % players));
      const still = asked.find((c) => c.seat === this.uncovered) || asked[0];
      if (still && still.seat !== null) turn = still.seat;
      else if (this.shown.seat !== null && this.shown.seat === this.uncovered) return; // answered: stay until the turn goes on
    }
    const next = this.conns.find((c) => c.seat === turn);
    if (next && next !== this.shown) {
      this.shown = next;
      this.hand.cards = [];
      this.hand.selected.clear();
    }
    if (next && this.uncovered !== turn && !this.cover) {
      const name = next.model.players[turn]?.name || t("seat.n", { n: turn + 1 });
      this.cover = coverScreen(name, () => {
        this.uncovered = turn;
        this.cover = null;
        this.schedule();
      });
    }
  }

  // -- rendering -------------------------------------------------------------------------------
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.render();
    });
  }

  build() {
    mount(this.root, this.view);
  }

  render() {
    this.pickShown();
    const model = this.model;
    const revRules = /** @type {{functions?: Record<string, unknown>} | undefined} */ (model.rules?.revolution);
    setCharacterFunctions(revRules?.functions);
    // Our turn, or (revolution) a counter window asking us.
    const asked = !!model.deal?.rev?.prompt && !model.deal.rev.prompt.answer && (!this.hotSeat || this.uncovered === model.seat);
    turnCue(this.myTurn() || asked);
    this.renderInfobar(model);
    this.renderFelt(model);
    this.side.render(model, this.archive, this.myTurn() || asked);
    this.beliefs.update(model, this.shown.token);
    // For tests and tools: the newest event shown, and the table's state.
    this.view.dataset.v = String(model.v);
    this.view.dataset.status = model.status;
    const turnNow = turnSeat(model);
    this.view.dataset.turn = turnNow === null ? "" : String(turnNow);
    if (this.pendingSheet) {
      /** @type {HTMLDialogElement | null} */
      const open = document.querySelector("dialog.score-sheet");
      if (open && model.matchOver && !open.dataset.final) open.close(); // the game ended: show the final scores instead
      if (!document.querySelector("dialog.score-sheet")) {
        const result = this.pendingSheet;
        this.pendingSheet = null;
        this.openScoreSheet(result);
      }
    }
    if (this.firstRender && model.room) {
      this.firstRender = false;
      const page = /** @type {Window & {__bigtwo?: Record<string, unknown>}} */ (window);
      page.__bigtwo = { ...page.__bigtwo, firstTableRenderMs: performance.now() };
      this.view.dataset.ready = "1";
    }
  }

  /** @param {Result | undefined} [result] */
  openScoreSheet(result = this.model.results.at(-1)) {
    if (!result) {
      toast(t("score.none"));
      return;
    }
    const dialog = showScoreSheet(this.model, result, {
      next: () => {
        this.nextDeal();
        /** @type {HTMLElement | null} */ (this.hand.el.querySelector(".hand-card"))?.focus();
      },
      restart: this.model.seat === null ? null : () => this.restart(),
      leave: () => this.leave(),
      // the replay viewer reads 52-card records only
      replay: this.model.room?.preset === "revolution" ? undefined : () => (location.hash = `#/replay/${this.code}`),
      record: () => this.downloadRecord(),
      review: reviewAction(this.model, this.code, this.shown.token, result.number),
    });
    dialog.addEventListener("close", () => this.schedule());
  }

  /** @param {Model} model */
  renderInfobar(model) {
    const room = model.room;
    const dealText = model.deal ? t("table.dealOf", { n: model.deal.number, of: model.dealsTotal }) : t("table.notStarted");
    const conn = this.shown.status;
    mount(this.infobar,
      h("span", { class: "grow" },
        h("strong", {}, room?.title || t("table.room", { code: this.code })), " · ",
        h("span", { "data-deal-label": "" }, dealText), room ? ` · ${tOr(`preset.${room.preset}`, room.preset)}` : "",
        model.seat === null ? ` · ${t("table.watching")}` : "",
        conn !== "open" ? h("span", { class: "badge", role: "status" }, ` · ${t(`conn.${conn}`)}`) : null),
      h("button", { class: "btn small", type: "button", onclick: () => this.share(), "data-share": "" }, t("table.share")),
      this.hostConn() && model.status !== "finished"
        ? h("button", { class: "btn small", type: "button", onclick: () => this.hostControls(), "data-host-controls": "" }, t("host.controls")) : null,
      h("button", { class: "btn small", type: "button", onclick: () => this.openScoreSheet(), "data-scores": "", disabled: !model.results.length }, t("table.scores")),
      this.beliefs.button(model, this.shown.token),
      h("button", { class: "btn small side-toggle", type: "button", "aria-expanded": String(this.side.open),
        onclick: () => this.side.toggle() }, shortened(t("side.toggle"), t("side.toggleShort"))),
      model.rematch && !this.rematchMine(model)
        ? h("button", { class: "btn small primary", type: "button", onclick: () => this.followRematch(), "data-rematch-join": model.rematch.code },
            model.seat === null ? t("action.watchNewGame") : t("action.joinNewGame"))
        : model.matchOver && model.seat !== null
          ? h("button", { class: "btn small", type: "button", onclick: () => this.restart(), "data-restart": "" }, t("action.newGame")) : null,
      model.matchOver && room?.preset !== "revolution" // the replay viewer reads 52-card records only
        ? h("a", { class: "btn small", href: `#/replay/${this.code}`, "data-replay-match": "" }, t("action.replay")) : null,
      h("button", { class: "btn small", type: "button", onclick: () => this.leave(), "data-leave": "" },
        model.seat === null || model.status !== "playing" ? t("action.leave") : t("action.quit")));
    const right = document.getElementById("sound-button")?.getBoundingClientRect().left; // the page's bar's buttons (app.css)
    if (right) this.infobar.style.setProperty("--bar-right", `${Math.ceil(innerWidth - right) + 8}px`);
  }

  /** Whether this browser asked for the new game itself (it is on its way there). @param {Model} model */
  rematchMine(model) {
    return this.conns.some((c) => c.seat !== null && c.seat === model.rematch?.by);
  }

  share() {
    showShare(this.code, this.conns, this.shown);
  }

  /** The connection of the host's seat, when this browser holds it. */
  hostConn() {
    const host = this.conns[0].model.host;
    return host === null ? undefined : this.conns.find((c) => c.seat !== null && c.seat === host);
  }

  /** The host's controls: kick a player, give a seat to a computer, the timers, spectators. */
  hostControls() {
    const conn = this.hostConn();
    if (conn) showHostControls(conn, this.model);
  }

  /** @param {Model} model */
  renderFelt(model) {
    const players = model.players.length || model.room?.players || 4;
    const me = model.seat ?? 0;
    const places = placesFrom(me, players);
    const covered = this.hotSeat && this.uncovered !== model.seat;
    const names = model.players.map((p) => p.name);
    const centre = h("div", { class: "centre" },
      model.status === "waiting"
        ? waitingView(model, { seats: this.conns.flatMap((c) => (c.seat === null ? [] : [c.seat])), link: shareLink(this.code),
            onReady: (seat, on) => this.ready(this.conns.find((c) => c.seat === seat), on) })
        : model.deal?.rev ? h("div", { class: "centre-play" }, trickView(model), revolutionStrip(model, {
            draw: (card) => this.draw(card), reference: () => showReference(),
            canDraw: (card) => this.myTurn() && !!model.deal?.rev && model.deal.rev.phase === "draw" && model.deal.rev.draws.includes(card),
          }))
        : trickView(model),
      lastTrickView(model),
      h("div", { class: `message ${this.message?.refused ? "refused" : ""}`, role: this.message?.refused ? "alert" : "status", "aria-live": "polite", "data-message": "" },
        withNames(this.message ? this.message.text : statusText(model, { covered: this.hotSeat && this.uncovered !== model.seat }), names)));
    this.noteMove(model);
    // The seats and the centre are drawn afresh; the "me" area stays, so the hand, the
    // buttons and whatever has the keyboard focus are never thrown away mid-game.
    for (const child of [...this.felt.children]) if (child !== this.meEl) child.remove();
    this.felt.prepend(...places.map(({ seat, place }) => seatPanel(model, seat, place)), centre);
    if (!this.meEl.isConnected) this.felt.append(this.meEl);
    if (model.seat === null) this.spectatorArea(model, me);
    else this.meArea(model, model.seat, covered);
    this.showMove();
    if (model.seat !== null && !covered) this.placeHand(model);
  }

  /** A new play on the table: remember where its cards come from, while they are still
   * there (our hand is redrawn without them later in this drawing). @param {Model} model */
  noteMove(model) {
    const table = model.deal?.table;
    const key = table && model.deal ? `${model.deal.number}:${table.seat}:${table.cards.join(" ")}` : null;
    if (this.tableKey !== undefined && key !== null && key !== this.tableKey && table) {
      // Our own play comes from our hand, when it is on show (not behind the hot-seat cover).
      const ours = table.seat === model.seat && this.hand.el.isConnected;
      /** @type {Map<number, DOMRect>} */
      const cards = new Map();
      if (ours) {
        for (const el of this.hand.cardEls()) {
          if (table.cards.includes(Number(el.dataset.card))) cards.set(Number(el.dataset.card), el.getBoundingClientRect());
        }
      }
      this.move = { key, started: performance.now(), cards, from: ours ? this.hand.el.getBoundingClientRect() : null, seat: table.seat };
    }
    if (model.deal) this.tableKey = key; // from the first drawing of a deal on: a play before it does not move
  }

  /** The play's cards, drawn in the centre, move there from where they were. */
  showMove() {
    const move = this.move;
    if (!move) return;
    const elapsed = performance.now() - move.started;
    if (move.key !== this.tableKey || elapsed >= MOVE_MS) {
      this.move = null;
      return;
    }
    const seat = move.from ? null : this.felt.querySelector(`.seat[data-seat="${move.seat}"] .avatar-wrap, .me[data-seat="${move.seat}"] .avatar-wrap`);
    const from = seat ? seat.getBoundingClientRect() : move.from;
    const cards = /** @type {HTMLElement[]} */ ([...this.felt.querySelectorAll(".trick-play .card")]);
    moveToTable(cards, (el) => move.cards.get(Number(el.dataset.card)) || from, elapsed);
  }

  /** @param {Model} model @param {number} bottomSeat */
  spectatorArea(model, bottomSeat) {
    this.meEl.className = "me spectating";
    mount(this.meEl, seatPanel(model, bottomSeat, "bottom"), h("p", {}, t("table.youWatch")));
  }

  /** @param {Model} model @param {number} seat ours @param {boolean} covered */
  meArea(model, seat, covered) {
    const player = model.players[seat] || { seat, name: myName() };
    const turn = turnSeat(model) === seat;
    const head = h("div", { class: "me-head" },
      h("div", { class: "avatar-wrap" }, playerAvatar(player, 40)),
      h("strong", { class: "me-name" }, player.name),
      turn ? h("span", { class: "your-turn" }, t("table.yourTurn")) : null,
      timerBits(model, seat),
      model.deal ? h("span", { class: "muted-light" }, t("seat.cardsLeft", { count: model.deal.counts[seat] })) : null,
      model.deal?.rev ? revCountBits(model.deal.rev.revolutionCounts[seat] ?? 0) : null);
    this.meEl.className = `me ${turn ? "turn" : ""}`;
    this.meEl.dataset.seat = String(seat);
    this.renderPanel(model, covered);
    const body = model.status === "waiting" ? []
      : covered ? [h("p", { class: "spectating" }, t("hotseat.hidden"))] : [this.revPanel, this.hand.el, this.actions.el];
    const current = [...this.meEl.children];
    if (current.length !== body.length + 1 || body.some((el, i) => current[i + 1] !== el)) mount(this.meEl, head, body);
    else current[0].replaceWith(head);
    this.renderActions();
  }

  /** Revolution: the panel of what may be done beyond a play or a pass, drawn again only when it changes. @param {Model} model @param {boolean} covered */
  renderPanel(model, covered) {
    const mine = this.myTurn() || (!covered && model.deal?.rev?.phase === "draw" && turnSeat(model) === model.seat);
    const key = covered ? "" : panelKey(model, mine);
    if (key === this.revKey && this.revPanel.isConnected) return;
    this.revKey = key;
    mount(this.revPanel, key ? revolutionPanel(model, mine, {
      activate: (card, fn) => this.activate(card, fn),
      counter: (card) => this.counter(card),
      decline: () => this.decline(),
      draw: (source) => this.draw(source),
      stop: () => this.stopDrawing(),
    }) : null);
    this.revPanel.hidden = !key;
  }

  /** @param {Model} model */
  placeHand(model) {
    const deal = model.deal;
    const cards = deal && model.status !== "waiting" ? deal.hand : [];
    const sort = prefs().sort;
    const sortBy = sort === "custom" ? null : sort;
    const fresh = this.hand.dealNumber !== deal?.number || this.hand.seat !== model.seat;
    this.hand.dealNumber = deal?.number;
    this.hand.seat = model.seat;
    const suitOrder = model.rules?.suit_order || "dchs";
    if (fresh) {
      // A new deal (or a reload): the order the player arranged, else their sort.
      const saved = sortBy ? null : savedOrder(this.code, model.seat, deal?.number);
      this.hand.cards = saved ? saved.filter((c) => cards.includes(c)) : [];
      this.hand.set(cards, saved ? null : sortBy || "rank", suitOrder);
    } else {
      // Cards that came to the hand (a draw, an exchange: revolution) go to their place in the sort chosen.
      const arrived = sortBy !== null && cards.some((c) => !this.hand.cards.includes(c));
      this.hand.set(cards, arrived ? sortBy : null, suitOrder);
    }
    this.hand.enabled = !!deal && !deal.over && !this.model.closed;
    this.hand.el.classList.toggle("disabled", !this.hand.enabled);
    requestAnimationFrame(() => this.hand.layout());
  }

  /** The buttons' state: what may be done now with what is selected. */
  renderActions() {
    const deal = this.model.deal;
    this.actions.update({
      myTurn: this.myTurn() && (!deal?.rev || deal.rev.phase === "act"), // not while drawing after a pass
      selected: this.hand.selectedCards().length,
      lead: !deal?.table,
      canPass: !!deal?.canPass,
      cards: this.hand.cards.length,
      asked: this.asked(),
    })
  }

  /** Whether the turn's choices have come: the legal plays, or leave to pass. */
  asked() {
    const deal = this.model.deal;
    return !!deal && (deal.legal.length > 0 || deal.canPass);
  }

  async downloadRecord() {
    try {
      const record = await api.record(this.code);
      download(`bigtwo-${this.code}.json`, JSON.stringify(record, null, 1), "application/json");
    } catch (err) {
      toast(errorOf(err).message);
    }
  }

  async downloadHistory() {
    let text = null;
    try {
      text = await api.history(this.code);
    } catch {
      text = null;
    }
    if (typeof text !== "string") text = historyText(this.archive, this.model);
    download(`bigtwo-${this.code}-history.txt`, text);
  }

  tick() {
    const model = this.model;
    tickScoreSheet(model);
    if (model.nextDeal?.endsAt && !document.querySelector("dialog[open]")) this.schedule(); // the countdown in the message
    tickCounterClock(model, this.view);
    if (!model.timer) return;
    for (const el of this.view.querySelectorAll("[data-timer-seat]")) {
      const left = Math.max(0, Math.ceil((model.timer.endsAt - Date.now()) / 1000));
      el.textContent = `${left}s`;
      const bar = /** @type {HTMLElement | null | undefined} */ (el.nextElementSibling?.firstElementChild);
      if (bar) bar.style.width = `${Math.max(0, Math.min(100, ((model.timer.endsAt - Date.now()) / (model.timer.seconds * 1000)) * 100))}%`;
    }
  }
}
