"""SpellBook's rules as a service (spellbook.v1): GetServerInfo, NewGame, ListLegalMoves, ApplyMove, ResolveChance.
Abracada…What?'s are its own service's (server/aw_service.py: GetRules, NewGame, ListLegalMoves, ApplyMove)."""
from __future__ import annotations

import hashlib
import json
import subprocess
from importlib import metadata
from pathlib import Path

from engine_c import spellbook
from engine_c.spellbook.game import SPELLBOOK
from engine_c.spellbook.state import LIMITS, SPELL_NAMES
from search.hints import MISTAKE_CLASSES, MISTAKE_THRESHOLDS
from search.levels import PLAY_LEVEL, default_level
from search.model import default_model
from server import convert
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import types_pb2 as pb
from server.common_convert import FieldError
from server.levels_info import add_levels
from server.rpc_base import RpcBase, rpc


def _git_revision() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent, capture_output=True,
                             text=True, timeout=5)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def rules_info() -> spb.RulesInfo:
    tables = json.dumps(spellbook.RULE_TABLES, sort_keys=True, default=list)
    digest = hashlib.sha256((tables + json.dumps(LIMITS, sort_keys=True)).encode()).hexdigest()[:12]
    return spb.RulesInfo(version=f"sb1-{digest}", notation="sb1", runes=list(spellbook.RULE_TABLES["runes"]),
                         familiar_track=list(spellbook.RULE_TABLES["familiar_track"]), tables_json=tables,
                         spells=list(SPELL_NAMES), pool_limit=LIMITS["pool"], familiar_spaces=LIMITS["familiar"],
                         copies=LIMITS["copies"], min_players=2, max_players=LIMITS["max_players"])


class RulesRpcs(RpcBase):
    def _server_info(self) -> spb.GetServerInfoResponse:
        try:
            version = metadata.version("spellbook-ai")
        except metadata.PackageNotFoundError:
            version = "0+unknown"
        c = self.config
        info = spb.GetServerInfoResponse(
            version=version, git_revision=_git_revision(), rules=rules_info(),
            default_level=c.default_level or default_level(SPELLBOOK),
            limits=spb.ServerLimits(max_iterations=c.max_iterations, max_time_ms=c.max_time_ms,
                                    max_threads=c.max_threads, max_message_bytes=c.max_message_bytes,
                                    workers=c.workers, queue_size=c.queue_size,
                                    deadline_margin_ms=c.deadline_margin_ms, max_top_k=c.max_top_k,
                                    min_report_every_ms=c.min_report_every_ms, bot_workers=c.bot_workers,
                                    max_sessions=c.max_sessions, max_review_ms=c.max_review_ms))
        info.default_bot_level = c.default_bot_level or PLAY_LEVEL
        info.elo_anchor = add_levels(info.levels, SPELLBOOK, c.ladder_for(self.game),
                                     rollout=lambda d: d["rollout"], cutoff=lambda d: d["cutoff"])
        model = default_model(SPELLBOOK)
        if model is not None:
            info.model.version = model.version
            info.model.generation = int(model.meta.get("training", {}).get("generation", 0))
            info.model.feature_version = int(model.meta["feature_version"])
            info.model.training_json = json.dumps(model.meta.get("training", {}), sort_keys=True)
            info.model.used_by_default = model.use_by_default
            if model.meta.get("calibration"):
                info.model.calibration_json = json.dumps(model.meta["calibration"], sort_keys=True)
        for name in MISTAKE_CLASSES:
            bound = MISTAKE_THRESHOLDS[name]
            info.mistake_thresholds.add(mistake_class=convert.mistake_class(name),
                                        max_loss=bound if bound != float("inf") else 1.0)
        return info

    # ------------------------------------------------------------------ rules
    @rpc
    async def GetServerInfo(self, request, context, log_extra):
        return self._info

    @rpc
    async def NewGame(self, request, context, log_extra):
        players = request.players or 2
        spells = request.spells or "set1"
        try:
            state = spellbook.State.new(players=players, spells=spells, seed=request.seed)
        except ValueError as e:
            msg = str(e)
            raise FieldError("players" if msg.startswith("players") else
                             "seed" if msg.startswith("seed") else "spells", msg) from None
        return spb.NewGameResponse(state=convert.game_state(state))

    @rpc
    async def ListLegalMoves(self, request, context, log_extra):
        parsed = convert.parse_state(request.state)
        st = parsed.state
        return spb.ListLegalMovesResponse(
            moves=[convert.move_pb(m) for m in st.legal_moves()],
            chance_outcomes=[pb.ChanceOutcome(move=convert.move_pb(m), probability=p) for m, p in st.chance_outcomes()]
            if st.is_chance() else [],
            current_player=st.current_player, decision=st.decision)

    @rpc
    async def ApplyMove(self, request, context, log_extra):
        parsed = convert.parse_state(request.state)
        move = convert.parse_move(parsed.state, request.move)
        st = parsed.state
        st.apply(move)
        draws = st.resolve_chance() if request.resolve_chance else []
        return spb.ApplyMoveResponse(state=convert.game_state(st, parsed), draws=[convert.move_pb(d) for d in draws])

    @rpc
    async def ResolveChance(self, request, context, log_extra):
        parsed = convert.parse_state(request.state)
        st = parsed.state
        if request.HasField("seed") and st.is_chance():
            # Re-sample only the Pouch order: a perfect-memory determinization keeps everything else.
            st = st.determinize(0, knows_discard=True, seed=request.seed)
        draws = st.resolve_chance()
        return spb.ResolveChanceResponse(state=convert.game_state(st, parsed), draws=[convert.move_pb(d) for d in draws])
