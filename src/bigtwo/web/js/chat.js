// @ts-check
// Table chat: the lines so far and a box to say something. Text is always put in as text,
// never as HTML.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const ROOM_LINK = /#\/t\/([A-Z0-9]{4,12})|[?&]room=([A-Z0-9]{4,12})|\/r\/([A-Z0-9]{4,12})/;

/** @typedef {import("./state.js").ChatLine} ChatLine */

export class Chat {
  /**
   * closed(): why this page may not chat ("": it may), shown in place of the box's use: the
   * box stays in view, disabled, so the page says why rather than refusing what was typed.
   * @param {{onSend: (text: string) => void, closed?: () => string}} options
   */
  constructor({ onSend, closed = () => "" }) {
    this.onSend = onSend;
    this.closed = closed;
    this.log = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": t("chat.title") });
    this.why = h("p", { class: "chat-closed", id: "chat-closed", hidden: true, "data-chat-closed": "" });
    this.input = h("input", { type: "text", maxlength: 300, placeholder: t("chat.placeholder"), "aria-label": t("chat.say"), autocomplete: "off", "aria-describedby": "chat-closed" });
    this.send = h("button", { class: "btn small", type: "submit" }, t("chat.send"));
    this.form = h("form", {
      onsubmit: (e) => {
        e.preventDefault();
        const text = this.input.value.trim();
        if (!text || this.closed()) return;
        this.input.value = "";
        this.onSend(text);
      },
    }, this.input, this.send);
    this.el = h("div", { class: "chat" }, this.log, this.form, this.why);
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
    const why = this.closed();
    this.input.disabled = this.send.disabled = !!why;
    this.why.hidden = !why;
    if (this.why.textContent !== why) this.why.textContent = why;
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
