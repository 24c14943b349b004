// @ts-check
// Preferences and seat credentials kept in localStorage.
import { AVATAR_COUNT } from "./avatars.js";

const KEY = "bigtwo.prefs";
/**
 * @typedef {object} Prefs
 * @property {string} name
 * @property {string[]} names
 * @property {number} avatar
 * @property {"slow" | "normal" | "fast"} speed
 * @property {boolean} autopass
 * @property {boolean} autopassFive
 * @property {"rank" | "suit" | "custom"} sort
 * @property {string} lang
 * @property {boolean} sound a tone when the turn comes (the top bar's switch)
 * @property {boolean} notify a notification when the turn comes in a background tab
 */
/** A seat this browser holds at a table. @typedef {{seat: number, token: string, name?: string}} HeldSeat */

/** @type {Prefs} */
const DEFAULTS = {
  name: "", // empty until the player chooses one (welcome.js): no name is ever made up
  names: ["", "Ann", "Bill", "Cat"], // names for computer seats, as the Palm game lets you edit
  avatar: 0,
  speed: "normal", // slow | normal | fast: how long plays stay in view and computer pace
  autopass: true, // pass automatically when nothing beats a 1-, 2- or 3-card play
  autopassFive: false, // ... and a 5-card play
  sort: "rank", // rank | suit
  lang: "", // "" follows the browser; "en" or "zh-Hant"
  sound: false, // off until the player turns it on
  notify: false, // asked for in the preferences (the browser asks for permission then)
};

/** @type {Prefs | null} */
let cache = null;

/**
 * @template T
 * @param {string} key
 * @param {T} fallback
 * @returns {T}
 */
function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;
  }
}

/** @param {string} key @param {unknown} value */
function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or full storage: preferences simply do not persist.
  }
}

/** The name the player chose, or "" before they chose one (never a made-up "You"). */
export function myName() {
  return prefs().name;
}

/** @returns {Prefs} */
export function prefs() {
  if (!cache) {
    /** @type {Partial<Prefs>} */
    const stored = read(KEY, {});
    cache = { ...DEFAULTS, ...stored };
    // A picture of their own for every new player (not everyone the same): chosen once, kept.
    if (typeof stored.avatar !== "number") {
      cache.avatar = Math.floor(Math.random() * AVATAR_COUNT);
      write(KEY, cache);
    }
  }
  return /** @type {Prefs} */ (cache);
}

/** @param {Partial<Prefs>} changes */
export function setPrefs(changes) {
  cache = { ...prefs(), ...changes };
  write(KEY, cache);
  window.dispatchEvent(new CustomEvent("prefs-changed", { detail: changes }));
  return cache;
}

/** Milliseconds a step takes at the chosen speed (animations, replay autoplay). @param {number} [base] */
export function speedMs(base = 600) {
  return { slow: base * 1.8, normal: base, fast: base * 0.4 }[prefs().speed] ?? base;
}

/**
 * The seats this browser holds at a table, so a reload rejoins.
 * @param {string} tableId
 * @returns {HeldSeat[]}
 */
export function seatsAt(tableId) {
  return read(`bigtwo.table.${tableId}`, { seats: /** @type {HeldSeat[]} */ ([]) }).seats || [];
}

/** @param {string} tableId @param {HeldSeat} entry */
export function rememberSeat(tableId, entry) {
  const seats = seatsAt(tableId).filter((s) => s.seat !== entry.seat);
  seats.push(entry);
  seats.sort((a, b) => a.seat - b.seat);
  write(`bigtwo.table.${tableId}`, { seats, at: Date.now() });
}

/**
 * The tables this browser holds a seat at, newest first: their codes and seats.
 * @param {number} [most] how many at most
 * @returns {Array<{code: string, seats: HeldSeat[]}>}
 */
export function heldTables(most = 10) {
  /** @type {Array<{code: string, seats: HeldSeat[], at: number}>} */
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith("bigtwo.table.")) continue;
      const kept = read(key, /** @type {{seats?: HeldSeat[], at?: number}} */ ({}));
      const seats = (kept.seats || []).filter((s) => typeof s.token === "string" && s.token);
      if (seats.length) found.push({ code: key.slice("bigtwo.table.".length), seats, at: kept.at || 0 });
    }
  } catch {
    /* storage unavailable: no seats kept */
  }
  return found.sort((a, b) => b.at - a.at).slice(0, most).map(({ code, seats }) => ({ code, seats }));
}

/** @param {string} tableId */
export function forgetTable(tableId) {
  try {
    localStorage.removeItem(`bigtwo.table.${tableId}`);
    localStorage.removeItem(`bigtwo.history.${tableId}`);
  } catch {
    /* ignore */
  }
}

/**
 * The order a player dragged their cards into, kept per table and seat for the deal.
 * @param {string} tableId
 * @param {number | null} seat
 * @param {number | null | undefined} deal
 * @returns {number[] | null}
 */
export function savedOrder(tableId, seat, deal) {
  const saved = read(`bigtwo.order.${tableId}.${seat}`, /** @type {{deal: number | null, cards: number[]} | null} */ (null));
  return saved && saved.deal === deal ? saved.cards : null;
}

/**
 * @param {string} tableId
 * @param {number | null} seat
 * @param {number | null | undefined} deal
 * @param {number[]} cards
 */
export function saveOrder(tableId, seat, deal, cards) {
  write(`bigtwo.order.${tableId}.${seat}`, { deal, cards, at: Date.now() });
}

/** Forget the oldest tables' seats, histories and card orders beyond the newest `keep`. @param {number} [keep] */
export function pruneStorage(keep = 30) {
  try {
    for (const prefix of ["bigtwo.table.", "bigtwo.history.", "bigtwo.order."]) {
      /** @type {Array<[string, number]>} */
      const entries = [];
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (key?.startsWith(prefix)) entries.push([key, read(key, /** @type {{at?: number}} */ ({}))?.at || 0]);
      }
      entries.sort((a, b) => b[1] - a[1]);
      for (const [key] of entries.slice(keep)) localStorage.removeItem(key);
    }
  } catch {
    /* storage unavailable: nothing to prune */
  }
}
