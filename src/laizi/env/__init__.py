"""Reinforcement-learning environment (optional extra ``laizi[rl]``: pettingzoo, gymnasium, numpy).

>>> from laizi.env import env
>>> e = env(preset="kaikoufan")          # a PettingZoo AEC environment, one hand per episode
>>> e.reset(seed=0)                      # doctest: +SKIP
"""

from typing import TYPE_CHECKING

from laizi.env.actions import ACTION_SIZE, action_to_index, index_to_action

if TYPE_CHECKING:  # loaded lazily (numpy, gymnasium, pettingzoo are an optional extra)
    from laizi.env.laizi_env import LaiziEnv, env, raw_env

__all__ = ["ACTION_SIZE", "LaiziEnv", "action_to_index", "env", "index_to_action", "raw_env"]


def __getattr__(name: str) -> object:
    if name in ("LaiziEnv", "env", "raw_env"):
        from laizi.env import laizi_env

        return getattr(laizi_env, name)
    raise AttributeError(name)
