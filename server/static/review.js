// After the game: AnalyzeGame on the record (the server's review) for one seat (the record's own, or the
// one the player picks), drawn as a win-probability graph by round with the mistakes marked, each
// player's luck / skill split with the sentence saying what it means, and the seat's decisions labelled
// by round, Day/turn and phase; a decision opens its position (replayed from the record with ApplyMove)
// with the move played and the better one. The first part of the game is reviewed first, so entries
// show within a couple of seconds, then the whole review replaces them. The same
// for every game: the game's folder gives its move labels, its board, its NewGame/ApplyMove requests and
// what only it reviews (`game.reviewExtras`: Abracada…What?'s belief against the hand held).
import { call, stream } from "./rpc.js";
import { className, el, MISTAKES, pct, signed } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A game record (docs/records.md) from its JSON text. The text is kept (`record.text`) and sent as it is,
 *  and the seed is kept as digits (`record.seedText`): a 64-bit seed does not survive a JS number. */
export function parseRecord(text) {
  const record = JSON.parse(text);
  const seed = /"seed"\s*:\s*(\d+)/.exec(text);
  Object.defineProperty(record, "text", { value: text, enumerable: false });
  Object.defineProperty(record, "seedText", { value: seed ? seed[1] : null, enumerable: false });
  return record;
}

/** The seats a record was played from by people (the client or human seats, docs/records.md): the seats a
 *  loaded record is reviewed for. */
export function ownSeats(record) {
  return (record.seats || []).map((s, i) => (s.kind === "client" || s.kind === "human" ? i : -1)).filter((i) => i >= 0);
}

/** The first part of `record` (its events before index `cut`), ending with a resignation of `seat`: a
 *  record the server reviews as far as it goes. Each decision's searches are seeded by its place in the
 *  game (search/review.py), so the entries of this part are the whole review's, sooner. */
function firstPart(record, cut, seat) {
  const events = record.events.slice(0, cut).concat([{ kind: "resign", seat, move: "resign" }]);
  const seed = record.seedText;
  const text = JSON.stringify({ ...record, events, status: "finished", result: null, review: undefined, seed: seed ? 0 : undefined });
  return seed ? text.replace(/"seed":0(?=[,}])/, `"seed":${seed}`) : text;
}

/** Where the first part ends: the move events of the game, up to about 0.9 s of the server's review
 *  (measured on 2 cores: ~0.09 ms an iteration of the seat's own searches, ~50 ms a decision for the
 *  estimator that judges every seat's), and at least two of the seat's decisions; 0 when the whole
 *  review is about that quick anyway. */
function firstCut(record, seat, iterations) {
  const moves = record.events.map((e, i) => [e, i]).filter(([e]) => e.kind === "move");
  const own = (e) => e.seat === seat;
  const cost = (e) => 50 + (own(e) ? iterations * 0.09 : 0);
  const total = moves.reduce((t, [e]) => t + cost(e), 0);
  if (total < 2500) return 0;
  let spent = 0, mine = 0;
  for (const [e, i] of moves) {
    if (spent + cost(e) > 900 && mine >= 2) return i;
    spent += cost(e);
    if (own(e)) mine++;
  }
  return 0;
}

let current = null;        // the review under way: { controller }

/** Where a decision was, in the page's names: "Round 2 · your Day · Evening", "Round 3 · your 2nd turn ·
 *  3rd decision" (AnalyzeGame's `label` says "Day of seat 1", counted from 0; the page says "Bot 2"). */
export function where(d, names) {
  const text = d.label || (d.round ? `Round ${d.round}` : `Decision ${d.decision + 1}`);
  return text.replace(/\b(?:(\d+(?:st|nd|rd|th)) )?(Day|turn) of seat (\d+)/, (_, nth, what, s) => {
    const ord = nth ? `${nth} ` : "";
    return names[Number(s)] === "You" ? `your ${ord}${what}` : `${ord}${what} of ${names[Number(s)] || `seat ${Number(s) + 1}`}`;
  });
}

/** The seats' names for a review of `seat`. A name never changes with the seat reviewed: "You" is the
 *  reader's own seat only (the caller's "You", its seat in its own game), so a bot reviewed stays
 *  "Bot 2 (level 5)" and the reader stays "You". Where no name is "You" (a loaded record, a watched game),
 *  the reviewed seat is "You" when it is one of `readers` (the record's people's seats, one of which the
 *  reader played), never a bot's seat (issue 51: one "You" at most, and never a wrong one). */
export function reviewNames(baseNames, seat, readers = []) {
  if (baseNames.includes("You")) return [...baseNames];
  return baseNames.map((n, i) => (i === seat && readers.includes(i) ? "You" : n));
}

/** "your" for "You", else "Bot 2 (level 5)'s"; `cap`: "Your". */
export function whose(name, cap = false) {
  return name === "You" ? (cap ? "Your" : "your") : `${name}'s`;
}

/** Reviews `record` (parseRecord's) for `seat` with `game`'s labels and board; fills the review section
 *  as the answers come: the first part of the game's decisions within a couple of seconds, then the
 *  whole review (the graph, every decision, the luck split, key moments). `seat` null: the record has
 *  several people's seats (or none), and the page asks whose decisions to review. */
export async function showReview(record, seat, game, { iterations = 1500, names: baseNames = [], readers = [], onStatus = () => {} } = {}) {
  const section = document.getElementById("review");
  section.hidden = false;
  if (current) current.controller.abort();       // a review that was under way: its answers are dropped
  const controller = new AbortController();
  current = { controller };
  const mine = () => current && current.controller === controller;
  const names = reviewNames(baseNames, seat, readers);
  clearReview(seat === null);
  const choice = document.getElementById("review-seat");
  choice.replaceChildren(...(seat === null ? [el("option", { value: "", selected: true, disabled: true, text: "Choose a seat…" })] : []),
    ...baseNames.map((n, i) => el("option", { value: i, selected: i === seat, text: `Seat ${i + 1}: ${n}` })));
  choice.onchange = () => showReview(record, Number(choice.value), game, { iterations, names: baseNames, readers, onStatus }).catch((e) => {
    if (e.name !== "AbortError") { document.getElementById("review-status").textContent = `The review failed: ${e.message}`; console.info(e.message); }
  });
  document.getElementById("review-seat-box").hidden = baseNames.length < 2;
  const status = document.getElementById("review-status");
  if (seat === null) {
    status.textContent = "Several people played this game: choose whose decisions to review.";
    onStatus("Choose the seat to review.");
    choice.focus();
    return null;
  }
  const who = names[seat] || `seat ${seat + 1}`;
  for (const node of document.querySelectorAll("#review .whose")) node.textContent = whose(who);
  for (const node of document.querySelectorAll("#review .whose-cap")) node.textContent = whose(who, true);
  status.textContent = "Reviewing… the first decisions in a moment.";
  section.dataset.state = "reviewing";
  const request = (recordJson) => {
    const r = { ...(game.apiGame ? { game: game.apiGame } : {}), recordJson, keyMoments: 5, seat };   // games.v1 names the game
    if (iterations) r.limits = { iterations: String(iterations) };
    return r;
  };
  const cut = firstCut(record, seat, iterations || 1500);
  const partial = cut ? call("AnalyzeGame", request(firstPart(record, cut, seat)), { timeoutMs: 60000, signal: controller.signal }) : null;
  const whole = call("AnalyzeGame", request(record.text), { timeoutMs: 120000, signal: controller.signal });
  let done = false;
  if (partial) {
    partial.then((first) => {
      if (done || !mine()) return;
      const ds = (first.decisions || []).filter((d) => d.eventIndex < cut && d.seat === seat);
      drawDecisions(record, ds, new Set(), seat, names, game, true);
      const round = ds.length ? ds[ds.length - 1].round : 1;
      status.textContent = `Reviewing… ${ds.length} of ${whose(who)} decisions so far (up to round ${round}); the rest of the game is being reviewed.`;
      section.dataset.state = "partial";
    }).catch(() => {});        // the whole review answers for both
  }
  const review = await whole;
  done = true;
  if (!mine()) return null;
  const label = (s) => names[s] || `seat ${s + 1}`;
  const result = review.result || { scores: [], winners: [] };
  const resigned = result.resigned === undefined || result.resigned === null ? null : result.resigned;
  // the game's scores and winners: the record's result (AnalyzeGame's `result`), the one source of "scores";
  // a resigned game's split ends at what each could expect then, and its column says so
  document.getElementById("review-summary").replaceChildren(
    el("p", { text: `${resigned === null ? "Final scores" : "Scores when the game was resigned"}: ${result.scores.map((s, i) => `${label(i)} ${s}`).join(", ")}. ` +
      `Winner${result.winners.length > 1 ? "s" : ""}: ${result.winners.map(label).join(", ")}.` +
      (resigned === null ? "" : ` ${label(resigned)} resigned: the review goes up to there, and the table's last column is what each could expect then.`) }),
    el("p", { text: `${whose(label(seat), true)} ${review.totalDecisions} decisions, ${review.forcedDecisions} of them forced (not reviewed); ` +
      `each searched with ${iterations || "the level's"} iterations` +
      `${review.cutShort ? " (some searches were cut short by the time limit)" : ""}.` }));
  const ds = (review.decisions || []).filter((d) => d.seat === seat);
  const moments = (review.keyMoments || []).filter((d) => d.seat === seat);
  drawDecisions(record, ds, new Set(moments.map((d) => d.decision)), seat, names, game, false);
  document.getElementById("split").replaceChildren(
    el("p", { class: "split-text", text: review.scoreSplitText || "" }),
    el("table", { class: "split" },
      el("caption", { text: `${resigned === null ? "Final" : "Expected at the resignation"} = expected at the start + luck + own decisions + others' decisions (points)` }),
      el("thead", {}, el("tr", {}, ["Player", resigned === null ? "Final" : "Expected at the resignation", "Expected at the start", "Luck", "Own", "Others'"].map((t) => el("th", { scope: "col", text: t })))),
      el("tbody", {}, (review.players || []).map((p) => el("tr", { class: p.seat === seat ? "mine" : "" },
        el("th", { scope: "row", text: label(p.seat) }), el("td", { text: (p.finalScore || 0).toFixed(resigned === null ? 0 : 1) }),
        el("td", { text: (p.expectedStart || 0).toFixed(1) }), el("td", { text: signed(p.luck || 0) }),
        el("td", { text: signed(p.decisions || 0) }), el("td", { text: signed(p.others || 0) }))))));
  const moveLabel = game.moveLabel;
  document.getElementById("moments").replaceChildren(...(moments.length ? moments.map((d) => el("li", {}, el("button", {
    type: "button", class: "moment", onclick: () => openPosition(record, d, seat, names, game) },
  `${where(d, names)}: played `, el("span", { class: "mv" }, moveLabel(d.played.text, d.played.words)),
  MISTAKES.has(d.mistakeClass) ? [` — ${className(d.mistakeClass)}, better `, el("span", { class: "mv" }, moveLabel(d.best.text, d.best.words))]
    : d.played.text === d.best.text ? " — the best move" : ` — ${className(d.mistakeClass) || "good"} (as good as the search's choice, within its noise)`,
  `: ${whose(who)} win probability ${pct((d.winProbabilities || [])[seat])} before, ${pct(d.winAfter)} with it`, chanceText(d, who))))
    : [el("li", { text: `None of ${whose(who)} decisions changed much.` })]));
  const extra = document.getElementById("review-extra");
  extra.hidden = !game.reviewExtras;
  if (game.reviewExtras) {
    // the game's own part, in a box of this review's: a newer review removes it, so nothing late lands in its place
    const box = el("div");
    extra.replaceChildren(box);
    status.textContent = "Reviewed; replaying the game for the rest…";
    await game.reviewExtras(box, { record, review, me: seat, names, where: (d) => where(d, names), stateBefore: (i) => stateBefore(record, i, game) });
  }
  if (!mine()) return null;
  section.dataset.state = "done";
  status.textContent = `Review done in ${((review.elapsedMs || 0) / 1000).toFixed(1)} s.`;
  onStatus("Review ready.");
  return review;
}

/** What chance did after a decision, from AnalyzeGame's `winNext` (the win probability once the chance that followed — a draw, a
 *  die, what a cast showed of a hidden hand — had played out; "drawn" was false for a die or a cast):
 *  the same words as the terminal's key moments (search/review.py key_moment_text). */
export function chanceText(d, who = "You") {
  if (d.winNext === undefined || d.winNext === null) return "";
  const after = d.winAfter || 0, next = d.winNext;
  if (next < after - 0.05) return `; then chance went against ${who === "You" ? "you" : who}: ${pct(next)} once it played out`;
  if (next > after + 0.05) return `; then chance went ${whose(who)} way: ${pct(next)} once it played out`;
  return "";
}

/** The review section emptied at once (a new review starts): nothing of the previous one stays. */
function clearReview(asking) {
  for (const id of ["review-summary", "split", "mistakes", "moments", "decisions", "review-extra"]) document.getElementById(id).replaceChildren();
  document.getElementById("review-extra").hidden = true;
  document.getElementById("position").hidden = true;
  document.getElementById("decisions-count").textContent = "";
  document.getElementById("review-body").hidden = asking;
  const later = "With the whole review, in a few seconds.";
  document.getElementById("split").replaceChildren(el("p", { class: "pending", text: later }));
  document.getElementById("moments").replaceChildren(el("li", { class: "pending", text: later }));
  drawGraph(null, [], new Set(), () => {}, []);
}

/** The graph, the mistakes and every decision of the seat (the first part's, or the whole review's). */
function drawDecisions(record, ds, keyed, seat, names, game, partial) {
  const moveLabel = game.moveLabel;
  const open = (d) => openPosition(record, d, seat, names, game);
  drawGraph(record, ds, keyed, open, names);
  const errs = ds.filter((d) => MISTAKES.has(d.mistakeClass));
  const list = document.getElementById("mistakes");
  list.replaceChildren(...(errs.length ? errs.map((d) => el("li", {}, el("button", { type: "button", class: `mistake ${className(d.mistakeClass)}`, onclick: () => open(d) },
    `${where(d, names)}: ${className(d.mistakeClass)} — played `, el("span", { class: "mv" }, moveLabel(d.played.text, d.played.words)),
    `, better `, el("span", { class: "mv" }, moveLabel(d.best.text, d.best.words)), ` (−${pct(d.loss)} win probability)`)))
    : [el("li", { text: partial ? "None so far." : "No inaccuracy, mistake or blunder clear beyond the search's noise." })]));
  document.getElementById("decisions-count").textContent = ` (${ds.length}${partial ? " so far" : ""})`;
  document.getElementById("decisions").replaceChildren(...ds.map((d) => el("li", { class: className(d.mistakeClass) },
    el("button", { type: "button", class: "decision-entry", onclick: () => open(d) }, `${where(d, names)}: `, el("span", { class: "mv" }, moveLabel(d.played.text, d.played.words)),
      ` — ${className(d.mistakeClass) || "?"}, win probability ${pct(d.winAfter)}`))));
}

/** Win probability (y, %) after each of the seat's decisions against the game's course (x, by round:
 *  each decision at its place among the record's events, so a first part already sits where it belongs). */
function drawGraph(record, decisions, keyed, onPick, names) {
  const graph = document.getElementById("graph");
  const W = 600, H = 230, L = 66, R = 10, T = 10, B = 46;
  const events = record ? record.events.length : 1;
  const first = record ? Math.max(record.events.findIndex((e) => e.kind === "move"), 0) : 0;
  const x = (i) => L + ((i - first) / Math.max(events - first, 1)) * (W - L - R);
  const y = (p) => T + (1 - p) * (H - T - B);
  const nodes = [svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" })];
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    nodes.push(svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? "grid mid" : "grid" }));
    nodes.push(svg("text", { x: L - 6, y: y(p) + 4, "text-anchor": "end", class: "axis" }, pct(p)));
  }
  nodes.push(svg("text", { x: 16, y: (T + H - B) / 2, "text-anchor": "middle", class: "axis title", transform: `rotate(-90 16 ${(T + H - B) / 2})` }, "Win probability (%)"));
  nodes.push(svg("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "axis title" }, "Round"));
  // a tick where each round's first reviewed decision is; labels every round, or every 2nd, 5th... as they fit
  const rounds = decisions.length ? decisions[decisions.length - 1].round || 1 : 1;
  const perRound = (W - L - R) * (decisions.length ? (decisions[decisions.length - 1].eventIndex - first) / Math.max(events - first, 1) : 1) / rounds;
  const step = [1, 2, 5, 10, 20, 50].find((k) => k * perRound >= 26) || 100;
  let lastRound = 0;
  for (const d of decisions) {
    if (!d.round || d.round === lastRound) continue;
    lastRound = d.round;
    const at = x(d.eventIndex);
    nodes.push(svg("line", { x1: at, x2: at, y1: H - B, y2: H - B + 4, class: "grid" }));
    if (d.round === 1 || d.round % step === 0) nodes.push(svg("text", { x: at, y: H - B + 18, "text-anchor": "middle", class: "axis" }, String(d.round)));
  }
  if (decisions.length) {
    nodes.push(svg("polyline", { class: "line", points: decisions.map((d) => `${x(d.eventIndex)},${y(d.winAfter || 0)}`).join(" ") }));
    for (const d of decisions) {
      const mistake = MISTAKES.has(d.mistakeClass);
      if (!mistake && !keyed.has(d.decision)) continue;
      const kind = mistake ? className(d.mistakeClass) : "key moment";
      const dot = svg("circle", { cx: x(d.eventIndex), cy: y(d.winAfter || 0), r: 6, class: `dot ${mistake ? kind : "key"}`, tabindex: 0, role: "button",
        "aria-label": `${where(d, names)}: ${kind}` });
      dot.append(svg("title", {}, `${where(d, names)}: ${kind}, played ${d.played.words || d.played.text}, the search's choice ${d.best.words || d.best.text}`));
      dot.addEventListener("click", () => onPick(d));
      dot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(d); } });
      nodes.push(dot);
    }
  }
  graph.replaceChildren(...nodes);
}

const replayCache = new WeakMap();   // record -> [state after event i] (filled as far as asked)

/** The state just before record.events[index], replayed from the deal with ApplyMove (the server's rules). */
async function stateBefore(record, index, game) {
  if (!record.seedText) throw new Error("this record has no seed: its positions cannot be replayed here");
  let states = replayCache.get(record);
  if (!states) {
    const start = await call("NewGame", game.newGameRequest(record));
    states = [start.state];
    const firstPlay = record.events.findIndex((e) => !game.isSetupEvent(e));
    states.offset = firstPlay;
    replayCache.set(record, states);
  }
  while (states.offset + states.length - 1 < index) {
    const event = record.events[states.offset + states.length - 1];
    const next = await call("ApplyMove", game.applyRequest(states[states.length - 1].text, event.move));
    states.push(next.state);
  }
  return states[index - states.offset];
}

async function openPosition(record, decision, me, names, game) {
  const moveLabel = game.moveLabel;
  const box = document.getElementById("position");
  const note = document.getElementById("position-note");
  box.hidden = false;
  note.textContent = "Replaying the game to that position…";
  const state = await stateBefore(record, decision.eventIndex, game);
  // the board's "You" is the reader's own seat (none in a watched game), not the seat reviewed; a game
  // served by games.v1 gives its view as JSON (`viewJson`: the table as the seat to move saw it)
  const view = state.view || (state.viewJson ? JSON.parse(state.viewJson) : undefined);
  game.renderBoard(view, document.getElementById("position-table"), document.getElementById("position-seats"),
    { me: names.indexOf("You"), names, toMove: decision.seat, full: true });
  const who = names[decision.seat] === "You" ? "you" : names[decision.seat];
  const better = MISTAKES.has(decision.mistakeClass);
  note.replaceChildren(`${where(decision, names)} (${className(decision.mistakeClass)}): ${who} played `,
    el("span", { class: "mv" }, moveLabel(decision.played.text, decision.played.words)),
    ...(better ? ["; the better move was ", el("strong", { class: "mv better" }, moveLabel(decision.best.text, decision.best.words)),
      ` — the win probability ${pct(decision.winBefore)} with it, ${pct(decision.winAfter)} after the move played.`]
      : decision.played.text === decision.best.text ? [` — the search's choice too; the win probability after it ${pct(decision.winAfter)}.`]
        : ["; the search's choice was ", el("span", { class: "mv" }, moveLabel(decision.best.text, decision.best.words)),
          `, as good within the search's noise; the win probability after the move played ${pct(decision.winAfter)}.`]));
  const analysis = document.getElementById("analysis");
  analysis.hidden = true;
  const analyzeState = game.analyzeState && game.analyzeState(state, decision.seat);
  document.getElementById("analyze").hidden = !analyzeState;
  document.getElementById("analyze").onclick = () => analyzeLive(analyzeState, analysis, moveLabel, game);
  document.getElementById("position-title").focus();
}

let analyzing = null;

/** Analyze, streamed: the search's best moves so far, every 250 ms for 3 s, on what the mover observed. */
async function analyzeLive(state, box, moveLabel, game = {}) {
  if (analyzing) analyzing.abort();
  const controller = new AbortController();
  analyzing = controller;
  box.hidden = false;
  box.replaceChildren(el("p", { text: "Searching…" }));
  const request = { ...(game.apiGame ? { game: game.apiGame } : {}), state, limits: { timeMs: 3000 }, reportEveryMs: 250, topK: 3 };
  try {
    let updates = 0;
    await stream("Analyze", request, (update) => {
      const stats = update.stats || {};
      box.dataset.updates = String(++updates);
      box.replaceChildren(el("p", { text: `${update.final ? "Done" : "Searching"}: ${stats.iterations || 0} iterations, ` +
        `${Math.round(stats.elapsedMs || 0)} ms${update.final ? "" : " so far"}.` }),
      el("ol", {}, (update.hints || []).map((h) => el("li", {}, el("span", { class: "mv" }, moveLabel(h.move.text, h.move.words)),
        ` — win probability ${pct(h.winProbability)}, estimated score ${(h.expectedScore || 0).toFixed(1)}`))));
    }, { signal: controller.signal, timeoutMs: 15000 });
  } catch (e) {
    if (e.name !== "AbortError") box.replaceChildren(el("p", { text: `The analysis failed: ${e.message}` }));
  } finally {
    if (analyzing === controller) analyzing = null;
  }
}
