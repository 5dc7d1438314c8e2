"""Abracada…What? as an OpenSpiel game (open_spiel: the `openspiel` extra, also in `dev`).

Importing this module registers the Python game `python_abracadawhat` with pyspiel:

    import pyspiel, clients.openspiel_abracadawhat
    game = pyspiel.load_game("python_abracadawhat", {"players": 3, "variants": "xv1+xv2"})

- Sequential, explicit stochastic, IMPERFECT information (ABRACADAWHAT.md §5: a seat sees every hand but
  its own). Every random event is a chance node with the engine's exact outcome probabilities (they sum
  to 1): each stone of the deal (XC5: the removed stones, 5 to each seat from seat 0 up, the 4 secret
  stones), each refill stone (XT4), each secret stone taken with Night Singer (XT1 spell 4) and each die
  roll (XC4). So the pile order is never part of the state (XC5).
- Actions: a player's action is the spell announced minus 1 (0..7 = `cast 1`..`cast 8`), 8 = `end`;
  a chance action is 0..7 for `stone 1`..`stone 8` and 8..13 for `roll 1`..`roll 6`.
- Returns are win shares, as the engine scores a game for tournaments (engine_c.base.final_values): 1 to
  the winner (XG1), 1/k to each of k tied winners, 0 otherwise; constant sum 1. The points (XR2-XR5) are
  the engine state's `state.st.scores()`.
- information_state_string(p) is p's own record of the game (perfect recall): every event as p saw it,
  a stone that p may not see (its own hand's deal and refills XI2, another seat's secret stone XI3, the
  secret stones and the pile XI3) written `?`, each announcement with its success or failure (XI1).
  A state made from an engine state (`game.state_from`, for the bots) starts the record with each seat's
  observation text at that moment. observation_string(p) is the engine's observation text
  (State.observation: p's own hand, the pile and the secret stones as sizes only); observation_tensor(p)
  the engine's features of what p sees (State.features, 245 floats, seats relative to p).
- resample_from_infostate(p, sampler): a full state, with a history, that p cannot tell from this one:
  the engine's exact determinization for p (XC6) of the present, then a history of the current round
  that leads there (the order in which p received its stones, found so that every announcement of p
  succeeds or fails as it did; the secret stones and the other seats' taken ones in a random order);
  earlier rounds are kept, as they decide nothing later. For a state wrapped mid-round with moves since,
  the wrapped state's hidden zones are redrawn too, p's part of the round before it read from the
  round's log (XC12); not supported when it was wrapped during a deal or a refill (SpielError).
  OpenSpiel's ISMCTSBot searches this game through it.
- Parameters: players (2-5), variants (`none`, `xv1`, `xv2`, `xv1+xv2`).

`openspiel-mcts:simulations=N[,uct_c=2,rollouts=1]` (clients.bots) plays this game with OpenSpiel's
ISMCTSBot and random rollouts (clients/openspiel_common.py).
"""
from __future__ import annotations

import random
from collections import Counter

import pyspiel

from clients.openspiel_common import EngineGame, EngineObserver, EngineState
from engine_c.abracadawhat import _engine as _E
from engine_c.abracadawhat.state import (END_CODE, ROLL_CODE, STONE_CODE, Move, State, chance_destination,
                                         outcome_visible_to, variant_bits)

SHORT_NAME = "python_abracadawhat"
NUM_DISTINCT_ACTIONS = 9          # cast 1..8, end
NUM_CHANCE_OUTCOMES = 14          # stone 1..8, roll 1..6
OBSERVATION_SIZE = _E.FEATURES["state"]
# a game has at most 36 rounds and a round logs at most 192 announcements and turn ends (_engine.pxd's
# HIST_MAX and LOG_MAX, which the rules guarantee): a bound on the decisions
MAX_GAME_LENGTH = _E.LIMITS["rounds"] * _E.LIMITS["log"]
_LOG = {name: code for code, name in _E.LOG_KINDS.items()}      # the round log's entry kinds

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Abracada…What? (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "variants": "none"},
)


def _settings(params) -> tuple[int, list[str], int]:
    """(players, variant names, variant bits) of the game's parameters; ValueError says what is wrong."""
    params = dict(params or {})
    players = int(params.get("players", 2))
    if not 2 <= players <= 5:
        raise ValueError(f"players must be 2 to 5 (XS1), got {players}")
    words = str(params.get("variants", "none")).replace("+", " ").replace(",", " ").split()
    variants = [w for w in words if w.lower() not in ("none", "-")]
    return players, variants, variant_bits(variants)           # ValueError names an unknown variant


class AbracadaWhatGame(EngineGame):
    """The OpenSpiel game. Parameters: players (2-5, XS1), variants (`none`, or `xv1`/`xv2` joined by `+`)."""

    def __init__(self, params=None):
        self.players, self.variants, self.variant_bits = _settings(params)
        info = pyspiel.GameInfo(num_distinct_actions=NUM_DISTINCT_ACTIONS, max_chance_outcomes=NUM_CHANCE_OUTCOMES,
                                num_players=self.players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                                max_game_length=MAX_GAME_LENGTH)
        self._built(_GAME_TYPE, info, params)

    def new_initial_state(self) -> "AbracadaWhatState":
        """Before the deal: the first nodes are the deal's stones, all chance (XS2, XC5)."""
        st = State()
        st._init(self.players, self.variant_bits, 0)
        return AbracadaWhatState(self, st)

    def state_from(self, state: State) -> "AbracadaWhatState":
        """An OpenSpiel state over a copy of an engine State (e.g. to let an OpenSpiel bot move). Its
        information states start with each seat's observation of `state`."""
        if state.players != self.players:
            raise ValueError(f"the game has {self.players} players, the state {state.players}")
        if set(state.variants) != {v.lower() for v in self.variants}:
            raise ValueError(f"the game has variants {self.variants or 'none'}, the state {state.variants or 'none'}")
        return AbracadaWhatState(self, state.clone(), anchored=True)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return EngineObserver(OBSERVATION_SIZE, State.features, params,
                              info_state=bool(iig_obs_type and iig_obs_type.perfect_recall))


def game_params(state: State) -> dict:
    """The game parameters of an engine state (for the tournament bot)."""
    return {"players": state.players, "variants": "+".join(state.variants) or "none"}


def _chance_action(code: int) -> int:
    return code - STONE_CODE - 1 if code < ROLL_CODE else code - ROLL_CODE + 7


def _chance_code(action: int) -> int:
    return STONE_CODE + 1 + action if action < 8 else ROLL_CODE + action - 7


class AbracadaWhatState(EngineState):
    """`st`: the engine State (the whole truth); `anchor`: the engine text the OpenSpiel history starts
    from (None: the initial state); `views`: each seat's record of the game (information_state_text)."""

    def __init__(self, game: AbracadaWhatGame, st: State, anchored: bool = False):
        super().__init__(game, st)
        n = st.players
        self.anchor = st.to_text() if anchored else None
        # strings: a clone (a deep copy of every attribute) shares them
        self.views = tuple(f"p{p} obs[{st.observation(p)}]" if anchored else f"p{p}" for p in range(n))

    # -- OpenSpiel API (current_player, is_terminal, returns, __str__: openspiel_common.EngineState)
    def _legal_actions(self, player):
        assert player >= 0
        return sorted(c - 1 for c in self.st._legal_codes())

    def move_of(self, action: int) -> Move:
        """The engine move of a player's action."""
        return Move(int(action) + 1)

    def chance_outcomes(self):
        assert self.is_chance_node()
        return sorted((_chance_action(c), p) for c, p in self.st._chance_codes())

    def _apply_action(self, action):
        st, n = self.st, self.st.players
        if self.is_chance_node():
            move = Move(_chance_code(int(action)))
            _, zone, seat = chance_destination(st)
            seen, hidden = _event_token(zone, seat, move)
            views = tuple(self.views[p] + " " + (seen if outcome_visible_to(zone, seat, p) else hidden)
                          for p in range(n))
        else:
            move, seat = Move(int(action) + 1), st.current_player
            if move.code == END_CODE:
                token = f"{seat}:end"
            else:                                                   # XT1: the others check, all see
                token = f"{seat}:cast{move.value}{'+' if st._to_raw()['hands'][seat][move.value - 1] else '-'}"
            views = tuple(v + " " + token for v in self.views)
        st.apply(move)                      # IllegalMoveError (a ValueError) leaves the state as it was
        self.views = views

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE or player < 0:
            return str(Move(_chance_code(int(action))))
        return str(self.move_of(action))

    def information_state_text(self, player: int) -> str:
        return self.views[player]

    # -- sampling what a seat cannot see
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state with this history's information state for `player_id`, drawn with
        `probability_sampler` (a callable giving floats in [0, 1), e.g. pyspiel.UniformProbabilitySampler;
        ISMCTS passes a freshly seeded one at every call, so clients/openspiel_common.py sets its own)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        game = self.get_game()
        actions = [int(a) for a in self.history()]
        if not actions:                                       # nothing since the anchor: the present decides
            if self.anchor is None:
                return self.clone()
            return game.state_from(self.st.determinize(player_id, seed=rng.getrandbits(63)))
        tags, start = _replay_tags(self.anchor, self.st.players, self.st.variants, actions)
        world = self.st.determinize(player_id, seed=rng.getrandbits(63))
        new, anchor = _resampled_round(world, player_id, actions, tags, start, rng, self.anchor)
        anchor = anchor or self.anchor
        out = game.new_initial_state() if anchor is None else game.state_from(State.from_text(anchor))
        for a in new:
            out.apply_action(a)
        return out


def _event_token(zone: str, seat: int, move: Move) -> tuple[str, str]:
    """A chance outcome as its viewers write it, and as the others do."""
    if zone == "":
        return f"roll{move.value}", f"roll{move.value}"
    prefix = {"removed": "x", "hand": f"h{seat}=", "taken": f"t{seat}=", "secret": "s"}[zone]
    return f"{prefix}{move.value}", f"{prefix}?"


def _replay_tags(anchor, players, variants, actions):
    """Replays `actions` from the anchor (None: a new game) and tags each: ('chance', zone, seat) or
    ('cast', seat, spell, ok) or ('end', seat). Also returns the index of the current round's first deal
    stone (None when the round began before the anchor)."""
    if anchor is None:
        st = State()
        st._init(players, variant_bits(variants), 0)
    else:
        st = State.from_text(anchor)
    tags, start = [], None
    for i, a in enumerate(actions):
        if st.is_chance():
            raw = st._to_raw()
            if _E.PHASES[raw["phase"]] == "deal" and raw["pending"] == 0:
                start = i
            _, zone, seat = chance_destination(st)
            tags.append(("chance", zone, seat))
            st._apply_code(_chance_code(a))
        else:
            seat, code = st.current_player, a + 1
            if code == END_CODE:
                tags.append(("end", seat))
            else:
                tags.append(("cast", seat, code, st._to_raw()["hands"][seat][code - 1] > 0))
            st._apply_code(code)
    return tags, start


def _resampled_round(world: State, p: int, actions, tags, start, rng: random.Random, anchor=None):
    """The actions with the current round's hidden outcomes (for p) redrawn to lead to `world` (p's
    determinization of the present): p's stones in an order that keeps every announcement of p's outcome,
    the secret stones and the other seats' taken stones in a random order; everything p saw is kept.
    start: the index of the round's first deal stone, or None when the round began before `anchor` (the
    engine text the actions start from, not during a deal): then the anchor's hidden zones are redrawn
    too (p's hand, the others' taken stones, the secret stones, the pile). Returns (actions, the new
    anchor text or None)."""
    raw = world._to_raw()
    new = list(actions)
    taken = {q: _shuffled(_counts(raw["taken"][q]), rng) for q in range(world.players) if q != p}
    first, anchor_raw, own_events = start, None, []         # own_events: p's stones coming, p's announcements
    if start is None:
        anchor_raw = State.from_text(anchor)._to_raw()
        if _E.PHASES[anchor_raw["phase"]] in ("deal", "refill"):
            raise pyspiel.SpielError("resample_from_infostate: not supported from a state wrapped during a deal "
                                     "or a refill once moves were played")
        first = 0
        own_events = _logged_own_events(anchor_raw["log"], p)
    drawn = Counter()                                       # anchor mode: stones drawn from the pile since
    took = Counter()                                        # anchor mode: secret stones taken since
    for i in range(first, len(actions)):
        tag = tags[i]
        if tag[0] == "chance":
            _, zone, seat = tag
            if zone == "hand" and seat == p:
                own_events.append(("slot", i))
            elif zone == "taken" and seat != p:
                new[i] = _chance_action(STONE_CODE + taken[seat].pop())
            if zone == "hand" and seat != p:
                drawn[Move(_chance_code(new[i])).value] += 1
            elif zone == "taken":
                took[Move(_chance_code(new[i])).value] += 1
        elif tag[0] == "cast" and tag[1] == p:
            own_events.append(("cast", tag[2], tag[3], i))
    received = _counts(raw["hands"][p])
    received.update(ev[1] for ev in own_events if ev[0] == "cast" and ev[2])
    assignment = _order_own_stones(own_events, received, rng)
    for i, spell in assignment.items():
        if i >= 0:
            new[i] = _chance_action(STONE_CODE + spell)
            drawn[spell] += 1
    if anchor_raw is None:
        # the secret stones dealt this round: those still set aside and every seat's taken ones
        secret = _counts(raw["secret"])
        for q in range(world.players):
            secret.update(_counts(raw["taken"][q]))
        order = _shuffled(secret, rng)
        for i in range(start, len(actions)):
            if tags[i][0] == "chance" and tags[i][1] == "secret":
                new[i] = _chance_action(STONE_CODE + order.pop())
        return new, None
    from engine_c.abracadawhat.notation import state_text

    hand = Counter(spell for i, spell in assignment.items() if i < 0)
    hand.subtract(ev[1] for ev in own_events if ev[0] == "cast" and ev[2] and ev[3] < 0)
    anchor_raw["hands"][p] = [hand[k] for k in range(1, 9)]
    for q, rest in taken.items():                           # what each other seat had taken before
        anchor_raw["taken"][q] = [rest.count(k) for k in range(1, 9)]
    secret, pile = _counts(raw["secret"]) + took, _counts(raw["pile"]) + drawn
    anchor_raw["secret"] = [secret[k] for k in range(1, 9)]
    anchor_raw["pile"] = [pile[k] for k in range(1, 9)]
    return new, state_text(anchor_raw)


def _logged_own_events(log, p: int) -> list[tuple]:
    """p's part of the round before the anchor, from the round's public log (XC12): the 5 stones dealt
    (XS2), each announcement with its outcome, each refill's stones (slots keyed -1, -2, ...)."""
    slots = iter(range(-1, -1000, -1))
    events = [("slot", next(slots)) for _ in range(5)]
    for kind, seat, value in log:
        if seat != p:
            continue
        if kind == _LOG["end"]:
            events.extend(("slot", next(slots)) for _ in range(value))
        else:
            events.append(("cast", value & 15, kind == _LOG["ok"], -1))
    return events


def _counts(row) -> Counter:
    """Per-spell counts (index 0: spell 1) as a Counter of spells."""
    return Counter({k + 1: c for k, c in enumerate(row) if c})


def _shuffled(stones: Counter, rng: random.Random) -> list[int]:
    out = list(stones.elements())
    rng.shuffle(out)
    return out


def _order_own_stones(events, received: Counter, rng: random.Random, limit: int = 200_000) -> dict[int, int]:
    """An order of the stones p received (slot index -> spell) under which every announcement of p
    succeeds or fails as it did (XT1: a success needs a stone of the spell in hand, a failure none): a
    depth-first search over the slots, trying the spells in a random order weighted by how many remain."""
    slots = [ev[1] for ev in events if ev[0] == "slot"]
    assignment: dict[int, int] = {}
    budget = [limit]

    def search(j: int, hand: Counter, left: Counter) -> bool:
        while j < len(events) and events[j][0] == "cast":
            spell, ok = events[j][1], events[j][2]
            if ok != (hand[spell] > 0):
                return False
            if ok:
                hand = hand.copy()
                hand[spell] -= 1
            j += 1
        if j == len(events):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        choices = [k for k in left if left[k] > 0]
        choices.sort(key=lambda k: rng.random() ** (1.0 / left[k]), reverse=True)
        for k in choices:
            assignment[events[j][1]] = k
            hand2, left2 = hand.copy(), left.copy()
            hand2[k] += 1
            left2[k] -= 1
            if search(j + 1, hand2, left2):
                return True
        return False

    if len(slots) != sum(received.values()) or not search(0, Counter(), received):
        raise pyspiel.SpielError("resample_from_infostate: no order of the seat's stones explains its "
                                 "announcements (a bug: the engine's determinization should allow one)")
    return assignment


pyspiel.register_game(_GAME_TYPE, AbracadaWhatGame)
