// The Spellbook TCG's table as one seat sees it: games.v1's `view_json` (engine_c/spellbooktcg/text.py
// `view`): both wizards (spellbook = health, graveyard, hand and mana as counts), the seat's own hand as
// cards and its mana pool, every summon with its damage, health, tokens and charms, and the spell queue in
// cast order. A spectator's view has no hand and no mana card, so none is drawn. The card words (name,
// cost, rarity, what it does) come from the engine (player_help() in GET /games.json).
import { el } from "../../dom.js";

let HELP = { cards: [], decks: [], tokens: {} };
export function setHelp(help) { HELP = { ...HELP, ...help }; }
const CARDS = () => new Map(HELP.cards.map((c) => [c.id, c]));
export const card = (id) => CARDS().get(id) || { id, name: id, type: "", cost: "?", rarity: "", effect: "" };
export const cardName = (id) => card(id).name;

/** The last table drawn (a live game's): the names of its characters for the move words. */
let current = { view: null, name: (s) => `seat ${s + 1}`, me: -1 };
export function currentTable() { return current; }

const STEP = { setup: "setup", draw: "draw", mana: "mana step", attack: "attackers", block: "blockers", blockon: "blockers",
  cast: "spells", charm: "spells", target: "resolution", over: "the end" };
export const stepName = (phase) => STEP[phase] || phase;

/** "your wizard", "Bot 2's Conjure Familiar (2/2)", from a character's code (w0, s1.0). */
export function charName(code, view = current.view, name = current.name, me = current.me) {
  const whose = (p) => (p === me ? "your" : `${name(p)}'s`);
  let m = /^w(\d)$/.exec(code);
  if (m) return `${whose(Number(m[1]))} wizard`;
  m = /^s(\d)\.(\d+)$/.exec(code);
  if (!m) return code;
  const p = Number(m[1]), j = Number(m[2]);
  const c = view && view.board ? ((view.board[p] || {}).summons || [])[j] : null;
  if (!c) return `${whose(p)} summon ${j + 1}`;
  return `${whose(p)} ${cardName(c.cards[0])} (${c.damage}/${c.health}${c.tokens ? `, ${c.tokens.n} ${c.tokens.kind}` : ""})`;
}

/** A queued spell's words: "Bot 2's Arcane Bolt + Empower". */
export function spellWords(q, name = current.name, me = current.me) {
  return `${q.caster === me ? "your" : `${name(q.caster)}'s`} ${q.cards.map(cardName).join(" + ")}`;
}

/** One card, face up: its name, type and cost, rarity, and what it does. */
export function cardNode(id, { count = 1, small = false, tag = "div" } = {}) {
  const c = card(id);
  return el(tag, { class: `tcg-card ${c.type} ${c.rarity}${small ? " small" : ""}`, "data-card": id, title: `${c.name}: ${c.type}, cost ${c.cost}, ${c.rarity}. ${c.effect}` },
    el("span", { class: "tcg-cost", "aria-label": `cost ${c.cost}`, text: String(c.cost) }),
    el("span", { class: "tcg-name", text: c.name + (count > 1 ? ` ×${count}` : "") }),
    el("span", { class: "tcg-kind", text: `${c.type}${c.rarity && c.rarity !== "common" ? ` · ${c.rarity}` : " · common"}` }),
    small ? "" : el("span", { class: "tcg-effect", text: c.effect }));
}

function counted(ids) {
  const out = new Map();
  for (const id of ids || []) out.set(id, (out.get(id) || 0) + 1);
  return [...out.entries()].sort((a, b) => cardName(a[0]).localeCompare(cardName(b[0])));
}

const tokenText = (t) => (t ? `${t.n} ${t.kind}` : "");

/** A summon: its card, values, tokens, combat and the charms beneath it. */
function summonNode(s, uids) {
  const status = s.attacking ? "attacking" : s.blocking !== null && s.blocking !== undefined ? `blocking ${uids.get(s.blocking) || "an attacker"}` : "";
  return el("li", { class: `tcg-summon${s.attacking ? " attacking" : ""}${status.startsWith("blocking") ? " blocking" : ""}`, "data-code": s.code },
    el("span", { class: "tcg-name", text: cardName(s.cards[0]) }),
    el("span", { class: "tcg-stats", "aria-label": `damage ${s.damage}, health ${s.health}`, text: `${s.damage}/${s.health}` }),
    s.tokens ? el("span", { class: `tcg-token ${s.tokens.kind}`, text: tokenText(s.tokens) }) : "",
    status ? el("span", { class: "tcg-status", text: status }) : "",
    s.cards.length > 1 ? el("span", { class: "tcg-charms", text: `charms: ${s.cards.slice(1).map(cardName).join(", ")}` }) : "");
}

export function renderBoard(view, tableNode, seatsNode, { me = -1, names = [], toMove = -3 } = {}) {
  const name = (s) => (s === me ? "You" : names[s] || `seat ${s + 1}`);
  if (!view || !view.wizards) {        // a replayed position (the review): games.v1 gives a full state's text only
    tableNode.replaceChildren(el("p", { class: "empty", text: "This position's table is not drawn here: the move and its figures are above." }));
    seatsNode.replaceChildren();
    return;
  }
  const over = view.phase === "over";
  // a live table names the characters of its moves; a finished game's (its review's moves are of earlier
  // tables, where a summon's place held another summon) says "summon 2" instead
  current = { view: over ? null : view, name: (s) => (s === me ? "you" : names[s] || `seat ${s + 1}`), me };
  const active = view.active || 0;
  const board = view.board || [];
  const uids = new Map();
  board.forEach((b, p) => {
    uids.set(b.wizard.uid, `${p === me ? "your" : `${name(p)}'s`} wizard`);
    for (const s of b.summons) uids.set(s.uid, `${p === me ? "your" : `${name(p)}'s`} ${cardName(s.cards[0])}`);
  });
  const queue = view.queue || [];
  tableNode.replaceChildren(
    el("p", { class: "daybar" }, el("strong", { text: over ? `The end (turn ${view.turn})` : `Turn ${view.turn} · ${active === me ? "your" : `${name(active)}'s`} turn · ${stepName(view.phase)}` })),
    el("section", { class: "tcg-queue", "aria-label": "Spell queue" },
      el("h4", { text: "Spell queue (the last cast resolves first)" }),
      queue.length ? el("ol", { start: 1 }, queue.map((q, i) => el("li", { class: `${q.caster === me ? "own" : ""}${view.resolving === i ? " resolving" : ""}`, "data-code": q.code },
        el("strong", { text: `${q.caster === me ? "Your" : `${name(q.caster)}'s`} spell: ` }), q.cards.map(cardName).join(" + "),
        view.resolving === i ? el("span", { class: "badge", text: "resolving" }) : "")))
        : el("p", { class: "empty", text: "No spell is queued." })));
  const order = me >= 0 ? [me, 1 - me] : [0, 1];      // your own seat first
  seatsNode.replaceChildren(...order.map((p) => {
    const w = view.wizards[p] || {}, b = board[p] || { wizard: {}, summons: [] }, wiz = b.wizard;
    const mine = p === me, deciding = p === toMove;
    const spending = ["cast", "charm", "target"].includes(view.phase);      // the budget of the spell step under way
    const spent = spending ? (view.spent || [])[p] || 0 : 0;
    const stat = (label, value, cls = "") => el("span", { class: `tcg-stat ${cls}` }, el("span", { class: "zlabel", text: label }), el("strong", { text: String(value) }));
    return el("article", { class: `seat tcg-seat${mine ? " mine" : ""}${deciding ? " deciding" : ""}`, "aria-label": name(p), "data-seat": p },
      el("h4", {}, name(p), deciding && !over ? el("span", { class: "badge", text: "to move" }) : "",
        (view.winners || []).includes(p) ? el("span", { class: "badge win", text: "wins" }) : ""),
      el("div", { class: "tcg-stats-row" },
        stat("Spellbook (health)", w.spellbook, "book"), stat("Graveyard", w.graveyard),
        stat(mine ? "Hand" : "Hand (unseen)", w.hand), stat(mine ? "Mana" : "Mana (unseen)", `${w.mana}${spent ? ` (${spent} spent this step)` : ""}`)),
      el("p", { class: `tcg-wizard${wiz.attacking ? " attacking" : ""}`, "data-code": wiz.code },
        el("strong", { text: "Wizard" }), ` damage ${wiz.damage}`, wiz.tokens ? [", ", el("span", { class: `tcg-token ${wiz.tokens.kind}`, text: tokenText(wiz.tokens) })] : "",
        wiz.attacking ? ", attacking" : "", wiz.blocking !== null && wiz.blocking !== undefined ? `, blocking ${uids.get(wiz.blocking) || "an attacker"}` : ""),
      el("div", { class: "zone summons" }, el("span", { class: "zlabel", text: "Summons" }),
        b.summons.length ? el("ul", { class: "tcg-summons" }, b.summons.map((s) => summonNode(s, uids))) : el("span", { class: "empty", text: "none" })),
      mine && view.hand ? el("div", { class: "zone hand" }, el("span", { class: "zlabel", text: `Your hand (${view.hand.length})` }),
        view.hand.length ? el("div", { class: "tcg-hand" }, counted(view.hand).map(([id, n]) => cardNode(id, { count: n }))) : el("span", { class: "empty", text: "empty" })) : "",
      mine && view.mana_pool ? el("div", { class: "zone mana" }, el("span", { class: "zlabel", text: `Your mana pool (${view.mana_pool.length})` }),
        el("span", { class: "tcg-pool" }, counted(view.mana_pool).map(([id, n]) => `${cardName(id)}${n > 1 ? ` ×${n}` : ""}`).join(", ") || "empty")) : "");
  }));
}
