-- Classes and their students' answers. Times are Unix milliseconds. A class's answers are deleted
-- with it by the store (D1 and SQLite alike), not by a foreign key's cascade.
CREATE TABLE classes (
  code     TEXT PRIMARY KEY,
  name     TEXT NOT NULL,
  key_hash BLOB NOT NULL,
  created  INTEGER NOT NULL,
  active   INTEGER NOT NULL
);
CREATE INDEX classes_active ON classes (active);

CREATE TABLE answers (
  seq     INTEGER PRIMARY KEY AUTOINCREMENT,
  class   TEXT NOT NULL,
  student TEXT NOT NULL,
  level   TEXT NOT NULL,
  file    TEXT NOT NULL,
  sample  INTEGER NOT NULL,
  answer  TEXT NOT NULL,
  verdict TEXT NOT NULL,
  correct INTEGER NOT NULL,
  at      INTEGER NOT NULL
);
CREATE INDEX answers_class ON answers (class, seq);
