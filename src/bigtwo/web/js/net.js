// Talking to the server: the HTTP lobby API and one WebSocket per seat at a table
// (docs/protocol.md). Reconnects with back-off and asks for what it missed by event number.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function request(method, path, body) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10000);
  try {
    const res = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: controller.signal,
    });
    const type = res.headers.get("content-type") || "";
    const data = type.includes("json") ? await res.json() : await res.text();
    if (!res.ok) throw new ApiError(data?.error || "http", data?.message || `HTTP ${res.status}`, res.status);
    return data;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError("network", err.name === "AbortError" ? "The server did not answer in time" : "Cannot reach the server", 0);
  } finally {
    clearTimeout(timer);
  }
}

export const api = {
  info: () => request("GET", "/api"),
  presets: () => request("GET", "/api/presets"),
  rooms: () => request("GET", "/api/rooms"),
  createRoom: (config) => request("POST", "/api/rooms", config),
  room: (code) => request("GET", `/api/rooms/${encodeURIComponent(code)}`),
  join: (code, body) => request("POST", `/api/rooms/${encodeURIComponent(code)}/join`, body),
  /** A new game for the players of a finished table: {code, seat, token} of ours there. */
  rematch: (code, token) => request("POST", `/api/rooms/${encodeURIComponent(code)}/rematch`, { token }),
  /** A match record (JSON) or history (text); null when the server has no such endpoint. */
  async record(code) {
    try {
      return await request("GET", `/api/rooms/${encodeURIComponent(code)}/record`);
    } catch (err) {
      if (err.status === 404 || err.status === 405) return null;
      throw err;
    }
  },
  async history(code) {
    try {
      return await request("GET", `/api/rooms/${encodeURIComponent(code)}/history`);
    } catch (err) {
      if (err.status === 404 || err.status === 405) return null;
      throw err;
    }
  },
};

const PROTOCOL = 1;
const RESENT = new Set(["play", "pass"]);
const FINAL_CLOSES = new Set([4400, 4401, 4404, 4409, 4410]); // bad hello, no seat, no room, replaced, quit
let idCounter = 0;
const newId = () => `${Date.now().toString(36)}${(idCounter++).toString(36)}`;

/**
 * One WebSocket for one seat (or a spectator). onMessage(msg) gets every server message;
 * onStatus(state, detail) gets "connecting" | "open" | "closed" | "gone".
 * `since()` says the newest event number we hold, for a reconnect.
 */
export class TableSocket {
  constructor({ code, token = null, watch = false, name = "", since = () => 0, onMessage, onStatus = () => {} }) {
    Object.assign(this, { code, token, watch, name, since, onMessage, onStatus });
    this.pending = new Map(); // action id -> {resolve, reject, timer}
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
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
      const hello = { type: "hello", protocol: PROTOCOL };
      if (this.token) hello.token = this.token;
      if (this.watch) hello.watch = true;
      if (this.name && !this.token) hello.name = this.name;
      const since = this.since();
      if (since > 0) hello.since = since;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.onStatus("open", msg);
        this.resend();
      }
      this.settle(msg);
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      // Plays and passes wait to be sent again, with the same id, once we are back: the
      // server applies an id once, so a move is never doubled. Anything else fails now.
      for (const [id, p] of this.pending) {
        if (RESENT.has(p.message.type) && !this.stopped) continue;
        clearTimeout(p.timer);
        p.reject(Object.assign(new Error("connection lost"), { code: "network" }));
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
    for (const p of this.pending.values()) this.ws.send(JSON.stringify(p.message));
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retry);
    this.ws?.close(1000, "bye");
  }

  /** Answer a pending request from an ack or an error carrying its id. */
  settle(msg) {
    if (!msg.id || !this.pending.has(msg.id)) return;
    const p = this.pending.get(msg.id);
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.type === "error") p.reject(Object.assign(new Error(msg.message), { code: msg.code }));
    else p.resolve(msg);
  }

  /** Send a message with an id; resolves on its ack, rejects with the server's reason. */
  request(message, timeoutMs = 15000) {
    const id = message.id || newId();
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(Object.assign(new Error("not connected"), { code: "network" }));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(Object.assign(new Error("no answer from the server"), { code: "timeout" }));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, message: { ...message, id } });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  play(cards, v) {
    return this.request({ type: "play", v, cards });
  }

  pass(v) {
    return this.request({ type: "pass", v });
  }

  ready(ready = true) {
    return this.request({ type: "ready", ready });
  }

  /** Between deals: we have read the score sheet. */
  next() {
    return this.request({ type: "next" });
  }

  chat(text) {
    return this.request({ type: "chat", text });
  }

  quit() {
    return this.request({ type: "quit" });
  }

  resync() {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "sync" }));
  }
}
