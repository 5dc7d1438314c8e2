// The Spellbook TCG's folder of the page. The game has no API of its own: every call goes to the
// game-neutral games.v1.GameService (docs/api.md), and the requests that name no session carry
// `game: "spellbooktcg"` (`apiGame`, which the shell adds). Its table is GetSession's `view_json`
// (board.js), and the table is also where a player moves: GetSession's legal moves make the cards of the
// hand, the characters and the queued spells they name clickable (board.js armBoard); what names nothing
// on the table (none, pass, finish the spell, done) stays a button. Its log is the session events' lines
// (engine_c/spellbooktcg/text.py event_lines: moves, draws as counts for the other seat, damage, healing,
// deaths, tokens), with this page's names.
import { call } from "../../rpc.js";
import { addStyle, el, pct } from "../../dom.js";
import { armBoard, card, disarmBoard, cardName, cardNode, charName, currentTable, renderBoard, setHelp, spellWords, stepName } from "./board.js";

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
    case "on": return `Block the attacker ${charName(arg)}`;
    case "done": return view && view.phase === "block" ? "Declare no more blockers" : view && view.phase === "attack" ? "Declare no more attackers" : "Declare no more attackers or blockers";
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

/** The engine's event lines ("seat 1: cast Arcane Bolt …", "you draw 2 cards: …") with this page's names:
 *  a summon by its owner, name and values ("Bot 2's Conjure Familiar (2/2)"), never by its place ("s1.0"),
 *  and a queued spell by its caster and cards, not its number ("q0"). */
function lineWords(line, name) {
  const out = line.replace(/\bseat (\d)\b/g, (_, s) => name(Number(s))).replace(/ -> /g, " → ")
    .replace(/ \(s\d\.\d+, /g, " (").replace(/\bthe spell q\d+, /g, "the spell ")
    .replace(/: \.\.\. the attacker /, ": the blocker takes the attacker ");
  // "Bot 2: block with Bot 2's wizard" reads "Bot 2: block with their wizard"
  const mover = /^(.+?): /.exec(out);
  const told = mover ? mover[0] + out.slice(mover[0].length).split(`${mover[1]}'s `).join("their ") : out;
  return told.replace(/^you\b/, "You").replace(/^your\b/, "Your");
}

const STARTER_DECKS = [{ id: "frost_ward", name: "Frost Ward" }, { id: "fire_shock", name: "Fire Shock" }];

function deckChoice(id, text, value) {
  return el("label", {}, text, el("select", { id, name: id },
    (HELP.decks.length ? HELP.decks : STARTER_DECKS).map((d) => el("option", { value: d.id, selected: d.id === value }, `${d.name} (${d.id})`))));
}

/** A player's own files, as pasted (or read from a chosen file into the box): the card file and the deck
 *  file (docs/tcg-cards.md), each JSON; null unless the player chose to give them (the starter decks). The server
 *  checks them (the page only parses the JSON): a card or deck it refuses is named in its error. */
function ownFiles() {
  const text = (id) => ((document.getElementById(id) || {}).value || "").trim();
  if (!(document.getElementById("tcg-own") || {}).checked) return null;
  const cards = text("tcg-card-text"), decks = text("tcg-deck-text");
  if (!cards || !decks) throw new Error("your own cards need both files: the card file and the deck file");
  const parse = (what, t) => { try { return JSON.parse(t); } catch (e) { throw new Error(`the ${what} is not JSON (${e.message})`); } };
  const deckFile = parse("deck file", decks);
  if (!deckFile || !Array.isArray(deckFile.decks) || !deckFile.decks.length) throw new Error("the deck file lists no deck (its `decks`)");
  return { cardFile: parse("card file", cards), decks: deckFile.decks };
}

/** The seats' deck choices: the deck file's decks once both files are given, else the starter decks. */
function offerDecks() {
  let decks = HELP.decks.length ? HELP.decks : STARTER_DECKS, own = false;
  try {
    const files = ownFiles();
    if (files) { decks = files.decks.filter((d) => d && typeof d.id === "string"); own = true; }
  } catch { /* not ready yet: the starter decks stay offered until both files parse */ }
  [0, 1].forEach((i) => {
    const select = document.getElementById(`tcg-deck-${i}`);
    if (!select) return;
    const keep = select.value;
    select.replaceChildren(...decks.map((d, k) => el("option", { value: d.id, selected: d.id === keep || (!decks.some((x) => x.id === keep) && k === Math.min(i, decks.length - 1)) },
      `${d.name || d.id} (${d.id})${own ? ", your deck" : ""}`)));
  });
}

/** A file chosen for one of the boxes: its text goes into the box (what is sent is what the box shows). */
function fileInto(input, boxId) {
  const file = input.files && input.files[0];
  if (!file) return;
  file.text().then((t) => { document.getElementById(boxId).value = t; offerDecks(); });
}

/** The choice of one's own files: a box to tick, which shows the two files' fields. */
function ownCardsChoice() {
  const box = (what, id, fileId) => [
    el("label", { for: fileId }, `${what} (a .json file)`, el("input", { id: fileId, name: fileId, type: "file", accept: ".json,application/json",
      onchange: (e) => fileInto(e.target, id) })),
    el("label", { for: id }, `${what}: or paste its JSON here`, el("textarea", { id, name: id, rows: 3, spellcheck: "false", oninput: offerDecks }))];
  const files = el("div", { id: "tcg-own-files", class: "tcg-own-files", hidden: true },
    el("p", { text: "A card file (format spellbooktcg-cards/1) and a deck file (format spellbooktcg-decks/1), as the card-file guide describes. "
      + "Once both are given, each seat chooses a deck of your deck file. The server checks both files and names the card and the field of anything it refuses." }),
    ...box("Card file", "tcg-card-text", "tcg-card-file"), ...box("Deck file", "tcg-deck-text", "tcg-deck-file"));
  const tick = el("input", { type: "checkbox", id: "tcg-own", name: "tcg-own", onchange: () => { files.hidden = !tick.checked; offerDecks(); } });
  return [el("label", { class: "check tcg-own", for: "tcg-own" }, tick, "Play with your own card file and decks"), files];
}

/** What the other wizard probably holds (GetHints' insight_json, engine_c/spellbooktcg/insight.py): the
 *  likeliest cards, each with its chance of being in their hand, from the cards you cannot place. */
function holdNodes(answer) {
  let insight = null;
  try { insight = answer.insightJson ? JSON.parse(answer.insightJson) : null; } catch (e) { insight = null; }
  if (!insight || !(insight.opponentHand || []).length) return [];
  const top = insight.opponentHand.slice(0, 5).map((c) =>
    el("li", { text: `${c.name}: ${pct(c.probability)} to hold at least one (${c.unseen} unseen)` }));
  return [el("p", { text: `What they probably hold: ${insight.opponentHandSize} cards in hand, from ${insight.unseenCards} cards of their deck you cannot place.` }),
    el("ul", { class: "tcg-hold" }, top)];
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
    return [el("legend", { text: "Decks" }), deckChoice("tcg-deck-0", "First seat's deck ", "frost_ward"),
      deckChoice("tcg-deck-1", "Second seat's deck ", "fire_shock"), ...ownCardsChoice()];
  },
  /** The setup games.v1 takes: the starter deck ids, or the record's `decks` object with the player's own
   *  card file inline (no digest: the server takes the file's own) and the two chosen decks of the deck file. */
  createRequest({ players, seats }) {
    const deck = (i) => (document.getElementById(`tcg-deck-${i}`) || {}).value || STARTER_DECKS[i].id;
    const files = ownFiles();
    if (!files) return { game: NAME, players, seats, setup: `${deck(0)},${deck(1)}` };
    const pick = (i) => files.decks.find((d) => d.id === deck(i)) || files.decks[0];
    return { game: NAME, players, seats, setup: JSON.stringify({ card_file: files.cardFile, seats: [pick(0), pick(1)] }) };
  },
  spectatorRequest: (sessionId) => ({ sessionId }),

  /** GetSession's answer (games.v1) as the shell reads it: proto3 JSON leaves out zeros (seat 0 to move). */
  session(r) {
    const view = r.viewJson ? JSON.parse(r.viewJson) : {};
    return { seq: Number(r.seq || 0), toMove: r.toMove || 0, over: !!r.over, winners: r.winners || [], legalMoves: r.legalMoves || [],
      view, text: r.observation || "", seats: r.seats || [], players: r.players || 2 };
  },
  chanceText: "Drawing cards…",

  /** What to do now, and where on the board to click. */
  decisionText(view, moves = []) {
    const budget = ((view.wizards || [])[view.seat] || {}).mana - ((view.spent || [])[view.seat] || 0);
    const queue = view.queue || [];
    switch (view.phase) {
      case "mana": return "Your mana step: click a card in your hand to put it into your mana pool (the pool's size is your mana each spell step), or put none.";
      case "attack": return "Declare attackers: click your wizard or a summon to attack the other wizard with it, one at a time, then say you are done.";
      case "block": return "Declare blockers: click one of your characters to block with it (then the attacker it takes), one at a time, then say you are done.";
      case "blockon": return "Click the attacker your blocker takes.";
      case "cast": return `Cast a spell: click a power in your hand (then up to 2 charms), or pass. ${budget} mana left this step.`;
      case "charm": {
        const q = queue[queue.length - 1];
        return `Your spell ${q ? `${q.cards.map(cardName).join(" + ")} → ${q.final}` : ""}. Click a charm in your hand to attach it (each shows what the spell becomes), or finish the spell. ${budget} mana left this step.`;
      }
      case "target": {
        const q = queue[view.resolving];
        return `Choose the target of ${q ? `${spellWords(q)} (${q.final})` : "your spell"}: click a character or a spell marked Target.`;
      }
      default: return moves.length ? "Your decision." : "";
    }
  },
  /** A move is on its way (or there is none to make): the board's clickable things stop looking so. */
  resetMoves() { disarmBoard(); },

  /** The legal moves on the board (board.js armBoard); the rest (none, pass, finish, done) as buttons. */
  moveButtons(moves, view, { button }) {
    return armBoard(moves, view, button, moveWords).map((m) => button(m));
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
  // Hint 2: the moves the search weighs most, in no order, what decides the choice (the best move's veiled
  // reasons: engine_c/spellbooktcg/reasons.py), and what the other wizard probably holds (insight.py)
  hintWhy(view, best, answer) {
    const shown = (answer.hints || []).map((h) => moveWords(h.move.text)).filter(Boolean).sort();
    const decides = (best.veiledReasons || []).map((r) => el("li", { text: r.text }));
    return ["the moves the search weighs most, in no order",
      el("ul", { class: "tcg-why" }, shown.map((w) => el("li", { text: w }))),
      ...(decides.length ? [el("p", { text: "What decides it:" }), el("ul", { class: "tcg-why" }, decides)] : []),
      ...holdNodes(answer)];
  },
  // Hint 3: the move's reasons, each measured from the engine, and the other hand's belief
  hintDetail(view, best, answer) {
    const why = (best.reasons || []).map((r) => el("li", { class: r.aspect === "gives_up" ? "gives-up" : "gains", text: r.text }));
    return [el("p", { text: `Your chance to win after it: ${pct(best.winProbability)}, by the search's simulated games.` }),
      ...(why.length ? [el("p", { text: "Why:" }), el("ul", { class: "tcg-why" }, why)] : []),
      ...holdNodes(answer)];
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
      el("p", { text: "You play on the board: click a card in your hand, one of your characters, or a target when the game asks for one; "
        + "what a click does is written on each thing you can click. A number in bold on a card is one that charms can change." }),
      el("ol", {}, (HELP.steps || []).map((s) => el("li", { text: s }))),
      el("ul", {}, Object.entries(HELP.tokens || {}).map(([k, v]) => el("li", {}, el("strong", { text: `${k}: ` }), v))),
      el("div", { class: "tcg-hand help-cards" }, (HELP.cards || []).map((c) => cardNode(c.id)))];
  },
};
export default game;
export { stepName };
