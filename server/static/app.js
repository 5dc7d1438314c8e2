// The page's shell, the same for every game: the game choice, a game against bots in a server session
// (CreateSession, GetSession, SubmitMove, WatchSession), the hint ladder (GetHints), the review
// (AnalyzeGame), the record (ExportSession), watching with a spectator token, practice (where the game
// has it), settings and the keyboard. What is a game's own (its board, its move input, its words) comes
// from its folder, static/games/NAME/game.js, listed by GET /games.json: a new game is a new folder.
// The seat token stays in this tab: in memory and sessionStorage (so a reload keeps the game), never in a
// URL, a cookie or localStorage, and it is sent only in the `spellbook-session-token` header.
import { call, RpcError, setApiKey, setService, stream } from "./rpc.js";
import { el } from "./dom.js";
import { renderHint } from "./hints.js";
import { ownSeats, parseRecord, showReview } from "./review.js";

const $ = (id) => document.getElementById(id);
const STORE_KEY = "spellbook.game";
const KEY_STORE = "spellbook.apiKey";
const GAME_STORE = "spellbook.chosenGame";
const game = {
  kind: "", sessionId: "", seat: 0, token: "", spectatorToken: "", spectator: false, players: 2, level: 3,
  names: [], view: null, seq: 0, lastEvent: 0, watching: null, busy: false, hint: null, hintLevel: 0,
  finished: false, resigned: -1, refreshing: null, dirty: false, submittedSeq: -1, practice: null, boardTimer: 0, idleTimer: 0,
};
const games = new Map();     // name -> { info (from /games.json), module (its game.js) }
let G = null;                // the chosen game's module
let hintIterations = 1500;

function status(text) { $("status").textContent = text; }
const READY = "Choose the game, the players and the bots' level, then start.";

function failure(e) {
  if (e && e.name === "AbortError") return;
  const where = e instanceof RpcError && e.fields.length ? ` (${e.fields.join(", ")})` : "";
  status(`Error: ${e.message}${where}`);
  console.info("call failed:", e.code || "", e.message);
}

// ------------------------------------------------------------------------------------ start and resume
async function init() {
  const key = sessionStorage.getItem(KEY_STORE) || "";
  setApiKey(key);
  $("api-key").value = key;
  $("api-key-form").addEventListener("submit", (e) => e.preventDefault());
  $("api-key").addEventListener("change", () => {
    setApiKey($("api-key").value.trim());
    sessionStorage.setItem(KEY_STORE, $("api-key").value.trim());
    chooseGame($("game-choice").value).then(() => status(READY)).catch(failure);
  });
  $("players").addEventListener("change", seatChoices);
  $("level").addEventListener("change", levelMeaning);
  $("game-choice").addEventListener("change", () => chooseGame($("game-choice").value).then(() => status(READY)).catch(failure));
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); startGame().catch(failure); });
  $("spectate").addEventListener("submit", (e) => { e.preventDefault(); spectate().catch(failure); });
  $("join").addEventListener("submit", (e) => { e.preventDefault(); join().catch(failure); });
  $("load-file").addEventListener("change", () => loadRecord().catch(failure));
  $("hint").addEventListener("click", () => hint().catch(failure));
  $("resign").addEventListener("click", () => resign().catch(failure));
  $("undo").addEventListener("click", () => undo().catch(failure));
  $("save").addEventListener("click", () => saveRecord().catch(failure));
  $("review-button").addEventListener("click", () => review().catch(failure));
  $("new").addEventListener("click", newGameScreen);
  $("review-back").addEventListener("click", () => { $("review").hidden = true; (game.sessionId || game.practice ? $("game") : $("setup")).hidden = false; });
  $("share-show").addEventListener("click", () => { $("share-token").textContent = game.spectatorToken; $("share-token").hidden = false; });
  $("share-copy").addEventListener("click", () => navigator.clipboard?.writeText(game.spectatorToken).then(() => status("Spectator token copied.")));
  $("help-button").addEventListener("click", toggleHelp);
  document.addEventListener("keydown", shortcut);
  document.addEventListener("visibilitychange", syncWatch);     // a tab out of view holds no stream
  await loadGames();
  const saved = sessionStorage.getItem(STORE_KEY);
  const state = saved ? JSON.parse(saved) : null;
  // a link to a game (/spellbook) opens that game: a stored session of another game does not take it over
  // (it stays stored, and its own link, or a reload there, resumes it)
  if (state && (!gameInPath() || gameInPath() === (state.kind || "spellbook"))) {
    await chooseGame(state.kind || "spellbook");
    Object.assign(game, state);
    showGame();
    await refresh();
    syncWatch();
    return;
  }
  await chooseGame(gameInPath() || sessionStorage.getItem(GAME_STORE) || $("game-choice").value);
  status(READY);
}

/** The rules panel, opened and closed by its button. While it is open the header says so (not a stale
 *  "Review ready."); closing it brings back what the header said before. */
let statusBeforeHelp = null;
function toggleHelp() {
  const open = $("help").hidden;
  $("help").hidden = !open;
  $("help-button").setAttribute("aria-expanded", String(open));
  if (open) {
    statusBeforeHelp = $("status").textContent;
    status(`Rules and help for ${$("game-name").textContent} are open below; the button closes them.`);
  } else if (statusBeforeHelp !== null) {
    if ($("status").textContent.startsWith("Rules and help")) status(statusBeforeHelp);   // unless news came meanwhile
    statusBeforeHelp = null;
  }
}

/** The game a link names (/abracadawhat), if this server offers it. */
const gameInPath = () => { const name = location.pathname.replace(/^\/+|\/+$/g, ""); return games.has(name) ? name : ""; };

/** The games this server offers (one folder each under static/games/), each loaded as its module. */
async function loadGames() {
  const list = await fetch("/games.json").then((r) => r.json());
  const loaded = await Promise.all(list.map((info) => import(info.module).then((m) => ({ info, module: m.default }))));
  for (const g of loaded) { g.module.init(g.info); games.set(g.info.name, g); }
  $("game-choice").replaceChildren(...loaded.map((g) => el("option", { value: g.info.name }, g.info.title)));
}

/** The chosen game: its service, its player counts, its bots' levels and its own setup options. */
async function chooseGame(name) {
  const chosen = games.get(name) || games.values().next().value;
  G = chosen.module;
  game.kind = G.name;
  delete document.body.dataset.ready;
  $("game-choice").value = G.name;
  sessionStorage.setItem(GAME_STORE, G.name);
  if (location.pathname !== `/${G.name}` && location.pathname !== "/") history.replaceState(null, "", `/${G.name}`);
  setService(G.service);
  document.body.dataset.game = G.name;
  $("game-name").textContent = chosen.info.title;
  document.title = `${chosen.info.title} — SpellBook AI`;
  const { minPlayers = 2, maxPlayers = 4 } = chosen.info;
  const players = Number($("players").value) || 2;
  $("players").replaceChildren(...Array.from({ length: maxPlayers - minPlayers + 1 }, (_, i) => minPlayers + i).map((n) =>
    el("option", { value: n, selected: n === Math.min(Math.max(players, minPlayers), maxPlayers) }, `${n} (you and ${n - 1} bot${n > 2 ? "s" : ""})`)));
  seatChoices();
  $("game-options").replaceChildren(...G.setupOptions());
  $("game-options").hidden = !$("game-options").children.length;
  $("practice-label").hidden = !G.Practice;
  if (!G.Practice) $("practice").checked = false;
  $("help").replaceChildren(...(G.helpPanel ? G.helpPanel() : []));
  $("help-button").hidden = !G.helpPanel;
  const levels = await G.levels();
  $("level").replaceChildren(...levels.map((l) => el("option", { value: l.level, selected: l.level === G.defaultLevel, title: l.meaning || "" },
    `${l.level}` + (l.name ? ` ${l.name}` : "") + (l.elo !== undefined && l.elo !== null ? ` (Elo ${Math.round(l.elo)})` : ""))));
  levelMeaning();
  document.body.dataset.ready = G.name;       // the form is the chosen game's (tests wait for it)
}

/** What the chosen level is, in words, under the chooser (a tooltip alone is out of reach on a phone). */
function levelMeaning() {
  const option = $("level").selectedOptions[0];
  $("level-meaning").textContent = option && option.title ? option.title : "";
}

function seatChoices() {
  const n = Number($("players").value) || 2;
  const names = ["first", "second", "third", "fourth", "fifth"];
  const seat = Number($("seat").value) || 0, others = Number($("others").value) || 0;    // kept where they still fit
  $("seat").replaceChildren(...names.slice(0, n).map((t, i) => el("option", { value: i, selected: i === seat }, t)));
  $("others").replaceChildren(...Array.from({ length: n }, (_, k) => el("option", { value: k, selected: k === others }, k ? String(k) : "none")));
}

function remember() {
  const { kind, sessionId, seat, token, spectatorToken, spectator, players, level, names, invites } = game;
  sessionStorage.setItem(STORE_KEY, JSON.stringify({ kind, sessionId, seat, token, spectatorToken, spectator, players, level, names, invites }));
}

async function startGame() {
  const players = Number($("players").value), level = Number($("level").value), seat = Number($("seat").value);
  hintIterations = Number($("hint-iterations").value) || 1500;
  // the seats after yours (in turn order) for the players in other browsers, the rest for the bots
  const others = new Set(Array.from({ length: Number($("others").value) || 0 }, (_, k) => (seat + 1 + k) % players));
  const seats = Array.from({ length: players }, (_, i) => (i === seat || others.has(i) ? { kind: "SEAT_KIND_CLIENT" } : { kind: "SEAT_KIND_BOT", level }));
  const names = seats.map((s, i) => (i === seat ? "You" : others.has(i) ? `Player ${i + 1}` : `Bot ${i + 1} (level ${level})`));
  if ($("practice").checked && G.Practice) return startPractice(players, seat, level, names);
  status("Creating the game…");
  const created = await call("CreateSession", G.createRequest({ players, seats }));
  Object.assign(game, {
    sessionId: created.sessionId, seat, token: created.seatTokens.find((t) => (t.seat || 0) === seat).token,
    spectatorToken: created.spectatorToken, spectator: false, players, level, seq: 0, lastEvent: 0,
    names, submittedSeq: -1, finished: false, resigned: -1, hint: null, hintLevel: 0, practice: null,
    invites: created.seatTokens.filter((t) => (t.seat || 0) !== seat).map((t) => ({ seat: t.seat || 0, token: t.token })),
  });
  remember();
  $("log").replaceChildren();
  showGame();
  await refresh();
  syncWatch();
}

async function startPractice(players, seat, level, names) {
  stopWatching();
  sessionStorage.removeItem(STORE_KEY);
  Object.assign(game, { sessionId: "", token: "", spectatorToken: "", spectator: false, seat, players, level, names,
    seq: 0, lastEvent: 0, submittedSeq: -1, finished: false, resigned: -1, hint: null, hintLevel: 0,
    practice: new G.Practice({ players, seat, level }) });
  $("log").replaceChildren();
  showGame();
  status("Dealing a practice game…");
  await game.practice.start(onPracticeEvent);
  await refresh();
}

function onPracticeEvent(ev) {
  logEvent(ev);
  if (ev.kind === "end") game.finished = true;
  game.view = G.session(game.practice.view());
  render();
}

async function undo() {
  if (!game.practice) return;
  while (game.busy) await new Promise((resolve) => setTimeout(resolve, 20));   // a move (or a forced one) in flight
  game.practice.undo();
  const kept = game.practice.events.length;
  for (const li of [...$("log").children]) if (Number(li.dataset.seq) > kept) li.remove();
  game.finished = false; game.resigned = -1; game.submittedSeq = -1; game.hint = null; $("hint-box").hidden = true;
  await refresh();
  status("Move taken back: your last choice again. The Pouch was shuffled, so the draws will differ.");
}

function showGame() {
  $("setup").hidden = true; $("review").hidden = true; $("game").hidden = false;
  $("hint-box").hidden = true;
  $("share-id").textContent = game.sessionId;
  $("share-token").hidden = true; $("share-token").textContent = "";
  // each other browser's seat: its token, shown on request (a seat token moves that seat: give it to its player only)
  $("invites").replaceChildren(...(game.spectator ? [] : game.invites || []).map((inv) => {
    const code = el("code", { class: "invite-token", hidden: true });
    return el("li", {}, `Seat ${inv.seat + 1} (${seatName(inv.seat)}): session id and seat ${inv.seat + 1}, seat token `, code, " ",
      el("button", { type: "button", class: "invite-show", onclick: () => { code.textContent = inv.token; code.hidden = false; } }, "Show"));
  }));
  $("hint").hidden = game.spectator; $("resign").hidden = game.spectator;
  $("moves").hidden = game.spectator;
  $("undo").hidden = !game.practice; $("share").hidden = game.spectator || !!game.practice;
}

function newGameScreen() {
  stopWatching();
  sessionStorage.removeItem(STORE_KEY);
  Object.assign(game, { sessionId: "", token: "", spectatorToken: "", view: null, practice: null });
  $("game").hidden = true; $("review").hidden = true; $("setup").hidden = false;
  status(READY);
}

// ------------------------------------------------------------------------------------ the session
function opts(extra = {}) { return { token: game.spectator ? game.spectatorToken : game.token, ...extra }; }

/** GetSession for our seat (the spectator's view for a spectator); coalesces calls made while one is in flight. */
async function refresh() {
  if (game.practice) { game.view = G.session(game.practice.view()); game.seq = game.view.seq; render(); return; }
  if (game.refreshing) { game.dirty = true; return game.refreshing; }
  game.refreshing = (async () => {
    do {
      game.dirty = false;
      const request = G.spectatorRequest && game.spectator ? G.spectatorRequest(game.sessionId) : { sessionId: game.sessionId, seat: game.seat };
      const view = G.session(await call("GetSession", request, opts()));
      game.view = view;
      game.seq = view.seq;
      render();
    } while (game.dirty);
  })().finally(() => { game.refreshing = null; });
  return game.refreshing;
}

function stopWatching() {
  clearTimeout(game.idleTimer);
  game.idleTimer = 0;
  if (game.watching) { game.watching.abort(); game.watching = null; }
}

/** Holds the WatchSession stream only while something can happen without us: a browser keeps at most six
 *  connections to one server across all its tabs, and each open stream takes one, so a stream per tab
 *  would leave the seventh tab unable even to load the page. Once it is our decision and the log has
 *  every event up to it, nothing else can move: the stream is closed after IDLE_STREAM_MS (so the quick
 *  clicks of a multi-step action keep it), and reopens from the next event when we move (or when the tab
 *  comes back into view). A spectator watches while the tab is visible. */
const IDLE_STREAM_MS = 2000;
function syncWatch() {
  const v = game.view;
  if (game.practice || !game.sessionId || !v) return;
  const ourDecision = !game.spectator && v.toMove === game.seat && game.seq > game.submittedSeq;
  const caughtUp = game.lastEvent >= game.seq;
  // nothing to follow at all (the game's end is logged, or no one is looking): close the stream at once;
  // a game just over keeps it for its last events (a resignation, the end)
  const closeNow = game.finished || document.hidden;
  const needed = !closeNow && !(ourDecision && caughtUp);
  clearTimeout(game.idleTimer);
  game.idleTimer = 0;
  if (needed && !game.watching) watch();
  else if (!needed && game.watching) {
    if (closeNow) stopWatching();
    else {
      const idle = game.watching;
      game.idleTimer = setTimeout(() => { game.idleTimer = 0; if (game.watching === idle) stopWatching(); }, IDLE_STREAM_MS);
    }
  }
}

/** WatchSession from the next event on: every move and chance event is logged as it happens, the board follows. */
function watch() {
  stopWatching();
  const controller = new AbortController();
  game.watching = controller;
  stream("WatchSession", { sessionId: game.sessionId, fromSeq: String(game.lastEvent + 1) }, onEvent, opts({ signal: controller.signal }))
    .catch((e) => { if (e.name !== "AbortError" && !game.finished) { failure(e); setTimeout(() => game.watching === controller && watch(), 1000); } });
}

async function onEvent(message) {
  const ev = message.event;
  game.lastEvent = Math.max(game.lastEvent, Number(ev.seq));
  logEvent(ev);
  if (ev.kind === "resign") game.resigned = ev.seat;
  if (ev.kind === "end") { game.finished = true; stopWatching(); }
  // Our decision (or the end) is drawn at once; the board follows the others' moves at most every 200 ms
  // (the log shows each one as it comes), so a bot's quick turn costs one GetSession, not one per event.
  if (ev.toMove === game.seat || ev.kind === "end") { clearTimeout(game.boardTimer); game.boardTimer = 0; await refresh(); }
  else if (!game.boardTimer) game.boardTimer = setTimeout(() => { game.boardTimer = 0; refresh().catch(failure); }, 200);
}

const seatName = (s) => game.names[s] || `seat ${s}`;
/** The `game` field of a request that names no session, for a game served by the game-neutral API (games.v1:
 *  the module's `apiGame`); a game's own API takes none. */
const gameField = () => (G && G.apiGame ? { game: G.apiGame } : {});

function logEvent(ev) {
  let item;
  if (ev.kind === "end") {
    item = el("li", { class: "end" }, `Game over. Scores: ${(ev.scores || []).map((s, i) => `${seatName(i)} ${s}`).join(", ")}.`);
  } else if (ev.kind === "resign") {         // the same in every game (SubmitMove "resign", D130)
    const you = ev.seat === game.seat && !game.spectator;
    item = el("li", { class: `end resign ${you ? "own" : "bot"}` }, `${you ? "You" : seatName(ev.seat)} resigned.`);
  } else {
    const told = G.eventItem(ev, seatName, game.spectator ? -1 : game.seat);
    if (!told) return;                    // an event the game's log tells with another (a die with its announcement)
    const { cls, nodes, merge, more } = told;
    const top = $("log").firstElementChild;
    // a run of like chance events (a deal's stones to one hand) is one line that grows
    if (merge && top && top.dataset.merge === merge) { top.append(...(more || nodes)); top.dataset.seq = ev.seq; return; }
    const who = ev.seat === undefined || ev.seat < 0 ? "" : ev.seat === game.seat && !game.spectator ? "own" : "bot";
    item = el("li", { class: [cls, who].filter(Boolean).join(" ") }, nodes);
    if (merge) item.dataset.merge = merge;
  }
  item.dataset.seq = ev.seq;
  item.classList.add("fresh");          // each move shows up in turn, highlighted for a moment
  const log = $("log");
  log.prepend(item);
  while (log.children.length > 200) log.lastChild.remove();
}

function render() {
  const v = game.view;
  if (!v) return;
  const me = game.spectator ? -1 : game.seat;
  G.renderBoard(v.view, $("table"), $("seats"), { me, names: game.names, toMove: v.toMove });
  const mine = !game.spectator && v.toMove === game.seat && !v.over;
  const result = winnersText(v);
  const quit = game.resigned < 0 ? "" : game.resigned === game.seat && !game.spectator ? "you resigned; " : `${seatName(game.resigned)} resigned; `;
  $("turn").textContent = v.over ? `Game over — ${quit}${result}${result.startsWith("You win") ? "!" : "."}`
    : mine ? "Your decision." : v.toMove === -1 ? G.chanceText
      : game.spectator && v.toMove === undefined ? "" : `${seatName(v.toMove)} is thinking…`;
  $("review-button").hidden = !v.over;
  $("resign").disabled = v.over;
  $("hint").disabled = !mine;
  $("undo").disabled = !game.practice || game.practice.history.length === 0 || game.busy;
  $("moves").hidden = game.spectator || v.over;
  if (v.over) status(`Game over — ${result}. Review it or save the record.`);
  else if (mine) status("Your move.");
  if ((mine && v.legalMoves.length > 1) || v.over) performance.mark("spellbook:turn");
  renderMoves(mine ? v.legalMoves : [], v.view);
  // keyboard players keep their place: when the old buttons went away, focus lands on the first move
  if (mine && v.legalMoves.length > 1 && (!document.activeElement || document.activeElement === document.body)) {
    $("move-list").querySelector("button:not([disabled])")?.focus({ preventScroll: true });
  }
  if (mine && v.legalMoves.length === 1 && !game.busy) submit(v.legalMoves[0].text, true);   // forced: plays itself
  syncWatch();
}

function winnersText(v) {
  const w = v.winners || [];
  if (!w.length) return "the result is being counted";
  if (w.length > 1) return `${w.map(seatName).join(" and ")} share the win`;
  return w[0] === game.seat && !game.spectator ? "You win" : `${seatName(w[0])} wins`;
}

// ------------------------------------------------------------------------------------ moves
function renderMoves(moves, view) {
  const list = $("move-list");
  if (!moves.length) { $("decision").textContent = ""; list.replaceChildren(); G.resetMoves(); return; }
  $("decision").textContent = G.decisionText(view, moves);
  const button = (m, label) => el("button", { type: "button", class: "move", "data-move": m.text, onclick: () => submit(m.text) }, label || G.moveLabel(m.text, m.words));
  const rerender = () => { renderMoves(moves, view); $("move-list").querySelector("button:not([disabled])")?.focus(); };
  const buttons = G.moveButtons(moves, view, { button, rerender });
  // keys 1-9 press the enabled moves in order, unless the game names its own keys (a spell's number)
  let key = 0;
  const own = buttons.some((b) => b.hasAttribute("aria-keyshortcuts"));
  list.replaceChildren(...buttons.map((b) => { if (!own && !b.disabled && key < 9) b.setAttribute("aria-keyshortcuts", String(++key)); return b; }));
}

async function submit(text, forced = false) {
  if (game.busy || !game.view || game.seq <= game.submittedSeq) return;   // one move per decision
  game.busy = true;
  game.submittedSeq = game.seq;
  if (!forced) performance.mark("spellbook:move");     // User Timing for bench/web.py: click -> our turn again
  G.resetMoves();
  for (const b of $("move-list").querySelectorAll("button")) b.disabled = true;
  game.hint = null; game.hintLevel = 0; $("hint-box").hidden = true;
  try {
    if (game.practice) await game.practice.submit(text, onPracticeEvent);
    else {
      await call("SubmitMove", { sessionId: game.sessionId, seat: game.seat, move: { text }, expectedSeq: String(game.seq) }, opts());
      syncWatch();                      // our move and the others' replies arrive on the stream
    }
    if (forced) status(`Forced move played: ${text}.`);
  } catch (e) {
    game.submittedSeq = -1;
    failure(e);
    await refresh();
  } finally {
    game.busy = false;
    if (game.practice) await refresh();
  }
}

// ------------------------------------------------------------------------------------ hints, resign
async function hint() {
  const v = game.view;
  if (!v || v.toMove !== game.seat || v.over || game.spectator) return;
  if (!game.hint || game.hint.seq !== game.seq) {
    status("Thinking about a hint…");
    $("hint").disabled = true;
    try {
      const state = game.practice ? game.practice.hintState() : { observation: v.text };
      const answer = await call("GetHints", { ...gameField(), state, topK: 3, limits: { iterations: String(hintIterations) }, seed: String(game.seq) }, { timeoutMs: 30000 });
      game.hint = { seq: game.seq, answer };
      game.hintLevel = 0;
    } finally { $("hint").disabled = false; }
  }
  game.hintLevel = Math.min(game.hintLevel + 1, 3);
  renderHint($("hint-box"), game.hintLevel, v.view, game.hint.answer, G, (text) => submit(text), seatName);
  status(`Hint ${game.hintLevel} of 3.`);
}

/** Resigns (after a second click to confirm): SubmitMove "resign" ends the game on the server (D130); the
 *  stream brings the resignation and the end to the log, and the review and the record take the game as
 *  it stood. In practice the page's own game ends the same way. */
async function resign() {
  if (!confirmResign() || !game.view || game.view.over || game.spectator) return;
  disarm($("resign"));
  $("resign").disabled = true;
  try {
    if (game.practice) {
      while (game.busy) await new Promise((resolve) => setTimeout(resolve, 20));
      await game.practice.resign(onPracticeEvent);
    } else {
      await call("SubmitMove", { sessionId: game.sessionId, seat: game.seat, move: { text: "resign" } }, opts());
    }
    game.resigned = game.seat;
    await refresh();
  } catch (e) {
    $("resign").disabled = false;
    throw e;
  }
}

function confirmResign() { return $("resign").dataset.armed === "1" || (arm($("resign")), false); }
function arm(button) {
  button.dataset.armed = "1"; button.textContent = "Resign? Click again";
  clearTimeout(button.armTimer);
  button.armTimer = setTimeout(() => disarm(button), 4000);
}
function disarm(button) { clearTimeout(button.armTimer); button.dataset.armed = ""; button.textContent = "Resign"; }

// ------------------------------------------------------------------------------------ records, review, watching
async function exportRecord() {
  if (game.practice) return parseRecord(game.practice.record());
  const out = await call("ExportSession", { sessionId: game.sessionId }, opts());
  return parseRecord(out.recordJson);
}

async function saveRecord() {
  const record = await exportRecord();
  const blob = new Blob([record.text + "\n"], { type: "application/json" });
  const file = `${G.name}-${game.practice ? "practice" : game.sessionId.slice(0, 8)}.json`;
  const a = el("a", { href: URL.createObjectURL(blob), download: file });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  status(`Record saved as ${file}: load it here again to review the game.`);
}

/** The review of `record` (this tab's game when none is given) for one seat: this tab's seat for its own
 *  game; for a loaded record (or a watched game) the record's own seat, the one client or human seat, and
 *  when it has several (or none) the page asks which. */
async function review(record) {
  const own = !record && !game.spectator && !!(game.sessionId || game.practice), loaded = !!record;
  record = record || await exportRecord();
  $("game").hidden = true; $("setup").hidden = true;
  const people = ownSeats(record);
  const seat = own ? game.seat : people.length === 1 ? people[0] : null;
  const names = Array.from({ length: record.players || (record.seats || []).length }, (_, i) => {
    const s = (record.seats || [])[i] || {};
    // "You": this tab's own seat; in a loaded record, its one person's seat (the reader played it)
    const yours = own ? i === game.seat : loaded && people.length === 1 && i === people[0];
    return yours ? "You" : s.kind === "bot" ? `Bot ${i + 1}${s.level ? ` (level ${s.level})` : s.spec ? ` (${s.spec})` : ""}` : `Player ${i + 1}`;
  });
  $("review-title").focus?.();
  // a loaded record's people's seats: the reader played one of them (a watched game's spectator none)
  const readers = loaded ? people : [];
  await showReview(record, seat, G, { iterations: Number($("review-iterations").value) || 1500, names, readers, onStatus: status });
}

async function loadRecord() {
  const file = $("load-file").files[0];
  if (!file) return;
  let record;
  try { record = parseRecord(await file.text()); } catch { status(`${file.name} is not JSON.`); return; }
  if (record.format !== "spellbook-record" && !record.events && !record.moves) { status(`${file.name} is not a game record.`); return; }
  const owner = [...games.values()].find((g) => g.module.recordMatches(record));
  if (!owner) { status(`${file.name} is a record of a game this page does not offer.`); return; }
  if (record.status && record.status !== "finished") { status(`${file.name}: the game is not finished, and a review needs a finished game.`); return; }
  await chooseGame(owner.info.name);
  status(`Loaded ${file.name}; reviewing it…`);
  $("load-file").value = "";
  Object.assign(game, { sessionId: "", practice: null, spectator: false, seat: -1 });
  await review(record);
}

/** Takes a seat another browser invited us to: the session id, the seat and its token. */
async function join() {
  const sessionId = $("join-id").value.trim(), token = $("join-token").value.trim(), seat = Number($("join-seat").value) - 1;
  if (!sessionId || !token || !(seat >= 0)) { status("Give the session id, your seat and its token."); return; }
  Object.assign(game, { sessionId, token, spectatorToken: "", spectator: false, seat, seq: 0, lastEvent: 0, submittedSeq: -1,
    finished: false, resigned: -1, practice: null, invites: [], hint: null, hintLevel: 0 });
  $("join-token").value = "";
  await follow({ sessionId, seat }, seat);
}

/** Follows a session we did not create (a seat we joined, or as its spectator): its seats' names, the board. */
async function follow(request, mine) {
  const view = G.session(await call("GetSession", request, opts()));
  game.players = view.players;
  game.names = view.seats.map((s, i) => (i === mine ? "You" : s.kind === "SEAT_KIND_BOT" ? `Bot ${i + 1} (level ${s.level})` : `Player ${i + 1}`));
  remember();
  $("log").replaceChildren();
  showGame();
  await refresh();
  syncWatch();
}

async function spectate() {
  const sessionId = $("spectate-id").value.trim(), token = $("spectate-token").value.trim();
  if (!sessionId || !token) { status("Give the session id and the spectator token."); return; }
  Object.assign(game, { sessionId, token: "", spectatorToken: token, spectator: true, seat: 0, seq: 0, lastEvent: 0, submittedSeq: -1, finished: false, resigned: -1, practice: null, invites: [] });
  $("spectate-token").value = "";
  await follow(G.spectatorRequest ? G.spectatorRequest(sessionId) : { sessionId, seat: 0 }, -1);
  status("Watching (read-only).");
}

function shortcut(e) {
  if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "h" && !$("game").hidden) { e.preventDefault(); hint().catch(failure); }
  else if (e.key === "u" && !$("game").hidden && game.practice) { e.preventDefault(); undo().catch(failure); }
  else if (/^[0-9a-z]$/.test(e.key) && !$("game").hidden) {
    const b = $("move-list").querySelector(`button[aria-keyshortcuts="${e.key}"]`);
    if (b && !b.disabled) { e.preventDefault(); b.click(); }
  }
}

init().catch(failure);
