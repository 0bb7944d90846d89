// Package variant makes a variant of a dataset from a seed: the values a user could have said
// otherwise (names, usernames, passwords, emails, places, amounts, item texts) replaced
// consistently in the dialogues, the world's databases, the gold calls, their accepted
// alternatives and the special cases' needs, and each variant dialogue proven by the same checks
// as the data it comes from. A model that learned the original's samples meets new ones; a
// student gets an exercise of their own.
//
// # What moves
//
// The values are found in the data itself, never listed: the world's user databases (Account,
// Bank, Agenda, Alarm, Meeting, Reminder, Appointments: see userFields) and the levels 1-2 gold
// calls' arguments, classified by the field or parameter they come from (paramKinds). Moved, one
// mapping per seed applied to every file:
//   - people's names (attendees, patients, doctors, account holders, CamelCase usernames' words):
//     each name part once, so a family stays a family, and every capitalised occurrence of a part
//     in any text moves with it ("Lunch with Giulia", "Farewell dinner for Chidi", "the Ferraris");
//   - usernames and e-mail addresses built from moved names, rebuilt from the new names in the same
//     layout (AmaraOkafor → KemalSarkar, amara.okafor@inbox.com → kemal.sarkar@inbox.com, the
//     domain kept);
//   - passwords users state, and the moved accounts' passwords and tokens: each keeps its length
//     and its character classes, and a mistyped one stays the same near miss of its new value;
//   - places (locations, and their parts between commas): their proper words drawn from a pool,
//     their numbers redrawn with as many digits ("Room 12B" → "Room 47B");
//   - the ids of moved patients' appointments (their copies' ids, see below).
//
// A value is matched as whole words: names as written or in capitals (a plural "s" kept), places,
// usernames and e-mails in any case (written in the case the text uses), secrets byte for byte.
// New values come from our own pools (pools.go) and are never a word or a value the data already
// has, so no new value collides with another entity.
//
// # What stays
//
// Conservative: a value that is not clearly movable stays.
//   - The tools' fixed vocabulary (names, parameter names, descriptions, enum values) and every
//     argument of a parameter that is not a user's value: their words are protected, and a name or a
//     place with a protected word does not move (so "Tom Hughes" stays, Tom being a level-3 user).
//   - Facts of the world: every database but the user databases above (Wiki, Stock, Dictionary,
//     SearchEngine, History, QuestionAnswering, ImageCaptioning, SpeechRecognition, Translate,
//     Symptom, HealthData, Hotel, TimeSwitch, Scenes, lv3.*) is byte-identical in every variant, and
//     the level-3 tools' own people, accounts and places (their results, and the arguments naming
//     them) are protected.
//   - Dates and times, and so the world's stated date (tools.Today): a later shift by whole weeks
//     would be one more kind of move, with the stated date moved alike.
//   - A name part written in lower case in a text other than as part of its full name ("bill",
//     "may"): it is a common word too.
//   - Amounts and item texts as a whole (an agenda item's content, a meeting's topic): an amount
//     feeds a Calculator formula and its recorded result, and an item is named loosely in the texts
//     ("the dentist"), so neither can be replaced safely everywhere; the names and places written in
//     them do move.
//   - Usernames and e-mails not built from moved names (rafael_silva's "rafael" is, yuki_t92 is not).
//
// # The world
//
// The variant's world keeps every original record and adds, for each record of a moved user (an
// account, a bank account, agenda items, alarms, meetings, reminders) or of a moved patient (an
// appointment), a copy with its values moved, under the moved key or a new id (worldCopies). A
// dialogue served unchanged finds the original records, a variant dialogue the copies; the tools
// find records by the user's token or the patient's name, so a copy never shows in another user's
// results (the proof checks every dialogue in the variant's world).
//
// # The proof
//
// Make guards every file it changes with verify's format, execution and grounding checks and the
// special cases' needs, in the variant's world; a file that fails is served unchanged (its
// original bytes), and the Report says which check failed and why; the files served unchanged are
// then checked as they are in the variant's world. Prove runs every check of package verify,
// fairness included (writable in both forms, special, shown, audit), on the whole variant: the tests
// require it to pass, and the variant's gold to replay to the ceiling in the text and native forms.
//
// # Names and hashes
//
// A variant is loaded (dataset.LoadRepaired) under Name(base, seed), "builtin~s42"; seed 0 is the
// original. A run's data hash (run.DataHash) digests the samples' list (file, id, kind, tool), which
// a variant shares with its original: Report.Digest, a digest of the seed, the moves and the files,
// is what that hash must fold in to tell variants apart.
package variant
