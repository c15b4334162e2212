"""``gostop serve --replay FILE``: saved hands (``gostop-record/1`` lines)
stepped through in the browser.  A record holds the whole deal, so a replay
shows every hand open."""

from __future__ import annotations

from typing import Any

from gostop_core import GoStopError, Record
from gostop_core.records import load_records, start_game
from gostop_web.state import korean_names, outcome_state, public_events, view_state

__all__ = ["ReplayLibrary", "MAX_REPLAY_RECORDS"]

#: The most records one replay serves.
MAX_REPLAY_RECORDS = 5000
#: Games whose frames are kept once built (a replay of thousands stays small).
CACHED_GAMES = 32


class ReplayLibrary:
    """The records of a file, each replayed into frames on demand."""

    def __init__(self, records: list[Record], source: str = ""):
        if not records:
            raise GoStopError("the file holds no record")
        if len(records) > MAX_REPLAY_RECORDS:
            raise GoStopError(f"{len(records)} records: a replay serves at most "
                              f"{MAX_REPLAY_RECORDS}")
        self.records = records
        self.source = source
        self._frames: dict[int, dict[str, Any]] = {}

    @classmethod
    def from_file(cls, path: str) -> "ReplayLibrary":
        """Read and check every record of ``path`` (each is replayed once here, so a
        bad record is reported when the server starts, not in the browser)."""
        records = load_records(path, strict=True, verify=True)
        return cls(records, path)

    def summary(self) -> dict[str, Any]:
        games = []
        for i, rec in enumerate(self.records):
            out = rec.outcome or {}
            games.append({"index": i, "rules": rec.rules, "players": rec.players,
                          "names": rec.names, "date": rec.date,
                          "decisions": len(rec.decisions),
                          "result": (out.get("report") or ["unfinished"])[0]})
        return {"source": self.source, "games": games}

    def frames(self, index: int) -> dict[str, Any]:
        """Every position of game ``index``: the deal, then one frame per decision."""
        if not 0 <= index < len(self.records):
            raise IndexError(index)
        if index not in self._frames:
            if len(self._frames) >= CACHED_GAMES:  # the oldest built goes first
                del self._frames[next(iter(self._frames))]
            self._frames[index] = self._build(self.records[index])
        return self._frames[index]

    @staticmethod
    def _build(rec: Record) -> dict[str, Any]:
        game = start_game(rec)
        names = rec.names

        def frame(decision: str | None, seat: int | None, events: list) -> dict[str, Any]:
            mover = game.turn if game.turn is not None else 0
            state = view_state(game.view(mover), own_hand=False)
            outcome = game.outcome()
            return {"decision": decision, "seat": seat, "view": state,
                    "hands": [game.hand(p).codes() for p in range(game.players)],
                    "events": public_events(events, None, names),
                    "outcome": (None if outcome is None
                                else outcome_state(outcome, names, game.view(mover)))}

        frames = [frame(None, None, game.deal_events())]
        for d in rec.decisions:
            before = len(game.events())
            game.push(d.move)
            frames.append(frame(d.move, d.seat, game.events()[before:]))
        return {"names": names, "names_ko": korean_names(names), "rules": rec.rules,
                "players": rec.players, "frames": frames}
