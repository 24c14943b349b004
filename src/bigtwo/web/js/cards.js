// @ts-check
// Cards as the engine numbers them (rank * 4 + suit: 3♦ = 0, 2♠ = 51), their notation,
// their spoken names and their faces drawn as SVG. Nothing here decides legality.
import { h, svg } from "./dom.js";
import { t, lang } from "./i18n.js";

export const RANKS = "3456789TJQKA2";
export const SUITS = "dchs";
export const RANK_LABELS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
export const SUIT_SYMBOLS = "♦♣♥♠";

/** @param {number} card */
export const rankOf = (card) => card >> 2;
/** @param {number} card */
export const suitOf = (card) => card & 3;
/** @param {number} card */
export const isRed = (card) => suitOf(card) === 0 || suitOf(card) === 2;

/** Text that names no card ("1x"). */
export class CardError extends Error {}

/**
 * A card from whatever the server sends: an index, "3d", "Th", "10h" or "3♦".
 * @param {number | string} value
 * @returns {number}
 */
export function toCard(value) {
  if (typeof value === "number") return value;
  const text = String(value).trim();
  const m = /^(10|[2-9TJQKA])([dchs♦♣♥♠])$/i.exec(text) || /^([dchs♦♣♥♠])(10|[2-9TJQKA])$/i.exec(text);
  if (!m) throw new CardError(`not a card: ${value}`);
  const [rankText, suitText] = /^[dchs♦♣♥♠]$/i.test(m[1]) ? [m[2], m[1]] : [m[1], m[2]];
  const rank = rankText === "10" ? 7 : RANKS.indexOf(rankText.toUpperCase());
  const suit = "dchs".includes(suitText.toLowerCase()) ? "dchs".indexOf(suitText.toLowerCase()) : SUIT_SYMBOLS.indexOf(suitText);
  return rank * 4 + suit;
}

/**
 * A list of cards from a list, a "3d 4c" string, a bit mask given as a number, or an object
 * holding such a list as its "cards".
 * @param {string | number | bigint | Array<number | string> | {cards?: unknown} | null | undefined} value
 * @returns {number[]}
 */
export function toCards(value) {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map(toCard);
  if (typeof value === "string") return value.trim() ? value.trim().split(/[\s,]+/).map(toCard) : [];
  if (typeof value === "number" || typeof value === "bigint") return cardsOfMask(value);
  if (Array.isArray(value.cards)) return value.cards.map((c) => toCard(/** @type {number | string} */ (c)));
  return [];
}

/** @param {number | bigint} mask @returns {number[]} */
export function cardsOfMask(mask) {
  const out = [];
  let m = BigInt(mask);
  for (let i = 0; m > 0n; i++, m >>= 1n) if (m & 1n) out.push(i);
  return out;
}

/** Engine notation: 3d, Th, 2s. @param {number} card */
export const cardText = (card) => RANKS[rankOf(card)] + SUITS[suitOf(card)];
/** For people: 10♥. @param {number} card */
export const cardSymbol = (card) => RANK_LABELS[rankOf(card)] + SUIT_SYMBOLS[suitOf(card)];
/** @param {number[]} cards */
export const cardsSymbols = (cards) => cards.map(cardSymbol).join(" ");

/** The spoken name, for aria-label: "3 of diamonds", "jack of spades", "方塊3". @param {number} card */
export function cardName(card) {
  const rank = t(`rank.${RANKS[rankOf(card)]}`);
  const suit = t(`suit.${SUITS[suitOf(card)]}`);
  return lang() === "zh-Hant" ? `${suit}${rank}` : `${rank} of ${suit}`;
}

/**
 * Order cards for the hand: by rank (the game's order) or by suit then rank.
 * @param {number[]} cards
 * @param {"rank" | "suit"} [by]
 * @param {string} [suitOrder] the suits from lowest to highest
 */
export function sortCards(cards, by = "rank", suitOrder = "dchs") {
  /** @param {number} c */
  const suitPower = (c) => suitOrder.indexOf(SUITS[suitOf(c)]);
  const key = by === "suit"
    ? (/** @type {number} */ c) => suitPower(c) * 16 + rankOf(c)
    : (/** @type {number} */ c) => rankOf(c) * 4 + suitPower(c);
  return [...cards].sort((a, b) => key(a) - key(b));
}

// Suit shapes drawn in a 100 x 100 box, so no font is needed for them.
/** @type {Record<string, string>} */
const SUIT_PATHS = {
  d: "M50 2 L88 50 L50 98 L12 50 Z",
  h: "M50 94 C22 70 2 52 2 30 C2 13 15 3 29 3 C40 3 47 10 50 19 C53 10 60 3 71 3 C85 3 98 13 98 30 C98 52 78 70 50 94 Z",
  s: "M50 2 C74 26 98 40 98 62 C98 78 86 87 73 87 C64 87 57 83 54 77 C55 87 59 94 67 98 L33 98 C41 94 45 87 46 77 C43 83 36 87 27 87 C14 87 2 78 2 62 C2 40 26 26 50 2 Z",
  c: "M50 4 A21 21 0 0 1 66 39 A21 21 0 1 1 55 74 C56 86 60 93 68 98 L32 98 C40 93 44 86 45 74 A21 21 0 1 1 34 39 A21 21 0 0 1 50 4 Z",
};

/**
 * A suit symbol as an SVG path at (x, y) with the given size.
 * @param {number | string} suit 0 to 3, or its letter
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} fill
 */
export function suitShape(suit, x, y, size, fill) {
  const letter = typeof suit === "number" ? SUITS[suit] : suit;
  return svg("path", {
    d: SUIT_PATHS[letter],
    fill,
    transform: `translate(${x} ${y}) scale(${size / 100})`,
  });
}

const RED = "#c0152f";
const BLACK = "#1b1b24";
/** @param {number} card */
export const suitColor = (card) => (isRed(card) ? RED : BLACK);

/** A small inline SVG of one suit, for labels and the tracker. @param {number | string} suit @param {number} [size] */
export function suitIcon(suit, size = 14) {
  const red = suit === 0 || suit === 2 || suit === "d" || suit === "h";
  return svg("svg", { viewBox: "0 0 100 100", width: size, height: size, class: "suit-icon", "aria-hidden": "true" },
    suitShape(suit, 0, 0, 100, red ? RED : BLACK));
}

// Where the pips of a number card go: [x, y] in the 100 x 140 card, by how many pips.
const L = 33, C = 50, R = 67;
/** @type {Record<number, number[][]>} */
const PIPS = {
  2: [[C, 30], [C, 110]],
  3: [[C, 30], [C, 70], [C, 110]],
  4: [[L, 30], [R, 30], [L, 110], [R, 110]],
  5: [[L, 30], [R, 30], [C, 70], [L, 110], [R, 110]],
  6: [[L, 30], [R, 30], [L, 70], [R, 70], [L, 110], [R, 110]],
  7: [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [C, 90], [L, 110], [R, 110]],
  9: [[L, 30], [R, 30], [L, 57], [R, 57], [C, 70], [L, 83], [R, 83], [L, 110], [R, 110]],
  10: [[L, 30], [R, 30], [C, 43], [L, 57], [R, 57], [L, 83], [R, 83], [C, 97], [L, 110], [R, 110]],
};
const FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif";
const SERIF = "DejaVu Serif, Liberation Serif, Georgia, serif";

/** @param {string} suit @param {number} x @param {number} y @param {number} size @param {string} color */
function pip(suit, x, y, size, color) {
  const shape = suitShape(suit, x - size / 2, y - size / 2, size, color);
  if (y > 70) shape.setAttribute("transform", `rotate(180 ${x} ${y}) ${shape.getAttribute("transform")}`);
  return shape;
}

/** @param {number} card @param {string} suit @param {string} color */
function centre(card, suit, color) {
  const rank = rankOf(card);
  if (rank >= 8 && rank <= 10) {
    // J, Q, K: a framed court with its letter and suit.
    const letter = RANK_LABELS[rank];
    return svg("g", {},
      svg("rect", { x: 24, y: 24, width: 52, height: 92, rx: 5, fill: "#f7eed8", stroke: color, "stroke-width": 1.6 }),
      svg("path", { d: "M34 46 L38 34 L44 42 L50 30 L56 42 L62 34 L66 46 Z", fill: "#d9a520", stroke: "#8a6410", "stroke-width": 1 }),
      svg("text", { x: 50, y: 86, "text-anchor": "middle", "font-size": 38, "font-weight": 700, fill: color, "font-family": SERIF }, letter),
      suitShape(suit, 42, 94, 16, color));
  }
  if (rank === 11) return suitShape(suit, 26, 46, 48, color); // ace: one large pip
  const count = rank === 12 ? 2 : rank + 3; // 2 has two pips; 3..10 their number
  return svg("g", {}, PIPS[count].map(([x, y]) => pip(suit, x, y, 17, color)));
}

/** The face of a card as an SVG element, 100 x 140 units. @param {number} card */
export function cardFace(card) {
  const color = suitColor(card);
  const rank = RANK_LABELS[rankOf(card)];
  const suit = SUITS[suitOf(card)];
  const corner = (/** @type {boolean} */ rotate) => svg("g", rotate ? { transform: "rotate(180 50 70)" } : {},
    svg("text", {
      x: 13, y: 27, "text-anchor": "middle", "font-size": rank === "10" ? 22 : 26,
      "font-weight": 700, fill: color, "font-family": FONT, "letter-spacing": rank === "10" ? -2.5 : 0,
    }, rank),
    suitShape(suit, 5, 32, 16, color));
  return svg("svg", { viewBox: "0 0 100 140", class: "card-svg", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#fffdf8", stroke: "#8a8a8a", "stroke-width": 1.5 }),
    corner(false), corner(true), centre(card, suit, color));
}

/** The back of a card (its weave pattern is defined once in index.html). */
export function cardBack() {
  return svg("svg", { viewBox: "0 0 100 140", class: "card-svg", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#fff", stroke: "#8a8a8a", "stroke-width": 1.5 }),
    svg("rect", { x: 7, y: 7, width: 86, height: 126, rx: 6, fill: "url(#card-back-weave)" }),
    svg("text", { x: 50, y: 80, "text-anchor": "middle", "font-size": 30, "font-weight": 700, fill: "#fff", opacity: 0.85,
      "font-family": "DejaVu Sans, sans-serif" }, "2"));
}

/**
 * A card as a page element with its accessible name; face down when card is null.
 * @param {number | null} card
 * @param {string} [extraClass]
 */
export function cardElement(card, extraClass = "") {
  const down = card === null || card === undefined;
  return h("div", {
    class: `card ${down ? "card-back" : ""} ${extraClass}`.trim(),
    role: "img",
    "aria-label": down ? t("card.back") : cardName(card),
    dataset: down ? {} : { card: String(card) },
  }, down ? cardBack() : cardFace(card));
}

/**
 * A row of cards (a play on the table, a hand in the replay or score sheet); null: face down.
 * @param {Array<number | null>} cards
 * @param {string} [extraClass]
 */
export function cardRow(cards, extraClass = "") {
  return h("div", { class: `card-row ${extraClass}`.trim() }, cards.map((c) => cardElement(c)));
}
