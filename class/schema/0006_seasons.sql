-- The board's seasons: when the board first ranked each season (a variant of the builtin data named by
-- its seed, --board-season or BOARD_SEASON), in Unix milliseconds. The earliest time is kept (see
-- SQLStore.Season): a restart, another process or another isolate answers the same "ranked since".
CREATE TABLE board_seasons (
  seed  INTEGER PRIMARY KEY,
  since INTEGER NOT NULL
);
