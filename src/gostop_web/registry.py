"""The tables a server holds, with its quotas: tables in all, tables per
client address, and the places of tables nobody has used for a while."""

from __future__ import annotations

import logging
import time
from typing import Callable, Iterator

from gostop_web.tables import Table

__all__ = ["TableRegistry", "RegistryFull", "MAX_TABLES", "TABLES_PER_CLIENT",
           "IDLE_SECONDS"]

log = logging.getLogger("gostop_web")

#: Tables one server holds at once.
MAX_TABLES = 256
#: Tables one client address may hold at once.
TABLES_PER_CLIENT = 8
#: A table unused this long (no move, no connection) gives its place up.
IDLE_SECONDS = 3600.0


class RegistryFull(Exception):
    """No place for another table (the text says whose limit was reached)."""


class TableRegistry:
    """Tables by id, and which client address made each."""

    def __init__(self, max_tables: int = MAX_TABLES, per_client: int = TABLES_PER_CLIENT,
                 idle_seconds: float = IDLE_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.max_tables = max_tables
        self.per_client = per_client
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._tables: dict[str, Table] = {}
        self._owner: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._tables)

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables

    def __eq__(self, other: object) -> bool:  # tests compare with {}
        return self._tables == other

    def __getitem__(self, table_id: str) -> Table:
        return self._tables[table_id]

    def get(self, table_id: str) -> Table | None:
        return self._tables.get(table_id)

    def values(self):
        return self._tables.values()

    def reserve(self, client: str) -> None:
        """Check there is a place for a table of ``client``; raises
        :class:`RegistryFull` (after freeing idle tables) when there is not."""
        self.drop_idle()
        held = sum(1 for owner in self._owner.values() if owner == client)
        if held >= self.per_client:
            raise RegistryFull(f"you hold {held} tables, the most one address may; "
                               "finish or leave one first")
        if len(self._tables) >= self.max_tables:
            raise RegistryFull("the server holds as many tables as it may")

    def add(self, table: Table, client: str) -> None:
        self.reserve(client)
        self._tables[table.id] = table
        self._owner[table.id] = client

    def drop_idle(self) -> int:
        """Close the tables with nobody connected and no activity for
        ``idle_seconds``; how many were closed."""
        now = self.clock()
        dropped = 0
        for tid, table in list(self._tables.items()):
            if not table.connections and now - table.last_active > self.idle_seconds:
                log.info("table %s closed after %.0f s without activity", tid,
                         now - table.last_active)
                self.remove(tid)
                dropped += 1
        return dropped

    def remove(self, table_id: str) -> None:
        table = self._tables.pop(table_id, None)
        self._owner.pop(table_id, None)
        if table is not None:
            table.close()

    def close(self) -> None:
        for tid in list(self._tables):
            self.remove(tid)
