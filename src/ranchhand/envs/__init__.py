"""Adapters that let outside research code play ranchhand's games.

Each adapter lives in its own module and needs its own optional extra, so the
core package never imports PettingZoo, Gymnasium or OpenSpiel:
``ranchhand.envs.pettingzoo`` (``pip install ranchhand[pettingzoo]``) and
``ranchhand.envs.gymnasium`` (``pip install ranchhand[gymnasium]``). They speak in
the fixed action indices and observation tensors of each game's encoding
(``ranchhand.core.encoding``), and keep chance inside the environment, drawn
from the seed given to ``reset``. ``docs/research.md`` shows how to use them.
"""
