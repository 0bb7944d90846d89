-- Rate-limit counters shared by every process or isolate over the store: how many events of a name
-- (a student of a class, a class, a client address, the idle sweep) were counted in the fixed window
-- that starts at start and ends at ends (Unix milliseconds). One name is counted in windows of one
-- length. The store deletes the rows of ended windows (PruneHits).
CREATE TABLE hits (
  name  TEXT NOT NULL,
  start INTEGER NOT NULL,
  ends  INTEGER NOT NULL,
  n     INTEGER NOT NULL,
  PRIMARY KEY (name, start)
);
CREATE INDEX hits_ends ON hits (ends);
