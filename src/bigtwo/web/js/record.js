// @ts-check
// Reading a match record (the JSON the server stores and lets you download) into plain
// values the replay viewer and the history view use, and stepping through one deal.
import { CardError, toCards } from "./cards.js";
import { shownName, t } from "./i18n.js";

/** Cards as a record may hold them: notation, a list, or an object with its cards. @typedef {string | number | Array<string | number> | {cards?: unknown, play?: unknown} | null} CardsData */

/**
 * One deal of a match record as stored, read leniently (records from other programs name
 * some fields differently).
 * @typedef {object} RecordDealData
 * @property {number} [number]
 * @property {string} [rules]
 * @property {number} [leader]
 * @property {CardsData[]} [hands]
 * @property {CardsData[]} [dealt]
 * @property {Array<{seat: number, play?: CardsData, auto?: boolean}>} [actions]
 * @property {CardsData[]} [left]
 * @property {Array<number | CardsData>} [cards_left] counts, or the cards
 * @property {number[]} [points]
 * @property {number[]} [multipliers]
 * @property {number | null} [winner]
 */
/**
 * A match record as stored (the JSON of bigtwo.match.record, or an uploaded file).
 * @typedef {object} RecordData
 * @property {RecordDealData[]} deals
 * @property {string | {name?: string, suit_order?: string}} [rules]
 * @property {string[]} [players] "human" or a computer's level, per seat
 * @property {Array<string | {name?: string, kind?: string, level?: string, bot?: string} | null>} [seats]
 * @property {string[]} [names]
 * @property {number[]} [totals]
 * @property {number} [deals_per_game]
 * @property {boolean} [over]
 */
/** @typedef {{name: string, kind: string, level?: string, avatar?: number}} RecordSeat avatar: the picture its player chose at the table */
/** @typedef {{seat: number, cards: number[] | null, auto: boolean}} RecordAction */
/**
 * A deal read from a record, cards as numbers.
 * @typedef {object} RecordDeal
 * @property {number} number
 * @property {number[][]} hands
 * @property {number} leader
 * @property {RecordAction[]} actions
 * @property {number[][]} cardsLeft
 * @property {number[]} counts
 * @property {number[]} points
 * @property {number[]} multipliers
 * @property {number | null} winner
 */
/**
 * A record read for the replay viewer.
 * @typedef {object} MatchRecord
 * @property {{name?: string, suit_order?: string}} rules
 * @property {RecordSeat[]} seats
 * @property {RecordDeal[]} deals
 * @property {number[]} totals
 * @property {number} dealsPerGame
 * @property {boolean} over
 * @property {RecordData} raw
 */

/** @param {CardsData | undefined} value @returns {number[]} */
const cardsOf = (value) => toCards(/** @type {Parameters<typeof toCards>[0]} */ (value));

/** @param {CardsData | undefined} play @returns {number[] | null} */
const playCards = (play) => {
  if (play === null || play === undefined) return null;
  if (typeof play === "object" && !Array.isArray(play)) return cardsOf(/** @type {CardsData} */ (play.cards ?? play.play ?? []));
  return cardsOf(play);
};

/**
 * @param {string | {name?: string, kind?: string, level?: string, bot?: string} | null} seat
 * @param {number} i
 * @returns {RecordSeat}
 */
function seatName(seat, i) {
  if (typeof seat === "string") return { name: seat, kind: "human" };
  return { name: seat?.name ? shownName(seat.name) : t("replay.seatN", { n: i + 1 }), kind: seat?.kind ?? (seat?.bot || seat?.level ? "computer" : "human"), level: seat?.level ?? seat?.bot };
}

/**
 * Why a record cannot be shown: `key` names the reason in the strings (replay.*), so the
 * viewer says it in the page's language, never as a JavaScript error.
 */
export class RecordError extends Error {
  /** @param {string} key @param {Record<string, string | number>} [params] */
  constructor(key, params = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

/**
 * Normalise a record: {rules, seats, deals: [{number, hands, leader, actions, cardsLeft, points, winner}], totals}.
 * Throws a RecordError saying what is wrong with anything that is not a readable record.
 * @param {string | RecordData} json
 * @returns {MatchRecord}
 */
export function readRecord(json) {
  /** @type {RecordData} */
  let data;
  try {
    data = typeof json === "string" ? JSON.parse(json) : json;
  } catch {
    throw new RecordError("replay.notJson");
  }
  // Big 2 RevolutioN's record has no JSON form (the server sends its text inside JSON).
  if (data && typeof data === "object" && /** @type {{format?: unknown}} */ (data).format === "revolution") throw new RecordError("replay.revolution");
  if (!data || typeof data !== "object" || !Array.isArray(data.deals)) throw new RecordError("replay.noDeals");
  let record;
  try {
    record = readData(data);
  } catch (err) {
    // Notation that names no card, or a field of the wrong shape somewhere.
    throw new RecordError(err instanceof CardError ? "replay.badCards" : "replay.unreadable");
  }
  record.deals.forEach((deal, i) => checkDeal(deal, i + 1, record.seats.length));
  return record;
}

/**
 * Every card a real card, every hand dealt, every action by a seat that exists.
 * @param {RecordDeal} deal @param {number} n the deal's place in the record @param {number} seats
 */
function checkDeal(deal, n, seats) {
  const card = (/** @type {number} */ c) => Number.isInteger(c) && c >= 0 && c < 52;
  if (!deal.hands.length || deal.hands.some((hand) => !hand.length)) throw new RecordError("replay.noHands", { n });
  const cards = [...deal.hands.flat(), ...deal.actions.flatMap((a) => a.cards || [])];
  if (!cards.every(card)) throw new RecordError("replay.badCards");
  if (!deal.actions.every((a) => Number.isInteger(a.seat) && a.seat >= 0 && a.seat < Math.max(seats, deal.hands.length))) {
    throw new RecordError("replay.badSeat", { n });
  }
}

/** @param {RecordData} data @returns {MatchRecord} */
function readData(data) {
  const rules = typeof data.rules === "string" ? { name: data.rules } : { ...(data.rules || {}) };
  const kinds = Array.isArray(data.players) ? data.players : [];
  const seats = (data.seats || data.names || []).map((seat, i) => {
    const out = seatName(seat, i);
    if (kinds[i]) {
      const [kind, level] = String(kinds[i]).split(":");
      out.kind = kind === "human" ? "human" : "computer";
      out.level = level || (kind !== "human" && kind !== "computer" ? kind : out.level);
    }
    return out;
  });
  const deals = data.deals.map((deal, i) => {
    const hands = (deal.hands || deal.dealt || []).map(cardsOf);
    const actions = (deal.actions || []).map((a) => ({ seat: a.seat, cards: playCards(a.play), auto: !!a.auto }));
    // "left" holds the cards; "cards_left" may hold only their counts.
    const cardsLeft = (deal.left || (deal.cards_left || []).filter((c) => typeof c !== "number") || []).map(cardsOf);
    const counts = (deal.cards_left || []).map((c) => (typeof c === "number" ? c : cardsOf(c).length));
    const winner = deal.winner ?? (counts.length ? counts.findIndex((c) => c === 0) : null);
    return {
      number: deal.number ?? i + 1,
      hands,
      leader: deal.leader ?? actions[0]?.seat ?? 0,
      actions,
      cardsLeft,
      counts: counts.length ? counts : cardsLeft.map((c) => c.length),
      points: deal.points || [],
      multipliers: deal.multipliers || [],
      winner: winner === -1 ? null : winner,
    };
  });
  while (seats.length < (deals[0]?.hands.length || 0)) seats.push(seatName(null, seats.length));
  const rulesName = rules.name || data.deals[0]?.rules || "";
  if (!rules.name) rules.name = rulesName;
  const totals = data.totals || seats.map((_, s) => deals.reduce((sum, d) => sum + (d.points[s] || 0), 0));
  return { rules, seats, deals, totals, dealsPerGame: data.deals_per_game || deals.length, over: data.over ?? true, raw: data };
}

/**
 * The position after the first `step` actions of a deal: each hand, the play on the table and
 * who made it, whose turn it is, and the actions of the trick in progress.
 * @param {RecordDeal} deal
 * @param {number} step
 */
export function positionAt(deal, step) {
  const hands = deal.hands.map((h) => [...h]);
  /** @type {{seat: number, cards: number[]} | null} */
  let table = null;
  /** @type {RecordAction[]} */
  let trick = [];
  for (const action of deal.actions.slice(0, step)) {
    if (table && action.seat === table.seat) {
      table = null; // everyone else passed: the trick is over and its winner leads
      trick = [];
    }
    if (action.cards) {
      const played = new Set(action.cards);
      hands[action.seat] = hands[action.seat].filter((c) => !played.has(c));
      table = { seat: action.seat, cards: action.cards };
    }
    trick.push(action);
  }
  const next = deal.actions[step];
  let turn = next ? next.seat : null;
  if (table && next && next.seat === table.seat) {
    table = null;
    trick = [];
  }
  if (!next && step > 0) turn = null;
  if (step === 0) turn = deal.leader;
  const over = step >= deal.actions.length && hands.some((h) => h.length === 0);
  return { hands, table, trick, turn, over, last: deal.actions[step - 1] || null };
}
