// The board as one seat sees it (a GetSession observation's StateView): the Altar, the spells in play with
// their points by level, every seat's pool, familiar, learned spells and score. Built with DOM calls
// (no HTML strings), so nothing from the server is ever parsed as markup.
import { el, points } from "../../dom.js";

export const COLORS = { R: "Red", P: "Purple", G: "Green", K: "Black", W: "White", B: "Blue", Y: "Yellow" };
export const RUNES = { c: "circle", t: "triangle", s: "square" };
const RUNE_MARK = { c: "●", t: "▲", s: "■" };
const COLOR_ORDER = "RPGKWBY";
export { el };

export const spellTitle = (name) => name.replace(/([a-z])([A-Z])/g, "$1 $2");
export const isToken = (w) => w.length === 2 && COLORS[w[0]] && RUNES[w[1]];
export const tokenName = (t) => `${COLORS[t[0]]} ${RUNES[t[1]]}`;

/** A token chip: its color and rune mark, named in words for screen readers. */
export function chip(token, count = 1) {
  const label = tokenName(token) + (count > 1 ? ` ×${count}` : "");
  return el("span", { class: `chip c-${token[0]}`, title: label, "aria-label": label, role: "img" },
    `${token[0]}${RUNE_MARK[token[1]]}` + (count > 1 ? `×${count}` : ""));
}

/** A zone's tokens; with `zone` (a name for the zone), the tokens that arrived since its last drawing
 *  light up for a moment, so the bots' moves and the draws show where they went, in turn. */
const seen = new Map();      // zone -> {token: count} at its last drawing
function chips(counts, zone) {
  const before = zone ? seen.get(zone) : undefined;
  if (zone) seen.set(zone, Object.fromEntries((counts || []).map((tc) => [tc.token, tc.count])));
  if (!counts || counts.length === 0) return el("span", { class: "empty", text: "empty" });
  return el("span", { class: "chips" }, counts.map((tc) => {
    const node = chip(tc.token, tc.count);
    if (before && tc.count > (before[tc.token] || 0)) node.classList.add("arrived");
    return node;
  }));
}

const total = (counts) => (counts || []).reduce((n, tc) => n + tc.count, 0);
const familiarValue = (n) => (n >= 16 ? 18 : n + 1);

/** Move text with its tokens as chips and spell names spaced ("learn Time Travel 4 W● : …"). */
export function moveLabel(text) {
  const words = text.split(" ");
  const out = [];
  words.forEach((w, i) => {
    if (i) out.push(" ");
    out.push(isToken(w) ? chip(w) : /^[A-Z][a-z]+[A-Z]/.test(w) ? spellTitle(w) : w);
  });
  return out;
}

const TOKEN_IN_WORDS = /(?<![A-Za-z])([RPGKWBY][cts])(?![A-Za-z])/;
const RUNE_IN_WORDS = /\b(runes?,? )([cts])\b(?:( or )([cts])\b)?/g;

/** A move in a player's words, its tokens as chips and its runes as the board's marks: the server's
 *  `Move.words` (engine_c/spellbook/move_words.py, the one wording the terminal prints too), e.g. "Time
 *  Travel: discard K●, raise Abundance one level" for the notation "TimeTravel Kc Abundance". The log, the
 *  hints, the review and the move buttons use it, so no notation reaches a player. A move without its words
 *  (none comes from this server) keeps its notation, drawn with chips. */
export function moveWords(text, words) {
  if (!words) return moveLabel(text);
  const marked = words.replace(RUNE_IN_WORDS, (_, a, r, or, r2) => a + RUNE_MARK[r] + (or ? or + RUNE_MARK[r2] : ""));
  return marked.split(TOKEN_IN_WORDS).map((part, i) => (i % 2 ? chip(part) : part)).filter((part) => part !== "");
}

let SPELL_HELP = {};
let pouchOpen = false;       // the Pouch's contents stay shown across the board's redraws once opened
/** What each spell does at levels 3-5 with its points (the game's help in /games.json), shown in the spell table. */
export function setSpellHelp(help) { SPELL_HELP = help; }

/** A spell's name as a card: hovering, focusing or tapping it shows what it does at levels 3, 4 and 5. */
export function spellCard(name, color, help = SPELL_HELP[name]) {
  const tip = el("span", { class: "spell-tip", role: "tooltip" },
    el("strong", { text: `${spellTitle(name)}` }), help ? ` (${help.action})` : "",
    help ? el("span", { class: "tip-levels" }, help.levels.map((l) => el("span", { class: "tip-level" },
      el("b", { text: `Level ${l.level}, ${l.points} pt${l.points === 1 ? "" : "s"}: ` }), l.text))) : "");
  return el("span", { class: "spell-card" },
    el("button", { type: "button", class: "spell-name", "aria-label": `${spellTitle(name)}: what it does`, "aria-expanded": "false",
      onclick: (e) => { const b = e.currentTarget; b.setAttribute("aria-expanded", String(b.getAttribute("aria-expanded") !== "true")); } },
    el("span", { class: `swatch c-${color}`, "aria-hidden": "true" }), ` ${spellTitle(name)}`), tip);
}

/** The familiar as its 16 spaces: the stored tokens in order, each empty space with the worth it brings. */
function familiar(counts) {
  const tokens = (counts || []).flatMap((tc) => Array(tc.count).fill(tc.token));
  return el("span", { class: "familiar", role: "list", "aria-label": `${tokens.length} of 16 spaces filled` },
    Array.from({ length: 16 }, (_, i) => (i < tokens.length
      ? el("span", { class: "space filled", role: "listitem" }, chip(tokens[i]))
      : el("span", { class: "space", role: "listitem", title: `space ${i + 1}: worth ${familiarValue(i + 1)} when filled`, "aria-label": `space ${i + 1}, empty` },
        String(familiarValue(i + 1))))));
}

export function renderBoard(view, tableNode, seatsNode, { me = -1, names = [], spellHelp = SPELL_HELP, toMove = -3, full = false } = {}) {
  const live = (zone) => (full ? undefined : zone);      // a replayed position (the review) lights nothing up
  const n = view.players;
  const round = Math.floor((view.day || 0) / n) + 1;
  const learnedBy = {};
  for (const s of view.seats) for (const l of s.spells || []) (learnedBy[l.spell] ||= []).push(`${names[s.seat] || "seat " + s.seat}: level ${l.level}`);
  const spellRows = view.spells.map((name, i) => {
    const help = spellHelp[name];
    const pts = help ? help.levels.map((l) => `${l.points}`).join("/") : "";
    return el("tr", {},
      el("th", { scope: "row" }, spellCard(name, COLOR_ORDER[i], help)),
      el("td", { class: "pts", text: pts }),
      el("td", { text: help ? help.action : "" }),
      el("td", { text: (learnedBy[name] || []).join(", ") || "—" }));
  });
  tableNode.replaceChildren(
    el("p", { class: "daybar" },
      el("strong", { text: view.over ? "Game over" : `Round ${round} · ${view.activePlayer === me ? "your Day" : `${names[view.activePlayer] || "seat " + view.activePlayer}'s Day`}` }),
      view.over ? "" : ` · ${view.phase}` + (view.endTriggered ? " · last round (the end is triggered)" : "")),
    el("div", { class: "zone altar" }, el("h4", { text: `Altar (${total(view.altar)})` }), chips(view.altar, live("altar"))),
    // the Pouch's contents are public (every other token is in sight); only their order is secret
    el("details", { class: "pouch", open: pouchOpen, ontoggle: (e) => { pouchOpen = e.target.open; } }, el("summary", { text: `Pouch: ${view.pouchSize || total(view.pouch)} tokens (what is in it)` }),
      chips(view.pouch)),
    view.discard && view.discard.length
      ? el("div", { class: "zone discard" }, el("span", { class: "zlabel", text: `Discard box (${total(view.discard)})` }), chips(view.discard)) : "",
    el("table", { class: "spells" },
      el("caption", { text: "Spells in play: points at levels 3/4/5" }),
      el("thead", {}, el("tr", {}, ["Spell", "Points", "Action", "Learned by"].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, spellRows)));
  seatsNode.replaceChildren(...view.seats.map((s) => {
    const stored = total(s.familiar);
    const score = s.score || { total: 0 };
    const mine = s.seat === me;
    const deciding = s.seat === toMove;
    return el("article", { class: `seat${mine ? " mine" : ""}${deciding ? " deciding" : ""}`, "aria-label": names[s.seat] || `seat ${s.seat}` },
      el("h4", {}, `${names[s.seat] || "seat " + s.seat}`, deciding ? el("span", { class: "badge", text: "to move" }) : "",
        el("span", { class: "score", text: points(score.total) })),
      el("div", { class: "zone" }, el("span", { class: "zlabel", text: `${mine ? "Your pool" : "Pool"} (${total(s.pool)}/9)` }), chips(s.pool, live(`pool${s.seat}`))),
      el("div", { class: "zone" }, el("span", { class: "zlabel", text: `Familiar (${stored}/16, worth ${familiarValue(stored)})` }), familiar(s.familiar)),
      el("ul", { class: "learned" }, (s.spells || []).length ? s.spells.map((l) => el("li", {},
        `${spellTitle(l.spell)} level ${l.level} `, chip(l.color + l.rune),
        ` · ${points(score.spells ? score.spells[l.spell] || 0 : 0)}`)) : el("li", { class: "empty", text: "no spell learned" })));
  }));
}
