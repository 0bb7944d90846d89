// Package variant makes a variant of a dataset from a seed: the values a user could have said
// otherwise (names, usernames, passwords, emails, places, amounts) replaced consistently, its dates
// and its today moved by whole weeks and its times of day by whole hours, in the dialogues, the
// world's databases, the gold calls, their accepted alternatives and the special cases' needs, and
// each variant dialogue proven by the same checks as the data it comes from. A model that learned
// the original's samples meets new ones; a student gets an exercise of their own.
//
// # What moves
//
// The values are found in the data itself, never listed: the world's user databases (Account,
// Bank, Agenda, Alarm, Meeting, Reminder, Appointments: see userFields) and the levels 1-2 gold
// calls' arguments, classified by the field or parameter they come from (paramKinds). Moved, one
// mapping per seed applied to every file:
//   - people's names (attendees, patients, doctors, account holders, the people usernames and
//     e-mail addresses name: "AmaraOkafor", "sven_holm", "baraka.m"): each name part once, so a
//     family stays a family, and every capitalised occurrence of a part in any text moves with it
//     ("Lunch with Giulia", "Farewell dinner for Chidi", "the Ferraris", "Welcome, Léa!"); a first
//     name becomes one of the gender the data gives it, so the texts' pronouns and kinship words
//     still fit ("my grandmother, Elena Popescu. She..."), or one borne by women and men alike
//     when the data does not tell (see givenPool);
//   - usernames and e-mail addresses built from moved names, rebuilt from the new names in the same
//     layout, separators, digits and initials kept (AmaraOkafor → YaraEmenike,
//     amara.okafor@inbox.com → yara.emenike@inbox.com, baraka.m@inbox.com → anselm.m@inbox.com with
//     "My friend Baraka" → "My friend Anselm" in seed 1, the domain kept);
//   - passwords users state, and the moved accounts' passwords and tokens: each keeps its length
//     and its character classes, and a mistyped one (a character changed, or a few added or dropped
//     at the end) stays the same near miss of its new value, derived from the password the world
//     holds ("Kente2023" and "Kente2022!" for "Kente2023!");
//   - places (locations, and their parts between commas): their proper words drawn from a pool,
//     their numbers redrawn with as many digits ("Room 12B" → "Room 47B");
//   - the ids of moved patients' appointments (their copies' ids, see below);
//   - amounts (amounts.go): a moved user's bank balance (in their account's copy) and the readings a
//     user gives to record (RecordHealthData's values), each redrawn within 2% (at least 3 in its
//     last digit either way: "5.9" may become "5.6") with its digits
//     and decimals ("918.45" → "933.73", "36.7" → "36.4"), written every way the data writes it
//     ("15,207.74", "12650" for "12650.0"); one of fewer than three characters ("74") stays, and
//     so does one a fact of the world holds or more than one dialogue writes;
//   - the numbers a user gives the Calculator (formulas.go), in a file where every number written is
//     one of them, a result of its formulas or a single digit: each of two digits or more redrawn
//     with as many digits and trailing zeros, within two fifths of what it was where the formulas'
//     results keep their shapes so ("212" → "236", "36000" → "45000"), each formula worked
//     out again by the Calculator, and its result moved wherever the file writes it ("53", "53.0",
//     "1,379"), so long as every result keeps its shape (whole, as many digits, as many decimals);
//   - the words that say what an item is about (items.go: an agenda entry's, a meeting's topic, a
//     reminder's, an e-mail's subject), each wherever it is written, in any case, as another word
//     of its group ("Car inspection" and "the car inspection" → "Van inspection" and "the van
//     inspection", "Renew the car insurance" → "Renew the van insurance"): a group holds only words
//     that fit every text the data writes one of them in ("send a plumber" for a leaking tap has no
//     other trade, so "plumber" is in none);
//   - dates (dates.go): one shift per seed, a non-zero number of whole weeks (at most 26 either
//     way) that keeps the user databases' dates, today and the dialogues' dates near today (ten
//     weeks either side) within 2023, so a weekday stays the weekday it was ("next Monday" still
//     is) and the year a text states or means stays true. Moved: every YYYY-MM-DD date of 2023
//     (alone or a datetime's date) in the levels 1-2 dialogues and the user databases, every
//     record's, and the dates the dialogues write with a month's name ("April 9", "9 April",
//     "Apr. 9th", "9th of April", "April the 9th"; "May" and "Mar" capitalised only), in the form
//     they are written; and the world's today, which the variant states in a database of its own
//     (tools.TodayDB, {"date": ...}): GetToday answers it and every prompt states it. A date whose
//     move would leave 2023 stays, and so does one of another year ("July 20, 1969", a flight of
//     next January) and one with a month's name on a day the file also writes in another year or
//     as a month and a day alone ("On July 20: Apollo 11 landed" beside "07-20" and "1969-07-20":
//     a day in history, see factDays); a bare "the 9th" or "4/9" is not read as a date: a day or a month written
//     alone ("the 4th", "the April one") moves with the one date it names (see settleUnread), and
//     a dialogue that writes a date another way ("4/9", a range "April 23–26", an impossible
//     "2023-05-32", a day that names no one date) is tried with its dates and times kept first,
//     then as it is, and with them moved only when the variant's world needs it (see unreadDate);
//   - times of day (times.go): one shift per seed of one or two hours either way, drawn among those
//     that keep every time of the user databases within its day and within the part of the day or
//     the meal its record names ("Lunch with Giulia" at 12:30 stays a lunch: for the builtin data,
//     one or two hours later), so the minutes stay ("5:45am"
//     becomes "7:45am", "6pm" "8pm"). Moved: the times of the dialogues' and the user databases'
//     datetimes, and the times a text writes as "19:00", "07:55", "5:45am", "6 pm", "7:30 P.M.",
//     "6:30", "7 o'clock" or "7 in the morning", in the form written (its meridiem turning at noon:
//     "11am" becomes "1pm"). A file's times move all together or not at all: not when one would
//     leave its day, leave the part of the day its words name ("11:30 in the morning", "this
//     morning at 11am") or enter or leave one a turn names elsewhere ("13:30", then "that frees
//     my afternoon": moved only if nothing else proves, the file as it is included when no
//     value but its dates and times moves), or read two ways after its move (a bare "11:30" + 1 is after noon or after
//     midnight; the file's datetimes say which when they hold it); nor in a file that writes a time
//     in a way not read ("noon", "half past nine", "at 7.", "from 2 to 4 pm", "six thirty") or
//     declares a time derived from a rule that writes none ("'actually make it 10'"). A day's
//     bounds (00:00, 23:59) stay.
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
//   - The dates and times of the databases that are facts of the world (a stock's prices, a day in
//     history, the health data, the timed switches, the hotels) and of the level-3 scenes (the
//     level-3 tools' own facts): a dialogue that asks such a fact on a date fails its proof with its
//     dates and times moved (the fact is not there then), and is served with its other values moved
//     and its dates and times kept, or unchanged (see the proof): about 40 of the builtin data's 394
//     dialogue and scene files.
//   - A name part written in lower case in a text other than as part of its full name ("bill",
//     "may"), or a place's word written in lower case ("Passport" of "Osaka Passport Center", as
//     "renew my passport"): it is a common word too.
//   - An item word that is a word of a person's name or of a place ("seminar" of "Library seminar
//     room"): the texts name that value with it too.
//   - Every value of a file that writes a near miss of a value (nearmiss.go: a token close to it but
//     not it, "38557012" beside "38557021", "jasmine1995" beside "jasmine_1995",
//     "kwame.mensah(at)inbox", "AmaraOkafur") that the variants would not move as the same miss of
//     the new value: its texts say how it misses ("I swapped the last two digits", "theres an
//     underscore", "with an o"), so the file is served unchanged in every variant (Report.Unchanged,
//     check "near miss"): 7 of the builtin data's files. The near misses the plan moves alike stay
//     in their files' variants (a mistyped password, a name's plural, a username written with a
//     separator: "rafael_silva" for "RafaelSilva").
//   - Other numbers (a hotel booking's counts, often written in words; a formula's in a file that
//     writes a number derived otherwise, "the total of 196", "about 65.33", or a date; a formula's
//     single digits, "the 4 of us"; those a tool answered) and an item's text as a whole: a reply
//     that states a derived number would be left stale, and an item is named loosely in the texts
//     ("the dentist" for "Dentist check-up"), so neither can be replaced safely everywhere; an
//     item's words in no group stay (the names, places and item words in it move).
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
// The user databases' dates and times move in place, in the original records and their copies
// alike, but the times of a record a dialogue names with its time as written (its username, one of
// its dates and one of its times) when that dialogue's times stay ("at noon", a parents' evening
// at 5:30pm that two hours earlier would not be the evening): the record keeps its time, its date
// moving, and so does every dialogue that names it (pins.go), so no gold call writes back a time the
// user did not ask to change. A record a dialogue served as it is or with its dates kept names so
// ("my onboarding call on April 12 at 4pm") keeps its date and its time, in the original record
// for a dialogue served as it is and in the copy for one whose values moved, and a dialogue whose
// dates would move that names it keeps its dates too: a model that looks the record up by what it
// was told finds it. The variant's world is at the moved today; a dialogue served with its dates kept is
// written from the data's today, which the today database names for its file ("written": {path:
// date}): the dataset gives it that today (dataset.Dialogue.Today), its prompt states it and its
// worlds are at it (tools.World.SetToday), so its GetToday answers what it recorded.
//
// # The proof
//
// Make guards every file it changes with verify's format, execution and grounding checks and the
// special cases' needs, in the variant's world. A file has up to three versions, tried in turn
// until one passes: its values, dates and times moved; its values moved and its dates and times
// kept (written from the data's today); the file as it is. The Report says which check the first
// failed and why (Unchanged for a file served as it is, DatesKept for one served with its dates and
// times kept). The last version failing in the variant's world is an error of the variant with its
// dates or times moved; Make then makes it again with its times kept everywhere (Hours 0), and if
// that fails too with its dates kept as well (Shift 0). Prove runs every check of package verify,
// fairness included (writable in both forms, special, shown, audit), on the whole variant: the tests
// require it to pass, and the variant's gold to replay to the ceiling in the text and native forms.
//
// # Cost
//
// What a variant needs to know of the data before it draws (the values, the fixed vocabulary, the
// span of the dates, the hours the times may move by, the files whose times stay and those whose
// near misses no plan keeps, which Learn makes the plans of 20 seeds to tell) does not depend on
// the seed: the build learns it for the builtin data (Learn, builtin.learned), so Make reads no
// file whole and a variant costs its moves, its replacements and its guard; the engine keeps eight
// variants made. MakeUnlearned reads other files as Learn does, once per process for
// the same files.
//
// # Names and hashes
//
// A variant is loaded (dataset.LoadRepaired) under Name(base, seed), "builtin~s42"; seed 0 is the
// original. A run's data hash (run.DataHash) digests the samples' list (file, id, kind, tool), which
// a variant shares with its original: Report.Digest, a digest of the seed, the shift, the moves and
// the files,
// is what that hash must fold in to tell variants apart.
package variant
