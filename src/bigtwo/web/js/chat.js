// @ts-check
// Table chat: the lines so far and a box to say something. Text is always put in as text,
// never as HTML.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const ROOM_LINK = /#\/t\/([A-Z0-9]{4,12})|[?&]room=([A-Z0-9]{4,12})|\/r\/([A-Z0-9]{4,12})/;

/** @typedef {import("./state.js").ChatLine} ChatLine */

export class Chat {
  /** @param {{onSend: (text: string) => void, canSend?: () => boolean}} options */
  constructor({ onSend, canSend = () => true }) {
    this.onSend = onSend;
    this.canSend = canSend;
    this.log = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": t("chat.title") });
    this.input = h("input", { type: "text", maxlength: 300, placeholder: t("chat.placeholder"), "aria-label": t("chat.say"), autocomplete: "off" });
    this.form = h("form", {
      onsubmit: (e) => {
        e.preventDefault();
        const text = this.input.value.trim();
        if (!text) return;
        this.input.value = "";
        this.onSend(text);
      },
    }, this.input, h("button", { class: "btn small", type: "submit" }, t("chat.send")));
    this.el = h("div", { class: "chat" }, this.log, this.form);
    this.shown = 0;
  }

  /** @param {ChatLine[]} lines */
  render(lines) {
    if (lines.length < this.shown) {
      this.log.replaceChildren();
      this.shown = 0;
    }
    for (const line of lines.slice(this.shown)) this.log.append(this.lineEl(line));
    this.shown = lines.length;
    this.log.scrollTop = this.log.scrollHeight;
    this.form.hidden = !this.canSend();
  }

  /** @param {ChatLine} line */
  lineEl(line) {
    const link = ROOM_LINK.exec(line.text);
    const code = link && (link[1] || link[2] || link[3]);
    return h("li", {},
      h("span", { class: "from" }, `${line.name}${line.seat === null ? ` (${t("chat.spectator")})` : ""}: `),
      h("span", { class: "text" }, line.text),
      code ? [" ", h("a", { href: `#/t/${code}` }, t("chat.openTable", { code }))] : null);
  }
}
