"""Made-up finished matches of one player written straight into a server's database (the
profile's match filter: tests/server/accounts/test_profile_filter.py, tests/web/test_ranks_pages.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from laizi.rules import RuleSet
from laizi.server.persistence import db

T = db.Base.metadata.tables
PID = "p_filtered"
# (match id, preset, place, escaped, finished)
ROWS = [(1, "kaikoufan", 1, 0, datetime(2026, 11, 1, 9, tzinfo=UTC)),
        (2, "jiayu", 3, 0, datetime(2026, 11, 2, 9, tzinfo=UTC)),
        (3, "jiayu", 1, 0, datetime(2026, 11, 3, 23, 30, tzinfo=UTC)),
        (4, "koukoufan", 4, 1, datetime(2026, 11, 5, 9, tzinfo=UTC))]


def fill_matches(url: str) -> None:
    eng = db.make_engine(url)
    db.migrate(eng)
    with eng.begin() as c:
        c.execute(T["players"].insert().values(id=PID, nickname="筛选"))
        for mid, preset, place, esc, at in ROWS:
            code = f"F{mid}"
            c.execute(T["rooms"].insert().values(code=code, settings={"preset": preset}, seats=[],
                                                 status="finished"))
            c.execute(T["matches"].insert().values(id=mid, room_code=code, status="finished",
                                                   rules=RuleSet.preset(preset).model_dump(mode="json"),
                                                   seed="ab" * 16, seats=[], scores=[], penalties=[],
                                                   finished_at=at))
            c.execute(T["match_players"].insert().values(match_id=mid, seat=0, player_id=PID,
                                                         escaped=esc, score=0.0, place=place,
                                                         finished_at=at))
    eng.dispose()


def empty_matches(url: str) -> None:
    eng = db.make_engine(url)
    with eng.begin() as c:
        for table in ("match_players", "matches", "rooms"):
            c.execute(T[table].delete())
    eng.dispose()
