// @ts-check
// Big 2 RevolutioN at the table (docs/revolution.md): the Gathering, the Revolution deck and
// the revolution marker in the centre; under your name what you may do beyond a play or a
// pass (activate a Character, answer a counter window with its clock, draw after a pass);
// the reference card of the five functions; and every move of the expansion in words.
// The server decides what is legal and says what may be done now (docs/protocol.md).
import { h, mount } from "./dom.js";
import { FUNCTIONS, cardElement, cardSymbol, cardText, cardsSymbols, functionIcon, isRevolution, ranksWith } from "./cards.js";
import { t } from "./i18n.js";
import { showDialog } from "./dialog.js";
import { playerAvatar } from "./seats.js";

/** @typedef {import("./state.js").Model} Model */
/** @typedef {import("./state.js").Action} Action */
/** @typedef {import("./state.js").Revolution} Revolution */

/** The name shown for a seat. @param {Model} model @param {number} seat */
const nameOf = (model, seat) => model.players[seat]?.name || t("seat.n", { n: seat + 1 });
/** A function's name ("Jump"). @param {string} fn */
export const fnName = (fn) => t(`fn.${fn}`);

/**
 * A move of the expansion in words ("Bill activated K♦* (command)"); "" for one not worth
 * saying (a card revealed into the Gathering). Plays and passes are worded as at any table.
 * @param {Model} model
 * @param {Action} a
 */
export function moveText(model, a) {
  const name = a.seat >= 0 ? nameOf(model, a.seat) : "";
  const card = a.shown?.length ? cardsSymbols(a.shown) : "";
  const fn = a.fn ? fnName(a.fn) : "";
  const target = a.target !== undefined ? nameOf(model, a.target) : "";
  switch (a.move) {
    case "activate":
      return target ? t("mv.activateOn", { name, card, fn, target }) : t("mv.activate", { name, card, fn });
    case "counter":
      return t("mv.counter", { name, card });
    case "decline":
      return t("mv.decline", { name });
    case "effect":
      if (a.fn === "revolution") return t(model.deal?.rev?.reversed ? "mv.effect.reversed" : "mv.effect.restored");
      if (a.fn === "exchange") return card ? t("mv.effect.exchangeCard", { name, card, target }) : t("mv.effect.exchange", { name, target });
      return t(`mv.effect.${a.fn}`, { name });
    case "draw":
      if (a.source === "gathering") return t("mv.drawGathering", { name, card });
      return card ? t("mv.drawDeckCard", { name, card }) : t("mv.drawDeck", { name });
    case "stop":
      return t("mv.stop", { name });
    case "skip":
      return t("mv.skip", { name });
    default:
      return "";
  }
}

/** The last move worth telling of a revolution hand, in words ("" if none). @param {Model} model */
export function lastMoveText(model) {
  const actions = model.deal?.actions || [];
  for (let i = actions.length - 1; i >= 0; i--) {
    const a = actions[i];
    if (!a.move || a.move === "play" || a.move === "pass") return "";
    const text = moveText(model, a);
    if (text) return text;
  }
  return "";
}

/**
 * The centre's strip: the Revolution deck (its count), the Gathering's face-up cards (each
 * one a click to take when we may draw it), the revolution marker, and the reference card.
 * @param {Model} model
 * @param {{draw: (source: number) => void, reference: () => void, canDraw: (card: number) => boolean}} on
 */
export function revolutionStrip(model, on) {
  const rev = model.deal?.rev;
  if (!rev) return null;
  const gathering = rev.gathering.map((card) => {
    const el = cardElement(card, on.canDraw(card) ? "takeable" : "");
    if (!on.canDraw(card)) return el;
    return h("button", { class: "take", type: "button", "aria-label": t("rev.take", { card: cardSymbol(card) }), title: t("rev.take", { card: cardSymbol(card) }),
      dataset: { take: String(card) }, onclick: () => on.draw(card) }, el);
  });
  return h("div", { class: "rev-strip", "data-rev-strip": "" },
    h("div", { class: "rev-deck", role: "img", "aria-label": t("rev.deck", { n: rev.deckLeft }), title: t("rev.deck", { n: rev.deckLeft }), dataset: { deckLeft: String(rev.deckLeft) } },
      cardElement(null, "rev-back"), h("span", { class: "rev-deck-count", "aria-hidden": "true" }, String(rev.deckLeft))),
    h("div", { class: "gathering", role: "group", "aria-label": t("rev.gatheringIs", { cards: cardsSymbols(rev.gathering) || "—" }), dataset: { gathering: rev.gathering.join(" ") } },
      h("span", { class: "rev-label" }, t("rev.gathering")), h("div", { class: "gathering-cards" }, gathering)),
    rev.reversed ? h("div", { class: "rev-marker", role: "status", "data-reversed": "" }, functionIcon("revolution", 16),
      h("span", { class: "rev-full" }, t("rev.reversed")), h("span", { class: "rev-short", "aria-hidden": "true" }, t("rev.reversedShort"))) : null,
    h("button", { class: "btn small rev-ref", type: "button", onclick: on.reference, "data-reference": "", title: t("rev.referenceTitle"), "aria-haspopup": "dialog" },
      h("span", { "aria-hidden": "true" }, "?"), h("span", { class: "rev-ref-word" }, t("rev.reference"))));
}

/**
 * What a panel shows now, as a key: the panel is drawn again only when it changes, so a
 * button keeps the keyboard focus between drawings.
 * @param {Model} model @param {boolean} mine our turn, on show
 */
export function panelKey(model, mine) {
  const rev = model.deal?.rev;
  if (!rev || model.deal?.over) return "";
  const p = rev.prompt;
  if (p) return `prompt:${p.seat}:${p.card}:${p.answer}:${p.counters.join(",")}`;
  if (!mine) return "";
  if (rev.phase === "draw") return `draw:${rev.draws.join(",")}:${drawnSincePass(model)}`;
  if (rev.phase === "act" && rev.activate.length) return `act:${rev.activate.map((a) => a.card).join(",")}`;
  return "";
}

/**
 * Under your name: the Characters you may activate, the draw after a pass, or the counter
 * window that asks you (with its clock). Null when none of these applies.
 * @param {Model} model
 * @param {boolean} mine our turn, on show
 * @param {{activate: (card: number, fn: string) => void, counter: (card: number) => void, decline: () => void,
 *   draw: (source: number | "deck") => void, stop: () => void}} on
 */
export function revolutionPanel(model, mine, on) {
  const rev = model.deal?.rev;
  if (!rev || model.deal?.over) return null;
  const p = rev.prompt;
  if (p) {
    const who = nameOf(model, p.seat);
    const target = p.target !== null ? t("rev.onTarget", { target: nameOf(model, p.target) }) : "";
    const ask = t("rev.counterAsk", { name: who, card: cardSymbol(p.card), fn: fnName(p.fn), target });
    if (p.answer) {
      return h("div", { class: "rev-panel prompt answered", role: "status", "data-prompt": "answered" },
        functionIcon(p.fn, 20), h("span", {}, ask), h("strong", {}, t(p.answer === "counter" ? "rev.answeredCounter" : "rev.answeredDecline")));
    }
    return h("div", { class: "rev-panel prompt", role: "alertdialog", "aria-label": ask, "data-prompt": "open", "data-prompt-by": String(p.seat) },
      h("span", { class: "rev-ask" }, functionIcon(p.fn, 20), h("span", {}, ask)),
      h("span", { class: "row" },
        p.counters.map((card) => h("button", { class: "btn small primary", type: "button", "data-counter": String(card), onclick: () => on.counter(card) },
          functionIcon("counter", 16), t("rev.counterWith", { card: cardSymbol(card) }))),
        h("button", { class: "btn small", type: "button", "data-decline": "", onclick: on.decline }, t(p.counters.length ? "rev.decline" : "rev.declineNoQ")),
        h("span", { class: "counter-clock", "aria-hidden": "true" },
          h("span", { "data-counter-clock": "" }, clockText(p)),
          h("span", { class: "timer-bar" }, h("span", { style: { width: `${clockShare(p) * 100}%` } })))));
  }
  if (!mine) return null;
  if (rev.phase === "draw") {
    const takes = rev.draws.filter((d) => d !== "deck");
    const drawn = drawnSincePass(model);
    const title = t(drawn ? "rev.drawMore" : "rev.drawTitle");
    return h("div", { class: "rev-panel draw", role: "group", "aria-label": title, "data-draw-panel": "", "data-drawn": String(drawn) },
      h("strong", {}, title),
      rev.draws.includes("deck")
        ? h("button", { class: "btn small primary", type: "button", "data-draw": "deck", onclick: () => on.draw("deck") }, t("rev.drawDeck", { n: rev.deckLeft })) : null,
      takes.map((card) => h("button", { class: "btn small", type: "button", "data-draw": String(card), onclick: () => on.draw(/** @type {number} */ (card)) },
        t("rev.take", { card: cardSymbol(/** @type {number} */ (card)) }))),
      h("button", { class: "btn small", type: "button", "data-stop": "", onclick: on.stop }, t("rev.stop")));
  }
  if (rev.phase === "act" && rev.activate.length) {
    return h("div", { class: "rev-panel act", role: "group", "aria-label": t("rev.functions"), "data-functions": "" },
      h("strong", {}, t("rev.functions")),
      rev.activate.map(({ card, fn }) => h("button", { class: "btn small fn", type: "button", "data-activate": String(card), "data-fn": fn, title: t(`fn.${fn}.what`),
        onclick: () => on.activate(card, fn) }, functionIcon(fn, 16), `${fnName(fn)} ${cardSymbol(card)}`)));
  }
  return null;
}

/** The cards the seat to act has drawn since its pass (a draw is up to two). @param {Model} model */
function drawnSincePass(model) {
  const actions = model.deal?.actions || [];
  const seat = model.deal?.turn;
  let drawn = 0;
  for (let i = actions.length - 1; i >= 0 && actions[i].move !== "pass"; i--) if (actions[i].move === "draw" && actions[i].seat === seat) drawn++;
  return drawn;
}

/** @param {import("./state.js").CounterPrompt} p */
function clockText(p) {
  return p.endsAt ? `${Math.max(0, Math.ceil((p.endsAt - Date.now()) / 1000))}s` : "";
}

/** @param {import("./state.js").CounterPrompt} p */
function clockShare(p) {
  return p.endsAt && p.seconds ? Math.max(0, Math.min(1, (p.endsAt - Date.now()) / (p.seconds * 1000))) : 0;
}

/** The counter clock's figures, moved on between drawings (the table's ticker). @param {Model} model @param {ParentNode} root */
export function tickCounterClock(model, root) {
  const p = model.deal?.rev?.prompt;
  if (!p) return;
  for (const el of root.querySelectorAll("[data-counter-clock]")) {
    const text = clockText(p);
    if (el.textContent !== text) el.textContent = text;
    const bar = /** @type {HTMLElement | null | undefined} */ (el.nextElementSibling?.firstElementChild);
    if (bar) bar.style.width = `${clockShare(p) * 100}%`;
  }
}

/** The reference card: every function in a line, how drawing works and how a hand ends. */
export function showReference() {
  showDialog({
    title: t("rev.referenceTitle"),
    className: "reference",
    body: [
      h("p", {}, t("rev.referenceIntro")),
      // Each function with the Characters that carry it under this table's rules (a house rule may move one).
      h("ul", { class: "fn-list", "data-reference-list": "" }, FUNCTIONS.map((fn) => {
        const ranks = ranksWith(fn).map((rank) => `${rank}★`).join(" ");
        return h("li", { dataset: { fn } }, functionIcon(fn, 26),
          h("span", {}, h("strong", {}, `${ranks} ${fnName(fn)}`.trim()), " — ", t(`fn.${fn}.what`)));
      })),
      h("p", {}, t("rev.referenceDraw")),
      h("p", {}, t("rev.referenceEnd")),
    ],
  });
}

/**
 * An exchange needs a normal card to give and another player to give it to: ask for both.
 * The card raised in the hand (one normal card) is chosen to start with.
 * @param {Model} model
 * @param {number} character the Revolution A activated
 * @param {number[]} raised the cards raised in the hand
 * @param {(target: number, give: number) => void} done
 */
export function askExchange(model, character, raised, done) {
  const seat = /** @type {number} */ (model.seat);
  const hand = (model.deal?.hand || []).filter((c) => !isRevolution(c));
  const opening = model.deal?.opening;
  let give = raised.length === 1 && !isRevolution(raised[0]) ? raised[0] : null;
  /** @type {number | null} */
  let target = null;
  const others = model.players.filter((p) => p.seat !== seat);
  if (others.length === 1) target = others[0].seat;
  const status = h("p", { class: "muted", role: "status" });
  const go = h("button", { class: "btn primary", type: "button", "data-exchange-go": "", disabled: true }, t("rev.exchangeGo"));
  const players = h("div", { class: "row exchange-players", role: "radiogroup", "aria-label": t("rev.exchangeTo") });
  const cards = h("div", { class: "exchange-cards", role: "radiogroup", "aria-label": t("rev.exchangeCard") });
  const draw = () => {
    mount(players, others.map((p) => h("button", { class: `btn small ${target === p.seat ? "primary" : ""}`, type: "button", role: "radio",
      "aria-checked": String(target === p.seat), dataset: { exchangeTo: String(p.seat) }, onclick: () => { target = p.seat; draw(); } },
      playerAvatar(p, 22), p.name)));
    mount(cards, hand.map((c) => h("button", { class: `pick ${give === c ? "on" : ""}`, type: "button", role: "radio", "aria-checked": String(give === c),
      "aria-label": cardSymbol(c), disabled: opening && cardText(c) === opening ? true : undefined,
      dataset: { exchangeCard: String(c) }, onclick: () => { give = c; draw(); } }, cardElement(c))));
    go.disabled = target === null || give === null;
    status.textContent = target !== null && give !== null ? t("rev.exchangeSummary", { card: cardSymbol(give), name: nameOf(model, target) }) : t("rev.exchangeHint");
  };
  draw();
  showDialog({
    title: t("rev.exchangeTitle", { card: cardSymbol(character) }),
    className: "exchange",
    body: [h("p", {}, t("fn.exchange.what")), h("h3", {}, t("rev.exchangeTo")), players, h("h3", {}, t("rev.exchangeCard")), cards, status],
    buttons: (close) => {
      go.addEventListener("click", () => {
        if (target === null || give === null) return;
        close();
        done(target, give);
      });
      return [go, h("button", { class: "btn", type: "button", onclick: close }, t("action.cancel"))];
    },
  });
}

/** Revolution cards in each hand, for a seat's badge. @param {Model} model @param {number} seat */
export function revolutionCount(model, seat) {
  return model.deal?.rev?.revolutionCounts[seat] ?? null;
}
