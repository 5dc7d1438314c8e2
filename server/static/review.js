// After the game: AnalyzeGame on the record (the server's review), drawn as a win-probability graph with
// the mistakes marked, each player's luck / skill split, and the mistakes as a list; a mistake opens its
// position (replayed from the record with ApplyMove) with the move played and the better one. The same
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

/** Reviews `record` (parseRecord's) for seat `me` with `game`'s labels and board; fills the review section. */
export async function showReview(record, me, game, { level = 0, iterations = 1500, names = [], onStatus = () => {} } = {}) {
  const moveLabel = game.moveLabel;
  const section = document.getElementById("review");
  section.hidden = false;
  const status = document.getElementById("review-status");
  status.textContent = "The server is reviewing the game…";
  document.getElementById("position").hidden = true;
  const request = { recordJson: record.text, keyMoments: 5 };
  if (level) request.level = level;
  if (iterations) request.limits = { iterations: String(iterations) };
  const review = await call("AnalyzeGame", request, { timeoutMs: 120000 });
  const label = (s) => names[s] || `seat ${s}`;
  const result = review.result || { scores: [], winners: [] };
  document.getElementById("review-summary").replaceChildren(
    el("p", { text: `Final scores: ${result.scores.map((s, i) => `${label(i)} ${s}`).join(", ")}. ` +
      `Winner${result.winners.length > 1 ? "s" : ""}: ${result.winners.map(label).join(", ")}.` }),
    el("p", { text: `${review.totalDecisions} decisions (${review.forcedDecisions} forced), each searched with ` +
      `${iterations || "the level's"} iterations` +
      `${review.cutShort ? " (some searches were cut short by the time limit)" : ""}.` }));
  const mine = (review.decisions || []).filter((d) => d.seat === me);
  const moments = (review.keyMoments || []).filter((d) => d.seat === me);
  const keyed = new Set(moments.map((d) => d.decision));
  drawGraph(mine, keyed, (d) => openPosition(record, d, me, names, game));
  document.getElementById("split").replaceChildren(el("table", { class: "split" },
    el("caption", { text: "Final score = expected at the start + luck + own decisions + the others' decisions" }),
    el("thead", {}, el("tr", {}, ["Player", "Final", "Expected", "Luck", "Own decisions", "Others'"].map((t) => el("th", { scope: "col", text: t })))),
    el("tbody", {}, (review.players || []).map((p) => el("tr", { class: p.seat === me ? "mine" : "" },
      el("th", { scope: "row", text: label(p.seat) }), el("td", { text: (p.finalScore || 0).toFixed(0) }),
      el("td", { text: (p.expectedStart || 0).toFixed(1) }), el("td", { text: signed(p.luck || 0) }),
      el("td", { text: signed(p.decisions || 0) }), el("td", { text: signed(p.others || 0) }))))));
  const list = document.getElementById("mistakes");
  const errs = mine.filter((d) => MISTAKES.has(d.mistakeClass));
  list.replaceChildren(...(errs.length ? errs.map((d) => el("li", {}, el("button", { type: "button", class: `mistake ${className(d.mistakeClass)}`,
    onclick: () => openPosition(record, d, me, names, game) },
  `Decision ${d.decision + 1}: ${className(d.mistakeClass)} — played `, el("span", { class: "mv" }, moveLabel(d.played.text)),
  `, better `, el("span", { class: "mv" }, moveLabel(d.best.text)), ` (−${pct(d.loss)} win probability)`)))
    : [el("li", { text: "No inaccuracy, mistake or blunder clear beyond the search's noise." })]));
  document.getElementById("moments").replaceChildren(...(moments.length ? moments.map((d) => el("li", {}, el("button", {
    type: "button", class: "moment", onclick: () => openPosition(record, d, me, names, game) },
  `Decision ${d.decision + 1}: played `, el("span", { class: "mv" }, moveLabel(d.played.text)),
  d.played.text === d.best.text ? " (the best move)" : [", the search prefers ", el("span", { class: "mv" }, moveLabel(d.best.text))],
  ` — win probability ${pct(d.winBefore)} with the best, ${pct(d.winAfter)} after yours`)))
    : [el("li", { text: "None of your decisions changed much." })]));
  const extra = document.getElementById("review-extra");
  extra.replaceChildren();
  extra.hidden = !game.reviewExtras;
  if (game.reviewExtras) await game.reviewExtras(extra, { record, review, me, names, stateBefore: (i) => stateBefore(record, i, game) });
  status.textContent = `Review done in ${((review.elapsedMs || 0) / 1000).toFixed(1)} s.`;
  onStatus("Review ready.");
  return review;
}

function drawGraph(decisions, keyed, onPick) {
  const graph = document.getElementById("graph");
  const W = 600, H = 220, L = 40, R = 10, T = 10, B = 30;
  const x = (i) => L + (decisions.length > 1 ? (i * (W - L - R)) / (decisions.length - 1) : (W - L - R) / 2);
  const y = (p) => T + (1 - p) * (H - T - B);
  const nodes = [svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" })];
  for (const p of [0, 0.5, 1]) {
    nodes.push(svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: "grid" }));
    nodes.push(svg("text", { x: L - 6, y: y(p) + 4, "text-anchor": "end", class: "axis" }, pct(p)));
  }
  nodes.push(svg("text", { x: (L + W) / 2, y: H - 6, "text-anchor": "middle", class: "axis" }, "your decisions, in order"));
  if (decisions.length) {
    nodes.push(svg("polyline", { class: "line", points: decisions.map((d, i) => `${x(i)},${y(d.winAfter || 0)}`).join(" ") }));
    decisions.forEach((d, i) => {
      const mistake = MISTAKES.has(d.mistakeClass);
      if (!mistake && !keyed.has(d.decision)) return;
      const kind = mistake ? className(d.mistakeClass) : "key moment";
      const dot = svg("circle", { cx: x(i), cy: y(d.winAfter || 0), r: 6, class: `dot ${mistake ? kind : "key"}`, tabindex: 0, role: "button",
        "aria-label": `decision ${d.decision + 1}: ${kind}` });
      dot.append(svg("title", {}, `Decision ${d.decision + 1}: ${kind}, played ${d.played.text}, better ${d.best.text}`));
      dot.addEventListener("click", () => onPick(d));
      dot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(d); } });
      nodes.push(dot);
    });
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
  game.renderBoard(state.view, document.getElementById("position-table"), document.getElementById("position-seats"),
    { me, names, toMove: decision.seat, full: true });
  note.replaceChildren(`Decision ${decision.decision + 1} (${className(decision.mistakeClass)}): ${names[decision.seat] === "You" ? "you" : names[decision.seat]} played `,
    el("span", { class: "mv" }, moveLabel(decision.played.text)), "; the better move was ",
    el("strong", { class: "mv better" }, moveLabel(decision.best.text)),
    ` — the mover's win probability ${pct(decision.winBefore)} with it, ${pct(decision.winAfter)} after the move played.`);
  const analysis = document.getElementById("analysis");
  analysis.hidden = true;
  const analyzeState = game.analyzeState && game.analyzeState(state, decision.seat);
  document.getElementById("analyze").hidden = !analyzeState;
  document.getElementById("analyze").onclick = () => analyzeLive(analyzeState, analysis, moveLabel);
  document.getElementById("position-title").focus();
}

let analyzing = null;

/** Analyze, streamed: the search's best moves so far, every 250 ms for 3 s, on what the mover observed. */
async function analyzeLive(state, box, moveLabel) {
  if (analyzing) analyzing.abort();
  const controller = new AbortController();
  analyzing = controller;
  box.hidden = false;
  box.replaceChildren(el("p", { text: "Searching…" }));
  const request = { state, limits: { timeMs: 3000 }, reportEveryMs: 250, topK: 3 };
  try {
    let updates = 0;
    await stream("Analyze", request, (update) => {
      const stats = update.stats || {};
      box.dataset.updates = String(++updates);
      box.replaceChildren(el("p", { text: `${update.final ? "Done" : "Searching"}: ${stats.iterations || 0} iterations, ` +
        `${Math.round(stats.elapsedMs || 0)} ms${update.final ? "" : " so far"}.` }),
      el("ol", {}, (update.hints || []).map((h) => el("li", {}, el("span", { class: "mv" }, moveLabel(h.move.text)),
        ` — win probability ${pct(h.winProbability)}, estimated score ${(h.expectedScore || 0).toFixed(1)}`))));
    }, { signal: controller.signal, timeoutMs: 15000 });
  } catch (e) {
    if (e.name !== "AbortError") box.replaceChildren(el("p", { text: `The analysis failed: ${e.message}` }));
  } finally {
    if (analyzing === controller) analyzing = null;
  }
}
