// Preferences and seat credentials kept in localStorage.
import { t } from "./i18n.js";

const KEY = "bigtwo.prefs";
const DEFAULTS = {
  name: "", // empty: "You" in the language shown
  names: ["", "Ann", "Bill", "Cat"], // names for computer seats, as the Palm game lets you edit
  avatar: 0,
  speed: "normal", // slow | normal | fast: how long plays stay in view and computer pace
  autopass: true, // pass automatically when nothing beats a 1-, 2- or 3-card play
  autopassFive: false, // ... and a 5-card play
  sort: "rank", // rank | suit
  lang: "", // "" follows the browser; "en" or "zh-Hant"
};

let cache = null;

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or full storage: preferences simply do not persist.
  }
}

/** The player's name, or "You" in the language shown when they have not set one. */
export function myName() {
  return prefs().name || t("prefs.defaultName");
}

export function prefs() {
  if (!cache) cache = { ...DEFAULTS, ...read(KEY, {}) };
  return cache;
}

export function setPrefs(changes) {
  cache = { ...prefs(), ...changes };
  write(KEY, cache);
  window.dispatchEvent(new CustomEvent("prefs-changed", { detail: changes }));
  return cache;
}

/** Milliseconds a step takes at the chosen speed (animations, replay autoplay). */
export function speedMs(base = 600) {
  return { slow: base * 1.8, normal: base, fast: base * 0.4 }[prefs().speed] ?? base;
}

/** The seats this browser holds at a table: [{seat, token, name}], so a reload rejoins. */
export function seatsAt(tableId) {
  return read(`bigtwo.table.${tableId}`, { seats: [] }).seats || [];
}

export function rememberSeat(tableId, entry) {
  const seats = seatsAt(tableId).filter((s) => s.seat !== entry.seat);
  seats.push(entry);
  seats.sort((a, b) => a.seat - b.seat);
  write(`bigtwo.table.${tableId}`, { seats, at: Date.now() });
}

export function forgetTable(tableId) {
  try {
    localStorage.removeItem(`bigtwo.table.${tableId}`);
    localStorage.removeItem(`bigtwo.history.${tableId}`);
  } catch {
    /* ignore */
  }
}

/** The order a player dragged their cards into, kept per table and seat for the deal. */
export function savedOrder(tableId, seat, deal) {
  const saved = read(`bigtwo.order.${tableId}.${seat}`, null);
  return saved && saved.deal === deal ? saved.cards : null;
}

export function saveOrder(tableId, seat, deal, cards) {
  write(`bigtwo.order.${tableId}.${seat}`, { deal, cards, at: Date.now() });
}

/** Forget the oldest tables' seats, histories and card orders beyond the newest `keep`. */
export function pruneStorage(keep = 30) {
  try {
    for (const prefix of ["bigtwo.table.", "bigtwo.history.", "bigtwo.order."]) {
      const entries = [];
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (key.startsWith(prefix)) entries.push([key, read(key, {})?.at || 0]);
      }
      entries.sort((a, b) => b[1] - a[1]);
      for (const [key] of entries.slice(keep)) localStorage.removeItem(key);
    }
  } catch {
    /* storage unavailable: nothing to prune */
  }
}
