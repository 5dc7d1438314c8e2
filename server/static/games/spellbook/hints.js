// SpellBook's words for the hint ladder (as clients/play_spellbook.py's SpellBookHinter): 1 where to look,
// 2 why the best move is good (its reasons, without naming it), 3 its figures and reasons.
import { el, pct } from "../../dom.js";
import { chip, COLORS, isToken, spellTitle } from "./board.js";

const PHASE_ACTIONS = { take: "your Morning primary action (Take 1 or Draw 2)",
  draw: "your Morning primary action (Take 1 or Draw 2)", store: "your Midday primary action (Store 1)" };
const ASPECT_ORDER = ["enables", "gains", "gives_up", "leaves"];

/** Level 1: what to look at, without the move (the terminal's hint_focus). */
export function hintFocus(view, move) {
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

/** A reason's words with each token it names ("Kt", the engine's notation) as its chip (K▲), as every move
 *  on the page shows its tokens. */
export function reasonWords(text) {
  return text.split(/\b([RPGKWBY][cst])\b/).map((part, i) => (i % 2 && isToken(part) ? chip(part) : part)).filter((n) => n !== "");
}

function reasonItems(reasons) {
  const ordered = ASPECT_ORDER.flatMap((a) => reasons.filter((r) => r.aspect === a));
  return ordered.length ? ordered.map((r) => el("li", {}, reasonWords(r.text)))
    : [el("li", { text: "nothing measurable now sets it apart: the search prefers it for what follows" })];
}

/** Level 2: why the best move is good, in words that do not give the move away (the veiled reasons). */
export function hintWhy(view, best) {
  return ["why the best move is good", el("ul", {}, reasonItems(best.veiledReasons || []))];
}

/** Level 3: the best move's figures and reasons (the shell adds the move and the top moves). */
export function hintDetail(view, best) {
  return [el("p", { text: `Your win probability after it: ${pct(best.winProbability)}. Your final score, estimated by ` +
      `simulated play: ${(best.expectedScore || 0).toFixed(1)} points (games vary by ± ${(best.scoreSpread || 0).toFixed(1)}).` }),
  el("ul", {}, reasonItems(best.reasons || []))];
}
