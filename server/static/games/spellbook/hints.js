// Graduated hints, as the terminal gives them (clients/play_spellbook.py SpellBookHinter): 1 where to look, 2 why the best
// move is good (its reasons, without naming it), 3 the move and the top 3 with every figure labelled.
// One GetHints call per position (its search grows until the best move is clear); the levels reveal it.
import { COLORS, el, isToken, moveLabel, spellTitle } from "./board.js";

const PHASE_ACTIONS = { take: "your Morning primary action (Take 1 or Draw 2)",
  draw: "your Morning primary action (Take 1 or Draw 2)", store: "your Midday primary action (Store 1)" };
const ASPECT_ORDER = ["enables", "gains", "gives_up", "leaves"];
const CLASS_NAMES = { MISTAKE_CLASS_BEST: "best", MISTAKE_CLASS_GOOD: "good", MISTAKE_CLASS_INACCURACY: "inaccuracy",
  MISTAKE_CLASS_MISTAKE: "mistake", MISTAKE_CLASS_BLUNDER: "blunder" };
export const className = (c) => CLASS_NAMES[c] || "";
const pct = (x) => `${Math.round(100 * (x || 0))}%`;

/** Level 1: what to look at, without the move (the terminal's hint_focus). */
export function focus(view, move) {
  const kind = move.kind, words = move.text.split(" "), decision = view.decision;
  if (["morning", "midday", "evening"].includes(decision)) {
    if (kind === "pass") return `Consider skipping your ${view.phase} action this time.`;
    if (PHASE_ACTIONS[kind]) return `Look at ${PHASE_ACTIONS[kind]}.`;
    if (kind === "learn") return `Look at learning a spell: ${spellTitle(words[1])}.`;
    if (kind.split("/")[0] === "Transmutation" && words.length > 2) return `Look at your spell Transmutation (to learn ${spellTitle(words[1])}).`;
    return `Look at your spell ${spellTitle(kind.split("/")[0])}.`;
  }
  if (kind === "pass") return "Consider stopping here (pass).";
  const tokens = words.slice(1).filter(isToken);
  if (tokens.length) {
    const where = { take: " on the Altar", store: " in your pool", discard: " in your pool", swap: " on the Altar" }[kind] || "";
    return `This step is a ${decision} choice: look at the ${COLORS[tokens[0][0]]} tokens${where}.`;
  }
  return `This step is a ${decision} choice: look at the options of ${kind}.`;
}

function reasonItems(reasons) {
  const ordered = ASPECT_ORDER.flatMap((a) => reasons.filter((r) => r.aspect === a));
  return ordered.length ? ordered.map((r) => el("li", { text: r.text }))
    : [el("li", { text: "it keeps your options open (no immediate gain or cost)" })];
}

/** The hint box's content at `level` (1-3) for the GetHints answer `answer` at the observed `view`. */
export function renderHint(box, level, view, answer, onPlay) {
  const hints = answer.hints || [];
  const best = hints[0];
  const equal = best && best.aboutEqual ? "Several moves are about equal here: the search cannot tell them apart." : "";
  const parts = [];
  if (level === 1) {
    parts.push(el("p", {}, el("strong", { text: "Hint 1: " }), focus(view, best.move)));
  } else if (level === 2) {
    parts.push(el("p", {}, el("strong", { text: "Hint 2: " }), "why the best move is good"),
      el("ul", {}, reasonItems(best.reasons || [])));
  } else {
    parts.push(el("p", {}, el("strong", { text: "Hint 3: play " }), el("span", { class: "mv" }, moveLabel(best.move.text)),
      best.aboutEqual ? " (about equal with the next move)" : "", " ",
      el("button", { type: "button", class: "play-hint", onclick: () => onPlay(best.move.text) }, "Play it")),
    el("p", { text: `Your win probability after it: ${pct(best.winProbability)}. Your final score, estimated by ` +
      `simulated play: ${(best.expectedScore || 0).toFixed(1)} points (games vary by ± ${(best.scoreSpread || 0).toFixed(1)}).` }),
    el("ul", {}, reasonItems(best.reasons || [])));
    const iterations = answer.stats ? answer.stats.iterations : "?";
    const rows = hints.map((h) => el("tr", {},
      el("td", { text: String(h.rank) }), el("td", { class: "mv" }, moveLabel(h.move.text)),
      el("td", { text: pct(h.winProbability) }), el("td", { text: (h.expectedScore || 0).toFixed(1) }),
      el("td", { text: h.rank === 1 ? "best" + (h.aboutEqual ? ", about equal with the next" : "")
        : h.aboutEqual ? `about equal (loses ${pct(h.loss)} ± ${pct(h.lossMargin)})`
          : `${className(h.mistakeClass)}: loses ${pct(h.loss)} ± ${pct(h.lossMargin)}` })));
    parts.push(el("table", { class: "top" },
      el("caption", { text: `The search's top moves (${iterations} iterations; ${answer.confidence ? answer.confidence.text : ""})` }),
      el("thead", {}, el("tr", {}, ["#", "Move", "Win", "Est. score", "Verdict"].map((t) => el("th", { scope: "col", text: t })))),
      el("tbody", {}, rows)));
  }
  if (equal && level < 3) parts.push(el("p", { text: equal }));
  if (level < 3) parts.push(el("p", { class: "more", text: "Ask again for more (h)." }));
  box.replaceChildren(...parts);
  box.hidden = false;
}
