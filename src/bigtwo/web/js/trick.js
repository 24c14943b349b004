// @ts-check
// The centre of the table: the play to beat, who made it and its kind, and the earlier
// plays of the trick in progress, each on a line of its own; the last trick won, and the
// whole of it on demand.
import { h, withNames } from "./dom.js";
import { showDialog } from "./dialog.js";
import { cardRow, cardsSymbols, cardSymbol, toCard } from "./cards.js";
import { t, tOr } from "./i18n.js";
import { lastMoveText, fnName } from "./revolution.js";
import { turnSeat } from "./state.js";

/** @typedef {import("./state.js").Model} Model */

/** The kind of a play for people ("full house"). @param {string | null | undefined} kind */
export const kindName = (kind) => (kind ? tOr(`kind.${kind}`, kind.replace(/_/g, " ")) : "");

/** @param {Model} model */
export function trickView(model) {
  const deal = model.deal;
  /** @param {number} seat */
  const name = (seat) => model.players[seat]?.name || t("seat.n", { n: seat + 1 });
  const names = model.players.map((p) => p.name);
  if (!deal) return h("div", { class: "trick trick-empty" }, t("table.waiting"));
  const table = deal.table;
  const earlier = deal.trick.filter((a) => a.cards && (!table || a !== deal.trick.findLast((b) => b.cards)));
  if (!table) {
    const turn = turnSeat(model);
    const leadText = deal.over ? t("table.dealOver", { name: name(/** @type {number} a deal over has its winner */ (deal.winner)) })
      : turn === null ? "" // the room closed mid-deal: nobody leads (the message says why)
      : turn === model.seat ? t("table.youLead") : t("table.leads", { name: name(turn) });
    return h("div", { class: "trick", "aria-live": "polite", dataset: { trick: "" } },
      h("div", { class: "trick-empty" }, withNames(leadText, names)));
  }
  return h("div", { class: "trick", "aria-live": "polite", dataset: { trick: table.cards.join(" ") } },
    h("div", { class: "trick-play", role: "group", "aria-label": t("table.onTable", { cards: cardsSymbols(table.cards), name: name(table.seat) }) },
      cardRow(table.cards)),
    h("div", { class: "trick-by", dataset: { by: String(table.seat) } },
      withNames(t("table.playedBy", { name: name(table.seat), kind: kindName(table.kind) }), names),
      deal.rev ? null : lastTrickButton(model)), // the expansion's centre has no room to spare mid-trick
    earlier.length
      ? h("div", { class: "trick-earlier", "aria-label": t("table.earlier") },
          // Big 2 RevolutioN's centre holds the Gathering and the deck too: its newest three, in words.
          (deal.rev ? earlier.slice(-3) : earlier).map((a) => h("span", { class: deal.rev ? "" : "trick-line", dataset: { seat: String(a.seat) } },
            deal.rev ? withNames(`${name(a.seat)}: ${cardsSymbols(a.cards || [])}`, names)
              : [withNames(`${name(a.seat)}:`, names), cardRow(a.cards || [], "tiny")])))
      : null);
}

/**
 * Under the trick while nobody has led the next: who won the last trick, and the button that
 * shows the whole of it (beside who made the play to beat once there is one).
 * @param {Model} model
 */
export function lastTrickView(model) {
  const won = model.deal?.lastTrick;
  if (!won || model.status === "waiting" || model.deal?.table) return null;
  const names = model.players.map((p) => p.name);
  const who = model.players[won.seat]?.name || t("seat.n", { n: won.seat + 1 });
  return h("div", { class: "last-trick-line" },
    h("span", { class: "trick-earlier" }, withNames(t("table.trickWon", { name: who, cards: cardsSymbols(won.cards) }), names)),
    lastTrickButton(model));
}

/** "Last trick": every play and pass of the last trick won, in a dialog. @param {Model} model */
function lastTrickButton(model) {
  if (!model.deal?.lastTrick) return null;
  return h("button", { class: "btn small last-trick-btn", type: "button", "data-last-trick": "", onclick: () => showLastTrick(model) }, t("table.lastTrick"));
}

/** The last trick won, every play and pass with who made it, in a dialog. @param {Model} model */
export function showLastTrick(model) {
  const actions = model.deal?.lastTrick?.actions || [];
  /** @param {number} seat */
  const name = (seat) => model.players[seat]?.name || t("seat.n", { n: seat + 1 });
  const rows = actions.map((a) => h("tr", { dataset: { seat: String(a.seat), cards: a.cards ? a.cards.join(" ") : "" } },
    h("td", {}, name(a.seat)),
    h("td", {}, a.cards ? cardRow(a.cards, "tiny") : a.auto ? t("table.lastTrickAutoPass") : t("table.lastTrickPass")),
    h("td", { class: "muted" }, a.cards ? kindName(a.kind) : "")));
  return showDialog({ title: t("table.lastTrickTitle"), className: "last-trick",
    body: h("table", { class: "score-table", "data-last-trick-table": "" }, h("tbody", {}, rows)) });
}

/**
 * The message area's words when nothing else is to be said: what just happened and whose
 * turn it is. `covered`: hot-seat, and the player to act has not shown their cards yet.
 * @param {Model} model
 * @param {{covered?: boolean}} [options]
 */
export function statusText(model, { covered = false } = {}) {
  /** @param {number} s */
  const name = (s) => model.players[s]?.name || t("seat.n", { n: s + 1 });
  if (model.closed && model.closed !== "match over") return t("table.closed", { reason: tOr(`closed.${model.closed}`, model.closed) });
  if (model.matchOver) return t("table.matchOver");
  if (model.status === "waiting") return t("table.waitingPlayers");
  const deal = model.deal;
  if (!deal) return "";
  if (deal.over) {
    const winner = name(/** @type {number} a deal over has its winner */ (deal.winner));
    const over = deal.rev?.end === "exhaustion" ? t("rev.dealOverExhausted", { name: winner }) : t("table.dealOver", { name: winner });
    const next = model.nextDeal;
    if (!next || model.matchOver) return over;
    if (next.endsAt) {
      const left = Math.max(0, Math.ceil((next.endsAt - Date.now()) / 1000));
      return `${over} — ${t("table.nextDealIn", { n: left })}`;
    }
    const names = next.waiting.map((s) => name(s)).join(", ");
    return names ? `${over} — ${t("table.nextDealWaiting", { names })}` : over;
  }
  const last = deal.actions.at(-1);
  const rev = deal.rev;
  const lastText = !last ? "" : last.cards
    ? t("table.lastPlay", { name: name(last.seat), cards: cardsSymbols(last.cards), kind: kindName(last.kind || deal.table?.kind) })
    : last.move && last.move !== "pass" ? lastMoveText(model)
    : last.auto ? t("table.lastAutoPass", { name: name(last.seat) }) : t("table.lastPass", { name: name(last.seat) });
  let turnText;
  if (rev?.phase === "counter" && rev.pending) {
    // Revolution: a counter window is open; it may ask us.
    const p = rev.prompt;
    // Asked: the prompt under our name says what was activated; the message stays short.
    if (p && !p.answer && !covered) return t("rev.statusAsked", { name: name(rev.pending.seat), fn: fnName(rev.pending.fn) });
    turnText = t("rev.statusWindow", { name: name(rev.pending.seat), fn: fnName(rev.pending.fn) });
  } else if (rev?.phase === "draw") {
    turnText = deal.turn === model.seat && !covered ? t("rev.statusDraw") : t("rev.statusDrawing", { name: name(deal.turn) });
  } else if (deal.turn !== model.seat || covered) turnText = t("table.waitingFor", { name: name(deal.turn) });
  else if (deal.table) turnText = t("table.yourReply");
  else turnText = deal.opening ? t("table.yourLeadWith", { card: cardSymbolOf(deal.opening) }) : t("table.yourLead");
  return lastText ? `${lastText} — ${turnText}` : turnText;
}

/** @param {string} value */
const cardSymbolOf = (value) => cardSymbol(toCard(value));
