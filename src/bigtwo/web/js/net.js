// @ts-check
// Talking to the server: the HTTP lobby API and one WebSocket per seat at a table
// (docs/protocol.md). Reconnects with back-off and asks for what it missed by event number.
import { refusalWords } from "./i18n.js";

/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */
/** @typedef {import("./protocol.js").HelloMessage} HelloMessage */
/** @typedef {import("./protocol.js").AckMessage} AckMessage */
/** @typedef {import("./protocol.js").WelcomeMessage} WelcomeMessage */

/** @typedef {import("./protocol.js").RefusalParams} RefusalParams */

/** A refusal from the lobby (its code, English words and params), or "network" when the server did not answer. */
export class ApiError extends Error {
  /**
   * @param {string} code @param {string} message @param {number} status the HTTP status (0: no answer)
   * @param {RefusalParams} [params]
   */
  constructor(code, message, status, params = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.params = params;
  }
}

/**
 * @param {"GET" | "POST"} method
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>} the answer's JSON (or text); its shape is the endpoint's
 */
export async function request(method, path, body) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10000);
  try {
    const res = await fetch(path, {
      method,
      // Every POST is JSON, even an empty one: the server refuses any other (415).
      headers: method === "POST" ? { "Content-Type": "application/json" } : {},
      body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
      signal: controller.signal,
    });
    const type = res.headers.get("content-type") || "";
    const data = type.includes("json") ? await res.json() : await res.text();
    // An error's body is {error, message, params}; one from something in between may be plain text.
    if (!res.ok) {
      const params = data && typeof data.params === "object" && data.params ? data.params : {};
      throw new ApiError(data?.error || "http", data?.message || `HTTP ${res.status}`, res.status, params);
    }
    return data;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const late = err instanceof Error && err.name === "AbortError";
    throw new ApiError("network", late ? "The server did not answer in time" : "Cannot reach the server", 0);
  } finally {
    clearTimeout(timer);
  }
}

/** @param {string} code */
const roomPath = (code) => `/api/rooms/${encodeURIComponent(code)}`;

export const api = {
  /** @returns {Promise<import("./protocol.js").ApiInfo>} */
  info: () => request("GET", "/api"),
  /** @returns {Promise<{presets: import("./protocol.js").Preset[]}>} */
  presets: () => request("GET", "/api/presets"),
  /**
   * A page of the open rooms, newest first: ask again with `cursor` = the page's `next`.
   * @param {number} limit @param {number | null} [cursor]
   * @returns {Promise<import("./protocol.js").RoomsPage>}
   */
  rooms: (limit, cursor = null) => request("GET", `/api/rooms?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`),
  /** @param {import("./protocol.js").RoomRequest} config @returns {Promise<import("./protocol.js").RoomMade>} */
  createRoom: (config) => request("POST", "/api/rooms", config),
  /** @param {string} code @returns {Promise<import("./protocol.js").RoomFound>} */
  room: (code) => request("GET", roomPath(code)),
  /** @param {string} code @param {import("./protocol.js").JoinRequest} body @returns {Promise<import("./protocol.js").Seated>} */
  join: (code, body) => request("POST", `${roomPath(code)}/join`, body),
  /**
   * A new game for the players of a finished table: our seat and token there.
   * @param {string} code
   * @param {string} token
   * @returns {Promise<import("./protocol.js").Seated & {room: import("./protocol.js").Room}>}
   */
  rematch: (code, token) => request("POST", `${roomPath(code)}/rematch`, { token }),
  /**
   * Which of these seats are still at a room being played: those rooms (each with our seat),
   * and the codes whose seat holds nothing now.
   * @param {Array<{code: string, token: string}>} seats
   * @returns {Promise<{rooms: Array<{seat: number, link: string, room: import("./protocol.js").Room}>, gone: string[]}>}
   */
  mine: (seats) => request("POST", "/api/my-rooms", { seats }),
  /** The host closes a room for everyone. @param {string} code @param {string} token the host's seat token */
  closeRoom: (code, token) => request("POST", `${roomPath(code)}/close`, { token }),
  /**
   * A match record of text (as the terminal and `bigtwo simulate` write it) read by the
   * server and given back in its JSON form.
   * @param {string} text @returns {Promise<object>}
   */
  convertRecord: (text) => request("POST", "/api/records/convert", { record: text }),
  /** The finished match as a JSON record. @param {string} code @returns {Promise<object>} */
  record: (code) => request("GET", `${roomPath(code)}/record`),
  /** The finished match's history as text. @param {string} code @returns {Promise<string>} */
  history: (code) => request("GET", `${roomPath(code)}/history`),
  /**
   * The coach's review of a seat in a finished deal: {status: "pending", done, total} until
   * it is computed, then {status: "done", review}.
   * @param {string} code @param {{deal: number, seat?: number, token?: string}} body
   * @returns {Promise<any>}
   */
  review: (code, body) => request("POST", `${roomPath(code)}/review`, body),
  /** What the cards played tell a seated player now. @param {string} code @param {string} token @returns {Promise<any>} */
  beliefs: (code, token) => request("POST", `${roomPath(code)}/beliefs`, { token }),
};

const PROTOCOL = 1;
// The moves of a hand, sent again with the same id after a reconnect (applied once).
const RESENT = new Set(["play", "pass", "activate", "counter", "decline", "draw", "stop"]);
const FINAL_CLOSES = new Set([4400, 4401, 4404, 4409, 4410]); // bad hello, no seat, no room, replaced, quit
let idCounter = 0;
/** An action id, unique for this page. */
const newId = () => `${Date.now().toString(36)}${(idCounter++).toString(36)}`;

/** @typedef {"connecting" | "open" | "closed" | "gone"} SocketStatus */
/**
 * What onStatus is told besides the status: the welcome when open, the close code otherwise.
 * @typedef {WelcomeMessage | {code: number, reason?: string} | undefined} StatusDetail
 */
/**
 * A message waiting for its answer.
 * @typedef {{resolve: (ack: AckMessage) => void, reject: (err: Error) => void, timer: ReturnType<typeof setTimeout>, message: ClientMessage}} Pending
 */

/** A refusal or failure of a request: its code is the server's ("illegal", "stale" …), "network" or "timeout". */
export class RequestError extends Error {
  /** @param {string} message @param {string} code @param {RefusalParams} [params] */
  constructor(message, code, params = {}) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

/**
 * The code of whatever a request threw (a RequestError, an ApiError, or else), and its words
 * in the page's language (the server's English only for a code this client does not know).
 * `sent`: what this page asked, which the words may use (`played`: how many cards it played).
 * @param {unknown} err
 * @param {Record<string, string | number>} [sent]
 * @returns {{code: string, message: string}}
 */
export function errorOf(err, sent = {}) {
  if (err instanceof RequestError || err instanceof ApiError) return { code: err.code, message: refusalWords(err.code, { ...err.params, ...sent }, err.message) };
  return { code: "", message: err instanceof Error ? err.message : String(err) };
}

/**
 * One WebSocket for one seat (or a spectator). onMessage(msg) gets every server message;
 * onStatus(state, detail) gets "connecting" | "open" | "closed" | "gone".
 * `since()` says the newest event number we hold, for a reconnect.
 */
export class TableSocket {
  /**
   * @param {object} options
   * @param {string} options.code
   * @param {string | null} [options.token] a seat's or spectator's token
   * @param {boolean} [options.watch] watch without a token
   * @param {string} [options.name] a spectator's name, without a token
   * @param {() => number} [options.since]
   * @param {(msg: ServerMessage) => void} options.onMessage
   * @param {(status: SocketStatus, detail?: StatusDetail) => void} [options.onStatus]
   */
  constructor({ code, token = null, watch = false, name = "", since = () => 0, onMessage, onStatus = () => {} }) {
    this.code = code;
    this.token = token;
    this.watch = watch;
    this.name = name;
    this.since = since;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {Map<string, Pending>} action id -> its promise's ends */
    this.pending = new Map();
    this.attempt = 0;
    this.stopped = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retry = undefined;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  connect() {
    this.stopped = false;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      // batch: what one move brings (the play, the next seat's turn, the ack) comes in one
      // frame, handled at once, so the page never shows the state between two of its messages.
      /** @type {HelloMessage} */
      const hello = { type: "hello", protocol: PROTOCOL, batch: true };
      if (this.token) hello.token = this.token;
      if (this.watch) hello.watch = true;
      if (this.name && !this.token) hello.name = this.name;
      const since = this.since();
      if (since > 0) hello.since = since;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      /** @type {ServerMessage | ServerMessage[]} */
      let data;
      try {
        data = JSON.parse(ev.data);
      } catch {
        return;
      }
      for (const msg of Array.isArray(data) ? data : [data]) {
        if (msg.type === "welcome") {
          this.onStatus("open", msg);
          this.resend();
        }
        this.settle(msg);
        this.onMessage(msg);
      }
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      // Moves (RESENT) wait to be sent again, with the same id, once we are back: the
      // server applies an id once, so a move is never doubled. Anything else fails now.
      for (const [id, p] of this.pending) {
        if (RESENT.has(p.message.type) && !this.stopped) continue;
        clearTimeout(p.timer);
        p.reject(new RequestError("connection lost", "network"));
        this.pending.delete(id);
      }
      if (this.stopped || FINAL_CLOSES.has(ev.code)) {
        this.onStatus("gone", { code: ev.code, reason: ev.reason });
        return;
      }
      this.onStatus("closed", { code: ev.code });
      const delay = Math.min(8000, 300 * 2 ** this.attempt++) * (0.75 + Math.random() / 2);
      this.retry = setTimeout(() => this.connect(), delay);
    };
  }

  resend() {
    for (const p of this.pending.values()) this.ws?.send(JSON.stringify(p.message));
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retry);
    this.ws?.close(1000, "bye");
  }

  /**
   * Answer a pending request from an ack or an error carrying its id.
   * @param {ServerMessage} msg
   */
  settle(msg) {
    if ((msg.type !== "ack" && msg.type !== "error") || msg.id === null) return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.type === "error") p.reject(new RequestError(msg.message, msg.code, msg.params));
    else p.resolve(msg);
  }

  /**
   * Send a message with an id; resolves on its ack, rejects with the server's reason.
   * @param {ClientMessage} message
   * @param {number} [timeoutMs]
   * @returns {Promise<AckMessage>}
   */
  request(message, timeoutMs = 15000) {
    const id = message.id || newId();
    return new Promise((resolve, reject) => {
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        reject(new RequestError("not connected", "network"));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestError("no answer from the server", "timeout"));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, message: { ...message, id } });
      ws.send(JSON.stringify({ ...message, id }));
    });
  }

  /** @param {string[]} cards in notation @param {number} v the newest event seen */
  play(cards, v) {
    return this.request({ type: "play", v, cards, id: newId() });
  }

  /** @param {number} v the newest event seen */
  pass(v) {
    return this.request({ type: "pass", v, id: newId() });
  }

  /**
   * Revolution: activate a Character card; an exchange gives `give` (a normal card) to `target`.
   * @param {string} card in notation ("As*") @param {number} v @param {{target?: number, give?: string}} [exchange]
   */
  activate(card, v, exchange = {}) {
    return this.request({ type: "activate", card, v, id: newId(), ...exchange });
  }

  /** Revolution: cancel the function in the counter window with a Revolution Q. @param {string} card @param {number} v */
  counter(card, v) {
    return this.request({ type: "counter", card, v, id: newId() });
  }

  /** Revolution: let the function in the counter window stand. @param {number} v */
  decline(v) {
    return this.request({ type: "decline", v, id: newId() });
  }

  /** Revolution: after a pass, take "deck" (its top card, face down) or a card of the Gathering. @param {string} source @param {number} v */
  draw(source, v) {
    return this.request({ type: "draw", source, v, id: newId() });
  }

  /** Revolution: after a pass, draw no more. @param {number} v */
  stop(v) {
    return this.request({ type: "stop", v, id: newId() });
  }

  /** Ready (or not) in the lobby. @param {boolean} [ready] */
  ready(ready = true) {
    return this.request({ type: "ready", ready });
  }

  /** Between deals: we have read the score sheet. */
  next() {
    return this.request({ type: "next" });
  }

  /** @param {string} text */
  chat(text) {
    return this.request({ type: "chat", text });
  }

  /** The host: free (or, during the match, give to a computer) the seat of another player. @param {number} seat */
  kick(seat) {
    return this.request({ type: "kick", seat });
  }

  /** The host: give a seat to a computer for good. @param {number} seat @param {string} [level] */
  computer(seat, level = "") {
    return this.request({ type: "computer", seat, level });
  }

  /**
   * The host: the turn timer and away time (seconds, null: none), whether spectators may watch
   * and whether they may chat.
   * @param {{turn_seconds: number | null, away_seconds: number | null, spectators: boolean, spectator_chat: boolean, assists?: boolean}} settings
   */
  settings(settings) {
    return this.request({ type: "settings", ...settings });
  }

  quit() {
    return this.request({ type: "quit" });
  }

  resync() {
    /** @type {import("./protocol.js").SyncRequest} */
    const ask = { type: "sync" };
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(ask));
  }
}
