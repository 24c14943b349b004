// @ts-check
// Avatars drawn as SVG from a small set of features: eight people and a robot for computers.
import { svg } from "./dom.js";

const PEOPLE = [
  { bg: "#f4a259", skin: "#f1c27d", hair: "#3b2314", style: "short" },
  { bg: "#5b8e7d", skin: "#e0ac69", hair: "#111", style: "long" },
  { bg: "#bc4b51", skin: "#ffdbac", hair: "#b55239", style: "bun" },
  { bg: "#4a6fa5", skin: "#c68642", hair: "#222", style: "spiky" },
  { bg: "#8e6fb5", skin: "#f1c27d", hair: "#d6b34a", style: "long" },
  { bg: "#2a9d8f", skin: "#8d5524", hair: "#111", style: "short" },
  { bg: "#e76f51", skin: "#ffe0bd", hair: "#6b4423", style: "cap" },
  { bg: "#264653", skin: "#e0ac69", hair: "#9a9a9a", style: "bald" },
];
export const AVATAR_COUNT = PEOPLE.length;

/** @param {string} style @param {string} color */
function hair(style, color) {
  switch (style) {
    case "long":
      return svg("path", { d: "M22 52 C18 24 34 14 50 14 C66 14 82 24 78 52 L80 82 L68 80 L66 44 C58 40 42 40 34 44 L32 80 L20 82 Z", fill: color });
    case "bun":
      return svg("g", {}, svg("circle", { cx: 50, cy: 13, r: 9, fill: color }),
        svg("path", { d: "M25 46 C25 24 38 19 50 19 C62 19 75 24 75 46 C66 34 58 32 50 32 C42 32 32 36 25 46 Z", fill: color }));
    case "spiky":
      return svg("path", { d: "M25 44 L28 22 L36 30 L40 14 L48 26 L54 12 L60 26 L68 16 L70 30 L76 24 L75 44 C66 34 34 34 25 44 Z", fill: color });
    case "cap":
      return svg("g", {}, svg("path", { d: "M24 42 C24 22 38 16 50 16 C62 16 76 22 76 42 Z", fill: "#1d3557" }),
        svg("rect", { x: 44, y: 38, width: 44, height: 7, rx: 3.5, fill: "#1d3557" }));
    case "bald":
      return svg("path", { d: "M25 50 C24 42 27 38 30 36 L30 50 Z M75 50 C76 42 73 38 70 36 L70 50 Z", fill: color });
    default:
      return svg("path", { d: "M25 46 C25 24 38 18 50 18 C62 18 75 24 75 46 C68 36 60 30 50 31 C42 31 32 36 25 46 Z", fill: color });
  }
}

/** @param {{bg: string, skin: string, hair: string, style: string}} p */
function person(p) {
  return [
    svg("circle", { cx: 50, cy: 50, r: 50, fill: p.bg }),
    svg("path", { d: "M18 100 C20 78 34 72 50 72 C66 72 80 78 82 100 Z", fill: "#fff", opacity: 0.85 }),
    svg("ellipse", { cx: 50, cy: 48, rx: 24, ry: 27, fill: p.skin }),
    hair(p.style, p.hair),
    svg("circle", { cx: 41, cy: 50, r: 3, fill: "#222" }),
    svg("circle", { cx: 59, cy: 50, r: 3, fill: "#222" }),
    svg("path", { d: "M41 61 Q50 68 59 61", stroke: "#7a3b2e", "stroke-width": 2.5, fill: "none", "stroke-linecap": "round" }),
  ];
}

/** @param {number} hue */
function robot(hue) {
  return [
    svg("circle", { cx: 50, cy: 50, r: 50, fill: `hsl(${hue} 35% 42%)` }),
    svg("line", { x1: 50, y1: 14, x2: 50, y2: 24, stroke: "#ddd", "stroke-width": 3 }),
    svg("circle", { cx: 50, cy: 12, r: 4, fill: "#ffd166" }),
    svg("rect", { x: 24, y: 24, width: 52, height: 44, rx: 10, fill: "#d9dee5" }),
    svg("rect", { x: 31, y: 36, width: 14, height: 10, rx: 3, fill: "#1b263b" }),
    svg("rect", { x: 55, y: 36, width: 14, height: 10, rx: 3, fill: "#1b263b" }),
    svg("circle", { cx: 38, cy: 41, r: 2.5, fill: "#7bdff2" }),
    svg("circle", { cx: 62, cy: 41, r: 2.5, fill: "#7bdff2" }),
    svg("rect", { x: 38, y: 54, width: 24, height: 5, rx: 2, fill: "#8d99ae" }),
    svg("path", { d: "M22 100 C24 80 34 74 50 74 C66 74 76 80 78 100 Z", fill: "#d9dee5" }),
  ];
}

/**
 * An avatar: a person (index 0..7) or, with computer set, a robot tinted by seat.
 * @param {{index?: number, computer?: boolean, seat?: number, size?: number, label?: string}} [options]
 */
export function avatar({ index = 0, computer = false, seat = 0, size = 48, label = "" } = {}) {
  const parts = computer ? robot([200, 20, 140, 280][seat % 4]) : person(PEOPLE[((index % AVATAR_COUNT) + AVATAR_COUNT) % AVATAR_COUNT]);
  return svg("svg", {
    viewBox: "0 0 100 100", width: size, height: size, class: "avatar",
    "data-avatar": computer ? "computer" : String(((index % AVATAR_COUNT) + AVATAR_COUNT) % AVATAR_COUNT),
    role: label ? "img" : undefined, "aria-label": label || undefined, "aria-hidden": label ? undefined : "true",
  }, svg("g", {}, parts));
}

/**
 * A seat nobody has taken yet: a dashed ring, nobody's face (not one of the pictures a
 * player may have chosen).
 * @param {number} [size]
 */
export function emptyAvatar(size = 48) {
  return svg("svg", { viewBox: "0 0 100 100", width: size, height: size, class: "avatar avatar-empty", "data-avatar": "empty", "aria-hidden": "true" },
    svg("circle", { cx: 50, cy: 50, r: 45, fill: "none", stroke: "currentColor", "stroke-width": 5, "stroke-dasharray": "12 9", opacity: 0.7 }));
}
