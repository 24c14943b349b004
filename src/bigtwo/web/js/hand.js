// @ts-check
// Your hand: cards drawn as SVG, click or tap to select (raised), double-click for all of a
// rank, long press for all of a suit, drag to reorder, arrows + space from the keyboard.
// It knows nothing of the rules: it only keeps order and selection.
import { h } from "./dom.js";
import { cardFace, cardName, rankOf, suitOf, sortCards, functionOf, isRevolution } from "./cards.js";
import { t } from "./i18n.js";

const LONG_PRESS_MS = 550;
const DRAG_START_PX = 8;

export class Hand {
  /**
   * onChange(selected) is called whenever the selection changes.
   * @param {{onChange?: (selected: number[]) => void, label?: string}} [options]
   */
  constructor({ onChange = () => {}, label = "Your hand" } = {}) {
    this.el = h("div", { class: "hand", role: "listbox", "aria-multiselectable": "true", "aria-label": label });
    /** @type {number[]} in display order */
    this.cards = [];
    /** @type {Set<number>} */
    this.selected = new Set();
    this.focus = 0;
    /** @type {number | null} the card last touched, for "all of its rank / suit" */
    this.last = null;
    this.onChange = onChange;
    this.enabled = true;
    /** @type {number | undefined} the deal whose cards are shown (kept by the table) */
    this.dealNumber = undefined;
    /** @type {number | null | undefined} the seat whose cards are shown (kept by the table) */
    this.seat = undefined;
    new ResizeObserver(() => this.layout()).observe(this.el);
  }

  /**
   * Show these cards, keeping the player's own order for cards still held.
   * @param {number[]} cards
   * @param {"rank" | "suit" | null} [sortBy] null: keep the order shown
   * @param {string} [suitOrder]
   */
  set(cards, sortBy = null, suitOrder = "dchs") {
    const held = new Set(cards);
    /** @type {number[]} */
    let order;
    if (sortBy) order = sortCards(cards, sortBy, suitOrder);
    else {
      order = this.cards.filter((c) => held.has(c));
      for (const c of sortCards(cards.filter((c) => !order.includes(c)), "rank", suitOrder)) order.push(c);
    }
    const same = order.length === this.cards.length && order.every((c, i) => c === this.cards[i]);
    for (const c of [...this.selected]) if (!held.has(c)) this.selected.delete(c);
    this.cards = order;
    this.focus = Math.min(this.focus, Math.max(0, order.length - 1));
    if (!same || !this.el.children.length) this.render();
    else this.refresh();
  }

  /** @param {"rank" | "suit"} by @param {string} [suitOrder] */
  sort(by, suitOrder = "dchs") {
    this.cards = sortCards(this.cards, by, suitOrder);
    this.render();
  }

  /** @param {number[]} cards @param {boolean} [on] */
  select(cards, on = true) {
    for (const c of cards) (on ? this.selected.add(c) : this.selected.delete(c));
    this.refresh();
    this.onChange(this.selectedCards());
  }

  /** Exactly these cards selected, nothing else (Hint uses it). @param {number[]} cards */
  selectOnly(cards) {
    this.selected = new Set(cards.filter((c) => this.cards.includes(c)));
    this.refresh();
    this.onChange(this.selectedCards());
  }

  clear() {
    this.selectOnly([]);
  }

  /** @param {number} card */
  toggle(card) {
    this.select([card], !this.selected.has(card));
    this.last = card;
  }

  /**
   * All cards of the rank (or suit) of the card last touched or focused.
   * @param {"rank" | "suit"} what
   * @param {number | undefined} [card]
   */
  selectAllOf(what, card = this.last ?? this.cards[this.focus]) {
    if (card === undefined || card === null) return;
    const same = this.cards.filter((c) => (what === "suit" ? suitOf(c) === suitOf(card) : rankOf(c) === rankOf(card)));
    const allOn = same.every((c) => this.selected.has(c));
    this.select(same, !allOn);
  }

  selectedCards() {
    return this.cards.filter((c) => this.selected.has(c));
  }

  /** The cards' elements, in display order. @returns {HTMLElement[]} */
  cardEls() {
    return /** @type {HTMLElement[]} */ ([...this.el.children]);
  }

  render() {
    this.el.replaceChildren(...this.cards.map((card, i) => this.cardEl(card, i)));
    this.layout();
    this.refresh();
  }

  refresh() {
    const els = this.cardEls();
    this.cards.forEach((card, i) => {
      const el = els[i];
      if (!el) return;
      const on = this.selected.has(card);
      el.classList.toggle("selected", on);
      el.setAttribute("aria-selected", String(on));
      el.tabIndex = i === this.focus ? 0 : -1;
    });
  }

  /**
   * Fan the cards across the hand's width. Where the stylesheet allows two rows (a phone
   * held upright: `--hand-rows: 2`) and one row would show each card as a strip narrower
   * than half a card, the first half of the hand goes in a row above the rest (each card's
   * corner in view), so every card keeps a strip wide enough to tap.
   */
  layout() {
    const n = this.cards.length;
    const width = this.el.clientWidth;
    const els = this.cardEls();
    const cardWidth = els[0]?.offsetWidth || 72;
    const fan = (/** @type {number} */ count, /** @type {number} */ most) => (count > 1 ? Math.min(cardWidth * most, (width - cardWidth) / (count - 1)) : 0);
    const rows = Number(getComputedStyle(this.el).getPropertyValue("--hand-rows")) === 2 && fan(n, 0.62) < cardWidth * 0.5 ? 2 : 1;
    const perRow = Math.ceil(n / rows);
    const step = fan(perRow, rows === 2 ? 0.8 : 0.62);
    this.el.classList.toggle("two-rows", rows === 2);
    els.forEach((el, i) => {
      const row = Math.floor(i / perRow);
      const inRow = row ? n - perRow : perRow;
      const start = Math.max(0, (width - (step * (inRow - 1) + cardWidth)) / 2);
      el.style.left = `${start + (i - row * perRow) * step}px`;
      el.style.setProperty("--row", String(row));
      el.style.zIndex = String(i + 1);
    });
  }

  /** @param {number} card @param {number} index */
  cardEl(card, index) {
    const el = h("div", {
      class: `card hand-card${isRevolution(card) ? " rev" : ""}`, role: "option", "aria-selected": "false",
      "aria-label": functionOf(card) ? `${cardName(card)}, ${t(`fn.${functionOf(card)}`)}` : cardName(card),
      title: functionOf(card) ? `${t(`fn.${functionOf(card)}`)}: ${t(`fn.${functionOf(card)}.what`)}` : undefined,
      dataset: { card: String(card), index: String(index) }, tabindex: -1,
    }, cardFace(card));
    el.addEventListener("pointerdown", (e) => this.pointerDown(e, card, el));
    el.addEventListener("dblclick", (e) => {
      e.preventDefault();
      if (this.enabled) this.selectAllOf("rank", card);
    });
    el.addEventListener("keydown", (e) => this.key(e));
    el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long press selects the suit
    el.addEventListener("focus", () => {
      this.focus = this.cards.indexOf(card);
    });
    return el;
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const n = this.cards.length;
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -n, End: n };
    const move = moves[e.key];
    if (move !== undefined) {
      this.focus = Math.max(0, Math.min(n - 1, this.focus + move));
      this.refresh();
      this.cardEls()[this.focus]?.focus();
      e.preventDefault();
    } else if (e.key === " " || e.key === "ArrowUp" || e.key === "ArrowDown") {
      const card = this.cards[this.focus];
      if (card === undefined) return;
      if (e.key === " ") this.toggle(card);
      else this.select([card], e.key === "ArrowUp");
      this.last = card;
      e.preventDefault();
      e.stopPropagation();
    }
  }

  /** @param {PointerEvent} e @param {number} card @param {HTMLElement} el */
  pointerDown(e, card, el) {
    if (e.button !== 0) return;
    const startX = e.clientX;
    const startY = e.clientY;
    const startLeft = parseFloat(el.style.left) || 0;
    let dragging = false;
    let longPressed = false;
    const timer = setTimeout(() => {
      if (!dragging && this.enabled) {
        longPressed = true;
        this.selectAllOf("suit", card);
      }
    }, LONG_PRESS_MS);
    el.setPointerCapture?.(e.pointerId);
    /** @param {PointerEvent} ev */
    const move = (ev) => {
      const dx = ev.clientX - startX;
      if (!dragging && Math.abs(dx) > DRAG_START_PX && Math.abs(dx) > Math.abs(ev.clientY - startY)) {
        dragging = true;
        clearTimeout(timer);
        el.classList.add("dragging");
      }
      if (dragging) el.style.left = `${startLeft + dx}px`;
    };
    /** @param {PointerEvent} ev */
    const up = (ev) => {
      clearTimeout(timer);
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      el.classList.remove("dragging");
      if (dragging) this.drop(card, parseFloat(el.style.left) || 0);
      else if (!longPressed && ev.type === "pointerup" && this.enabled) {
        this.focus = this.cards.indexOf(card);
        this.toggle(card);
      }
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  }

  /**
   * Put the dragged card where it was dropped: after every card whose left edge it passed.
   * @param {number} card
   * @param {number} left
   */
  drop(card, left) {
    const others = this.cards.filter((c) => c !== card);
    // In two rows, a card dragged along its row goes among that row's cards.
    const rowOf = (/** @type {HTMLElement} */ el) => Number(el.style.getPropertyValue("--row")) || 0;
    const dragged = this.cardEls().find((el) => Number(el.dataset.card) === card);
    const row = dragged ? rowOf(dragged) : 0;
    const at = this.cardEls()
      .filter((el) => Number(el.dataset.card) !== card)
      .filter((el) => rowOf(el) < row || (rowOf(el) === row && (parseFloat(el.style.left) || 0) < left)).length;
    others.splice(at, 0, card);
    this.cards = others;
    this.focus = at;
    this.render();
    this.el.dispatchEvent(new CustomEvent("reordered", { bubbles: true }));
  }
}
