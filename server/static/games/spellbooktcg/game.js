// The Spellbook TCG's folder of the page. The game has no API of its own: every call goes to the
// game-neutral games.v1.GameService (docs/api.md), and the requests that name no session carry
// `game: "spellbooktcg"` (`apiGame`, which the shell adds). Its table is GetSession's `view_json`
// (board.js), its moves GetSession's legal moves, each said in words here from the table (a card's name,
// cost and effect; a character's name and values), its log the session events' lines (engine_c/spellbooktcg/
// text.py event_lines: moves, draws as counts for the other seat, damage, healing, deaths, ticks).
import { call } from "../../rpc.js";
import { addStyle, el, pct } from "../../dom.js";
import { card, cardName, cardNode, charName, currentTable, renderBoard, setHelp, spellWords, stepName } from "./board.js";

const NAME = "spellbooktcg";
let HELP = { cards: [], decks: [], steps: [], tokens: {}, focus: {}, win: "" };
const LEVEL_NAMES = ["beginner", "novice", "casual", "club", "club+", "strong", "strong+", "expert", "expert+", "strongest"];

/** A move in a player's words, from its text ("power arcane_bolt", "attack s0.1", "target q0"). */
function moveWords(text) {
  const [kind, arg] = text.split(" ");
  const { view } = currentTable();
  switch (kind) {
    case "none": return "Put no card into your mana pool";
    case "mana": return `Put ${cardName(arg)} into your mana pool`;
    case "attack": return `Attack with ${charName(arg)}`;
    case "block": return `Block with ${charName(arg)}`;
    case "on": return `… blocking the attacker ${charName(arg)}`;
    case "done": return view && view.phase === "block" ? "Declare no more blockers" : view && view.phase === "attack" ? "Declare no more attackers" : "Done declaring";
    case "power": return `Cast ${cardName(arg)} (${card(arg).cost}): ${card(arg).effect}`;
    case "charm": return `Attach ${cardName(arg)} (${card(arg).cost}): ${card(arg).effect}`;
    case "cast": return "Finish the spell (cast it)";
    case "pass": return "Pass (cast nothing more this step)";
    case "target": {
      const m = /^q(\d+)$/.exec(arg || "");
      if (m) { const q = ((view && view.queue) || [])[Number(m[1])]; return `Target the spell ${q ? spellWords(q) : arg}`; }
      return `Target ${charName(arg)}`;
    }
    default: return text;
  }
}
const label = (text) => [moveWords(text)];

/** The engine's event lines ("seat 1: cast Arcane Bolt …", "you draw 2 cards: …") with this page's names. */
function lineWords(line, name) {
  const out = line.replace(/\bseat (\d)\b/g, (_, s) => name(Number(s))).replace(/ -> /g, " → ");
  return out.replace(/^you\b/, "You").replace(/^your\b/, "Your");
}

function deckChoice(id, text, value) {
  return el("label", {}, text, el("select", { id, name: id },
    (HELP.decks.length ? HELP.decks : [{ id: "frost_ward", name: "Frost Ward" }, { id: "fire_shock", name: "Fire Shock" }])
      .map((d) => el("option", { value: d.id, selected: d.id === value }, `${d.name} (${d.id})`))));
}

const game = {
  name: NAME,
  service: "/games.v1.GameService/",
  apiGame: NAME,
  title: "Spellbook TCG",
  moveLabel: label,
  renderBoard: (view, table, seats, ctx) => renderBoard(view, table, seats, ctx),

  init(info) {
    addStyle("/static/games/spellbooktcg/style.css");
    HELP = { ...HELP, ...(info.help || {}) };
    setHelp(HELP);
  },

  async levels() {
    const listed = await call("ListGames", {});
    const me = (listed.games || []).find((g) => g.name === NAME);
    if (me && me.defaultLevel) this.defaultLevel = Math.min(me.defaultLevel, 4);
    return LEVEL_NAMES.map((n, i) => ({ level: i + 1, name: n, meaning: `level ${i + 1} of 10: the bot's search grows with the level` }));
  },
  defaultLevel: 4,
  setupOptions() {
    return [el("legend", { text: "Starter decks" }), deckChoice("tcg-deck-0", "First seat's deck ", "frost_ward"),
      deckChoice("tcg-deck-1", "Second seat's deck ", "fire_shock")];
  },
  createRequest({ players, seats }) {
    const deck = (i) => (document.getElementById(`tcg-deck-${i}`) || {}).value || ["frost_ward", "fire_shock"][i];
    return { game: NAME, players, seats, setup: `${deck(0)},${deck(1)}` };
  },
  spectatorRequest: (sessionId) => ({ sessionId }),

  /** GetSession's answer (games.v1) as the shell reads it: proto3 JSON leaves out zeros (seat 0 to move). */
  session(r) {
    const view = r.viewJson ? JSON.parse(r.viewJson) : {};
    return { seq: Number(r.seq || 0), toMove: r.toMove || 0, over: !!r.over, winners: r.winners || [], legalMoves: r.legalMoves || [],
      view, text: r.observation || "", seats: r.seats || [], players: r.players || 2 };
  },
  chanceText: "Drawing cards…",

  decisionText(view, moves = []) {
    const budget = ((view.wizards || [])[view.seat] || {}).mana - ((view.spent || [])[view.seat] || 0);
    switch (view.phase) {
      case "mana": return "Your mana step: put one card from your hand into your mana pool (it is your mana each spell step), or none.";
      case "attack": return "Declare attackers, one at a time (they all attack the other wizard), then say you are done.";
      case "block": return "Declare blockers, one at a time (each blocks one attacker), then say you are done.";
      case "blockon": return "Which attacker does this blocker take?";
      case "cast": return `Cast a spell — its power first, then up to 2 charms — or pass. ${budget} mana left this step.`;
      case "charm": return `Attach a charm to your spell, or finish it. ${budget} mana left this step.`;
      case "target": {
        const q = (view.queue || [])[view.resolving];
        return `Choose the target of ${q ? spellWords(q) : "your spell"}.`;
      }
      default: return moves.length ? "Your decision." : "";
    }
  },
  resetMoves() {},

  /** The legal moves: a card move as the card (name, cost, effect), the others in words. */
  moveButtons(moves, view, { button }) {
    return moves.map((m) => {
      const [kind, arg] = m.text.split(" ");
      if (["mana", "power", "charm"].includes(kind)) {
        const verb = { mana: "To mana:", power: "Cast:", charm: "Attach:" }[kind];
        const b = button(m, [el("span", { class: "tcg-verb", text: verb }), cardNode(arg, { tag: "span" })]);
        b.classList.add("tcg-card-move");
        b.setAttribute("aria-label", moveWords(m.text));
        return b;
      }
      return button(m);
    });
  },

  eventItem(ev, name, me) {
    const who = (s) => (s === me ? "You" : name(s));
    const low = (s) => (s === me ? "you" : name(s));
    if (ev.kind === "deal" || ev.kind === "draw") return null;     // a move's lines tell the draws (counts for the other seat)
    if (ev.kind === "move" && ev.hidden) {
      return { cls: "move", nodes: [`${who(ev.seat)} put${ev.seat === me ? "" : "s"} a card into ${ev.seat === me ? "your" : "their"} mana pool`] };
    }
    if (ev.kind === "move" && (ev.lines || []).length) {
      const [first, ...more] = ev.lines;
      return { cls: "move", nodes: [el("span", {}, lineWords(first, low)),
        ...more.map((l) => el("span", { class: `more${/^Turn \d+/.test(l) ? " turn-start" : ""}` }, lineWords(l, low)))] };
    }
    if (ev.kind === "move" && ev.move) return { cls: "move", nodes: [`${who(ev.seat)}: ${moveWords(ev.move.text)}`] };
    return null;
  },

  // ------------------------------------------------------------------ hints
  hintFocus(view, best) {
    const kind = best.kind || (best.text || "").split(" ")[0];
    const key = { mana: "mana", none: "mana", attack: "attack", done: view.phase === "attack" ? "attack" : "block", block: "block", on: "block",
      power: "cast", charm: "cast", cast: "cast", target: "target", pass: "pass" }[kind] || "cast";
    return HELP.focus[key] || "Think about this decision.";
  },
  hintWhy(view, best, answer) {
    const hints = answer.hints || [];
    return ["what each choice is worth, by the search's simulated games",
      el("ul", { class: "tcg-why" }, hints.map((h) => el("li", {}, `${moveWords(h.move.text)}: `,
        el("strong", { text: `${pct(h.winProbability)} to win` }), h.rank === 1 ? "" : ` (${h.verdict || ""})`)))];
  },
  hintDetail(view, best) {
    return [el("p", { text: `Your chance to win after it: ${pct(best.winProbability)}, by the search's simulated games.` })];
  },

  // ------------------------------------------------------------------ records and the review
  recordMatches: (record) => record.game === NAME,
  isSetupEvent: (e) => e.kind === "deal",
  newGameRequest: (record) => ({ game: NAME, players: record.players, seed: record.seedText, setup: JSON.stringify(record.decks || {}) }),
  applyRequest: (text, move) => ({ game: NAME, state: { text }, move: { text: move } }),
  analyzeState: null,

  /** The turn's steps, how to win, the tokens and every starter card (the engine's words). */
  helpPanel() {
    return [el("h3", { text: "How to play the Spellbook TCG" }),
      el("p", { text: HELP.win || "" }),
      el("ol", {}, (HELP.steps || []).map((s) => el("li", { text: s }))),
      el("ul", {}, Object.entries(HELP.tokens || {}).map(([k, v]) => el("li", {}, el("strong", { text: `${k}: ` }), v))),
      el("div", { class: "tcg-hand help-cards" }, (HELP.cards || []).map((c) => cardNode(c.id)))];
  },
};
export default game;
export { stepName };
