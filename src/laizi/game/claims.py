"""Claim windows (RULES.md §5, §8): who may claim a discard or rob a 蓄杠, and how
the answers resolve (win > kong/peng > chi; several wins: ``win_priority``).

A window opens after a discard (phase ``claim``) or a 蓄杠 (phase ``rob``) when some
seat has a legal claim; each such seat answers (claim or pass), and once all have
answered :meth:`ClaimWindow._resolve_claims` / :meth:`ClaimWindow._resolve_rob`
carries out the winning answer. ``guoshou`` (过手): a seat that was offered a win on a
discard and passed may not win, until its next draw, on a discard of the same suit
and line (147/258/369; an honour: the same kind) unless the new win pays more.
"""

from __future__ import annotations

from typing import Final

from laizi.game.actions import ACT, PASS, Action
from laizi.game.enums import Phase
from laizi.game.table import HandTable
from laizi.scoring import Meld
from laizi.tiles import TILE_STR

__all__ = ["ClaimWindow", "guoshou_key"]

# enum members as module constants (member lookup is slow on the hot path)
_CLAIM: Final = Phase.CLAIM
_ROB: Final = Phase.ROB
_TURN: Final = Phase.TURN

_RON: Final = ACT["ron"]
_KONG: Final = ACT["kong"]
_PENG: Final = ACT["peng"]
_CHI: Final = ACT["chi"]


def guoshou_key(tile: int) -> int:
    """Suit and line (147/258/369); honours: their own kind."""
    if tile < 27:
        return (tile // 9) * 3 + (tile % 9) % 3
    return tile


class ClaimWindow(HandTable):
    """Opening and resolving the claim and rob windows of a hand."""

    __slots__ = ()

    # ------------------------------------------------------------ opening
    def _claim_options(self, s: int, d: int, t: int) -> tuple[Action, ...]:
        """What seat ``s`` may do with ``t`` discarded by ``d`` (empty: nothing)."""
        h = self.hands[s]
        opts: list[Action] = []
        res = self._checker.check(self, s, t, "discard", d).result
        if res is not None and self.rules.guoshou and self.guoshou[s]:
            key = guoshou_key(t)
            for gk, total in self.guoshou[s]:
                if gk == key and res.total <= total:
                    res = None
                    break
        if res is not None:
            self._ron_results[s] = res
            opts.append(_RON[t])
        c = h[t]
        if c >= 3 and self.kong_allowed():
            opts.append(_KONG[t])
        if c >= 2:
            opts.append(_PENG[t])
        if s == (d + 1) % 4 and t < 27:
            opts.extend(self._chi_options(h, t))
        if opts:
            opts.append(PASS)
        return tuple(opts)

    def _chi_options(self, h: list[int], t: int) -> list[Action]:
        """The runs ``t`` completes with held tiles (never with a laizi or special tile)."""
        lz = self.setup.laizi
        special = self.setup.special
        n = t % 9
        out: list[Action] = []
        for base in (t - 2, t - 1, t):
            bn = n - (t - base)
            if bn < 0 or bn > 6:
                continue
            ok = True
            for x in (base, base + 1, base + 2):
                if x == t:
                    continue
                if not h[x] or x == lz or x in special:
                    ok = False
                    break
            if ok:
                out.append(_CHI[base])
        return out

    def _open_claims(self, d: int, t: int) -> None:
        """After ``d`` discarded ``t``: open the claim window, or the next seat draws."""
        self._ron_results = {}
        opts: dict[int, tuple[Action, ...]] = {}
        for i in (1, 2, 3):
            s = (d + i) % 4
            o = self._claim_options(s, d, t)
            if o:
                opts[s] = o
        if not opts:
            self._draw_front((d + 1) % 4)
            return
        self.phase = _CLAIM
        self.turn = d
        self.pending = t
        self.options = opts
        self.responses = {}

    def _open_rob(self, s: int, k: int) -> None:
        """After ``s`` declared a 蓄杠 of ``k``: open the rob window, or complete the kong."""
        opts: dict[int, tuple[Action, ...]] = {}
        self._ron_results = {}
        for i in (1, 2, 3):
            o = (s + i) % 4
            res = self._checker.check(self, o, k, "rob_kong", s).result
            if res is not None:
                self._ron_results[o] = res
                opts[o] = (_RON[k], PASS)
        if opts:
            self.phase = _ROB
            self.pending = k
            self.options = opts
            self.responses = {}
        else:
            self._complete_addkong(s, k)

    # ------------------------------------------------------------ resolving
    def _pick_winner(self, seats: list[int], source: int) -> int:
        start = self.dealer if self.rules.win_priority == "dealer" else (source + 1) % 4
        for i in range(4):
            s = (start + i) % 4
            if s in seats:
                return s
        raise AssertionError("no winner")  # pragma: no cover

    def _close_window(self) -> tuple[int, int, dict[int, Action]]:
        d = self.turn
        t = self.pending
        assert t is not None
        responses = self.responses
        self.options = {}
        self.responses = {}
        self.pending = None
        return d, t, responses

    def _resolve_claims(self) -> None:
        if self.rules.guoshou:
            for s, res in self._ron_results.items():
                if self.responses[s].type != "ron":
                    assert self.pending is not None
                    self.guoshou[s].append((guoshou_key(self.pending), res.total))
        d, t, responses = self._close_window()
        rons = [s for s, a in responses.items() if a.type == "ron"]
        if rons:
            w = self._pick_winner(rons, d)
            self._win(w, t, "discard", d, self._ron_results[w])
            return
        self._ron_results = {}
        for s, a in responses.items():
            if a.type == "kong":
                self.rivers[d].pop()
                self.hands[s][t] -= 3
                self.melds[s].append(Meld("kong", t, d))
                self._emit({"type": "kong", "seat": s, "tile": TILE_STR[t], "from": d})
                self._replacement(s)
                return
        for s, a in responses.items():
            if a.type == "peng":
                self.rivers[d].pop()
                self.hands[s][t] -= 2
                self.melds[s].append(Meld("peng", t, d))
                self._emit({"type": "peng", "seat": s, "tile": TILE_STR[t], "from": d})
                self._claimed_turn(s)
                return
        for s, a in responses.items():
            if a.type == "chi":
                assert a.tile is not None
                self._chi(s, d, t, a.tile)
                return
        self._draw_front((d + 1) % 4)

    def _chi(self, s: int, d: int, t: int, base: int) -> None:
        self.rivers[d].pop()
        h = self.hands[s]
        for x in (base, base + 1, base + 2):
            if x != t:
                h[x] -= 1
        self.melds[s].append(Meld("chi", base, d, t))
        self._emit({
            "type": "chi", "seat": s, "tile": TILE_STR[t], "from": d,
            "run": TILE_STR[base],
        })
        self._claimed_turn(s)

    def _claimed_turn(self, s: int) -> None:
        self.phase = _TURN
        self.turn = s
        self.after_claim = True
        self.after_kong = False
        self.last_draw = None

    def _resolve_rob(self) -> None:
        k, t, responses = self._close_window()
        rons = [s for s, a in responses.items() if a.type == "ron"]
        if rons:
            w = self._pick_winner(rons, k)
            self._win(w, t, "rob_kong", k, self._ron_results[w])
            return
        self._ron_results = {}
        self._complete_addkong(k, t)

    def _complete_addkong(self, s: int, k: int) -> None:
        melds = self.melds[s]
        for i, m in enumerate(melds):
            if m.type == "peng" and m.tile == k:
                melds[i] = Meld("addkong", k, m.from_seat)
                break
        self._replacement(s)
