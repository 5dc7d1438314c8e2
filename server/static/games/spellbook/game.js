// SpellBook's folder of the page: its board, its move input (the learning chooser), its words for the
// log and the hints, its practice game and what its review replays. The shell (server/static/app.js)
// does the rest alike for every game; a game is a folder with a game.js exporting such an object.
import { call } from "../../rpc.js";
import { addStyle, el, groupBy, points } from "../../dom.js";
import { chip, moveLabel, moveWords, renderBoard, setSpellHelp, spellTitle } from "./board.js";
import { hintDetail, hintFocus, hintWhy } from "./hints.js";
import { PracticeGame } from "./practice.js";

/** "your" for You, else "Bot 2 (level 3)'s". */
const possessive = (who) => (who === "You" ? "your" : `${who}'s`);

let spellHelp = {};
let learnPath = [];     // [spell] or [spell, level]: where the learning chooser is

const isLearning = (m) => m.kind === "learn" || (m.kind.split("/")[0] === "Transmutation" && m.text.includes(":"));

export default {
  name: "spellbook",
  service: "/spellbook.v1.SpellBookService/",
  title: "SpellBook",
  Practice: PracticeGame,
  moveLabel: moveWords,
  renderBoard: (view, table, seats, ctx) => renderBoard(view, table, seats, { ...ctx, spellHelp }),
  hintFocus, hintWhy, hintDetail,

  init(info) {
    addStyle("/static/games/spellbook/style.css");
    spellHelp = (info.help && info.help.spells) || {};
    setSpellHelp(spellHelp);
  },

  async levels() {
    const info = await call("GetServerInfo", {});
    if (info.defaultBotLevel) this.defaultLevel = info.defaultBotLevel;   // the server's: about the heuristic bot
    return info.levels;
  },
  defaultLevel: 4,
  setupOptions() { return []; },
  createRequest({ players, seats }) { return { players, seats }; },

  /** GetSession's answer (or the practice game's view) as the shell reads it. */
  session(r) {
    return { seq: Number(r.seq || 0), toMove: r.toMove, over: !!r.over, winners: r.winners || [], legalMoves: r.legalMoves || [],
      view: r.observation.view, text: r.observation.text, seats: r.seats || [], players: r.players };
  },
  chanceText: "Drawing from the Pouch…",

  /** What this decision offers, from its legal moves (T3: Take 1 or Draw 2 in the Morning, Store 1 at
   *  Midday, Learn in the Evening; a learned spell adds its phase's action): never an action of another
   *  phase, such as learning in the Morning. */
  decisionText(view, moves = []) {
    const d = view.decision;
    const phase = { morning: "Morning", midday: "Midday", evening: "Evening" }[d];
    if (!phase) return `Next step of your action: ${d}. Choose one.`;
    const kinds = new Set(moves.map((m) => m.kind));
    const offers = [];
    if (kinds.has("take")) offers.push("take 1 Altar token");
    if (kinds.has("draw")) offers.push("draw 2 from the Pouch");
    if (kinds.has("store")) offers.push("store 1 pool token on your familiar");
    if (moves.some(isLearning)) offers.push("learn a spell");
    if (moves.some((m) => !isLearning(m) && !["take", "draw", "store", "pass"].includes(m.kind))) offers.push(`cast ${d === "evening" ? "an" : "a"} ${phase} spell`);
    return `Your ${phase}: ${offers.join(", ") || "nothing to do"}${kinds.has("pass") ? " — or pass" : ""}.`;
  },

  resetMoves() { learnPath = []; },

  /** The move buttons: plain moves, and each spell that can be learned as a chooser (spell, level, payment). */
  moveButtons(moves, view, { button, rerender }) {
    const plain = moves.filter((m) => !isLearning(m));
    const learns = moves.filter(isLearning);
    const out = [];
    const step = (path) => () => { learnPath = path; rerender(); };
    if (learnPath.length === 0) {
      out.push(...plain.map((m) => button(m)));
      for (const [spell, ms] of groupBy(learns, (m) => m.text.split(" ")[1])) {
        out.push(el("button", { type: "button", class: "move learn", "data-learn": spell, onclick: step([spell]) },
          `Learn ${spellTitle(spell)}… (${ms.length} way${ms.length > 1 ? "s" : ""})`));
      }
      return out;
    }
    const [spell, level] = learnPath;
    const ms = learns.filter((m) => m.text.split(" ")[1] === spell);
    out.push(el("button", { type: "button", class: "move back", onclick: step(learnPath.slice(0, -1)) }, "← Back"));
    if (level === undefined) {
      for (const [lvl, group] of groupBy(ms, (m) => m.text.split(" ")[2])) {
        const pts = spellHelp[spell] ? spellHelp[spell].levels.find((l) => String(l.level) === lvl) : null;
        out.push(el("button", { type: "button", class: "move learn", "data-level": lvl, onclick: step([spell, lvl]) },
          `${spellTitle(spell)} at level ${lvl}${pts ? ` (${points(pts.points)}: ${pts.text})` : ""} — ${group.length} way${group.length > 1 ? "s" : ""} to pay`));
      }
    } else {
      out.push(...ms.filter((m) => m.text.split(" ")[2] === level).map((m) => button(m, ["Pay ", ...moveLabel(m.text.split(" : ")[1] || m.text), " (rune ", ...moveLabel(m.text.split(" ")[3]), ")"])));
    }
    return out;
  },

  /** One event of the log: its class and its words. */
  eventItem(ev, name) {
    if (ev.kind === "draw") {
      // where the token went (P3): a pool or the Altar; a session from before the field says only "drawn"
      const where = ev.zone === "pool" ? ` into ${possessive(name(ev.to))} pool` : ev.zone === "altar" ? " onto the Altar" : "";
      return { cls: "draw", nodes: [`Drawn from the Pouch${where}: `, ...moveLabel(ev.move.text.replace(/^drawn /, ""))] };
    }
    return { cls: "", nodes: [`${name(ev.seat)}: `, ...moveWords(ev.move.text, ev.move.words)] };
  },

  // ------------------------------------------------------------------ records and the review
  recordMatches: (record) => !record.game || record.game === "spellbook",
  isSetupEvent: (e) => e.kind === "setup",
  newGameRequest: (record) => ({ players: record.players, spells: record.spells.join(","), seed: record.seedText }),
  applyRequest: (text, move) => ({ state: { text }, move: { text: move } }),
  analyzeState: (state, seat) => ({ view: { ...state.view, rng: "", observer: seat } }),
  chip,

  /** The rules in short, and every spell at each level (the engine's text, engine_c/spellbook/spell_text.py). */
  helpPanel() {
    return [el("h3", { text: "How to play SpellBook" }),
      el("p", { text: "Players take Days in turn. A Day has three phases, each with at most one action: Morning (take 1 Altar token or " +
        "draw 2 from the Pouch into your pool, or a Morning spell), Midday (store 1 pool token on your familiar, or a Midday spell), " +
        "Evening (learn a spell, or an Evening spell); then the Altar is resupplied. Your pool holds at most 9 tokens." }),
      el("p", { text: "Learn a spell by spending 3, 4 or 5 tokens of its color (its level); three tokens sharing a rune count as one of " +
        "any color. The game ends after the round in which someone learns a 7th spell or fills the 16th familiar space. Score: your " +
        "spells' points at their level, your familiar's worth (the number on its next empty space, 18 when full) and bonuses." }),
      el("ul", { class: "spell-help" }, Object.entries(spellHelp).map(([name, h]) => el("li", {},
        el("strong", { text: `${h.title} ` }), `(${h.color}; ${h.action}): `,
        h.levels.map((l, i) => `${i ? "; " : ""}level ${l.level} (${l.points} pt${l.points === 1 ? "" : "s"}): ${l.text}`).join(""))))];
  },
};
