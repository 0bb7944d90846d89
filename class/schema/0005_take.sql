-- An answer taken in one statement (one round trip to D1): an insert into the view answer_takes
-- checks that the class exists and that neither the student's nor the class's count of the window
-- has reached its limit, then counts the answer toward both and keeps it. A refusal aborts the
-- statement with a message the store recognises (see SQLStore.Take), so nothing is counted or kept.
-- The view holds no rows; only its trigger acts.
CREATE VIEW answer_takes AS SELECT '' AS class, '' AS student, '' AS level, '' AS file, 0 AS sample,
  '' AS answer, '' AS verdict, 0 AS correct, 0 AS at, '' AS student_hits, '' AS class_hits,
  0 AS start, 0 AS ends, 0 AS student_limit, 0 AS class_limit WHERE 0;
CREATE TRIGGER answer_take INSTEAD OF INSERT ON answer_takes BEGIN
  SELECT RAISE(ABORT, 'take refused: no class') WHERE NOT EXISTS (SELECT 1 FROM classes WHERE code = NEW.class);
  SELECT RAISE(ABORT, 'take refused: student limit') WHERE coalesce((SELECT n FROM hits WHERE name = NEW.student_hits AND start = NEW.start), 0) >= NEW.student_limit;
  SELECT RAISE(ABORT, 'take refused: class limit') WHERE coalesce((SELECT n FROM hits WHERE name = NEW.class_hits AND start = NEW.start), 0) >= NEW.class_limit;
  INSERT INTO hits (name, start, ends, n) VALUES (NEW.student_hits, NEW.start, NEW.ends, 1) ON CONFLICT (name, start) DO UPDATE SET n = n + 1;
  INSERT INTO hits (name, start, ends, n) VALUES (NEW.class_hits, NEW.start, NEW.ends, 1) ON CONFLICT (name, start) DO UPDATE SET n = n + 1;
  INSERT INTO answers (class, student, level, file, sample, answer, verdict, correct, at)
    VALUES (NEW.class, NEW.student, NEW.level, NEW.file, NEW.sample, NEW.answer, NEW.verdict, NEW.correct, NEW.at);
END;
