// @ts-check
// Cards as the engine numbers them (rank * 4 + suit: 3♦ = 0, 2♠ = 51), their notation,
// their spoken names and their faces drawn as SVG. Nothing here decides legality. Big 2
// RevolutioN adds a second deck: a Revolution card is 52 to 103 (its normal twin + 52),
// written with a star ("Qs*", shown Q♠*); its J, Q, K, A and 2 are Character cards.
import { h, svg } from "./dom.js";
import { t, lang } from "./i18n.js";

export const RANKS = "3456789TJQKA2";
export const SUITS = "dchs";
export const RANK_LABELS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
export const SUIT_SYMBOLS = "♦♣♥♠";

/** @param {number} card */
export const rankOf = (card) => (card % 52) >> 2;
/** @param {number} card */
export const suitOf = (card) => card & 3;
/** A card of the Revolution deck (52 to 103). @param {number} card */
export const isRevolution = (card) => card >= 52;
/** The normal card a Revolution card stands for (a normal card is its own). @param {number} card */
export const twinOf = (card) => card % 52;
/** A Character card: a Revolution J, Q, K, A or 2. @param {number} card */
export const isCharacter = (card) => card >= 52 && rankOf(card) >= 8;
/** The rank letter of a card ("Q"), the key of its function in the rules. @param {number} card */
export const rankLetter = (card) => RANKS[rankOf(card)];
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
  const full = String(value).trim();
  const star = full.endsWith("*"); // a Revolution card
  const text = star ? full.slice(0, -1) : full;
  const m = /^(10|[2-9TJQKA])([dchs♦♣♥♠])$/i.exec(text) || /^([dchs♦♣♥♠])(10|[2-9TJQKA])$/i.exec(text);
  if (!m) throw new CardError(`not a card: ${value}`);
  const [rankText, suitText] = /^[dchs♦♣♥♠]$/i.test(m[1]) ? [m[2], m[1]] : [m[1], m[2]];
  const rank = rankText === "10" ? 7 : RANKS.indexOf(rankText.toUpperCase());
  const suit = "dchs".includes(suitText.toLowerCase()) ? "dchs".indexOf(suitText.toLowerCase()) : SUIT_SYMBOLS.indexOf(suitText);
  return rank * 4 + suit + (star ? 52 : 0);
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

/** Engine notation: 3d, Th, 2s; a Revolution card with its star, Qs*. @param {number} card */
export const cardText = (card) => RANKS[rankOf(card)] + SUITS[suitOf(card)] + (isRevolution(card) ? "*" : "");
/** For people: 10♥, Q♠*. @param {number} card */
export const cardSymbol = (card) => RANK_LABELS[rankOf(card)] + SUIT_SYMBOLS[suitOf(card)] + (isRevolution(card) ? "*" : "");
/** @param {number[]} cards */
export const cardsSymbols = (cards) => cards.map(cardSymbol).join(" ");

/** The spoken name, for aria-label: "3 of diamonds", "jack of spades", "方塊3". @param {number} card */
export function cardName(card) {
  const rank = t(`rank.${RANKS[rankOf(card)]}`);
  const suit = t(`suit.${SUITS[suitOf(card)]}`);
  const name = lang() === "zh-Hant" ? `${suit}${rank}` : `${rank} of ${suit}`;
  return isRevolution(card) ? t("card.revolution", { name }) : name;
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
  // A Revolution card beside its normal twin, after it.
  return [...cards].sort((a, b) => key(a) - key(b) || a - b);
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

// -- Big 2 RevolutioN: Character functions and their icons ----------------------------------
/** The functions of the Character cards by rank letter (the rules' [revolution.functions]). */
const DEFAULT_FUNCTIONS = { J: "jump", Q: "counter", K: "command", A: "exchange", 2: "revolution" };
/** @type {Record<string, string>} */
let characterFunctions = { ...DEFAULT_FUNCTIONS };
/** The five functions, in the order the reference card lists them. */
export const FUNCTIONS = ["jump", "counter", "command", "exchange", "revolution"];

/**
 * The table's rules name the Character cards' functions (a house rule may reassign them).
 * @param {Record<string, unknown> | null | undefined} functions rank letter -> function
 */
export function setCharacterFunctions(functions) {
  characterFunctions = { ...DEFAULT_FUNCTIONS };
  for (const [rank, fn] of Object.entries(functions || {})) if (typeof fn === "string") characterFunctions[rank] = fn;
}

/** The rank letters whose Characters have this function under the table's rules ("J"). @param {string} fn */
export const ranksWith = (fn) => Object.keys(characterFunctions).filter((rank) => characterFunctions[rank] === fn);

/** A Character card's function ("jump" …), or null for any other card (or "none"). @param {number} card */
export function functionOf(card) {
  if (!isCharacter(card)) return null;
  const fn = characterFunctions[rankLetter(card)];
  return fn && fn !== "none" ? fn : null;
}

// Each function's icon, stroked in a 100 x 100 box.
/** @type {Record<string, string>} */
const FUNCTION_PATHS = {
  jump: "M12 78 C22 18 78 18 88 78 M72 66 L88 80 L96 60 M8 92 L40 92",
  counter: "M50 6 L88 20 C88 58 76 80 50 95 C24 80 12 58 12 20 Z M30 30 L70 70",
  command: "M22 95 L22 8 M22 12 L86 28 L22 48",
  exchange: "M10 34 L84 34 M66 16 L86 34 L66 52 M90 68 L16 68 M34 50 L14 68 L34 86",
  revolution: "M82 44 A33 33 0 1 0 70 78 M84 20 L84 46 L58 46",
};
const VIOLET = "#5b21b6";

/**
 * A function's icon as SVG (for cards, buttons and the reference card).
 * @param {string} fn
 * @param {{x?: number, y?: number, size?: number, color?: string}} [at] its box inside a parent SVG
 */
export function functionShape(fn, { x = 0, y = 0, size = 100, color = VIOLET } = {}) {
  return svg("path", {
    d: FUNCTION_PATHS[fn] || "M50 20 L50 60 M50 78 L50 82", fill: "none", stroke: color, "stroke-width": 11,
    "stroke-linecap": "round", "stroke-linejoin": "round", transform: `translate(${x} ${y}) scale(${size / 100})`,
  });
}

/** A function's icon on its own (an inline SVG). @param {string} fn @param {number} [size] */
export function functionIcon(fn, size = 18) {
  return svg("svg", { viewBox: "-8 -8 116 116", width: size, height: size, class: "fn-icon", "aria-hidden": "true", focusable: "false" },
    functionShape(fn));
}

/** A five-pointed star, for a Revolution card's corner. @param {number} x @param {number} y @param {number} r */
function star(x, y, r) {
  const points = Array.from({ length: 10 }, (_, i) => {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const d = i % 2 ? r * 0.45 : r;
    return `${(x + d * Math.cos(a)).toFixed(1)},${(y + d * Math.sin(a)).toFixed(1)}`;
  });
  return svg("polygon", { points: points.join(" "), fill: "#d9a520", stroke: "#7a5200", "stroke-width": 1 });
}

/** The face of a card as an SVG element, 100 x 140 units. @param {number} card */
export function cardFace(card) {
  const color = suitColor(card);
  const rank = RANK_LABELS[rankOf(card)];
  const suit = SUITS[suitOf(card)];
  const rev = isRevolution(card);
  const fn = functionOf(card);
  // A Revolution card: a star under its corner, and a Character's icon under the star, so
  // both show on the strip of a card the next one in a fanned hand leaves in view.
  const corner = (/** @type {boolean} */ rotate) => svg("g", rotate ? { transform: "rotate(180 50 70)" } : {},
    svg("text", {
      x: 13, y: 27, "text-anchor": "middle", "font-size": rank === "10" ? 22 : 26,
      "font-weight": 700, fill: color, "font-family": FONT, "letter-spacing": rank === "10" ? -2.5 : 0,
    }, rank),
    suitShape(suit, 5, 32, 16, color),
    rev ? star(13, 60, 9) : null,
    fn && !rotate ? functionShape(fn, { x: 3, y: 74, size: 20 }) : null);
  return svg("svg", { viewBox: "0 0 100 140", class: `card-svg${rev ? " rev" : ""}`, "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: rev ? "#f6f1ff" : "#fffdf8", stroke: rev ? VIOLET : "#8a8a8a", "stroke-width": rev ? 2.5 : 1.5 }),
    rev ? svg("rect", { x: 24, y: 8, width: 52, height: 124, rx: 5, fill: "#ede4ff" }) : null,
    corner(false), corner(true),
    fn ? characterCentre(card, fn, suit, color) : centre(card, suit, color));
}

/** A Character's middle: its suit, its function's icon large and the function's name. @param {number} card @param {string} fn @param {string} suit @param {string} color */
function characterCentre(card, fn, suit, color) {
  return svg("g", {},
    svg("rect", { x: 26, y: 14, width: 48, height: 112, rx: 6, fill: "#fff", stroke: VIOLET, "stroke-width": 1.5 }),
    suitShape(suit, 41, 20, 18, color),
    functionShape(fn, { x: 30, y: 46, size: 40 }),
    svg("text", { x: 50, y: 108, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: VIOLET, "font-family": FONT,
      textLength: t(`fn.${fn}`).length > 8 ? 44 : undefined, lengthAdjust: "spacingAndGlyphs" }, t(`fn.${fn}`)),
    svg("text", { x: 50, y: 121, "text-anchor": "middle", "font-size": 10, fill: color, "font-family": FONT }, RANK_LABELS[rankOf(card)]));
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
    title: down || !functionOf(card) ? undefined : t(`fn.${functionOf(card)}`),
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
