// @ts-check
// The Palm-style game history of the match in play: every deal seen at this table, each play
// and pass, who leads after a trick, the winner, cards left and points. Kept per table in
// localStorage, so a reload keeps the deals already played; it can be downloaded as text.
import { h } from "./dom.js";
import { cardsSymbols, sortCards } from "./cards.js";
import { t, tOr } from "./i18n.js";
import { moveText } from "./revolution.js";

/** @typedef {import("./state.js").Model} Model */
/**
 * A deal as this table saw it: its leader, rules and actions, and what we were dealt (null:
 * watching); only its result when it was played before we came. Its result once over.
 * @typedef {{number: number, result?: import("./state.js").Result} & ({actions: null} | {
 *   actions: Array<{seat: number, cards: number[] | null, auto: boolean, trickOver: boolean} & Partial<Pick<import("./state.js").Action, "move" | "shown" | "fn" | "target" | "source">>>,
 *   leader: number, rules: string, myHand: number[] | null,
 * })} ArchivedDeal
 */
/** @typedef {{deals: Record<number, ArchivedDeal>, names?: string[], deals_total?: number, at?: number}} Archive */

/** @param {string} code */
const key = (code) => `bigtwo.history.${code}`;

/** @param {string} code @returns {Archive} */
export function loadArchive(code) {
  try {
    return JSON.parse(localStorage.getItem(key(code)) || "null") || { deals: {} };
  } catch {
    return { deals: {} };
  }
}

/** @param {string} code @param {Archive} archive */
export function saveArchive(code, archive) {
  try {
    localStorage.setItem(key(code), JSON.stringify({ ...archive, at: Date.now() }));
  } catch {
    /* storage full or private: the history lasts for this page only */
  }
}

/** Fold the model's current deal and results into the archive. @param {Archive} archive @param {Model} model */
export function updateArchive(archive, model) {
  const deal = model.deal;
  if (deal) {
    const entry = archive.deals[deal.number] || {};
    archive.deals[deal.number] = {
      ...entry,
      number: deal.number,
      leader: deal.leader,
      rules: model.rules?.name || model.room?.preset || "",
      actions: deal.actions.map((a) => ({ seat: a.seat, cards: a.cards, auto: a.auto, trickOver: a.trickOver,
        // a revolution hand's other moves (a function, an answer, a draw …)
        ...(!a.move || a.move === "play" || a.move === "pass" ? {} : { move: a.move, shown: a.shown, fn: a.fn, target: a.target, source: a.source }) })),
      // What we were dealt: what we hold plus what we have played.
      myHand: model.seat === null ? null
        : [...deal.hand, ...deal.actions.filter((a) => a.seat === model.seat && a.cards).flatMap((a) => a.cards || [])],
    };
  }
  for (const r of model.results) {
    if (archive.deals[r.number]) archive.deals[r.number].result = r;
    else archive.deals[r.number] = { number: r.number, actions: null, result: r };
  }
  archive.names = model.players.map((p) => p.name);
  archive.deals_total = model.dealsTotal;
  return archive;
}

/** @param {string} text @param {number} width */
const pad = (text, width) => text + " ".repeat(Math.max(0, width - [...text].length));

/** The history as Palm-style text lines, one deal after another. @param {Archive} archive @param {Model} model */
export function historyText(archive, model) {
  const names = model.players.map((p) => p.name);
  const width = Math.max(...names.map((n) => [...n].length), 4);
  const lines = [];
  const numbers = Object.keys(archive.deals).map(Number).sort((a, b) => a - b);
  for (const n of numbers) {
    const d = archive.deals[n];
    lines.push(`=== ${t("history.dealOf", { n, of: model.dealsTotal || "?" })}${d.actions && d.rules ? ` (${tOr(`preset.${d.rules}`, d.rules)})` : ""} ===`);
    if (d.actions && d.myHand?.length && model.seat !== null) {
      lines.push(`${t("history.yourHand")}: ${cardsSymbols(sortCards(d.myHand))}`);
    }
    if (d.actions) {
      lines.push(`${t("history.lead")}: ${names[d.leader]}`);
      let lastPlayer = d.leader;
      for (const a of d.actions) {
        if (a.move) {
          const text = moveText(model, { ...a, kind: null, reason: "", move: a.move });
          if (text) lines.push(text);
        } else if (a.cards) {
          lastPlayer = a.seat;
          lines.push(`${names[a.seat]}: ${cardsSymbols(a.cards)}`);
        } else lines.push(`${names[a.seat]}: ${t("history.pass")}${a.auto ? ` (${t("history.auto")})` : ""}`);
        if (a.trickOver && !a.cards) lines.push(`${t("history.lead")}: ${names[lastPlayer]}`);
      }
    } else lines.push(t("history.notSeen"));
    const r = d.result;
    if (r) {
      lines.push(`${t("history.winner")}: ${names[r.winner]}`);
      lines.push(`${t("history.leftAndPoints")}:`);
      names.forEach((name, s) => {
        const left = r.cardsLeft[s].length ? cardsSymbols(sortCards(r.cardsLeft[s], "suit")) : "";
        const band = r.multipliers[s] === 2 ? t("score.double") : r.multipliers[s] >= 3 ? t("score.triple") : "";
        const note = s === r.winner ? `*${t("score.win")}*` : [left, band].filter(Boolean).join(" ");
        const pts = r.points[s] > 0 ? `+${r.points[s]}` : String(r.points[s]);
        lines.push(`  ${pad(name, width)}  ${String(r.counts[s]).padStart(2)} ${t("history.left")}  ${pts.padStart(5)}  ${note}`.trimEnd());
      });
    } else if (d.actions) lines.push(`(${t("history.inPlay")})`);
    lines.push("");
  }
  if (model.results.length) {
    lines.push(`${t("score.total")}: ${names.map((n, s) => `${n} ${model.totals[s]}`).join(", ")}`);
    if (model.totals.every((x) => x === 0)) lines.push(t("score.realMoney"));
  }
  return lines.join("\n");
}

/** @param {Archive} archive @param {Model} model @param {() => void} onDownload */
export function historyView(archive, model, onDownload) {
  const text = historyText(archive, model);
  return h("div", { class: "history" },
    h("div", { class: "row" },
      h("button", { class: "btn small", type: "button", onclick: onDownload, "data-download-history": "" }, t("history.download"))),
    h("pre", { tabindex: 0, "aria-label": t("history.title") }, text || t("history.empty")));
}

/** Offer text as a file download. @param {string} filename @param {string} text @param {string} [type] */
export function download(filename, text, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = h("a", { href: url, download: filename, style: { display: "none" } });
  document.body.append(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(url);
    a.remove();
  }, 1000);
}
