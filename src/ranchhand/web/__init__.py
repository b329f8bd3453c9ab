"""The browser front end: lobby, table, rules and replay pages served by ``ranchhand serve``.

No game rules live here. The pages are plain HTML, CSS and ES modules in
``static/`` (no build step, nothing fetched from elsewhere); each game draws itself
with ``static/games/<game-id>.js`` and may publish static data (board geometry,
card texts) through ``catalog/<game package>.py``. ``docs/web.md`` describes the
interface a game module implements.
"""

from ranchhand.web.replays import MAX_RECORD_UPLOAD
from ranchhand.web.routes import install

__all__ = ["MAX_RECORD_UPLOAD", "install"]
