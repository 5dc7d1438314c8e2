// The Spellbook TCG's table as one seat sees it, and the input of the game: games.v1's `view_json`
// (engine_c/spellbooktcg/text.py `view`): both wizards (spellbook = health, graveyard, hand and mana as
// counts), the seat's own hand as cards and its mana pool, every character (wizards and summons) with its
// damage, health, tokens and charms, and the spell queue in cast order with each spell's final form (TC-5).
// A spectator's view has no hand and no mana card, so none is drawn. The card words (name, cost, rarity,
// what it does, the numbers charms may change in bold) come from the engine: the starter set's from
// player_help() in GET /games.json, a game's own card file's from its view (`cards`).
//
// The board is where a player moves (armBoard): each legal move that names a card in the hand, a character
// or a queued spell makes that thing clickable, and a click plays that move; what names nothing on the
// table (none, pass, finish the spell, done) stays a button under the board.
import { el } from "../../dom.js";

let HELP = { cards: [], decks: [], tokens: {} };
let STARTER = new Map();
let GAME_CARDS = new Map();      // the cards of the table drawn last (its view's `cards`)
export function setHelp(help) {
  HELP = { ...HELP, ...help };
  STARTER = new Map((HELP.cards || []).map((c) => [c.id, c]));
}
export const card = (id) => GAME_CARDS.get(id) || STARTER.get(id) || { id, name: id, type: "", cost: "?", rarity: "", effect: "" };
export const cardName = (id) => card(id).name;

/** The last live table drawn: the names of its characters for the move words, and its nodes for armBoard. */
let current = { view: null, name: (s) => `seat ${s + 1}`, me: -1, seats: null, table: null };
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

/** What a card does, its modifiable numbers in bold (TF-2: charms change only those). */
function effectNode(c) {
  const parts = c.effect_parts || [[c.effect || "", false]];
  return el("span", { class: "tcg-effect" }, parts.map(([text, modifiable]) => (modifiable ? el("strong", { class: "mod", text }) : text)));
}

/** One card, face up: its cost, name, type and rarity, and what it does. */
export function cardNode(id, { count = 1, small = false, tag = "div" } = {}) {
  const c = card(id);
  const bold = (c.effect_parts || []).some(([, b]) => b) ? " Bold numbers can be changed by charms." : "";
  return el(tag, { class: `tcg-card ${c.type} ${c.rarity}${small ? " small" : ""}`, "data-card": id, title: `${c.name}: ${c.type}, cost ${c.cost}, ${c.rarity}. ${c.effect}.${bold}` },
    el("span", { class: "tcg-cost", "aria-label": `cost ${c.cost}`, text: String(c.cost) }),
    el("span", { class: "tcg-name", text: c.name + (count > 1 ? ` ×${count}` : "") }),
    el("span", { class: "tcg-kind", text: `${c.type} · ${c.rarity || "common"}` }),
    small ? "" : effectNode(c));
}

function counted(ids) {
  const out = new Map();
  for (const id of ids || []) out.set(id, (out.get(id) || 0) + 1);
  return [...out.entries()].sort((a, b) => cardName(a[0]).localeCompare(cardName(b[0])));
}

const tokenText = (t) => (t ? `${t.n} ${t.kind}` : "");

/** A character's combat: "attacking", "blocking Bot 2's wizard", "choosing whom to block". */
function combat(c, uids, choosing) {
  if (choosing) return "blocks… (choose the attacker)";
  if (c.attacking) return "attacking";
  if (c.blocking !== null && c.blocking !== undefined) return `blocking ${uids.get(c.blocking) || "an attacker"}`;
  return "";
}

/** A character as a tile: the wizard (its health is its spellbook) or a summon with the charms beneath it. */
function characterNode(c, { wizard = "", uids, choosing }) {
  const status = combat(c, uids, choosing);
  const cls = `tcg-char${wizard ? " wizard" : ""}${c.attacking ? " attacking" : ""}${status.startsWith("blocking") ? " blocking" : ""}${choosing ? " choosing" : ""}`;
  return el("li", { class: cls, "data-code": c.code },
    el("span", { class: "tcg-name", text: wizard ? `${wizard} (wizard)` : cardName(c.cards[0]) }),
    wizard ? el("span", { class: "tcg-stats wizard-stats", text: `damage ${c.damage} · health ${c.health}` })
      : el("span", { class: "tcg-stats", "aria-label": `damage ${c.damage}, health ${c.health}`, text: `${c.damage}/${c.health}` }),
    c.tokens ? el("span", { class: `tcg-token ${c.tokens.kind}`, text: tokenText(c.tokens) }) : "",
    status ? el("span", { class: "tcg-status", text: status }) : "",
    !wizard && c.cards.length > 1 ? el("span", { class: "tcg-charms", text: `charms: ${c.cards.slice(1).map(cardName).join(", ")}` }) : "");
}

/** The spell queue, last cast resolving first: each spell's cards and its final form; the one being
 *  built (its caster adding charms) and the one resolving marked. */
function queueNode(view, me, name) {
  const queue = view.queue || [];
  const building = view.phase === "charm" ? queue.length - 1 : -1;
  const whose = (p) => (p === me ? "Your" : `${name(p)}'s`);
  return el("section", { class: "tcg-queue", "aria-label": "Spell queue" },
    el("h4", { text: "Spell queue (the last cast resolves first)" }),
    queue.length ? el("ol", { start: 1 }, queue.map((q, i) => el("li", {
      class: [q.caster === me ? "own" : "", view.resolving === i ? "resolving" : "", building === i ? "building" : ""].filter(Boolean).join(" "),
      "data-code": q.code },
    el("strong", { text: `${whose(q.caster)} spell: ` }), q.cards.map(cardName).join(" + "),
    building === i ? el("span", { class: "badge", text: "being built" }) : "",
    view.resolving === i ? el("span", { class: "badge", text: "resolving" }) : "",
    q.final ? el("span", { class: "tcg-final" }, "→ ", el("strong", { text: q.final })) : "")))
      : el("p", { class: "empty", text: "No spell is queued." }));
}

/** Draws `view` into the table (turn, step, the spell queue) and the seats (your own first). `full`: a
 *  replayed position of the review (the seat whose view it is shows its hand; the live move words are not
 *  taken from it). */
export function renderBoard(view, tableNode, seatsNode, { me = -1, names = [], toMove = -3, full = false } = {}) {
  const name = (s) => (s === me ? "You" : names[s] || `seat ${s + 1}`);
  if (!view || !view.wizards) {        // a game without a view (an old server): nothing to draw
    tableNode.replaceChildren(el("p", { class: "empty", text: "This position's table is not drawn here: the move and its figures are above." }));
    seatsNode.replaceChildren();
    return;
  }
  if (view.cards) GAME_CARDS = new Map(Object.entries(view.cards));
  const over = view.phase === "over";
  const low = (s) => (s === me ? "you" : names[s] || `seat ${s + 1}`);
  // a live table names the characters of its moves; a finished game's (its review's moves are of earlier
  // tables, where a summon's place held another summon) says "summon 2" instead
  if (!full) current = { view: over ? null : view, name: low, me, seats: seatsNode, table: tableNode };
  const active = view.active || 0;
  const board = view.board || [];
  const wizardNames = view.wizard_names || ["Wizard", "Wizard"];
  const uids = new Map();
  board.forEach((b, p) => {
    uids.set(b.wizard.uid, `${p === me ? "your" : `${name(p)}'s`} wizard`);
    for (const s of b.summons) uids.set(s.uid, `${p === me ? "your" : `${name(p)}'s`} ${cardName(s.cards[0])}`);
  });
  tableNode.replaceChildren(
    el("p", { class: "daybar" }, el("strong", { text: over ? `The end (turn ${view.turn})` : `Turn ${view.turn} · ${active === me ? "your" : `${name(active)}'s`} turn · ${stepName(view.phase)}` })),
    queueNode(view, me, name));
  const handSeat = view.seat === null || view.seat === undefined ? -1 : view.seat;     // whose hand the view holds
  const order = me >= 0 ? [me, 1 - me] : [0, 1];      // your own seat first
  seatsNode.replaceChildren(...order.map((p) => {
    const w = view.wizards[p] || {}, b = board[p] || { wizard: {}, summons: [] };
    const mine = p === me, deciding = p === toMove, holds = p === handSeat && !!view.hand;
    const spending = ["cast", "charm", "target"].includes(view.phase);      // the budget of the spell step under way
    const spent = spending ? (view.spent || [])[p] || 0 : 0;
    const stat = (label, value, cls = "") => el("span", { class: `tcg-stat ${cls}` }, el("span", { class: "zlabel", text: label }), el("strong", { text: String(value) }));
    const whose = mine ? "Your" : `${name(p)}'s`;
    const chars = [characterNode(b.wizard, { wizard: wizardNames[p], uids, choosing: view.blocker === b.wizard.uid }),
      ...b.summons.map((s) => characterNode(s, { uids, choosing: view.blocker === s.uid }))];
    return el("article", { class: `seat tcg-seat${mine ? " mine" : ""}${deciding ? " deciding" : ""}`, "aria-label": name(p), "data-seat": p },
      el("h4", {}, name(p), deciding && !over ? el("span", { class: "badge", text: "to move" }) : "",
        (view.winners || []).includes(p) ? el("span", { class: "badge win", text: "wins" }) : ""),
      el("div", { class: "tcg-stats-row" },
        stat("Spellbook (health)", w.spellbook, "book"), stat("Graveyard", w.graveyard),
        stat(holds ? "Hand" : "Hand (unseen)", w.hand), stat(holds ? "Mana" : "Mana (unseen)", `${w.mana}${spent ? ` (${spent} spent this step)` : ""}`)),
      el("div", { class: "zone characters" }, el("span", { class: "zlabel", text: "Wizard and summons" }),
        el("ul", { class: "tcg-chars" }, chars)),
      holds ? el("div", { class: "zone hand" }, el("span", { class: "zlabel", text: `${whose} hand (${view.hand.length})` }),
        view.hand.length ? el("div", { class: "tcg-hand" }, counted(view.hand).map(([id, n]) => cardNode(id, { count: n }))) : el("span", { class: "empty", text: "empty" })) : "",
      holds && view.mana_pool ? el("div", { class: "zone mana" }, el("span", { class: "zlabel", text: `${whose} mana pool (${view.mana_pool.length})` }),
        el("span", { class: "tcg-pool" }, counted(view.mana_pool).map(([id, n]) => `${cardName(id)}${n > 1 ? ` ×${n}` : ""}`).join(", ") || "empty")) : "");
  }));
}

// ------------------------------------------------------------------------------------ the board as input
const VERB = { mana: "To your mana pool", power: "Cast", charm: "Attach", attack: "Attack", block: "Block", on: "Block this attacker", target: "Target" };

/** The node of the live table a move names: a hand card (mana, power, charm), a character (attack, block,
 *  on, target) or a queued spell (target); null when it names nothing on the table. */
function boardNode(text) {
  const [kind, arg] = text.split(" ");
  const { seats, table, me } = current;
  if (!seats || !arg) return null;
  if (["mana", "power", "charm"].includes(kind)) return seats.querySelector(`article[data-seat="${me}"] .hand [data-card="${CSS.escape(arg)}"]`);
  if (["attack", "block", "on", "target"].includes(kind)) {
    return (/^q\d+$/.test(arg) ? table : seats).querySelector(`[data-code="${CSS.escape(arg)}"]`);
  }
  return null;
}

/** Makes the live table the input of `moves` (the legal moves of our decision): each thing a move names is
 *  marked and clickable (a click or Enter plays it through the shell's own move button, `shellButton(m)`,
 *  so a board click goes the way a list click goes), with what the click does said on it (`words(text)`);
 *  a charm shows what the spell would grow into (`view.charm_preview`). Returns the moves left for the
 *  list under the board. */
export function armBoard(moves, view, shellButton, words) {
  const rest = [];
  const preview = view.charm_preview || {};
  for (const m of moves) {
    const node = boardNode(m.text);
    if (!node) { rest.push(m); continue; }
    const [kind, arg] = m.text.split(" ");
    const play = shellButton(m);
    node.classList.add("playable");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", words(m.text));
    node.dataset.move = m.text;
    node.title = words(m.text);
    node.append(el("span", { class: "tcg-action", text: VERB[kind] || kind }));
    if (kind === "charm" && preview[arg]) node.append(el("span", { class: "tcg-preview" }, "spell becomes ", el("strong", { text: preview[arg] })));
    const go = () => play.click();      // the shell's submit disarms the board (resetMoves)
    node.addEventListener("click", go);
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  }
  return rest;
}

/** The live table's clickable things marked as played: a move is on its way, or the decision is over (a
 *  click on one now is refused by the shell, which plays one move per decision). */
export function disarmBoard() {
  if (!current.seats) return;
  for (const node of [...current.seats.querySelectorAll(".playable"), ...current.table.querySelectorAll(".playable")]) {
    node.classList.replace("playable", "played");
    node.removeAttribute("tabindex");
  }
}
