// What every part of the page builds with: DOM nodes from calls (no HTML strings, so nothing from the
// server is ever parsed as markup), and the few number formats the shell and the games share.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** '1 point', '3 points' (never '1 pts'). */
export const points = (n) => `${n} point${n === 1 ? "" : "s"}`;
export const pct = (x) => `${Math.round(100 * (x || 0))}%`;
export const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`;

export function groupBy(items, key) {
  const out = new Map();
  for (const it of items) { const k = key(it); if (!out.has(k)) out.set(k, []); out.get(k).push(it); }
  return out;
}

// How good a move is against the best one: the same enum in every game's API (search/hints.py's classes).
const CLASS_NAMES = { MISTAKE_CLASS_BEST: "best", MISTAKE_CLASS_GOOD: "good", MISTAKE_CLASS_INACCURACY: "inaccuracy",
  MISTAKE_CLASS_MISTAKE: "mistake", MISTAKE_CLASS_BLUNDER: "blunder" };
export const className = (c) => CLASS_NAMES[c] || "";
export const MISTAKES = new Set(["MISTAKE_CLASS_INACCURACY", "MISTAKE_CLASS_MISTAKE", "MISTAKE_CLASS_BLUNDER"]);

/** A game's stylesheet, added once (style-src 'self': a file of this server). */
export function addStyle(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  document.head.append(el("link", { rel: "stylesheet", href }));
}
