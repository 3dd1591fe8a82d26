"""The PettingZoo environment: API test, masks, rewards, bots through the env."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # type: ignore[import-untyped]  # noqa: E402

from laizi.bots import make_bot  # noqa: E402
from laizi.env import ACTION_SIZE, action_to_index, env, raw_env  # noqa: E402


def test_api_test() -> None:
    api_test(env(), num_cycles=1500)
    api_test(raw_env(preset="qipisilai"), num_cycles=300)


def test_masks_only_for_the_selected_agent_and_obs_in_space() -> None:
    e = raw_env()
    e.reset(seed=1)
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs)
        if agent != e.agent_selection:
            assert obs["action_mask"].sum() == 0
        else:
            assert obs["action_mask"].sum() > 0
    assert e.observe(e.agent_selection)["action_mask"].shape == (ACTION_SIZE,)


def test_bots_through_the_env_and_zero_sum_rewards() -> None:
    e = raw_env()
    bots = [make_bot("greedy", s) for s in range(4)]
    won = 0
    for ep in range(6):
        e.reset(seed=ep)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter(max_iter=5000):
            obs, reward, term, trunc, _info = e.last()
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            v = e.view(agent)
            a = bots[e.possible_agents.index(agent)].act(v)
            idx = action_to_index(a, pending=v.pending)
            assert obs["action_mask"][idx] == 1
            e.step(idx)
        assert abs(sum(total.values())) < 1e-6
        won += any(r != 0 for r in total.values())
    assert won >= 3


def test_illegal_action_is_rejected() -> None:
    e = raw_env()
    e.reset(seed=2)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError):
        e.step(bad)
