// @ts-check
// Small SVG icons for buttons, so no icon font or emoji font is needed.
import { svg } from "./dom.js";

/** @type {Record<string, string>} */
const PATHS = {
  first: "M4 4h2v16H4z M20 4 8 12l12 8z",
  back: "M18 4 6 12l12 8z",
  play: "M6 4l14 8-14 8z",
  pause: "M6 4h4v16H6z M14 4h4v16h-4z",
  forward: "M6 4l12 8-12 8z",
  last: "M18 4h2v16h-2z M4 4l12 8-12 8z",
};

/** @param {string} name @param {number} [size] */
export function icon(name, size = 18) {
  return svg("svg", { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", focusable: "false", class: "icon" },
    svg("path", { d: PATHS[name], fill: "currentColor" }));
}
