// @ts-check
// The leaderboard (#/leaderboard[/FAMILY]): the best players of a family of rules, with
// their rating, games and wins; players with too few rated games are not ranked; the
// signed-in player's own place below.
import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { request, errorOf } from "./net.js";

export const FAMILIES = ["bigtwo", "revolution"];

/** @typedef {{rank: number | null, name: string, rating: number, games: number, wins: number}} Ranked */

export class LeaderboardScreen {
  /** @param {HTMLElement} root @param {string | undefined} family */
  constructor(root, family) {
    this.root = root;
    this.family = FAMILIES.includes(family || "") ? String(family) : "bigtwo";
    mount(root, h("p", { class: "loading" }, t("app.loading")));
    this.load();
  }

  destroy() {}

  async load() {
    const tabs = h("nav", { class: "row", "aria-label": t("leaderboard.families") }, FAMILIES.map((f) =>
      h("a", { class: "btn small", href: `#/leaderboard/${f}`, "aria-current": f === this.family ? "page" : undefined }, t(`family.${f}`))));
    const head = [h("h2", {}, t("leaderboard.title")), tabs];
    try {
      const board = await request("GET", `/api/leaderboard?family=${this.family}`);
      /** @param {Ranked} p */
      const row = (p) => h("tr", { "data-player": p.name },
        h("td", {}, p.rank === null ? "–" : String(p.rank)),
        h("td", {}, h("a", { href: `#/players/${encodeURIComponent(p.name)}` }, p.name)),
        h("td", {}, String(p.rating)), h("td", {}, String(p.games)), h("td", {}, String(p.wins)));
      const table = h("table", { class: "leaderboard" },
        h("thead", {}, h("tr", {}, ["leaderboard.rank", "leaderboard.player", "leaderboard.rating", "leaderboard.games", "leaderboard.wins"].map((k) => h("th", { scope: "col" }, t(k))))),
        h("tbody", {}, board.players.map(row)));
      const you = board.you;
      mount(this.root, h("div", { class: "lobby" }, h("section", { class: "panel" }, head,
        board.players.length ? table : h("p", { class: "muted" }, t("leaderboard.empty")),
        h("p", { class: "muted" }, t("leaderboard.minGames", { n: board.min_games })),
        you ? h("p", { "data-you": "" }, you.rank === null ? t("leaderboard.youUnranked", { rating: you.rating, n: you.games }) : t("leaderboard.you", { rank: you.rank, rating: you.rating })) : null,
        h("a", { class: "btn", href: "#/" }, t("action.backToLobby")))));
    } catch (err) {
      mount(this.root, h("div", { class: "lobby" }, h("section", { class: "panel" }, head,
        h("p", { class: "error", role: "alert" }, errorOf(err).message), h("a", { class: "btn", href: "#/" }, t("action.backToLobby")))));
    }
  }
}
