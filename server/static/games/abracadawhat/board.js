// Abracada…What?'s table as one seat sees it (a GetSession state's GameView): every other hand face up,
// its own hand as hidden stones (a seat never sees its own, the game's whole point), the pile, the secret
// stones, life and points, the round, whose turn, the casts of this turn and this round's announcements.
// A spectator of a live game sees no hand at all; a finished game (and the review's replay) shows them all.
import { el, points } from "../../dom.js";

let HELP = { spells: [], lifeMax: 6, winPoints: 8, reasons: {} };
export function setHelp(help) { HELP = { ...HELP, ...help }; }
export const spellName = (k) => (HELP.spells[k - 1] ? HELP.spells[k - 1].name : `spell ${k}`);
export const effect = (k) => (HELP.spells[k - 1] ? HELP.spells[k - 1].effect : "");

/** The engine's words for a reader (engine_c/abracadawhat/text.py, as the terminal prints them: a move's
 *  event lines, an announcement's gain and risk) as page nodes: "you" and "seat N" become this page's
 *  names, "you" opening a sentence "You", a spell ("6 Blizzard") its stone with its name, and "->" "→". */
export function words(text, name) {
  text = text.replace(/ -> /g, " → ");     // the terminal's ASCII arrow ("life: you 6 -> 5"), as a page shows it
  const spells = HELP.spells.map((s) => s.name).sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`\\bseat (\\d+)\\b|\\b([1-8]) (${spells.join("|") || "$^"})\\b`, "g");
  const out = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    out.push(text.slice(at, m.index));
    if (m[1] !== undefined) out.push(name(Number(m[1])));
    else out.push(stone(Number(m[2]), { small: true }), ` ${m[3]}`);
    at = m.index + m[0].length;
  }
  out.push(text.slice(at));
  if (typeof out[0] === "string") out[0] = out[0].replace(/^you\b/, "You");
  return out.filter((n) => n !== "");
}

/** One stone: its spell's number on its spell's color, named in words; or a hidden stone. */
export function stone(k, { hidden = false, small = false } = {}) {
  if (hidden) return el("span", { class: `aw-stone hidden${small ? " small" : ""}`, role: "img", "aria-label": "hidden stone", title: "hidden stone" }, "?");
  const label = `${k} ${spellName(k)}`;
  return el("span", { class: `aw-stone s${k}${small ? " small" : ""}`, role: "img", "aria-label": label, title: label }, String(k));
}

function stones(zone, { empty = "none", hiddenAs = "hidden" } = {}) {
  if (!zone) return el("span", { class: "empty", text: empty });
  if (!zone.visible) {
    if (!zone.size) return el("span", { class: "empty", text: empty });
    return el("span", { class: "aw-stones", "aria-label": `${zone.size} ${hiddenAs} stone${zone.size > 1 ? "s" : ""}` },
      Array.from({ length: zone.size }, () => stone(0, { hidden: true })));
  }
  if (!zone.stones || !zone.stones.length) return el("span", { class: "empty", text: empty });
  return el("span", { class: "aw-stones" }, zone.stones.map((k) => stone(k)));
}

function life(n) {
  const max = HELP.lifeMax || 6;
  return el("span", { class: "aw-life", role: "img", "aria-label": `${n} life of ${max}`, title: `${n} life of ${max}` },
    el("span", { class: "hearts", "aria-hidden": "true" }, "♥".repeat(Math.max(0, n)) + "♡".repeat(Math.max(0, max - n))), ` ${n}/${max}`);
}

/** The casts of the turn under way: the active seat's announcements since its turn began. */
export function thisTurn(view) {
  const log = view.log || [];
  const out = [];
  for (let i = log.length - 1; i >= 0 && log[i].kind === "cast" && (log[i].seat || 0) === (view.active || 0); i--) out.unshift(log[i]);
  return out;
}

export function castText(e) {
  return `${e.spell || 0} ${spellName(e.spell || 0)}: ${e.ok ? "success" : "failed"}${e.roll ? `, the die shows ${e.roll}` : ""}`;
}

function castChip(e) {
  return el("li", { class: `aw-cast ${e.ok ? "ok" : "fail"}` }, stone(e.spell || 0, { small: true }),
    ` ${spellName(e.spell || 0)} `, el("strong", { text: e.ok ? "✓ success" : "✗ failed" }), e.roll ? ` (die ${e.roll})` : "");
}

/** This round's announcements, turn by turn. */
function roundLog(view, name) {
  const turns = [];
  let current = null;
  for (const e of view.log || []) {
    const seat = e.seat || 0;
    if (!current || current.seat !== seat || current.done) { current = { seat, casts: [], done: false, refilled: 0 }; turns.push(current); }
    if (e.kind === "cast") current.casts.push(e);
    else { current.done = true; current.refilled = e.refilled || 0; }
  }
  if (!turns.length) return el("p", { class: "empty", text: "No announcement yet this round." });
  // a failed announcement ends the turn by rule: the seat did not choose to end it
  const ending = (t) => (t.casts.length && !t.casts[t.casts.length - 1].ok ? " — the failure ended the turn" : " — ended the turn");
  return el("ol", { class: "aw-turns" }, turns.map((t) => el("li", {}, el("strong", { text: `${name(t.seat)}: ` }),
    t.casts.length ? t.casts.map((e) => `${e.spell || 0} ${e.ok ? "✓" : "✗"}${e.roll ? ` (die ${e.roll})` : ""}`).join(", ") : "no announcement",
    t.done ? `${ending(t)}${t.refilled ? `, drew ${t.refilled}` : ""}` : " …")));
}

/** How a round ended, in the engine's words (third person), or the second person for "You". */
function reason(key, you) {
  const text = HELP.reasons[key] || key;
  return you ? text.replace(/themselves/g, "yourself").replace(/their/g, "your").replace(/^is /, "are ") : text;
}

function results(view, name) {
  const rs = view.results || [];
  if (!rs.length) return null;
  return el("ol", { class: "aw-results" }, rs.map((r, i) => el("li", {},
    `Round ${i + 1}: ${r.seat >= 0 ? `${name(r.seat)} ${reason(r.reason, name(r.seat) === "You")}` : "no winner"}. ` +
    `Scores: ${(r.scores || []).map((s, p) => `${name(p)} +${s}`).join(", ")}.`)));
}

export function renderBoard(view, tableNode, seatsNode, { me = -1, names = [], toMove = -3 } = {}) {
  const name = (s) => (s === me ? "You" : names[s] || `seat ${s}`);
  const active = view.active || 0;
  const over = view.phase === "over";
  const turnOf = active === me ? "your turn" : `${name(active)}'s turn`;
  const variants = (view.variants || []).map((v) => ({ xv1: "easy casts", xv2: "last magician standing" }[v] || v));
  const casts = thisTurn(view);
  tableNode.replaceChildren(
    el("p", { class: "daybar" }, el("strong", { text: over ? "Game over" : `Round ${view.round || 1} · ${turnOf}` }),
      variants.length ? ` · variants: ${variants.join(", ")}` : "",
      view.lastCast && !over ? ` · next announcement: ${view.lastCast} or higher${(view.variants || []).includes("xv1") ? " (any, easy casts)" : ""}` : ""),
    el("div", { class: "aw-zones" },
      el("div", { class: "zone" }, el("span", { class: "zlabel", text: `Pile (${view.pileSize || 0} stones, face down)` }),
        el("span", { class: "aw-stones pile" }, Array.from({ length: Math.min(view.pileSize || 0, 12) }, () => stone(0, { hidden: true, small: true })),
          (view.pileSize || 0) > 12 ? ` +${view.pileSize - 12}` : "")),
      el("div", { class: "zone" }, el("span", { class: "zlabel", text: `Secret stones left: ${view.secretLeft || 0}` }),
        el("span", { class: "aw-stones" }, Array.from({ length: view.secretLeft || 0 }, () => stone(0, { hidden: true, small: true })))),
      el("div", { class: "zone" }, el("span", { class: "zlabel", text: "Removed face up" }), stones({ visible: true, stones: view.removed || [] }))),
    el("section", { class: "aw-turn", "aria-label": "This turn", "aria-live": "polite" }, el("h4", { text: over ? "Last turn" : `This turn (${name(active)})` }),
      casts.length ? el("ul", { class: "aw-casts" }, casts.map(castChip)) : el("p", { class: "empty", text: "No announcement yet this turn." })),
    el("section", { class: "aw-round", "aria-label": "This round" }, el("h4", { text: "This round's announcements" }), roundLog(view, name)),
    results(view, name) ? el("section", { "aria-label": "Earlier rounds" }, el("h4", { text: "Rounds played" }), results(view, name)) : "");
  seatsNode.replaceChildren(...Array.from({ length: view.players }, (_, s) => {
    const hand = (view.hands || [])[s], cast = (view.cast || [])[s], taken = (view.taken || [])[s];
    const mine = s === me, deciding = s === toMove;
    const handLabel = mine ? (hand && hand.visible ? "Your hand" : `Your hand (${hand ? hand.size : 0} stones you cannot see)`)
      : `Hand (${hand ? hand.size : 0})`;
    return el("article", { class: `seat${mine ? " mine" : ""}${deciding ? " deciding" : ""}`, "aria-label": name(s) },
      el("h4", {}, name(s), deciding ? el("span", { class: "badge", text: "to move" }) : "",
        el("span", { class: "score", title: `the first to ${HELP.winPoints || 8} points wins`, text: points((view.points || [])[s] || 0) })),
      el("div", { class: "zone" }, el("span", { class: "zlabel", text: "Life" }), life((view.life || [])[s] || 0)),
      el("div", { class: "zone hand" }, el("span", { class: "zlabel", text: handLabel }),
        stones(hand, { empty: "empty", hiddenAs: mine ? "hidden" : "unseen" })),
      el("div", { class: "zone" }, el("span", { class: "zlabel", text: "Cast this round" }), stones(cast)),
      taken && taken.size ? el("div", { class: "zone" }, el("span", { class: "zlabel", text: mine ? "Your secret stones" : "Secret stones" }),
        stones(taken, { hiddenAs: "secret" })) : "");
  }));
}
