package variant

// An item (an agenda entry, a meeting's topic, a reminder, an e-mail's subject) is named loosely
// in the texts ("Car inspection", then "the car inspection"), so its text does not move as a
// whole: the words that say what it is about do, each wherever it is written, in any case, as
// another word of its group ("Car inspection" → "Scooter inspection", "Book the ferry tickets" →
// "Book the train tickets"). Only the words of an item's text that are in a group move, and only
// to a group's word that the data never writes; one that is fixed vocabulary (a tool's, a fact of
// the world's) stays, and so does one that is a word of a person's name or of a place ("seminar" of
// "Library seminar room", "passport" of "Osaka Passport Center"): the texts name that value with
// it too, where it must not change.

// itemGroups are the words that may name what an item is about, in groups of words one may stand
// for another of in every text the data writes one in: a word moves everywhere its file writes it,
// not only in its item ("pick up the guitar from the repair shop": an instrument one carries, so
// no piano or harp; "Research seminar" in a room, so no webinar). A word with no such fellow is in
// no group: "plumber" ("the kitchen tap is leaking, could you send a plumber?" fits no other trade).
var itemGroups = [][]string{
	{"dentist", "orthodontist", "dermatologist", "physiotherapist", "podiatrist"},
	{"electrician", "locksmith", "carpenter", "glazier", "roofer"},
	{"football", "basketball", "volleyball", "rugby", "hockey", "handball", "netball"},
	{"yoga", "pilates", "zumba", "aerobics"},
	{"violin", "cello", "flute", "clarinet", "trumpet", "saxophone", "guitar"},
	{"passport", "visa"},
	{"car", "van", "motorbike", "scooter"},
	{"cat", "dog", "rabbit", "hamster", "parrot"},
	{"picnic", "barbecue", "potluck"},
	{"birthday", "anniversary"},
	{"contract", "agreement"},
	{"slides", "handouts"},
	{"plants", "herbs", "ferns"},
	{"cake", "pie", "tart"},
	{"taxi", "shuttle", "minicab"},
	{"ferry", "train"},
	{"seminar", "colloquium"},
	{"workshop", "masterclass"},
	{"parcel", "package"},
}

// itemGroup returns the group of the item word w (lower case), or nil when it is in none.
func itemGroup(w string) []string {
	for _, g := range itemGroups {
		for _, x := range g {
			if x == w {
				return g
			}
		}
	}
	return nil
}

// addItemWords records the words of an item's text that are in a group (lower case).
func (f *found) addItemWords(s string) {
	eachWord(s, func(w string) {
		if w = lowerASCII(w); itemGroup(w) != nil {
			f.values[KindItemWord][w] = true
		}
	})
}

// dropValueWords drops the item words that are words of a person's name or of a place ("seminar" of
// "Library seminar room"): the texts name that value with the word too, so it stays. discover calls
// it once every value is found.
func (f *found) dropValueWords() {
	for _, k := range []Kind{KindPerson, kindDoctor, KindPlace} {
		for v := range f.values[k] {
			eachWord(v, func(w string) { delete(f.values[KindItemWord], lowerASCII(w)) })
		}
	}
}

// items moves the item words: each to a word of its group that the data does not write, any of them
// (see itemSlack).
func (p *plan) items() {
	for _, w := range sorted(p.f.values[KindItemWord]) {
		if _, place := p.by[recase(w, "Aa")]; p.f.protected[w] || place {
			continue // fixed vocabulary, or a word of a name or a place that moves
		}
		if to, ok := draw(p.rng, itemGroup(w), len(w), itemSlack, p.isTaken); ok {
			p.add(KindItemWord, w, to, fold)
		}
	}
}
