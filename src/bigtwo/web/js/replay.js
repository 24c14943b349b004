// @ts-check
// The replay viewer: step through any finished match record (from the server or an uploaded
// file, JSON or text) forward and back, jump to a deal, and see every hand face up.
import { h, mount, withNames } from "./dom.js";
import { cardRow, cardsSymbols, sortCards } from "./cards.js";
import { t } from "./i18n.js";
import { speedMs } from "./prefs.js";
import { api, errorOf } from "./net.js";
import { readRecord, positionAt, RecordError } from "./record.js";
import { avatar } from "./avatars.js";
import { nameAvatar } from "./state.js";
import { icon } from "./icons.js";
import { moveToTable } from "./motion.js";
import { openReview } from "./review.js";

/** @typedef {import("./record.js").MatchRecord} MatchRecord */

/** @type {Record<number, number[]>} */
const PLACES = { 2: [0, 2], 3: [0, 1, 3], 4: [0, 1, 2, 3] };

export class ReplayScreen {
  /** @param {HTMLElement} root @param {string | null} [code] a finished table's code, else choose a record */
  constructor(root, code = null) {
    this.root = root;
    /** @type {string | null} the finished table's code (a record from the server): its deals can be reviewed */
    this.code = code;
    this.reviewSeat = 0;
    /** @type {MatchRecord | null} */
    this.record = null;
    this.dealIndex = 0;
    this.step = 0;
    /** @type {ReturnType<typeof setInterval> | undefined} autoplay */
    this.timer = undefined;
    /** @type {HTMLElement | null} */
    this.felt = null;
    /** @type {{deal: number, step: number} | null} the position drawn last */
    this.shown = null;
    this.controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay.controls") });
    /** @param {KeyboardEvent} e */
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    if (code) this.loadFromServer(code);
    else this.picker();
  }

  destroy() {
    this.stop();
    document.removeEventListener("keydown", this.onKey);
  }

  // -- choosing a record ------------------------------------------------------------------------
  picker(error = "") {
    const file = h("input", { type: "file", accept: ".json,.rec,.txt,application/json,text/plain", "aria-label": t("replay.upload"), "data-upload": "" });
    file.addEventListener("change", () => file.files?.[0] && this.loadFile(file.files[0]));
    const zone = h("div", { class: "drop-zone" }, h("p", {}, t("replay.drop")), file);
    zone.addEventListener("dragover", (e) => e.preventDefault());
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      const dropped = e.dataTransfer?.files[0];
      if (dropped) this.loadFile(dropped);
    });
    const code = h("input", { type: "text", maxlength: 12, placeholder: "ABC234", "aria-label": t("lobby.code") });
    mount(this.root, h("div", { class: "replay-pick" }, h("section", { class: "panel" },
      h("h2", {}, t("replay.title")),
      h("p", {}, t("replay.intro")),
      zone,
      h("form", { class: "row", style: { marginTop: "12px" }, onsubmit: (e) => {
        e.preventDefault();
        if (code.value.trim()) location.hash = `#/replay/${code.value.trim().toUpperCase()}`;
      } }, h("label", {}, t("replay.fromServer")), code, h("button", { class: "btn", type: "submit" }, t("lobby.go"))),
      error ? h("p", { class: "error", role: "alert" }, error) : null)));
  }

  /**
   * A record file: its JSON form is read here; its text form (bigtwo-record 1, which the
   * terminal and `bigtwo simulate` write) by the server's one reader of records, which
   * gives back the JSON form (this page always comes from a server).
   * @param {File} file
   */
  async loadFile(file) {
    try {
      const text = await file.text();
      const json = text.trimStart().startsWith("{");
      this.open(readRecord(json ? text : /** @type {import("./record.js").RecordData} */ (await api.convertRecord(text))));
    } catch (err) {
      this.picker(t("replay.bad", { reason: recordTrouble(err) }));
    }
  }

  /** @param {string} code */
  async loadFromServer(code) {
    mount(this.root, h("p", { class: "loading" }, t("app.loading")));
    /** @type {unknown} */
    let data;
    try {
      data = await api.record(code);
    } catch (err) {
      // A wrong code is a wrong code, not a server without records.
      const { code: why } = errorOf(err);
      const words = why === "no_room" ? t("replay.noTable", { code }) : why === "not_over" ? t("replay.notOver", { code }) : errorOf(err).message;
      this.picker(words);
      return;
    }
    // The pictures the players chose at the table (a record holds only their names).
    const room = await api.room(code).catch(() => null);
    try {
      const record = readRecord(/** @type {import("./record.js").RecordData} */ (data));
      for (const seat of room?.room.seats || []) {
        if (record.seats[seat.seat] && seat.avatar !== null) record.seats[seat.seat].avatar = seat.avatar;
      }
      this.open(record);
    } catch (err) {
      this.picker(t("replay.badFromServer", { code, reason: recordTrouble(err) }));
    }
  }

  /** Show a record (already read); starts at the first deal. @param {MatchRecord} record */
  open(record) {
    if (!record.deals.length) throw new RecordError("replay.empty");
    this.record = record;
    this.dealIndex = 0;
    this.step = 0;
    this.shown = null;
    this.build();
    this.render();
  }

  // -- moving ---------------------------------------------------------------------------------
  /** The deal shown (only while a record is open). */
  get deal() {
    return /** @type {MatchRecord} */ (this.record).deals[this.dealIndex];
  }

  /** @param {number} step */
  go(step) {
    this.step = Math.max(0, Math.min(this.deal.actions.length, step));
    this.render();
  }

  /** @param {number} dealIndex */
  jump(dealIndex) {
    this.dealIndex = Math.max(0, Math.min(this.deals - 1, dealIndex));
    this.step = 0;
    this.render();
  }

  forward() {
    if (this.step < this.deal.actions.length) this.go(this.step + 1);
    else if (this.dealIndex < this.deals - 1) this.jump(this.dealIndex + 1);
    else this.stop();
  }

  back() {
    if (this.step > 0) this.go(this.step - 1);
    else if (this.dealIndex > 0) {
      this.dealIndex -= 1;
      this.go(this.deal.actions.length);
    }
  }

  toggleAuto() {
    if (this.timer) this.stop();
    else {
      // Automatic play stops at the end of each deal, on its result; started there, it plays
      // the next deal.
      if (this.step >= this.deal.actions.length) {
        if (this.dealIndex >= this.deals - 1) return;
        this.jump(this.dealIndex + 1);
      }
      this.timer = setInterval(() => this.autoStep(), speedMs(900));
      this.render();
    }
  }

  /** One step of automatic play, which rests at the end of the deal (Auto again: the next). */
  autoStep() {
    this.go(this.step + 1);
    if (this.step >= this.deal.actions.length) this.stop();
  }


  /** How many deals the record open has. */
  get deals() {
    return this.record?.deals.length ?? 0;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.record) this.render();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (!this.record || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    /** @type {Record<string, () => void>} */
    const actions = {
      ArrowRight: () => this.forward(), ArrowLeft: () => this.back(),
      Home: () => this.go(0), End: () => this.go(this.deal.actions.length),
      PageDown: () => this.jump(this.dealIndex + 1), PageUp: () => this.jump(this.dealIndex - 1),
      " ": () => this.toggleAuto(),
    };
    if (actions[e.key]) {
      e.preventDefault();
      actions[e.key]();
    }
  }

  /** Back to choosing a record. */
  close() {
    this.stop();
    this.record = null;
    this.code = null; // another record: from a file, or another table's
    this.felt = null;
    if (location.hash !== "#/replay") history.replaceState(null, "", "#/replay");
    this.picker();
  }

  // -- drawing ------------------------------------------------------------------------------------
  build() {
    this.felt = h("div", { class: "replay-felt", role: "region", "aria-label": t("replay.table") });
    this.controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay.controls") });
    mount(this.root, h("div", { class: "replay", "data-replay": "" }, this.controls, this.felt));
  }

  render() {
    if (!this.record || !this.felt) return;
    const record = this.record;
    const deal = this.deal;
    const pos = positionAt(deal, this.step);
    // One step forward onto a play: its cards move from the player's hand to the table.
    const played = this.shown && this.shown.deal === this.dealIndex && this.shown.step === this.step - 1 ? pos.last : null;
    /** @type {Map<number, DOMRect>} */
    const from = new Map();
    for (const card of played?.cards || []) {
      const el = this.felt.querySelector(`.replay-seat[data-seat="${played?.seat}"] .card[data-card="${card}"]`);
      if (el) from.set(card, el.getBoundingClientRect());
    }
    this.shown = { deal: this.dealIndex, step: this.step };
    /** @param {number} s */
    const name = (s) => record.seats[s]?.name || t("seat.n", { n: s + 1 });
    const players = deal.hands.length;
    const places = PLACES[players] || PLACES[4];
    const suitOrder = record.rules.suit_order || "dchs";
    mount(this.felt,
      deal.hands.map((_, seat) => {
        const last = [...pos.trick].reverse().find((a) => a.seat === seat);
        const passed = last && !last.cards;
        return h("section", {
          class: `replay-seat pos-${places[seat]} ${pos.turn === seat ? "turn" : ""}`,
          "aria-label": `${name(seat)}: ${t("seat.cardsLeft", { count: pos.hands[seat].length })}`,
          dataset: { seat: String(seat), left: String(pos.hands[seat].length) },
        },
          h("div", { class: "label" },
            avatar({ computer: record.seats[seat]?.kind === "computer", seat, index: record.seats[seat]?.avatar ?? nameAvatar(record.seats[seat]?.name ?? name(seat), seat), size: 28 }),
            h("span", { class: "replay-name" }, name(seat)), h("span", { class: "chip" }, String(pos.hands[seat].length)),
            passed ? h("span", { class: "bubble" }, last.auto ? t("seat.autopassed") : t("seat.passed")) : null),
          pos.hands[seat].length ? cardRow(sortCards(pos.hands[seat], "rank", suitOrder)) : h("span", { class: "win" }, pos.over ? t("score.win") : ""));
      }),
      h("div", { class: "centre", style: { gridArea: "centre" } }, this.centre(pos, name)));
    if (from.size) {
      const cards = /** @type {HTMLElement[]} */ ([...this.felt.querySelectorAll(".trick-play .card")]);
      moveToTable(cards, (el) => from.get(Number(el.dataset.card)));
    }
    /** @param {Event} e @returns {string} */
    const valueOf = (e) => /** @type {HTMLInputElement | HTMLSelectElement} */ (e.target).value;
    const dealSelect = h("select", { "aria-label": t("replay.jump"), "data-deal-select": "", onchange: (e) => this.jump(Number(valueOf(e))) },
      record.deals.map((d, i) => h("option", { value: i, selected: i === this.dealIndex ? true : undefined }, t("replay.dealN", { n: d.number }))));
    const slider = h("input", { type: "range", min: 0, max: deal.actions.length, value: this.step, "aria-label": t("replay.position"),
      oninput: (e) => this.go(Number(valueOf(e))) });
    /** @param {string} label @param {import("./dom.js").Child} text @param {() => void} fn @param {string} key */
    const btn = (label, text, fn, key) => h("button", { class: "btn small", type: "button", "aria-label": label, title: label, onclick: fn, "data-replay-btn": key }, text);
    mount(this.controls,
      dealSelect,
      btn(t("replay.start"), icon("first"), () => this.go(0), "start"),
      btn(t("replay.back"), icon("back"), () => this.back(), "back"),
      btn(this.timer ? t("replay.pause") : t("replay.auto"), [icon(this.timer ? "pause" : "play"), h("span", {}, this.timer ? t("replay.pauseShort") : t("replay.autoShort"))], () => this.toggleAuto(), "auto"),
      btn(t("replay.forward"), icon("forward"), () => this.forward(), "forward"),
      btn(t("replay.end"), icon("last"), () => this.go(deal.actions.length), "end"),
      slider,
      h("span", { class: "replay-step", "data-replay-step": `${deal.number}:${this.step}`, "aria-live": "polite" },
        t("replay.stepOf", { n: this.step, of: deal.actions.length })),
      this.code ? this.reviewControls(record, deal.number) : null,
      h("button", { class: "btn small", type: "button", onclick: () => this.close() }, t("replay.other")));
  }

  /** "Review this deal" for one seat (a finished table's deals only: the server reviews them). @param {MatchRecord} record @param {number} number */
  reviewControls(record, number) {
    const names = record.seats.map((s, i) => s?.name || t("seat.n", { n: i + 1 }));
    const seat = h("select", { "aria-label": t("review.seat"), "data-review-seat": "",
      onchange: (e) => (this.reviewSeat = Number(/** @type {HTMLSelectElement} */ (e.target).value)) },
      names.map((n, i) => h("option", { value: i, selected: i === this.reviewSeat ? true : undefined }, n)));
    return [seat, h("button", { class: "btn small", type: "button", "data-review-deal": "",
      onclick: () => openReview({ code: /** @type {string} */ (this.code), deal: number, seat: this.reviewSeat, names }) }, t("review.open"))];
  }

  /**
   * @param {ReturnType<typeof positionAt>} pos
   * @param {(seat: number) => string} name
   */
  centre(pos, name) {
    const deal = this.deal;
    const last = pos.last;
    const names = deal.hands.map((_, s) => name(s));
    const lastText = !last ? t(isYou(name(deal.leader)) ? "replay.dealStartYou" : "replay.dealStart", { name: name(deal.leader) })
      : last.cards ? t("replay.played", { name: name(last.seat), cards: cardsSymbols(last.cards) })
      : last.auto ? t("table.lastAutoPass", { name: name(last.seat) }) : t("table.lastPass", { name: name(last.seat) });
    const parts = [
      h("div", { class: "muted-light" }, t("replay.dealOf", { n: deal.number, of: this.deals })),
      pos.table ? h("div", { class: "trick-play" }, cardRow(pos.table.cards)) : null,
      pos.table ? h("div", { class: "trick-by" }, withNames(t("table.playedBy", { name: name(pos.table.seat), kind: "" }).replace(/\s*[(（]\s*[)）]/, ""), names)) : null,
      h("div", { class: "message", "data-replay-message": "" }, withNames(lastText, names)),
    ];
    if (this.step >= deal.actions.length && deal.points.length) {
      parts.push(h("table", { class: "score-table replay-result" },
        h("tbody", {}, deal.points.map((p, s) => h("tr", {},
          h("td", {}, name(s)),
          h("td", { class: "num" }, String(deal.counts[s] ?? pos.hands[s].length)),
          h("td", {}, s === deal.winner ? h("span", { class: "win" }, t("score.win")) : deal.multipliers[s] === 2 ? h("span", { class: "double" }, t("score.double")) : ""),
          h("td", { class: "num" }, p > 0 ? `+${p}` : String(p)))))));
    }
    return parts;
  }
}

/**
 * Whether a seat's name is the second-person "You" (the terminal's name for its player, any
 * capitals): "You lead", not "You leads".
 * @param {string} name
 */
const isYou = (name) => name.trim().toLowerCase() === "you";

/**
 * What is wrong with a record, in words of the page's language.
 * @param {unknown} err what reading or showing it threw
 */
function recordTrouble(err) {
  if (err instanceof RecordError) return t(err.key, err.params);
  return err instanceof Error && "code" in err ? errorOf(err).message : t("replay.unreadable");
}
