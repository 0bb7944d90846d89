package verify

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// Grounding rules (a value is grounded when one holds; ToolSearcher's keywords are exempt, being the
// model's own summary, and a Calculator formula is grounded when every number in it is):
//   - text: it occurs in the evidence after lowercasing and collapsing whitespace (empty text is
//     trivially grounded), also with spaces removed ("JohnDoe" said as "John Doe"); free text of three
//     or more words when every word of four letters or more occurs (paraphrased topics);
//   - a date (YYYY-MM-DD, with or without a time): the evidence has the ISO date, or the month (name,
//     abbreviation or number) and the day in a usual order ("March 16", "16th of March", "3/16"); the
//     year must occur in the evidence unless it is 2023, the benchmark's current year;
//   - a time (HH:MM[:SS]): the evidence has it as 24-hour "7:00"/"07:00", 12-hour "7 am"/"7:00 pm",
//     "noon" or "midnight" (seconds other than :00 must occur verbatim);
//   - a number: its decimal text occurs as a word, or (up to twenty) its English word;
//   - a boolean: the evidence says on/off, yes/no, true/false, enable/disable;
//   - lists and objects: every element or member value is grounded;
//   - anything the dialogue's Meta line declares derived, with its rule.
// Evidence for a call is every earlier User and AI text and every earlier API output; for a scene,
// the utterance, the key facts and earlier outputs.

// evidence is normalised text a call's values may come from: text is what buf has written so far
// (buf only grows, so a text read earlier stays as it was, and an add copies nothing but its own).
type evidence struct {
	text string
	buf  strings.Builder
	// squeezed is text[:squeezedLen] with its spaces removed (see squeeze).
	squeezed    strings.Builder
	squeezedLen int
	derived     map[string]bool
}

// normalize lowers s as Python does and collapses its whitespace: its words (runs of non-space, as
// py.Fields splits them), joined by one space. s lowered is returned as it is when it has no other
// whitespace than single spaces between words.
func normalize(s string) string {
	s = py.Lower(s)
	if !needsCollapse(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	appendWords(&b, s)
	return b.String()
}

// needsCollapse reports whether s has whitespace that is not a single space between two words.
func needsCollapse(s string) bool {
	prevSpace := true // a leading space needs collapsing
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if py.IsSpace(r) {
			if prevSpace || r != ' ' {
				return true
			}
			prevSpace = true
		} else {
			prevSpace = false
		}
		i += n
	}
	return prevSpace && len(s) > 0
}

// appendWords writes the words of s (runs of non-space, as py.Fields splits them) to b, joined by one
// space.
func appendWords(b *strings.Builder, s string) {
	start, first := -1, true
	for i := 0; i <= len(s); {
		r, n := rune(' '), 1
		if i < len(s) {
			r = rune(s[i])
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[i:])
			}
		}
		if py.IsSpace(r) {
			if start >= 0 {
				if !first {
					b.WriteByte(' ')
				}
				b.WriteString(s[start:i])
				start, first = -1, false
			}
		} else if start < 0 {
			start = i
		}
		i += n
	}
}

// add appends s, normalised, to the evidence, a space either side.
func (e *evidence) add(s string) {
	e.buf.Grow(len(s) + 2)
	e.buf.WriteByte(' ')
	if isASCII(s) {
		appendLowerWords(&e.buf, s)
	} else {
		appendWords(&e.buf, py.Lower(s))
	}
	e.buf.WriteByte(' ')
	e.text = e.buf.String()
}

// isASCII reports whether s has only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendLowerWords writes the words of the ASCII text s lowered to b as appendWords(b, py.Lower(s))
// does, without making the lowered copy: it copies s in runs, broken where a byte changes (an
// upper-case letter, whitespace other than one space between words).
func appendLowerWords(b *strings.Builder, s string) {
	i := 0
	for i < len(s) && py.IsSpaceASCII(s[i]) {
		i++
	}
	run := i // s[run:i] is written as it is
	for i < len(s) {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			b.WriteString(s[run:i])
			b.WriteByte(c + 'a' - 'A')
			i++
			run = i
		case py.IsSpaceASCII(c):
			j := i + 1
			for j < len(s) && py.IsSpaceASCII(s[j]) {
				j++
			}
			if c != ' ' || j > i+1 || j == len(s) {
				b.WriteString(s[run:i])
				if j < len(s) {
					b.WriteByte(' ')
				}
				run = j
			}
			i = j
		default:
			i++
		}
	}
	b.WriteString(s[run:])
}

// squeeze returns the evidence text with its spaces removed, first squeezing what was added since
// the last call.
func (e *evidence) squeeze() string {
	e.squeezed.Grow(len(e.text) - e.squeezedLen)
	for rest := e.text[e.squeezedLen:]; rest != ""; {
		word, after, _ := strings.Cut(rest, " ")
		e.squeezed.WriteString(word)
		rest = after
	}
	e.squeezedLen = len(e.text)
	return e.squeezed.String()
}

// grounded reports whether v is grounded, and if not, the first value that is not.
func (e *evidence) grounded(v any) (bool, string) {
	if len(e.derived) > 0 && e.derived[value.Str(v)] {
		return true, ""
	}
	switch x := v.(type) {
	case nil:
		return true, ""
	case bool:
		return e.hasWord("on", "off", "yes", "no", "true", "false", "enable", "disable", "activate", "deactivate"), "True/False"
	case int64:
		return e.number(float64(x), strconv.FormatInt(x, 10)), strconv.FormatInt(x, 10)
	case float64:
		return e.number(x, py.FloatRepr(x)), py.FloatRepr(x)
	case string:
		return e.textGrounded(x), x
	case []any:
		for _, el := range x {
			if ok, bad := e.grounded(el); !ok {
				return false, bad
			}
		}
		return true, ""
	case *value.Map:
		for _, k := range x.Keys() {
			el, _ := x.Get(k)
			if ok, bad := e.grounded(el); !ok {
				return false, bad
			}
		}
		return true, ""
	}
	return false, value.Str(v)
}

// dateParts reads YYYY-MM-DD[ HH:MM[:SS]] (with a space or a T), HH:MM[:SS] or MM-DD: the kind
// ("date", "datetime", "time", "monthday" or "" for none), the numbers, and the seconds as written.
func dateParts(s string) (kind string, p [6]int, sec string) {
	// nums are s's runs of ASCII digits, seps the runs of other bytes between them.
	var nums [6]string
	var seps [5]string
	n := 0
	for i := 0; ; n++ {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i || n == len(nums) {
			return "", p, ""
		}
		nums[n] = s[i:j]
		if j == len(s) {
			break
		}
		k := j
		for k < len(s) && (s[k] < '0' || s[k] > '9') {
			k++
		}
		if k == len(s) || n == len(seps) {
			return "", p, ""
		}
		seps[n], i = s[j:k], k
	}
	n++
	for i, num := range nums[:n] {
		p[i], _ = strconv.Atoi(num)
	}
	year := len(nums[0]) == 4 && seps[0] == "-" && seps[1] == "-"
	at := seps[2] == " " || seps[2] == "T"
	switch {
	case n == 3 && year:
		return "date", p, ""
	case n == 5 && year && at && seps[3] == ":":
		return "datetime", p, ""
	case n == 6 && year && at && seps[3] == ":" && seps[4] == ":":
		return "datetime", p, nums[5]
	case n == 2 && seps[0] == ":":
		return "time", p, ""
	case n == 3 && seps[0] == ":" && seps[1] == ":":
		return "time", p, nums[2]
	case n == 2 && seps[0] == "-" && len(nums[0]) <= 2:
		return "monthday", p, ""
	}
	return "", p, ""
}

func (e *evidence) textGrounded(s string) bool {
	n := normalize(s)
	if n == "" || strings.Contains(e.text, n) {
		return true
	}
	if s == "True" || s == "False" {
		ok, _ := e.grounded(s == "True")
		return ok
	}
	if names, ok := languages[n]; ok {
		return e.hasWord(names...)
	}
	if strings.Contains(e.squeeze(), strings.ReplaceAll(n, " ", "")) {
		// "JohnDoe" said as "John Doe".
		return true
	}
	if strings.HasPrefix(n, "[") && strings.HasSuffix(n, "]") {
		// A list written as text: each quoted element must be grounded.
		for _, el := range strings.Split(strings.Trim(n, "[]"), ",") {
			if el = strings.Trim(strings.TrimSpace(el), `'"`); el != "" && !e.textGrounded(el) {
				return false
			}
		}
		return true
	}
	switch kind, p, sec := dateParts(strings.TrimSpace(s)); kind {
	case "date":
		return e.date(p[0], p[1], p[2])
	case "datetime":
		return e.date(p[0], p[1], p[2]) && e.time(p[3], p[4], sec)
	case "time":
		return e.time(p[0], p[1], sec)
	case "monthday":
		return e.date(2023, p[0], p[1])
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		return e.number(f, strings.TrimSpace(s))
	}
	return e.paraphrase(n)
}

// paraphrase accepts free text (a meeting topic, a reminder) of three or more words whose every
// content word (four letters or more) occurs in the evidence: users name things loosely and the
// tools' checks compare such fields by word overlap.
func (e *evidence) paraphrase(n string) bool {
	words := py.Fields(strings.Map(func(r rune) rune {
		if strings.ContainsRune(".,;:!?\"'()", r) {
			return ' '
		}
		return r
	}, n))
	if len(words) < 3 {
		return false
	}
	content := 0
	for _, w := range words {
		if len([]rune(w)) < 4 {
			continue
		}
		content++
		if !e.hasPhrase(w) && !e.hasPhrase(strings.TrimSuffix(w, "s")) {
			return false
		}
	}
	return content > 0
}

// formulaGrounded checks a Calculator formula: every number in it must be grounded.
func (e *evidence) formulaGrounded(f string) bool {
	for _, num := range strings.FieldsFunc(f, func(r rune) bool { return (r < '0' || r > '9') && r != '.' }) {
		num = strings.Trim(num, ".")
		if num == "" {
			continue
		}
		v, _ := strconv.ParseFloat(num, 64)
		if !e.number(v, num) {
			return false
		}
	}
	return true
}

// languages maps language codes to the names a user would say.
var languages = func() map[string][]string {
	m := map[string][]string{}
	for _, f := range strings.Fields(`en=english fr=french es=spanish de=german it=italian pt=portuguese ja=japanese
		ko=korean zh-cn=chinese,mandarin zh-tw=traditional_chinese ru=russian ar=arabic hi=hindi nl=dutch
		sv=swedish tr=turkish pl=polish el=greek sw=swahili`) {
		code, names, _ := strings.Cut(f, "=")
		m[code] = strings.Split(strings.ReplaceAll(names, "_", " "), ",")
	}
	return m
}()

var months = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}

func (e *evidence) date(y, mo, d int) bool {
	if mo < 1 || mo > 12 {
		return false
	}
	if strings.Contains(e.text, pad(y, 4)+"-"+pad(mo, 2)+"-"+pad(d, 2)) {
		return true
	}
	if y != 2023 && !strings.Contains(e.text, strconv.Itoa(y)) {
		return false
	}
	name, abbr := months[mo-1], months[mo-1][:3]
	days := []string{strconv.Itoa(d), strconv.Itoa(d) + ordinal(d), pad(d, 2)}
	for _, m := range []string{name, abbr, abbr + "."} {
		for _, day := range days {
			for _, form := range []string{m + " " + day, day + " " + m, day + " of " + m, m + " the " + day} {
				if e.hasPhrase(form) {
					return true
				}
			}
		}
	}
	for _, form := range []string{
		fmt.Sprintf("%d/%d", mo, d), fmt.Sprintf("%02d/%02d", mo, d), fmt.Sprintf("%d-%d", mo, d), fmt.Sprintf("%02d-%02d", mo, d),
		fmt.Sprintf("%d.%d.", d, mo), fmt.Sprintf("%d/%d/%d", mo, d, y), fmt.Sprintf("%04d/%02d/%02d", y, mo, d),
	} {
		if strings.Contains(e.text, form) {
			return true
		}
	}
	return false
}

func ordinal(d int) string {
	switch {
	case d%100 >= 11 && d%100 <= 13:
		return "th"
	case d%10 == 1:
		return "st"
	case d%10 == 2:
		return "nd"
	case d%10 == 3:
		return "rd"
	}
	return "th"
}

// pad formats n ≥ 0 as fmt's %0*d does with the given width (up to four): with leading zeros.
func pad(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) < width {
		s = "0000"[:width-len(s)] + s
	}
	return s
}

// time reports whether the evidence says the time h:mi (with sec when it is not "" or "00") in one
// of its forms: 24-hour, 12-hour with a meridiem, "noon", "midnight", "o'clock", "half past".
func (e *evidence) time(h, mi int, sec string) bool {
	hh, mm := pad(h, 2), pad(mi, 2)
	if sec != "" && sec != "00" && !strings.Contains(e.text, hh+":"+mm+":"+sec) {
		return false
	}
	// A bare "7:30" counts unless a meridiem that contradicts the hour follows it ("7:30 pm" is not 07:30).
	if e.clock(strconv.Itoa(h)+":"+mm, h >= 12) || e.clock(hh+":"+mm, h >= 12) || e.hasPhrase(hh+mm) {
		return true
	}
	h12 := h % 12
	if h12 == 0 {
		h12 = 12
	}
	hour := strconv.Itoa(h12)
	suffix := [2]string{"am", "a.m."}
	if h >= 12 {
		suffix = [2]string{"pm", "p.m."}
	}
	for _, s := range suffix {
		if e.hasPhrase(hour+":"+mm+" "+s) || e.hasPhrase(hour+":"+mm+s) || mi == 0 && (e.hasPhrase(hour+" "+s) || e.hasPhrase(hour+s)) {
			return true
		}
	}
	switch mi {
	case 0:
		return e.hasPhrase(hour+" o'clock") || h == 12 && e.hasWord("noon", "midday") || h == 0 && e.hasWord("midnight")
	case 30:
		return e.hasPhrase("half past " + hour)
	}
	return false
}

// clock reports whether the time text f occurs as a phrase not followed by a contradicting am/pm.
func (e *evidence) clock(f string, afternoon bool) bool {
	for i := 0; ; {
		j := strings.Index(e.text[i:], f)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(f)
		i = start + 1
		if isWordByte(e.text, start-1) || (end < len(e.text) && e.text[end] >= '0' && e.text[end] <= '9') {
			continue
		}
		rest := strings.TrimLeft(e.text[end:], " ")
		pm := strings.HasPrefix(rest, "pm") || strings.HasPrefix(rest, "p.m.")
		am := strings.HasPrefix(rest, "am") || strings.HasPrefix(rest, "a.m.")
		if (pm && !afternoon) || (am && afternoon && !strings.HasPrefix(f, "12")) {
			continue
		}
		return true
	}
}

var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}

func (e *evidence) number(f float64, text string) bool {
	if e.hasPhrase(text) {
		return true
	}
	if f == float64(int64(f)) {
		n := int64(f)
		if e.hasPhrase(strconv.FormatInt(n, 10)) || e.hasPhrase(addThousands(n)) {
			return true
		}
		if n >= 0 && n <= 20 && e.hasWord(numberWords[n]) {
			return true
		}
		if n == 1 && e.hasWord("a", "an", "single") {
			return true
		}
		if n == 2 && e.hasWord("couple", "pair", "both") {
			return true
		}
		if n == 0 && e.hasWord("no", "none", "without") {
			return true
		}
	}
	return false
}

func addThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// hasPhrase reports whether phrase occurs in the evidence not glued to letters or digits on either side.
func (e *evidence) hasPhrase(phrase string) bool {
	p := normalize(phrase)
	if p == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(e.text[i:], p)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(p)
		if !isWordByte(e.text, start-1) && !isWordByte(e.text, end) {
			return true
		}
		i = start + 1
	}
}

func isWordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

func (e *evidence) hasWord(words ...string) bool {
	for _, w := range words {
		if e.hasPhrase(w) {
			return true
		}
	}
	return false
}

// derivedSet returns the values m declares derived (nil when there are none).
func derivedSet(m *dataset.Meta) map[string]bool {
	if m == nil || len(m.Derived) == 0 {
		return nil
	}
	set := make(map[string]bool, len(m.Derived))
	for _, d := range m.Derived {
		set[d.Value] = true
	}
	return set
}

// checkGrounding checks every argument of every gold call of a dialogue.
func checkGrounding(dl *dataset.Dialogue, report func(ok bool, line int, why string)) {
	ev := &evidence{derived: derivedSet(dl.Meta)}
	// texts are what each turn adds to the evidence, gathered first to size its buffer once.
	texts := make([]string, len(dl.Turns))
	size := 0
	for i, t := range dl.Turns {
		switch {
		case t.Role != dataset.API:
			texts[i] = t.Text
		case t.Result != nil:
			out, _ := t.Result.Get("output")
			texts[i] = value.Str(out)
		}
		size += len(texts[i]) + 2
	}
	ev.buf.Grow(size)
	for i, t := range dl.Turns {
		if t.Role != dataset.API {
			ev.add(texts[i])
			continue
		}
		report(callGrounded(ev, t.Tool, t.Params, t.Line))
		if t.Result != nil {
			ev.add(texts[i])
		}
	}
}

func callGrounded(ev *evidence, tool string, params *value.Map, line int) (bool, int, string) {
	for _, k := range params.Keys() {
		v, _ := params.Get(k)
		switch {
		case tool == "ToolSearcher" && k == "keywords":
			// The search words are the model's own summary of the need, not a value to quote.
			continue
		case tool == "Calculator" && k == "formula":
			if f, ok := v.(string); ok && ev.formulaGrounded(f) {
				continue
			}
		}
		if ok, bad := ev.grounded(v); !ok {
			return false, line, fmt.Sprintf("%s argument %s=%q is not found earlier in the dialogue or an earlier API output, and not declared derived", tool, k, bad)
		}
	}
	return true, line, ""
}

func checkSceneGrounding(sc *dataset.Scene, report func(ok bool, line int, why string)) {
	ev := &evidence{}
	ev.add(sc.Utterance)
	for _, k := range sc.KeyInfo {
		ev.add(k)
	}
	for _, c := range sc.Calls {
		report(callGrounded(ev, c.Tool, c.Params, c.Line))
		if c.Result != nil {
			out, _ := c.Result.Get("output")
			ev.add(value.Str(out))
		}
	}
}
