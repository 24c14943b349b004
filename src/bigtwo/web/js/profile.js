// @ts-check
// A player's profile (#/players/NAME): their rating in each family of rules and its history
// as a small plot, games played and won, the Palm high-score table's figures over their rated
// games (deals played, time played, most points in one deal, score balance) and points a deal,
// and their recent rated games with a link to each replay and to each coach's review kept of
// their seat (a private room's games only to its players).
import { h, mount, svg } from "./dom.js";
import { t } from "./i18n.js";
import { request, errorOf } from "./net.js";
import { FAMILIES } from "./leaderboard.js";
import { openReview } from "./review.js";

/** @typedef {{before: number, after: number, settled: number}} Rated */
/** @typedef {Rated & {code: string, family: string, seat: number, place: number, points: number, rounds: number, seconds: number, best: number, reviews: number[]}} Game */

/** Seconds as h:mm:ss (or m:ss), the same in every language. @param {number} seconds */
export function clockTime(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/**
 * The rating after each game, oldest first, as a small line.
 * @param {Rated[]} history newest first
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
      const reviews = (g) => g.reviews.map((deal) => {
        const names = Array.from({ length: Math.max(4, g.seat + 1) }, (_, i) => (i === g.seat ? p.name : t("seat.n", { n: i + 1 })));
        return [" · ", h("button", { class: "btn small", type: "button", "data-profile-review": String(deal),
          onclick: () => openReview({ code: g.code, deal, seat: g.seat, names }) }, t("profile.review", { n: deal }))];
      });
      /** @param {Game} g */
      const game = (g) => h("li", { "data-game": g.code }, t(`family.${g.family}`), " · ", t("profile.place", { n: g.place }), " · ",
        t("profile.points", { n: g.points }), " · ", `${g.before} → ${g.after}`, " · ",
        t("profile.game", { rounds: g.rounds, time: clockTime(g.seconds), best: g.best }), " · ",
        h("a", { href: `#/replay/${encodeURIComponent(g.code)}` }, t("profile.replay")), reviews(g));
      const palm = [t("profile.rounds", { n: p.total_rounds }), t("profile.time", { time: clockTime(p.total_seconds) }),
        p.max_score === null ? null : t("profile.bestDeal", { n: p.max_score }), t("profile.balance", { n: p.score_balance }),
        p.points_per_deal === null ? null : t("profile.perDeal", { n: p.points_per_deal })].filter((x) => x !== null);
      mount(this.root, h("div", { class: "lobby" },
        h("section", { class: "panel" }, h("h2", { "data-profile": "" }, p.name),
          h("p", { "data-palm": "" }, palm.join(" · ")),
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
