package variant

// An item (an agenda entry, a meeting's topic, a reminder, an e-mail's subject) is named loosely
// in the texts ("Dentist check-up", then "the dentist"), so its text does not move as a whole: the
// words that say what it is about do, each wherever it is written, in any case, as another word
// of its group ("dentist" → "orthodontist", "Football practice" → "Handball practice", "Renew my
// passport" → "Renew my visa"). Only the words of an item's text that are in a group move, and
// only to a group's word that the data never writes; one that is fixed vocabulary (a tool's, a
// fact of the world's) or part of a name or place that moves stays.

// itemGroups are the words that may name what an item is about, in groups of words one may stand
// for another of ("a dentist check-up" and "an orthodontist check-up" are both a check-up).
var itemGroups = [][]string{
	{"dentist", "orthodontist", "dermatologist", "physiotherapist", "podiatrist"},
	{"plumber", "electrician", "locksmith", "carpenter", "glazier", "roofer"},
	{"football", "basketball", "volleyball", "rugby", "hockey", "handball", "netball"},
	{"yoga", "pilates", "zumba", "aerobics"},
	{"piano", "violin", "cello", "flute", "clarinet", "trumpet", "saxophone", "guitar", "harp"},
	{"passport", "visa"},
	{"car", "van", "motorbike", "scooter"},
	{"cat", "dog", "rabbit", "hamster", "parrot"},
	{"picnic", "barbecue", "potluck"},
	{"birthday", "anniversary"},
	{"contract", "invoice", "agreement"},
	{"slides", "handouts"},
	{"plants", "herbs", "ferns"},
	{"cake", "pie", "tart"},
	{"taxi", "shuttle", "minicab"},
	{"ferry", "train"},
	{"seminar", "colloquium", "webinar"},
	{"workshop", "masterclass", "bootcamp"},
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

// items moves the item words: each to a word of its group that the data does not write, nearest in
// length.
func (p *plan) items() {
	for _, w := range sorted(p.f.values[KindItemWord]) {
		if _, place := p.by[recase(w, "Aa")]; p.f.protected[w] || place {
			continue // fixed vocabulary, or a word of a name or a place that moves ("Passport Center")
		}
		if to, ok := draw(p.rng, itemGroup(w), len(w), p.isTaken); ok {
			p.add(KindItemWord, w, to, fold)
		}
	}
}
