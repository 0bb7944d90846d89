-- The public board: one row an entry (its run, score and hashes as JSON in doc; the owner key's
-- hash; when it was retracted, if it was), and its files (each trial's predictions, the verdicts)
-- in parts, as D1 keeps a row to a few MB. Times are Unix milliseconds.
CREATE TABLE board_entries (
  id        TEXT PRIMARY KEY,
  created   INTEGER NOT NULL,
  key_hash  BLOB NOT NULL,
  retracted INTEGER,
  doc       TEXT NOT NULL
);
CREATE INDEX board_entries_created ON board_entries (created);

CREATE TABLE board_blobs (
  entry TEXT NOT NULL,
  name  TEXT NOT NULL,
  part  INTEGER NOT NULL,
  data  TEXT NOT NULL,
  PRIMARY KEY (entry, name, part)
);
