// @ts-check
// Cards that move to the table: a play's cards glide from where they were (the player's own
// hand, or the seat of whoever played them) to their place in the centre, with the Web
// Animations API. Nothing moves for a player who asks for less motion (the system's
// prefers-reduced-motion). It only animates elements already drawn; it changes no state.

export const MOVE_MS = 380;

/** Whether the player asked for less motion. */
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Move each card from where it came from to where it lies now. `from` gives a card's start
 * (a box on the screen), or null to leave the card where it is. `elapsed`: milliseconds of
 * the move already shown, so that a card drawn afresh mid-move carries on from there.
 * @param {HTMLElement[]} cards
 * @param {(card: HTMLElement, index: number) => DOMRect | null | undefined} from
 * @param {number} [elapsed]
 * @returns {Animation[]}
 */
export function moveToTable(cards, from, elapsed = 0) {
  if (reducedMotion() || elapsed >= MOVE_MS) return [];
  /** @type {Animation[]} */
  const moves = [];
  cards.forEach((el, i) => {
    const start = from(el, i);
    if (!start || !start.width || typeof el.animate !== "function") return; // nowhere shown
    const end = el.getBoundingClientRect();
    if (!end.width) return;
    const dx = start.left + start.width / 2 - (end.left + end.width / 2);
    const dy = start.top + start.height / 2 - (end.top + end.height / 2);
    const scale = Math.max(0.35, Math.min(1.6, start.width / end.width));
    const move = el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.7 }, { transform: "none", opacity: 1 }],
      { duration: MOVE_MS, easing: "cubic-bezier(.2, .75, .3, 1)" });
    move.currentTime = elapsed; // set at once, so the first frame already shows the start
    moves.push(move);
  });
  return moves;
}
