"""PettingZoo AEC environment: one hand of Wuhan Mahjong per episode, or a whole match.

Agents ``player_0`` … ``player_3`` are the seats. The agent to act is the next seat
that must decide (own turn, or each seat with a claim in a claim window, in seat
order). Observations come from the seat's own snapshot only
(:class:`~laizi.views.SeatView`): a dict with

- ``observation``: ``int16`` vector of :data:`OBS_SIZE` (see :func:`encode`);
- ``action_mask``: ``int8`` vector over the 147 actions of :mod:`laizi.env.actions`
  (all zeros for an agent that is not selected).

Rewards are the hand's settlement points (scaled by ``reward_scale``), given to every
seat when the hand ends (a drawn hand pays 0). Seats whose only legal action is
forced are not skipped: every decision is the agent's.

With ``match_hands=N`` an episode is a whole match (:class:`laizi.game.Match`, at most
N hands, dealer rotation and scores as in a real match): each hand's settlement is the
reward at the step that ends it, the next hand is dealt at once, and the agents
terminate when the match is over; ``infos[agent]["hand"]`` counts the hands. The sum of
an agent's rewards over the episode is its match score (scaled).
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

from laizi.env.actions import ACTION_SIZE, action_to_index, index_to_action
from laizi.game import HandState, Match
from laizi.rules import RuleSet
from laizi.tiles import NUM_KINDS, Tile
from laizi.views import SeatView, seat_view

__all__ = ["OBS_SIZE", "LaiziEnv", "encode", "env", "raw_env"]

_PHASES = ("turn", "claim", "rob", "haidi", "over", "replace")
# own hand, laizi, special, indicator, pending, drawn: 6 × 34
# per relative seat: melds 34, river 34, special kongs, special discards, concealed,
# opened, openings, dealer: 4 × 74
# phase 6, wall 1
OBS_SIZE = 6 * NUM_KINDS + 4 * 74 + 6 + 1


def encode(v: SeatView) -> np.ndarray:
    """The observation vector of a seat's view."""
    o = np.zeros(OBS_SIZE, dtype=np.int16)
    o[0:NUM_KINDS] = v.hand
    o[NUM_KINDS + v.setup.laizi] = 1
    for k in v.setup.special:
        o[68 + k] = 1
    if v.indicator is not None:
        o[102 + v.indicator] = 1
    if v.pending is not None:
        o[136 + v.pending] = 1
    if v.last_draw is not None:
        o[170 + v.last_draw] = 1
    base = 204
    for r in range(4):
        s = (v.seat + r) % 4
        off = base + r * 74
        for m in v.melds[s]:
            for k in m.tiles():
                o[off + k] += 1
        for k in v.rivers[s]:
            o[off + NUM_KINDS + k] += 1
        o[off + 68] = len(v.special_kongs[s])
        o[off + 69] = len(v.special_discards[s])
        o[off + 70] = v.hand_sizes[s]
        openings = sum(1 for m in v.melds[s] if m.opens)
        o[off + 71] = 1 if openings else 0
        o[off + 72] = openings
        o[off + 73] = 1 if s == v.dealer else 0
    off = base + 4 * 74
    o[off + _PHASES.index(v.phase) if v.phase in _PHASES else off] = 1
    o[off + 6] = v.wall_remaining
    return o


class LaiziEnv(AECEnv):  # type: ignore[misc]
    """One hand per episode; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "name": "laizi_v0", "is_parallelizable": False}

    def __init__(self, preset: str = "kaikoufan", *, rules: RuleSet | None = None,
                 render_mode: str | None = None, reward_scale: float = 1.0,
                 match_hands: int | None = None) -> None:
        super().__init__()
        if match_hands is not None and (not isinstance(match_hands, int) or match_hands < 1):
            raise ValueError("match_hands must be a positive number of hands (or None)")
        self.rules = rules or RuleSet.preset(preset)
        self.match_hands = match_hands
        self.match: Match | None = None
        self.render_mode = render_mode
        self.reward_scale = reward_scale
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0, high=200, shape=(OBS_SIZE,), dtype=np.int16),
                "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_SIZE,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(ACTION_SIZE) for a in self.possible_agents}
        self.state: HandState | None = None
        self._seed_base = b"laizi-env"
        self._episode = 0
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_base = hashlib.sha256(f"laizi-env:{seed}".encode()).digest()
            self._episode = 0
        self._episode += 1
        wall_seed = hashlib.sha256(self._seed_base + self._episode.to_bytes(8, "big")).digest()
        dealer = (options or {}).get("dealer", (self._episode - 1) % 4)
        if not isinstance(dealer, int) or not 0 <= dealer < 4:
            dealer = 0
        if self.match_hands is None:
            self.match = None
            self.state = HandState.new(self.rules, dealer, seed=wall_seed)
        else:
            self.match = Match(self.rules, seed=wall_seed, first_dealer=dealer,
                               max_hands=self.match_hands)
            self.state = self.match.hand
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        st = self.state
        assert st is not None
        seats = st.to_act()
        if seats:
            self.agent_selection = self.possible_agents[seats[0]]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def view(self, agent: str) -> SeatView:
        assert self.state is not None
        return seat_view(self.state, self._seat(agent))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        v = self.view(agent)
        mask = np.zeros(ACTION_SIZE, dtype=np.int8)
        if agent == self.agent_selection and not self.state.over:
            for a in v.legal:
                mask[action_to_index(a, pending=v.pending)] = 1
        return {"observation": encode(v), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        assert st is not None
        seat = self._seat(agent)
        v = seat_view(st, seat, copy=False)
        if action is None:
            raise ValueError("a live agent must act (action is None)")
        act = index_to_action(int(action), v.legal, pending=v.pending)
        self._cumulative_rewards[agent] = 0.0
        if self.match is not None:
            self._match_step(seat, act)
        elif self._apply_hand(seat, act):
            # dead agents are stepped out in seat order
            self.agent_selection = self.possible_agents[(seat + 1) % 4]
        if self.render_mode == "human":
            print(self.render())

    def _apply_hand(self, seat: int, act: Any) -> bool:
        """One hand per episode: apply; at the hand's end pay and terminate everyone."""
        st = self.state
        assert st is not None
        st.apply(seat, act)
        if st.over:
            end = seat_view(st, None, copy=False).revealed
            assert end is not None
            pays = end.payments or [0.0] * 4
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(pays[i]) * self.reward_scale
                self.terminations[a] = True
                self.infos[a] = {"result": end.result}
            self._accumulate_rewards()
            return True
        for a in self.possible_agents:
            self.rewards[a] = 0.0
        self._select()
        return False

    def _match_step(self, seat: int, act: Any) -> None:
        """A whole match per episode: each hand pays at its end; the match's end terminates."""
        m = self.match
        hand = self.state
        assert m is not None and hand is not None
        m.apply(seat, act)
        if hand.over:
            end = seat_view(hand, None, copy=False).revealed
            assert end is not None
            pays = end.payments or [0.0] * 4
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(pays[i]) * self.reward_scale
                self.infos[a] = {"result": end.result, "hand": hand.hand_no,
                                 "match_over": m.over}
            self._accumulate_rewards()
            if m.over or m.hand is None or m.hand is hand:
                for a in self.possible_agents:
                    self.terminations[a] = True
                self.agent_selection = self.possible_agents[(seat + 1) % 4]
                return
            self.state = m.hand
        else:
            for a in self.possible_agents:
                self.rewards[a] = 0.0
        self._select()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        # The open table (every hand shown): a debugging aid for the one running the env.
        v = seat_view(self.state, None, reveal=True)
        assert v.revealed is not None
        lines = [f"phase {v.phase} turn {v.turn} wall {v.wall_remaining} "
                 f"laizi {Tile(v.laizi)}"]
        for s in range(4):
            counts = v.revealed.hands[s]
            hand = "".join(str(Tile(k)) for k in range(NUM_KINDS) for _ in range(counts[k]))
            melds = " ".join(str(m) for m in v.melds[s])
            lines.append(f"{s}: {hand} | {melds} | river {''.join(str(Tile(k)) for k in v.rivers[s])}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> LaiziEnv:
    return LaiziEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped with PettingZoo's order enforcing wrapper."""
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]

    e: AECEnv = raw_env(**kwargs)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
