// English and Traditional Chinese strings. t("key", {name}) fills {name} placeholders.
import { STRINGS_EN } from "./strings-en.js";
import { STRINGS_ZH } from "./strings-zh.js";

const TABLES = { en: STRINGS_EN, "zh-Hant": STRINGS_ZH };
let current = "en";

export function setLang(code) {
  current = code && TABLES[code] ? code : guessLang();
  document.documentElement.lang = current;
}

export function guessLang() {
  const wanted = (navigator.languages || [navigator.language || "en"]).map((l) => l.toLowerCase());
  return wanted.some((l) => l.startsWith("zh")) ? "zh-Hant" : "en";
}

export const lang = () => current;
export const languages = () => [["en", "English"], ["zh-Hant", "繁體中文"]];

export function t(key, params = {}) {
  const text = TABLES[current][key] ?? STRINGS_EN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (params[name] ?? `{${name}}`));
}

/** Put translated text into every [data-i18n] element under root (static parts of the page). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** The translation of key, or fallback when neither language has one. */
export function tOr(key, fallback, params = {}) {
  return key in TABLES[current] || key in STRINGS_EN ? t(key, params) : fallback;
}
