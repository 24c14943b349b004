// @ts-check
// A player's profile (#/players/NAME): their rating in each family of rules and its history
// as a small plot, games played and won, their score balance and best score, and their recent
// rated games with a link to each replay (a private room's only to its players).
import { h, mount, svg } from "./dom.js";
import { t } from "./i18n.js";
import { request, errorOf } from "./net.js";
import { FAMILIES } from "./leaderboard.js";

/** @typedef {{code: string, place: number, points: number, before: number, after: number, settled: number, family?: string}} Game */

/**
 * The rating after each game, oldest first, as a small line.
 * @param {Game[]} history newest first
 */
function plot(history) {
  const points = [...history].reverse().map((g) => g.after);
  if (points.length < 2) return null;
  const low = Math.min(...points), high = Math.max(...points), span = Math.max(1, high - low);
  const w = 160, hgt = 40;
  const xy = points.map((p, i) => `${(i * w) / (points.length - 1)},${hgt - ((p - low) * hgt) / span}`);
  return svg("svg", { class: "rating-plot", viewBox: `-2 -2 ${w + 4} ${hgt + 4}`, width: w, height: hgt, role: "img", "aria-label": t("profile.plot", { from: points[0], to: points[points.length - 1] }) },
    svg("polyline", { points: xy.join(" "), fill: "none", stroke: "currentColor", "stroke-width": 2 }));
}

export class ProfileScreen {
  /** @param {HTMLElement} root @param {string} name */
  constructor(root, name) {
    this.root = root;
    this.name = name;
    mount(root, h("p", { class: "loading" }, t("app.loading")));
    this.load();
  }

  destroy() {}

  async load() {
    try {
      const p = await request("GET", `/api/players/${encodeURIComponent(this.name)}`);
      const families = FAMILIES.map((f) => {
        const r = p.ratings[f];
        return h("section", { class: "panel", "data-family": f }, h("h3", {}, t(`family.${f}`)),
          h("p", {}, h("strong", { "data-rating": f }, String(r.rating)), " · ", t("account.games", { n: r.games }), " · ", t("profile.wins", { n: r.wins })),
          plot(r.history));
      });
      /** @param {Game} g */
      const game = (g) => h("li", {}, t(`family.${g.family}`), " · ", t("profile.place", { n: g.place }), " · ",
        t("profile.points", { n: g.points }), " · ", `${g.before} → ${g.after}`, " · ",
        h("a", { href: `#/replay/${encodeURIComponent(g.code)}` }, t("profile.replay")));
      mount(this.root, h("div", { class: "lobby" },
        h("section", { class: "panel" }, h("h2", { "data-profile": "" }, p.name),
          h("p", {}, t("profile.balance", { n: p.score_balance }), p.max_score === null ? "" : ` · ${t("profile.best", { n: p.max_score })}`),
          h("a", { class: "btn small", href: "#/leaderboard" }, t("leaderboard.title"))),
        families,
        h("section", { class: "panel" }, h("h3", {}, t("profile.recent")),
          p.games.length ? h("ul", { class: "games" }, p.games.map(game)) : h("p", { class: "muted" }, t("profile.noGames")),
          h("a", { class: "btn", href: "#/" }, t("action.backToLobby")))));
    } catch (err) {
      mount(this.root, h("div", { class: "lobby" }, h("section", { class: "panel" },
        h("p", { class: "error", role: "alert" }, errorOf(err).message), h("a", { class: "btn", href: "#/" }, t("action.backToLobby")))));
    }
  }
}
