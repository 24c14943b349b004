// @ts-check
// Small DOM helpers: build elements from tags, attributes and children, without a framework.
// Children that are not nodes (names, chat lines, numbers) always go in as text nodes, never
// as HTML, so text people typed is shown exactly as they typed it.

/**
 * "onclick", "oninput" …: a handler for that event, added with addEventListener.
 * @typedef {{[K in keyof GlobalEventHandlersEventMap as `on${K}`]?: (event: GlobalEventHandlersEventMap[K]) => void}} Handlers
 */
/**
 * Attributes: a value is set as text (true: present and empty; false, null, undefined: left
 * out), besides the handlers, a dataset and a style object.
 * @typedef {Handlers & {dataset?: Record<string, string | undefined>, style?: Partial<CSSStyleDeclaration>, [name: string]: unknown}} Attrs
 */
/**
 * What goes inside an element: nodes and text (numbers too); false, null and undefined are
 * skipped.
 * @typedef {Node | string | number | false | null | undefined} Leaf
 */
/** A child, or lists of them nested up to three deep. @typedef {Leaf | Array<Leaf | Array<Leaf | Array<Leaf>>>} Child */

/**
 * Make an element: h("button", {class: "x", onclick: fn, "aria-label": "Play"}, "Play").
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Make an SVG element with the same calling convention as h().
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** @param {HTMLElement | SVGElement} el @param {Attrs} attrs */
function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(/** @type {Record<string, unknown>} */ (value))) if (v !== undefined && v !== null) el.dataset[k] = String(v);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/** @param {Element} el @param {Child[]} children */
function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace all children of el.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * A button's words, and shorter ones where a phone's bar has room for no more (app.css): the
 * short words stand inside the long, which stay its name to a screen reader or a voice.
 * @param {string} long @param {string} short
 */
export const shortened = (long, short) => [h("span", { class: "label-long" }, long), h("span", { class: "label-short", "aria-hidden": "true" }, short)];

/**
 * The first element that matches a selector (the page's structure guarantees it is there).
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
export const $ = (sel, root = document) => /** @type {HTMLElement} */ (root.querySelector(sel));

/** Names this long or longer may be cut short on screen (shorter ones always fit). */
const LONG_NAME = 9;

/**
 * A line of text with each long player name in it as an element of its own
 * (`span.pname`), which the stylesheet cuts short with an ellipsis where room is short: a
 * 24-letter name never pushes a line of the table's centre across a seat, and the words
 * around it ("leads", "to play") stay in view. The text read out is the whole line.
 * @param {string} text
 * @param {Array<string | null | undefined>} names
 * @returns {Array<string | HTMLElement>}
 */
export function withNames(text, names) {
  /** @type {string[]} */
  const given = names.filter((n) => typeof n === "string");
  const long = [...new Set(given.filter((n) => n.length >= LONG_NAME))].sort((a, b) => b.length - a.length);
  if (!long.length) return [text];
  const pattern = new RegExp(long.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  /** @type {Array<string | HTMLElement>} */
  const out = [];
  let at = 0;
  for (const found of text.matchAll(pattern)) {
    const start = found.index ?? 0;
    if (start > at) out.push(text.slice(at, start));
    out.push(h("span", { class: "pname", title: found[0] }, found[0]));
    at = start + found[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
