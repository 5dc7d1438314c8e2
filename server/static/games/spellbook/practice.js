// A practice game: the page holds the game and the server only answers stateless calls (ApplyMove with its
// draws, GetBestMove for the bots on what they observe, ListLegalMoves), so any move can be taken back.
// Undo, as in the terminal (clients/play_spellbook.py), reshuffles the Pouch: the next move is applied to the
// observation (no Pouch order) with a fresh determinize_seed, so a replayed move never draws the tokens
// just seen. The page holds the full state (the Pouch order too): it is practice, not a contest.
import { call } from "../../rpc.js";

const random64 = () => crypto.getRandomValues(new BigUint64Array(1))[0].toString();
const observation = (view, seat) => ({ view: { ...view, rng: "", observer: seat } });
const expand = (counts) => (counts || []).flatMap((tc) => Array(tc.count).fill(tc.token));

export class PracticeGame {
  constructor({ players, seat, level }) {
    Object.assign(this, { players, seat, level, seed: random64(), state: null, legal: [], events: [], history: [],
      reshuffle: false, winners: null, resigned: null });
  }

  /** Deals (NewGame) and lets the bots move until the player decides. */
  async start(onEvent) {
    this.state = (await call("NewGame", { players: this.players, seed: this.seed })).state;
    const v = this.state.view;      // the setup draws (S1, S3): five to the Altar, then two per pool in seat order
    this.events = [...expand(v.altar), ...v.seats.flatMap((s) => expand(s.pool))].map((t) => ({ kind: "setup", seat: -1, move: `drawn ${t}` }));
    await this.advance(onEvent);
  }

  get over() { return this.state.view.over || this.resigned !== null; }

  /** The game as GetSession would show it to the player (the page renders both alike). */
  view() {
    const v = this.state.view, over = this.over;
    const scores = v.seats.map((s) => (s.score ? s.score.total : 0));
    return { seq: this.events.length, seat: this.seat, observation: { view: v }, toMove: over ? -2 : v.currentPlayer,
      phase: v.phase, decision: v.decision, legalMoves: v.currentPlayer === this.seat && !over ? this.legal : [],
      scores, over, winners: over ? this.winners || [] : [], players: this.players };
  }

  /** The state as a request gives it: the full text while it has its Pouch order; after an undo (or when
   *  `reshuffle`), the observation with a fresh seed, so the server samples a new order for the draws. */
  input(seat, reshuffle = false) {
    if (this.state.view.rng && !reshuffle) return { text: this.state.text };
    return { ...observation(this.state.view, seat), determinizeSeed: random64() };
  }

  hintState() { return observation(this.state.view, this.seat); }

  /** `move`: a Move as the server gives it (its text and its words, from ListLegalMoves or GetBestMove). */
  async apply(move, seat, onEvent) {
    const out = await call("ApplyMove", { state: this.input(seat, this.reshuffle), move: { text: move.text }, resolveChance: true });
    this.reshuffle = false;
    this.state = out.state;
    this.push({ kind: "move", seat, move: move.text }, onEvent, move.words);
    for (const d of out.draws || []) this.push({ kind: "draw", seat: -1, move: d.text }, onEvent, d.words);
  }

  /** An event of the record (its move as text: docs/records.md), told to the page with the move's words. */
  push(event, onEvent, words = "") {
    this.events.push(event);
    const scores = this.state.view.seats.map((s) => (s.score ? s.score.total : 0));
    onEvent({ seq: this.events.length, kind: event.kind, seat: event.seat, move: { text: event.move, words }, scores });
  }

  /** Bots move (each searching what it observes) until the player decides or the game ends. */
  async advance(onEvent) {
    for (;;) {
      const listed = await call("ListLegalMoves", { state: this.input(this.seat) });
      this.legal = listed.moves || [];
      const cp = listed.currentPlayer;
      if (cp === -2) {
        this.winners = await this.result();
        onEvent({ seq: this.events.length, kind: "end", seat: -1, scores: this.view().scores, winners: this.winners });
        return;
      }
      if (cp === this.seat) return;
      const best = await call("GetBestMove", { state: observation(this.state.view, cp), level: this.level, seed: random64() });
      await this.apply(best.move, cp, onEvent);
    }
  }

  /** The winners as the rules decide them (E4's tie-breaks included): the server replays the finished
   *  record (AnalyzeGame with a one-iteration search a decision, so it costs next to nothing). */
  async result() {
    this.winners = null;
    const review = await call("AnalyzeGame", { recordJson: this.record(), limits: { iterations: "1" }, keyMoments: 1 });
    return review.result.winners;
  }

  /** The player resigns (D130): the game ends as it stands, the other seats with the most points win. */
  async resign(onEvent) {
    if (this.over) return;
    const scores = this.view().scores;
    const best = Math.max(...scores.filter((_, i) => i !== this.seat));
    this.resigned = this.seat;
    this.winners = scores.map((s, i) => (i !== this.seat && s === best ? i : -1)).filter((i) => i >= 0);
    this.push({ kind: "resign", seat: this.seat, move: "resign" }, onEvent);
    onEvent({ seq: this.events.length, kind: "end", seat: -1, scores, winners: this.winners });
  }

  async submit(text, onEvent) {
    this.history.push({ state: this.state, legal: this.legal, events: this.events.length });
    await this.apply(this.legal.find((m) => m.text === text) || { text }, this.seat, onEvent);
    await this.advance(onEvent);
  }

  /** Back to the player's last real choice (forced moves are skipped); the Pouch is reshuffled. */
  undo() {
    let last = this.history.pop();
    while (last && last.legal.length === 1 && this.history.length) last = this.history.pop();
    if (!last) throw new Error("nothing to undo yet");
    Object.assign(this, { state: last.state, legal: last.legal, reshuffle: true, winners: null, resigned: null });
    this.events.length = last.events;
  }

  /** The game record (docs/records.md, version 2): every draw is an event, so it replays exactly. */
  record() {
    const v = this.view();
    const rec = { format: "spellbook-record", version: 2, players: this.players, spells: this.state.view.spells,
      seats: Array.from({ length: this.players }, (_, i) => (i === this.seat ? { kind: "human" } : { kind: "bot", spec: `ismcts:level=${this.level}`, level: this.level })),
      status: v.over ? "finished" : "active", practice: true, events: this.events,
      result: v.over ? { scores: v.scores, winners: v.winners, ...(this.resigned === null ? {} : { resigned: this.resigned }) } : null };
    return JSON.stringify({ ...rec, seed: 0 }, null, 1).replace('"seed": 0', `"seed": ${this.seed}`);
  }
}
