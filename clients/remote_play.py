"""`spellbook-ai play --server HOST:PORT`: the same terminal game, hosted by a server session.

The server runs the Pouch and the bot seats (CreateSession); this side shows the seat's observation
(never the Pouch order), submits the player's moves (SubmitMove with expected_seq, so a retried call is
never applied twice) and reports the other seats' moves and the draws as they happen. The client keeps
the seat's secret token from CreateSession and sends it with every call. Without `--seed` the server
draws a secret seed; a game saved before its end then cannot be continued locally (the seed, which
fixes the Pouch, stays on the server until the game is over).
"""
from __future__ import annotations

import random
import time
from typing import Callable

from engine_c.spellbook import Move, State
from engine_c.spellbook.text import move_words

HUMAN = "human"


def server_level(spec: str) -> int:
    """The level of a bot spec for a server seat: `ismcts:level=N`, `level=N` or `N` (1-10)."""
    text = spec.strip().lower()
    for prefix in ("ismcts:level=", "level="):
        if text.startswith(prefix):
            text = text[len(prefix):]
    if not text.isdigit() or not 1 <= int(text) <= 10:
        raise ValueError(f"server bots are given by strength level (ismcts:level=N, N = 1..10), got {spec!r}")
    return int(text)


def session_seats(bots: list[str], seat: int, max_bots: int) -> list[str]:
    """The seats of a new session: the server's bots by level (`bot:N`) with this client at `seat`."""
    if not 1 <= len(bots) <= max_bots:
        raise ValueError(f"play against 1 to {max_bots} bots, got {len(bots)}")
    if not 0 <= seat <= len(bots):
        raise ValueError(f"--seat must be 0 to {len(bots)}, got {seat}")
    seats = [f"bot:{server_level(b)}" for b in bots]
    seats.insert(seat, "client")
    return seats


class RemoteGameSession:
    """A server session seen from one client seat, with the interface clients/play.py drives."""

    practice = False
    auto_forced = True

    def __init__(self, client, session_id: str, seat: int, seed: int | None, poll_s: float = 0.05):
        # `seed` (None when secret) only seeds this side's sampled Pouch order for display and local hints
        self.seed = seed if seed is not None else random.randrange(2**31)
        self.fixed_seed = seed
        self.client, self.session_id, self.seat, self.poll_s = client, session_id, seat, poll_s
        self.moves: list[list] = []
        self._seen = 0
        self._mine: set[int] = set()
        self._refresh()
        self.players = self.view.players
        self.spells = self.state.spells
        self.seats = [HUMAN if i == seat else f"server level {s.level}" if s.kind == "bot" else "client"
                      for i, s in enumerate(self.view.seats)]

    @classmethod
    def create(cls, client, bots: list[str], seat: int, seed: int | None, spells: str) -> "RemoteGameSession":
        """A new server session with this seat as its client; `seed` None lets the server draw a secret one."""
        seats = session_seats(bots, seat, 3)
        sid = client.create_session(seats, players=len(seats), spells=spells, seed=seed)
        return cls(client, sid, seat, seed)

    # ------------------------------------------------------------------ the interface play.py uses
    @property
    def over(self) -> bool:
        return self.view.over

    def human_to_move(self) -> bool:
        return not self.view.over and self.view.to_move == self.seat

    def advance(self, on_event: Callable | None = None) -> None:
        """Waits for the server (bots, draws) until this seat decides or the game ends."""
        from clients.play import Event

        while True:
            self._refresh()
            self._report(on_event)
            if self.view.over:
                return
            if self.view.to_move == self.seat:
                legal = self.view.legal_moves
                if len(legal) > 1 or not self.auto_forced:
                    return
                self._submit(legal[0])                      # a forced move plays itself
                if on_event:
                    on_event(Event(self.seat, f"{move_words(str(legal[0]))} (forced)"))
                continue
            time.sleep(self.poll_s)

    def play_human(self, move: Move) -> None:
        self._submit(move)

    def undo(self) -> None:
        raise ValueError("undo is for local practice games; a server game's moves are final")

    def resign(self, seat: int) -> None:
        """This seat resigns the server game (SubmitMove "resign", D130): it ends there."""
        self.client.submit_move(self.session_id, self.seat, "resign", expected_seq=self.view.seq)
        self._refresh()

    def to_record(self) -> dict:
        """The server's record (engine_c.records), this seat marked human and the bots by their level (so
        `load` continues it against local bots). No seed until the game is over."""
        from engine_c import records

        rec = self.client.export_session(self.session_id)
        if rec.get("seed") is None and self.fixed_seed is not None:
            rec["seed"] = self.fixed_seed            # the player's own choice (--seed)
        rec["seats"] = [records.seat("human") if i == self.seat or s["kind"] != "bot"
                        else records.seat("bot", f"ismcts:level={s['level']}", s["level"])
                        for i, s in enumerate(rec["seats"])]
        return records.load(rec)

    def save(self, path: str) -> None:
        import json

        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_record(), f, indent=1)
            f.write("\n")

    # ------------------------------------------------------------------ internals
    def _refresh(self) -> None:
        self.view = self.client.get_session(self.session_id, self.seat)
        # what this seat sees, as a State for display and local hints (a sampled Pouch order)
        self.state = State.from_observation(self.view.observation.text, seed=self.seed)

    def _submit(self, move: Move) -> None:
        done = self.client.submit_move(self.session_id, self.seat, move, expected_seq=self.view.seq)
        for ev in done.events:
            if ev.kind == "move":
                self._mine.add(ev.seq)
        self.moves.append([self.seat, str(move)])
        self._refresh()

    def _report(self, on_event: Callable | None) -> None:
        """Other seats' moves and the draws since the last report, in order."""
        from clients.play import Event

        if self.view.seq <= self._seen:
            return
        draws: list[str] = []                # consecutive draws are reported as one line

        def flush() -> None:
            if on_event and draws:
                on_event(Event(-1, "draws: " + " ".join(draws)))
            draws.clear()

        for e in self.client.export_session(self.session_id)["events"]:
            if e["seq"] <= self._seen:
                continue
            self._seen = e["seq"]
            if e["seq"] in self._mine:
                continue
            seat = e["seat"] if e["kind"] == "move" else -1
            if e["kind"] == "draw":
                self.moves.append([-1, e["move"]])
                draws.append(e["move"].split()[-1])
                continue
            flush()
            if seat != self.seat:
                self.moves.append([seat, e["move"]])
            if on_event and seat != self.seat:
                on_event(Event(seat, move_words(e["move"])))
        flush()


class RemoteAbracadaSession:
    """An Abracada…What? server session seen from one client seat, with the interface
    clients/play_abracadawhat.py's terminal drives: the server deals, rolls and plays the bot seats; this side
    holds the seat's token and its view (every hand but its own, XI2). `state` is a full state sampled from
    that view for display and hints (the search determinizes for the seat anyway: a hint never uses the
    hand the seat cannot see)."""

    practice = False

    def __init__(self, client, created, seat: int, seed: int | None, poll_s: float = 0.05):
        self.seed = seed if seed is not None else random.randrange(2**31)
        self.seed_fixed, self.seed_is_deal = seed is not None, seed is not None
        self.client, self.session_id, self.seat, self.poll_s = client, str(created), seat, poll_s
        self.token = created.seat_tokens[seat]
        self.events: list[dict] = []
        self._seen = 0
        self.resigned: int | None = None
        self._refresh()
        self.players = self.view.state.view.players
        self.seats = [HUMAN if i == seat else f"server level {s.level}" if s.kind == 2 else "client"
                      for i, s in enumerate(self.view.seats)]
        self.variants = self.state.variants

    @classmethod
    def create(cls, client, bots: list[str], seat: int, seed: int | None, variants: str = "") -> "RemoteAbracadaSession":
        """A new server session with this seat as its client (2-5 players); `seed` None: a secret deal."""
        seats = session_seats(bots, seat, 4)
        names = [v for v in variants.replace(" ", ",").split(",") if v]
        return cls(client, client.create_session(seats, variants=names, seed=seed), seat, seed)

    # ------------------------------------------------------------------ the interface the terminal uses
    @property
    def names(self) -> list[str]:
        from clients.play import seat_label

        return [seat_label(self, p) for p in range(self.players)]

    @property
    def human(self) -> int:
        return self.seat

    @property
    def over(self) -> bool:
        return self.view.over

    @property
    def moves(self) -> list[dict]:
        return self.events

    def advance(self, on_event: Callable | None = None) -> None:
        """Waits for the server (the bots, the dealing and the dice) until this seat decides or the game
        ends, reporting the other seats' announcements as they happen."""
        while True:
            self._refresh()
            self._report(on_event)
            if self.view.over or self.view.state.view.to_move == self.seat:
                return
            time.sleep(self.poll_s)

    def play_human(self, move) -> list[str]:
        """Submits the seat's move; returns what the table saw (the outcome and its die, life, the round's
        end): the server's lines for the move, as the local terminal says them (the state seen after it may
        already hold the bots' next moves)."""
        done = self._submit(str(move))
        return [line for ev in done.events if ev.kind == "move" for line in self._lines(ev)]

    def resign(self, seat: int) -> None:
        """This seat resigns the server game (SubmitMove "resign", D130): it ends there."""
        self._submit("resign")
        self.resigned = seat

    def undo(self) -> None:
        raise ValueError("Abracada…What? has no undo: every announcement is final")

    def to_record(self) -> dict:
        """The server's record as this seat may see it (its own stones hidden until the end), this seat marked
        human and the bots by their level."""
        from engine_c import records

        rec = self.client.export_session(self.session_id, self.token)
        rec["seats"] = [records.seat("human") if i == self.seat or s["kind"] != "bot"
                        else records.seat("bot", f"ismcts:level={s['level']}", s["level"])
                        for i, s in enumerate(rec["seats"])]
        return rec

    def save(self, path: str) -> None:
        from clients.play import write_record

        write_record(path, self.to_record())

    # ------------------------------------------------------------------ internals
    def _refresh(self) -> None:
        from engine_c.abracadawhat import State as AwState

        self.view = self.client.get_session(self.session_id, self.token)
        text = self.view.state.text          # the seat's observation; the whole state once the game is over
        self.state = AwState.from_observation(text, seed=self.seed) if " observer=" in text else AwState.from_text(text)

    def _submit(self, move: str):
        done = self.client.submit_move(self.session_id, self.seat, move, self.token, expected_seq=self.view.seq)
        self._note(done.events)
        self._seen = max([self._seen, self.view.seq + 1] + [ev.seq for ev in done.events])   # said by the terminal
        self._refresh()
        return done

    def _lines(self, ev) -> list[str]:
        """A move event's lines (the server's, for "you" and "seat N") in this terminal's names."""
        from engine_c.abracadawhat import text as T

        return [T.renamed(line, self.names, self.seat) for line in ev.lines]

    def _note(self, events) -> None:
        """Keeps the events as records' events (what `save` counts)."""
        for ev in events:
            text = ev.move.text if ev.HasField("move") else ("stone ?" if ev.hidden else ev.kind)
            self.events.append({"kind": ev.kind, "seat": ev.seat, "move": text, "seq": ev.seq})

    def _report(self, on_event: Callable | None) -> None:
        """The other seats' decisions since the last report, in order, each with what the table saw (its
        outcome and die, life, knock-outs, the round's end: the server's lines, as the local terminal
        prints them). A stone drawn is never reported."""
        from clients.play import Event

        if self.view.seq <= self._seen:
            return
        for ev in self.client.session_events(self.session_id, self.token, self._seen + 1, self.view.seq):
            if ev.seq <= self._seen:
                continue
            self._seen = ev.seq
            self._note([ev])
            if ev.kind in ("move", "resign") and ev.seat != self.seat and on_event:
                on_event(Event(ev.seat, ev.move.text or ev.kind))
                for line in self._lines(ev):
                    on_event(Event(-1, line))
