// @ts-check
// English and Traditional Chinese strings. t("key", {name}) fills {name} placeholders.
import { STRINGS_EN } from "./strings-en.js";
import { STRINGS_ZH } from "./strings-zh.js";

/** @type {Record<string, Record<string, string>>} */
const TABLES = { en: STRINGS_EN, "zh-Hant": STRINGS_ZH };
/** @type {Record<string, string>} */
const ENGLISH = STRINGS_EN;
let current = "en";

/** Show the page in this language ("en", "zh-Hant"); anything else: the browser's. @param {string} code */
export function setLang(code) {
  current = code && TABLES[code] ? code : guessLang();
  document.documentElement.lang = current;
}

export function guessLang() {
  const wanted = (navigator.languages || [navigator.language || "en"]).map((l) => l.toLowerCase());
  return wanted.some((l) => l.startsWith("zh")) ? "zh-Hant" : "en";
}

export const lang = () => current;
/** The languages offered, as [code, name]. @returns {string[][]} */
export const languages = () => [["en", "English"], ["zh-Hant", "繁體中文"]];

/**
 * The text for key in the language shown, its {name} placeholders filled from params.
 * @param {string} key
 * @param {Record<string, string | number | null | undefined>} [params]
 */
export function t(key, params = {}) {
  // One of something has its own words where the language needs them ("1 deal", "1 card left").
  const one = [params.n, params.count, params.seconds].includes(1) ? TABLES[current][`${key}.one`] : undefined;
  const text = one ?? TABLES[current][key] ?? ENGLISH[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? `{${name}}`));
}

/**
 * A player's name as shown: the server's default name of a computer seat ("Computer 2") in
 * the page's language; any name a person chose, as it is.
 * @param {string} name
 */
export function shownName(name) {
  const computer = /^Computer (\d+)$/.exec(name);
  return computer ? t("seat.computerN", { n: computer[1] }) : name;
}

/**
 * Put translated text into every [data-i18n] element under root (static parts of the page).
 * @param {ParentNode} [root]
 */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(attr(el, "data-i18n"));
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(attr(el, "data-i18n-label")));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.setAttribute("title", t(attr(el, "data-i18n-title")));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.setAttribute("placeholder", t(attr(el, "data-i18n-placeholder")));
  if (root === document) document.title = t("app.title"); // the tab's name (a table's turn cue sets its own)
}

/** The value of an attribute the selector matched on. @param {Element} el @param {string} name */
const attr = (el, name) => el.getAttribute(name) || "";

/**
 * The translation of key, or fallback when neither language has one.
 * @param {string} key
 * @param {string} fallback
 * @param {Record<string, string | number | null | undefined>} [params]
 */
export function tOr(key, fallback, params = {}) {
  return key in TABLES[current] || key in ENGLISH ? t(key, params) : fallback;
}

/**
 * A refusal of the server in the page's language: `error.CODE.REASON` when params.reason
 * narrows the code and that is worded, else `error.CODE`; the server's English words only
 * for a code neither language knows (docs/protocol.md, "Refusals in any language").
 * `params.played`, added by the page that played: the number of cards it played.
 * @param {string} code
 * @param {Record<string, string | number>} params
 * @param {string} english
 */
export function refusalWords(code, params, english) {
  const narrow = typeof params.reason === "string" ? `error.${code}.${params.reason}` : "";
  let key = narrow && (narrow in TABLES[current] || narrow in ENGLISH) ? narrow : `error.${code}`;
  // A play of another size than the one to beat (a single onto five cards): how many it takes.
  const toBeat = typeof params.cards === "string" ? params.cards.split(/\s+/).filter(Boolean).length : 0;
  if (key === "error.illegal.does_not_beat" && typeof params.played === "number" && toBeat && params.played !== toBeat) {
    return t(`${key}.size`, { cards: params.cards, count: toBeat });
  }
  // Seats are numbered from 0 in the protocol and from 1 on the screen.
  const shown = typeof params.seat === "number" ? { ...params, seat: params.seat + 1 } : params;
  return tOr(key, english, shown);
}
