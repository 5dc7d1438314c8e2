// Abracada…What?'s folder of the page (AbracadaWhatService through the same gateway as gRPC): its table,
// its move input (a spell card 1-8 to announce, or the end of the turn), its words for the log and the
// hints (what you probably hold, each announcement's chance and risk: the service's insight), and what its
// review adds: what the seat believed it held against what it held. The sentences come from the engine
// (engine_c/abracadawhat/text.py player_help(), in GET /games.json), without the rules' ids.
import { call } from "../../rpc.js";
import { addStyle, el, pct } from "../../dom.js";
import { castText, renderBoard, setHelp, spellName, stone, words } from "./board.js";

let HELP = { spells: [], focus: {}, end: "" };

const label = (text) => {
  const [kind, value] = text.split(" ");
  if (kind === "cast") return ["announce ", stone(Number(value), { small: true }), ` ${spellName(Number(value))}`];
  if (kind === "end") return ["end the turn"];
  if (kind === "roll") return [`the die shows ${value}`];
  if (kind === "stone" && value !== "?") return [stone(Number(value), { small: true })];
  return [text];
};

const chance = (h, answer) => {
  if (h.move.kind === "end") return "—";
  const a = ((answer.insight || {}).announcements || []).find((x) => x.move.text === h.move.text);
  return pct(a ? a.successProbability : h.successProbability);
};

function holdingTable(insight, title = "What you probably hold") {
  const holding = [...((insight || {}).holding || [])].sort((a, b) => (b.probability || 0) - (a.probability || 0) || a.spell - b.spell);
  return [el("p", {}, el("strong", { text: `${title}` }), " (from what you see and your own announcements this round):"),
    el("table", { class: "aw-hold" },
      el("caption", { text: "Each spell's chance of being in your hand" }),
      el("thead", {}, el("tr", {}, ["Spell", "Chance", ""].map((t) => el("th", { scope: "col", text: t })))),
      el("tbody", {}, holding.map((h) => el("tr", {},
        el("th", { scope: "row" }, stone(h.spell, { small: true }), ` ${spellName(h.spell)}`),
        el("td", { text: pct(h.probability) }),
        el("td", { class: "bar-cell" }, el("span", { class: "bar", style: undefined, "data-p": Math.round(100 * (h.probability || 0)) }))))))];
}

/** The bars' widths: set through the CSSOM (the page's CSP allows no inline style attribute). */
function sizeBars(root) {
  for (const bar of root.querySelectorAll(".bar[data-p]")) bar.style.width = `${bar.dataset.p}%`;
}

const capital = (t) => t.charAt(0).toUpperCase() + t.slice(1);
/** A cell's words starting with a capital, as every other cell of its column does ("You gain 1 life", "The
 *  player to your right loses 1 life"). */
const sentence = (nodes) => (typeof nodes[0] === "string" ? [capital(nodes[0]), ...nodes.slice(1)] : nodes);

/** Hint 2: each legal announcement (and ending the turn, only where it is legal) with its chance, what a
 *  success does here and what a failure costs, in the terminal's words (`chances`: the insight's
 *  ifSuccess / ifFailure, from engine_c/abracadawhat/text.py announcements). */
function announcementTable(view, answer, name) {
  const insight = answer.insight || {};
  const ann = insight.announcements || [];
  const rows = ann.map((a) => el("tr", {},
    el("th", { scope: "row" }, stone(a.move.value || Number(a.move.text.split(" ")[1]), { small: true }), ` ${spellName(a.move.value || 0)}`),
    el("td", { text: pct(a.successProbability) }),
    el("td", {}, sentence(words(a.ifSuccess || "", name))),
    el("td", {}, sentence(words(a.ifFailure || "", name)))));
  if (insight.endLegal) rows.push(el("tr", {}, el("th", { scope: "row", text: "End the turn" }), el("td", { text: "—" }), el("td", { text: capital(HELP.end) }), el("td", { text: "Nothing" })));
  return el("table", { class: "aw-ann" },
    el("caption", { text: "Each announcement: its chance of success, what it does, what a failure costs" }),
    el("thead", {}, el("tr", {}, ["Announce", "Chance", "If it succeeds", "If it fails"].map((t) => el("th", { scope: "col", text: t })))),
    el("tbody", {}, rows));
}

function variantBox(value, text) {
  return el("label", { class: "check" }, el("input", { type: "checkbox", name: "variant", value }), ` ${text}`);
}

const game = {
  name: "abracadawhat",
  service: "/abracadawhat.v1.AbracadaWhatService/",
  moveLabel: label,
  renderBoard: (view, table, seats, ctx) => { renderBoard(view, table, seats, ctx); },

  init(info) {
    addStyle("/static/games/abracadawhat/style.css");
    HELP = { ...HELP, ...(info.help || {}) };
    setHelp(HELP);
  },

  async levels() {
    const info = await call("GetRules", {});
    if (info.defaultBotLevel) this.defaultLevel = info.defaultBotLevel;   // the server's: about the heuristic bot
    return info.levels;
  },
  defaultLevel: 4,
  setupOptions() {
    return [el("legend", { text: "Variants" }), variantBox("xv1", "Easy casts (any spell after a success)"),
      variantBox("xv2", "Last magician standing")];
  },
  createRequest({ players, seats }) {
    const variants = [...document.querySelectorAll("#game-options input[name=variant]:checked")].map((i) => i.value);
    return { players, seats, variants };
  },
  spectatorRequest: (sessionId) => ({ sessionId }),

  session(r) {
    const view = r.state.view;
    return { seq: Number(r.seq || 0), toMove: view.toMove, over: !!r.over, winners: view.winners || [], legalMoves: r.legalMoves || [],
      view, text: r.state.text, seats: r.seats || [], players: view.players, insight: r.insight };
  },
  chanceText: "The stones and the die are dealt…",

  decisionText(view) {
    if (view.lastCast) {
      const any = (view.variants || []).includes("xv1");
      return `Your cast succeeded. Announce ${any ? "any spell" : `spell ${view.lastCast} or higher`} — a failure costs life — or end your turn.`;
    }
    return "Your turn: announce a spell you think you hold (1–8). A failure costs life and ends the turn.";
  },
  resetMoves() {},

  /** The eight spells as cards (the legal ones can be clicked), then the end of the turn. */
  moveButtons(moves, view, { button }) {
    const legal = new Map(moves.map((m) => [m.text, m]));
    const cards = HELP.spells.map((s) => {
      const m = legal.get(`cast ${s.spell}`);
      const body = [stone(s.spell), el("span", { class: "aw-card-name", text: s.name }), el("span", { class: "aw-card-effect", text: s.effect })];
      if (m) {
        const b = button(m, body);
        b.classList.add("aw-card");
        b.title = `Announce ${s.spell} ${s.name}: ${s.effect} (key ${s.spell})`;
        b.setAttribute("aria-keyshortcuts", String(s.spell));
        return b;
      }
      return el("button", { type: "button", class: "move aw-card", disabled: true, title: `${s.spell} ${s.name}: ${s.effect}` }, body);
    });
    const end = legal.get("end");
    if (!end) return cards;
    const stop = button(end, "End the turn (e)");
    stop.setAttribute("aria-keyshortcuts", "e");
    return [...cards, stop];
  },

  eventItem(ev, name, me) {
    const who = (s) => (s === me ? "You" : name(s));
    if (ev.kind === "move" && (ev.lines || []).length) {     // what the table saw, as the terminal prints it
      const [first, ...more] = ev.lines;
      return { cls: `move${ev.lines.some((l) => l.includes(": fails")) ? " fail" : ""}`, nodes: [el("span", {}, words(first, who)),
        ...more.map((l) => el("span", { class: `more${/ ends: /.test(l) ? " round-end" : ""}` }, words(l, who)))] };
    }
    if (ev.kind === "roll") return null;                        // the move's lines already name the die
    if (ev.kind === "move") {
      const [kind, value] = ev.move.text.split(" ");
      if (kind === "cast") return { cls: "", nodes: [`${who(ev.seat)} announce${ev.seat === me ? "" : "s"} `, stone(Number(value), { small: true }), ` ${spellName(Number(value))}`] };
      return { cls: "", nodes: [`${who(ev.seat)} end${ev.seat === me ? "" : "s"} the turn`] };
    }
    if (ev.kind === "roll") return { cls: "roll", nodes: [`The die shows ${ev.move.value || ev.move.text.split(" ")[1]}`] };
    const to = ev.to !== undefined && ev.to >= 0 ? (ev.to === me ? "your" : `${name(ev.to)}'s`) : "";
    const what = ev.hidden || !ev.move ? [stone(0, { hidden: true, small: true })] : label(ev.move.text);
    if (ev.zone === "taken") {     // Night Singer's effect: the caster takes one of the round's secret stones
      const hidden = ev.hidden || !ev.move;
      return { cls: "draw", nodes: [ev.to === me ? "You take a secret stone" : `${who(ev.to)} takes a secret stone`,
        ...(hidden ? [" (face down: only its taker sees it)"] : [": ", ...what])] };
    }
    const where = { removed: "removed face up", hand: `to ${to} hand`, secret: "secret stones set aside" }[ev.zone] || ev.kind;
    // a round's deal and a refill are one line per zone and seat, growing stone by stone
    return { cls: "draw", merge: `${ev.kind}:${ev.zone}:${ev.to}`, more: [" ", ...what],
      nodes: [`${{ refill: "Refill", deal: "Deal", secret: "Night Singer" }[ev.kind] || "Stone"}, ${where}: `, ...what] };
  },

  // ------------------------------------------------------------------ hints
  hintFocus(view, best, answer) {
    if (best.kind === "end") return HELP.focus.end;
    const probs = new Map(((answer.insight || {}).holding || []).map((h) => [h.spell, h.probability || 0]));
    const legal = ((answer.insight || {}).announcements || []).map((a) => a.move.value || 0);
    const top = Math.max(0, ...legal.map((k) => probs.get(k) || 0));
    return (probs.get(best.value) || 0) >= top - 0.05 ? HELP.focus.likely : HELP.focus.beyond;
  },
  hintFocusMore(view, answer) { const nodes = holdingTable(answer.insight); queueMicrotask(() => sizeBars(document)); return nodes; },
  hintWhy(view, best, answer, name = (s) => `seat ${s}`) { return ["each announcement's chance and risk", announcementTable(view, answer, name)]; },
  hintDetail(view, best, answer) {
    const nodes = [el("p", { text: `${best.move.kind === "end" ? "Stop here" : `Its chance of success: ${chance(best, answer)}`}; ` +
      `your chance to win the game after it: ${pct(best.winProbability)}; your points at the end, estimated by simulated play: ` +
      `${(best.expectedScore || 0).toFixed(1)}.` }), ...holdingTable(answer.insight)];
    queueMicrotask(() => sizeBars(document));
    return nodes;
  },
  hintColumns: [{ title: "Chance", cell: chance }],

  // ------------------------------------------------------------------ records and the review
  recordMatches: (record) => record.game === "abracadawhat",
  isSetupEvent: (e) => e.kind === "deal",
  newGameRequest: (record) => ({ players: record.players, seed: record.seedText, variants: record.variants || [] }),
  applyRequest: (text, move) => ({ state: text, move: { text: move } }),
  analyzeState: null,

  /** What the seat believed it held at each of its decisions (the insight, from what it could see then),
   *  against what it held (the finished record shows every stone). */
  async reviewExtras(box, { review, me, names = [], stateBefore, where }) {
    const mine = (review.decisions || []).filter((d) => d.seat === me).slice(0, 60);
    // in the reader's words when the seat is theirs ("You"), else about the seat by its name (a bot is no "you")
    const name = names[me] || `seat ${me + 1}`, you = name === "You";
    const they = you ? "you" : "they", Who = you ? "You" : name, whose = you ? "your" : `${name}'s`;
    const title = `What ${you ? "you" : name} believed ${they} held, against what ${they} held`;
    box.replaceChildren(el("h3", { text: title }), el("p", { text: "Replaying the game…" }));
    const rows = [];
    let calls = 0, right = 0, called = 0;
    for (const d of mine) {
      const state = await stateBefore(d.eventIndex);
      const v = state.view;
      const held = ((v.hands || [])[me] || {}).stones || [];
      const answer = await call("GetHints", { state: { text: state.text }, limits: { iterations: "1" }, topK: 1, seed: "1" });
      const probs = new Map(((answer.insight || {}).holding || []).map((h) => [h.spell, h.probability || 0]));
      const [kind, value] = d.played.text.split(" ");
      const k = Number(value);
      let verdict = "ended the turn";
      if (kind === "cast") {
        called++; calls += probs.get(k) || 0;
        const had = held.includes(k);
        if (had) right++;
        verdict = had ? "held it" : "did not hold it";
      }
      const likeliest = [...probs.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 3);
      rows.push(el("tr", {},
        el("td", { text: where ? where(d) : `Round ${v.round || 1}` }),
        el("td", { class: "mv" }, label(d.played.text)),
        el("td", { text: kind === "cast" ? pct(probs.get(k)) : "—" }),
        el("td", { class: kind === "cast" ? (held.includes(k) ? "ok" : "fail") : "", text: verdict }),
        el("td", {}, el("span", { class: "aw-stones" }, held.map((s) => stone(s, { small: true })))),
        el("td", { text: likeliest.map(([s, p]) => `${s} ${pct(p)}`).join(", ") })));
    }
    box.replaceChildren(el("h3", { text: title }),
      el("p", { text: called ? `${Who} announced ${called} spell${called > 1 ? "s" : ""}, giving them on average a ${pct(calls / called)} chance; ${they} held ${right} of them (${pct(right / called)}).`
        : `${Who} made no announcement.` }),
      el("div", { class: "scroll" }, el("table", { class: "aw-belief" },
        el("caption", { text: `At each of ${whose} decisions: what ${they} did, the chance ${they} gave it, what ${they} held, and the spells ${they} thought likeliest` }),
        el("thead", {}, el("tr", {}, ["When", you ? "You" : "Played", you ? "Your chance" : "Their chance", "Outcome", you ? "You held" : "Held",
          you ? "Likeliest, to you" : "Likeliest, to them"].map((t) => el("th", { scope: "col", text: t })))),
        el("tbody", {}, rows))));
  },

  /** The rules in short, and each spell (from the engine's text). */
  helpPanel() {
    return [el("h3", { text: "How to play Abracada…What?" }),
      el("p", { text: "Everyone sees every hand but their own. On your turn, announce a spell (1–8) you think is in your hand: " +
        "if you hold it, it is cast and you may announce again (the same number or higher); if not, you lose life and your turn ends. " +
        "A round ends when a hand is empty or a magician runs out of life; the first to 8 points wins." }),
      el("table", { class: "aw-spells" }, el("caption", { text: "The spells (spell N has N stones)" }),
        el("thead", {}, el("tr", {}, ["Spell", "Stones", "A success"].map((t) => el("th", { scope: "col", text: t })))),
        el("tbody", {}, HELP.spells.map((s) => el("tr", {}, el("th", { scope: "row" }, stone(s.spell, { small: true }), ` ${s.name}`),
          el("td", { text: String(s.stones) }), el("td", { text: s.effect })))))];
  },
};
export default game;
export { castText };
