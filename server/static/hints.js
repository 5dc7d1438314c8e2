// The hint ladder, the same for every game (as the terminal's hinters, clients/play.py): one GetHints call
// per position, revealed in three steps: 1 where to look, 2 why (or what each choice risks), 3 the move with
// the search's top moves. What each step says is the game's (`game.hintFocus`, `game.hintWhy`,
// `game.hintDetail`, `game.hintColumns`); the ladder, the table and "Play it" are the shell's.
import { className, el, pct } from "./dom.js";

/** The hint box's content at `level` (1-3) for the GetHints answer `answer` at the observed `view`;
 *  `name(seat)`: the page's name of a seat, for the game's words about the others. */
export function renderHint(box, level, view, answer, game, onPlay, name = (s) => `seat ${s}`) {
  const hints = answer.hints || [];
  const best = hints[0];
  const parts = [];
  if (!best) {
    parts.push(el("p", { text: "The search found no move to suggest here." }));
  } else if (level === 1) {
    parts.push(el("p", {}, el("strong", { text: "Hint 1: " }), game.hintFocus(view, best.move, answer)),
      ...(game.hintFocusMore ? game.hintFocusMore(view, answer) : []));
  } else if (level === 2) {
    const [title, ...rest] = game.hintWhy(view, best, answer, name);
    parts.push(el("p", {}, el("strong", { text: "Hint 2: " }), title), ...rest);
  } else {
    parts.push(el("p", {}, el("strong", { text: "Hint 3: " }), el("span", { class: "mv" }, game.moveLabel(best.move.text, best.move.words)),
      best.aboutEqual ? " (about equal to other moves: the search can't tell these apart)" : "", " ",
      el("button", { type: "button", class: "play-hint", onclick: () => onPlay(best.move.text) }, "Play it")),
    ...game.hintDetail(view, best, answer));
    if (best.variants && best.variants.length) {      // the same decision in other forms (the game's family)
      parts.push(el("p", { class: "variants" }, "The same choice in other forms: ",
        ...best.variants.flatMap((v, i) => [i ? ", " : "", el("span", { class: "mv" }, game.moveLabel(v.text, v.words))])));
    }
    const extra = game.hintColumns || [];
    const iterations = answer.stats ? answer.stats.iterations : "?";
    // the verdict is the server's words (search/hints.py `verdict`, the terminal's too): moves the search
    // cannot tell apart from its choice share the first place ("1="), never "best" above a higher figure
    const rows = hints.map((h) => el("tr", {},
      el("td", { text: h.aboutEqual ? "1=" : String(h.rank) }), el("td", { class: "mv" }, game.moveLabel(h.move.text, h.move.words)),
      ...extra.map((c) => el("td", { text: c.cell(h, view, answer) })),
      el("td", { text: pct(h.winProbability) }), el("td", { text: (h.expectedScore || 0).toFixed(1) }),
      el("td", { text: h.verdict || (h.rank === 1 ? "the search's choice" : className(h.mistakeClass)) })));
    parts.push(el("table", { class: "top" },
      el("caption", { text: `The search's choice, the moves it cannot tell apart from it, then the others by win probability (${iterations} iterations${answer.confidence ? `; ${answer.confidence.text}` : ""})` }),
      el("thead", {}, el("tr", {}, ["#", "Move", ...extra.map((c) => c.title), "Win", "Est. score", "Verdict"].map((t) => el("th", { scope: "col", text: t })))),
      el("tbody", {}, rows)));
    const notes = hints.filter((h) => h.note).map((h) => el("li", { text: `#${h.rank}: ${h.note}` }));
    if (notes.length) parts.push(el("ul", { class: "notes" }, notes));   // why figures may look out of order
  }
  if (best && best.aboutEqual && level < 3) parts.push(el("p", { text: "Several moves are about equal here: the search cannot tell them apart." }));
  if (level < 3) parts.push(el("p", { class: "more", text: "Ask again for more (h)." }));
  box.replaceChildren(...parts);
  box.hidden = false;
}
