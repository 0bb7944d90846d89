package variant

import (
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
)

// What a variant needs to know before its times can move (the hours shifts the user databases
// allow, the dialogues whose times never move) is found by Learn, with the rest of what discover
// finds: the build writes it for the builtin data (builtin.learned), so the engine carries the
// mover but not the reader below. Files the build did not learn keep their times (their found has
// no hours).

// learn is discover, what the times need and the near misses the plan does not keep (see
// nearMisses): what Learn writes.
func learn(src *source) *found {
	f := discover(src)
	var dbs []string
	for _, name := range src.dbNames {
		if userFields[name] != nil {
			dbs = append(dbs, string(src.files[src.dbs[name]]))
		}
	}
	f.hours = hoursFor(dbs)
	f.fixedTimes = map[string]bool{}
	f.datesUnread, f.datesAlone = map[string]bool{}, map[string]bool{}
	for i, d := range src.dialogues {
		p := src.dialoguePaths[i]
		if timesFixed(string(src.files[p]), d) {
			f.fixedTimes[p] = true
		}
		switch alone, other := unreadDate(string(src.files[p])); {
		case other || todayInHistory(string(src.files[p]), tools.DayNumber(f.today)):
			f.datesUnread[p] = true
		case alone:
			f.datesAlone[p] = true
		}
	}
	f.nearMisses = nearMisses(src, f)
	return f
}

// hoursFor returns the hours shifts (±1 to ±maxHours) that move every time of the user databases'
// texts within its day, and within the part of the day or the meal its record names ("Lunch with
// Giulia" at 12:30 is not moved to 10:30, see partsHold): the only ones a variant draws, as the
// databases' times move in place.
func hoursFor(dbs []string) []int {
	var recs []string // every record of the databases, as its text
	for _, s := range dbs {
		ms, _, _ := members([]byte(s))
		for _, m := range ms {
			recs = append(recs, s[m.start:m.end])
		}
	}
	var allowed []int
	for h := -maxHours; h <= maxHours; h++ {
		ok := h != 0
		for _, s := range dbs {
			if !ok {
				break
			}
			_, ok = shiftTimes(s, h, nil)
		}
		for _, rec := range recs {
			ok = ok && partsHold(rec, partsIn(rec), h)
		}
		if ok {
			allowed = append(allowed, h)
		}
	}
	return allowed
}

// timesFixed reports whether the dialogue d, of text s, keeps its times in every variant: s writes a
// time in a way clocks does not read (so its move could not be written there), or d declares a
// time derived from a rule that writes none clocks reads ("'actually make it 10'"): the proof takes
// a derived value on its rule's word, so such a move would go unchecked.
func timesFixed(s string, d *dataset.Dialogue) bool {
	if unreadTime(s) {
		return true
	}
	if d.Meta == nil {
		return false
	}
	for _, dv := range d.Meta.Derived {
		moves := false
		for _, c := range clocks(dv.Value) {
			moves = moves || !c.dayBound()
		}
		if moves && len(clocks(dv.Rule)) == 0 {
			return true
		}
	}
	return false
}

// The words unreadTime looks for, space-separated.
const (
	// hourNames are the hours written as words.
	hourNames = " one two three four five six seven eight nine ten eleven twelve "
	// afterHourNames make an hour in words before them a time ("six thirty", "seven pm").
	afterHourNames = " o'clock o’clock thirty fifteen forty fifty am pm tonight "
	// beforeRanges make a bare hour after them a time ("from 2", "around 7").
	beforeRanges = " from between till until around by "
	// afterAt make "at" and a bare hour before them a time ("at 7 tomorrow").
	afterAt = " tonight tomorrow today and or then instead please sharp every each on this "
)

// listed reports whether w is one of the space-separated words of list.
func listed(list, w string) bool {
	return w != "" && strings.Contains(list, " "+w+" ")
}

// unreadTime reports whether s writes a time of day a way clocks does not read: "noon", "half past
// nine", "quarter to", an hour in words ("six thirty", "seven o'clock", "at seven"), a bare hour a
// word makes a time ("7-ish", "at 7.", "at 7 tomorrow", "from 2 to 4 pm", "2-4pm", "7–9 pm"), or a
// time that is none ("6:75", a special case's).
func unreadTime(s string) bool {
	low := lowerASCII(s)
	for i := 1; i+3 < len(low); i++ {
		j := i
		for j > 0 && isDigit(low[j-1]) {
			j--
		}
		switch {
		case j == i:
		case dashAt(low, i) && isDigit(low[i+3]) && isHour(low[j:i]) && (j == 0 || low[j-1] != ':'):
			return true // "7–9 pm", "10–11 am": a bare hour before a range's dash
		case low[i] == ':' && i-j <= 2 && (j == 0 || low[j-1] != ':') && twoDigitsAt(low, i+1) && (atoi2(low[j:i]) > 23 || atoi2(low[i+1:i+3]) > 59):
			return true // "6:75"
		}
	}
	for _, w := range []string{"noon", "midnight", "midday", "half past", "quarter past", "quarter to"} {
		if containsWord(low, w) {
			return true
		}
	}
	var prev string
	for i := 0; i < len(low); {
		if !isWordByte(low[i]) {
			i++
			continue
		}
		j := i
		for j < len(low) && (isWordByte(low[j]) || low[j] == '\'' && j+1 < len(low) && isWordByte(low[j+1])) {
			j++
		}
		w := low[i:j]
		hour := listed(hourNames, w) || isHour(w) && (i == 0 || strings.IndexByte("-/:.", low[i-1]) < 0)
		switch {
		case hour && prev == "at" && endsPhrase(low, j):
			return true
		case listed(hourNames, prev) && listed(afterHourNames, w):
			return true
		case (listed(hourNames, prev) || isHour(prev)) && (w == "ish" || w == "sharp"):
			return true
		case isHour(w) && hour && bareHour(low, j) && (listed(beforeRanges, prev) || rangeNext(low, j)):
			return true
		}
		prev, i = w, j
	}
	return false
}

// isHour reports whether w is a bare hour, 1 to 12 written in digits.
func isHour(w string) bool {
	if len(w) == 0 || len(w) > 2 || !isDigit(w[0]) || len(w) == 2 && !isDigit(w[1]) {
		return false
	}
	h := atoi2(w)
	return h >= 1 && h <= 12 && w[0] != '0'
}

// endsPhrase reports whether the word that ends at low[end] ends a phrase: the text ends, or a
// mark of punctuation follows ("at 7." and "at 7.30" alike), or a word that a time comes before
// ("at 7 tomorrow").
func endsPhrase(low string, end int) bool {
	if end >= len(low) || strings.IndexByte(".,!?;)\"\\", low[end]) >= 0 {
		return true
	}
	if low[end] != ' ' {
		return false
	}
	k := end + 1
	for k < len(low) && isLetterByte(low[k]) {
		k++
	}
	return listed(afterAt, low[end+1:k])
}

// bareHour reports whether the hour that ends at low[end] stands alone: no minutes, meridiem or
// "o'clock" follow it (clocks reads those).
func bareHour(low string, end int) bool {
	if end < len(low) && (low[end] == ':' || low[end] == '.') {
		return false
	}
	m, _, _ := meridiemAt(low, end)
	return m < 0 && skipWord(low, end, " o'clock") == end && skipWord(low, end, " o\u2019clock") == end
}

// rangeNext reports whether a range goes on after the hour that ends at low[end] ("2 to 4", "2-4",
// "2 and 4").
func rangeNext(low string, end int) bool {
	for _, sep := range []string{" to ", "-", "\u2013", " and ", " or "} {
		if k := skipWord(low, end, sep); k > end && k < len(low) && isDigit(low[k]) {
			return true
		}
	}
	return false
}

// containsWord reports whether low holds w as whole words.
func containsWord(low, w string) bool {
	for i := 0; ; {
		j := strings.Index(low[i:], w)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(w)
		if (at == 0 || !isWordByte(low[at-1])) && (end == len(low) || !isWordByte(low[end])) {
			return true
		}
		i = at + 1
	}
}
