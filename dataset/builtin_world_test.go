package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// The project's own default world: builtin/init_database, one JSON file per database in the
// original's layout. These tests check that every file decodes, that every database has the shape
// its tools read (TOOLS.md §2), that the records are consistent with the tools' rules, and that no
// account secret or long text is taken from the original's init_database.

const builtinWorldDir = "builtin/init_database"

// originalWorldDir is the original API-Bank's init_database, used only by the originality check.
const originalWorldDir = "../../shared/apibank/init_database"

// builtinWorldFiles lists the databases the builtin world must provide: the original's nineteen
// plus Dictionary and Translate, which the original answers from web services, and our corrections
// of three level-3 tables the original keeps as literals (lv3.*: its western longitudes are
// positive; ours are negative, as they are).
var builtinWorldFiles = []string{
	"Account", "Agenda", "Alarm", "Appointments", "Bank", "Dictionary", "HealthData", "History", "Hotel",
	"ImageCaptioning", "Meeting", "QuestionAnswering", "Reminder", "Scenes", "SearchEngine",
	"SpeechRecognition", "Stock", "Symptom", "TimeSwitch", "Translate", "Wiki",
	"lv3.Geocoding", "lv3.Restaurants", "lv3.Weather",
}

// loadWorldDir decodes every .json file of dir with value.Decode, keyed by file stem.
func loadWorldDir(t *testing.T, dir string) map[string]any {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	dbs := map[string]any{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		v, err := value.Decode(b)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		dbs[strings.TrimSuffix(filepath.Base(p), ".json")] = v
	}
	return dbs
}

func TestBuiltinWorldDecodes(t *testing.T) {
	dbs := loadWorldDir(t, builtinWorldDir)
	for _, name := range builtinWorldFiles {
		if _, ok := dbs[name]; !ok {
			t.Errorf("%s.json is missing from %s", name, builtinWorldDir)
		}
	}
	if len(dbs) != len(builtinWorldFiles) {
		var names []string
		for n := range dbs {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Errorf("databases %v, want exactly %v", names, builtinWorldFiles)
	}
	// The folder must also load through the importer without errors.
	files := Files{}
	paths, _ := filepath.Glob(filepath.Join(builtinWorldDir, "*"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files["init_database/"+filepath.Base(p)] = b
	}
	if _, errs, err := Load("builtin-world", files); err != nil || len(errs) > 0 {
		t.Errorf("Load: err %v, problems %v", err, errs)
	}
}

// --- small accessors over decoded values; each reports a problem through t and returns a zero value.

type shapeT struct {
	*testing.T
	where string
}

func (s shapeT) errorf(format string, args ...any) {
	s.Helper()
	s.Errorf("%s: %s", s.where, fmt.Sprintf(format, args...))
}

func (s shapeT) at(where string) shapeT { return shapeT{s.T, s.where + "/" + where} }

func (s shapeT) obj(v any) *value.Map {
	s.Helper()
	m, ok := v.(*value.Map)
	if !ok {
		s.errorf("want an object, got %T", v)
		return value.NewMap(0)
	}
	return m
}

func (s shapeT) list(v any) []any {
	s.Helper()
	l, ok := v.([]any)
	if !ok {
		s.errorf("want an array, got %T", v)
	}
	return l
}

// str returns field key of m, which must be a non-empty text without surrounding spaces.
func (s shapeT) str(m *value.Map, key string) string {
	s.Helper()
	v, ok := m.Get(key)
	if !ok {
		s.errorf("missing %q", key)
		return ""
	}
	x, ok := v.(string)
	if !ok || x == "" || strings.TrimSpace(x) != x {
		s.errorf("%q = %#v: want a non-empty, stripped text", key, v)
	}
	return x
}

func (s shapeT) integer(m *value.Map, key string) int64 {
	s.Helper()
	v, _ := m.Get(key)
	n, ok := v.(int64)
	if !ok {
		s.errorf("%q = %#v: want an integer", key, v)
	}
	return n
}

func (s shapeT) number(v any) float64 {
	s.Helper()
	switch n := v.(type) {
	case int64:
		return float64(n)
	case float64:
		return n
	}
	s.errorf("%#v: want a number", v)
	return 0
}

func (s shapeT) keys(m *value.Map, want ...string) {
	s.Helper()
	got := append([]string(nil), m.Keys()...)
	a, b := append([]string(nil), got...), append([]string(nil), want...)
	sort.Strings(a)
	sort.Strings(b)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		s.errorf("keys %v, want %v", got, want)
	}
}

const (
	layoutDT = "2006-01-02 15:04:05"
	layoutD  = "2006-01-02"
)

func (s shapeT) when(text, layout string) time.Time {
	s.Helper()
	tm, err := time.Parse(layout, text)
	if err != nil {
		s.errorf("%q is not %s: %v", text, layout, err)
	}
	return tm
}

// lowerKey: a key the tools reach after lower(strip(input)).
func (s shapeT) lowerKey(k string) {
	s.Helper()
	if k == "" || strings.ToLower(k) != k || strings.TrimSpace(k) != k {
		s.errorf("key %q must be lowercase and stripped", k)
	}
}

// numberedKeys: records keyed "1".."n" in order, as the original's record databases are.
func (s shapeT) numberedKeys(m *value.Map) {
	s.Helper()
	for i, k := range m.Keys() {
		if k != fmt.Sprint(i+1) {
			s.errorf("key %q at position %d, want %q", k, i+1, fmt.Sprint(i+1))
		}
	}
	if m.Len() < 8 {
		s.errorf("only %d records", m.Len())
	}
}

var (
	tokenRe    = regexp.MustCompile(`^[a-z0-9]{18,20}$`)
	emailRe    = regexp.MustCompile(`^[a-z0-9]+[._]?[a-z0-9]+@\w+\.\w{2,3}$`) // SendEmail's rule
	apptIDRe   = regexp.MustCompile(`^[0-9]{8}$`)
	patientRe  = regexp.MustCompile(`^[A-Z][0-9]+$`)
	monthDayRe = regexp.MustCompile(`^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$`)
	tickerRe   = regexp.MustCompile(`^[A-Z]{1,5}$`)
	imageURLRe = regexp.MustCompile(`^https://\S+\.(jpg|jpeg|png)$`)
	audioURLRe = regexp.MustCompile(`^https://\S+\.wav$`)
	docURLRe   = regexp.MustCompile(`^https://\S+$`)
)

func TestBuiltinWorldShapes(t *testing.T) {
	dbs := loadWorldDir(t, builtinWorldDir)
	accounts := map[string]bool{}
	if acc, ok := dbs["Account"].(*value.Map); ok {
		for _, u := range acc.Keys() {
			accounts[u] = true
		}
	}
	// ownedBy checks a record's username.
	ownedBy := func(s shapeT, rec *value.Map) {
		s.Helper()
		if u := s.str(rec, "username"); !accounts[u] {
			s.errorf("username %q has no account", u)
		}
	}

	checks := []struct {
		db    string
		check func(s shapeT, v any)
	}{
		{"Account", func(s shapeT, v any) {
			m := s.obj(v)
			if m.Len() < 12 {
				s.errorf("only %d accounts", m.Len())
			}
			tokens := map[string]string{}
			for _, u := range m.Keys() {
				a, _ := m.Get(u)
				rs := s.at(u)
				rec := rs.obj(a)
				rs.keys(rec, "password", "token", "email")
				rs.str(rec, "password")
				tok := rs.str(rec, "token")
				if !tokenRe.MatchString(tok) {
					rs.errorf("token %q: want 18-20 lowercase letters and digits", tok)
				}
				if other, dup := tokens[tok]; dup {
					rs.errorf("token %q also belongs to %s", tok, other)
				}
				tokens[tok] = u
				if e := rs.str(rec, "email"); !emailRe.MatchString(e) {
					rs.errorf("email %q fails SendEmail's rule", e)
				}
			}
		}},
		{"Bank", func(s shapeT, v any) {
			m := s.obj(v)
			for _, u := range m.Keys() {
				a, _ := m.Get(u)
				rs := s.at(u)
				rec := rs.obj(a)
				rs.keys(rec, "balance", "age", "city")
				if !accounts[u] {
					rs.errorf("bank customer has no account")
				}
				b, _ := rec.Get("balance")
				if rs.number(b) < 0 {
					rs.errorf("negative balance")
				}
				if age := rs.integer(rec, "age"); age < 18 || age > 100 {
					rs.errorf("age %d", age)
				}
				rs.str(rec, "city")
			}
			if without := len(accounts) - m.Len(); without < 1 {
				s.errorf("every user has a bank account; leave some without one (QueryBalance's error)")
			}
		}},
		{"Agenda", func(s shapeT, v any) {
			m := s.obj(v)
			s.numberedKeys(m)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rec := rs.obj(r)
				rs.keys(rec, "content", "time", "location", "username")
				rs.str(rec, "content")
				rs.when(rs.str(rec, "time"), layoutDT)
				rs.str(rec, "location")
				ownedBy(rs, rec)
			}
		}},
		{"Alarm", func(s shapeT, v any) {
			m := s.obj(v)
			s.numberedKeys(m)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rec := rs.obj(r)
				rs.keys(rec, "time", "username")
				rs.when(rs.str(rec, "time"), layoutDT)
				ownedBy(rs, rec)
			}
		}},
		{"Meeting", func(s shapeT, v any) {
			m := s.obj(v)
			s.numberedKeys(m)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rec := rs.obj(r)
				rs.keys(rec, "meeting_topic", "start_time", "end_time", "location", "attendees", "username")
				rs.str(rec, "meeting_topic")
				start := rs.when(rs.str(rec, "start_time"), layoutDT)
				end := rs.when(rs.str(rec, "end_time"), layoutDT)
				if !end.After(start) {
					rs.errorf("meeting ends before it starts")
				}
				rs.str(rec, "location")
				att, _ := rec.Get("attendees")
				names := rs.list(att)
				if len(names) == 0 {
					rs.errorf("no attendees")
				}
				for _, n := range names {
					if x, ok := n.(string); !ok || x == "" {
						rs.errorf("attendee %#v", n)
					}
				}
				ownedBy(rs, rec)
			}
		}},
		{"Reminder", func(s shapeT, v any) {
			m := s.obj(v)
			s.numberedKeys(m)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rec := rs.obj(r)
				rs.keys(rec, "content", "time", "username")
				rs.str(rec, "content")
				rs.when(rs.str(rec, "time"), layoutDT)
				ownedBy(rs, rec)
			}
		}},
		{"Appointments", func(s shapeT, v any) {
			m := s.obj(v)
			seen := map[string]bool{}
			for _, id := range m.Keys() {
				r, _ := m.Get(id)
				rs := s.at(id)
				if !apptIDRe.MatchString(id) {
					rs.errorf("id must be 8 digits")
				}
				rec := rs.obj(r)
				rs.keys(rec, "patient_name", "date", "doctor_name")
				p := rs.str(rec, "patient_name")
				d := rs.str(rec, "date")
				rs.when(d, layoutD)
				rs.str(rec, "doctor_name")
				if seen[p+"|"+d] { // AppointmentRegistration allows one per patient and day
					rs.errorf("%s has two appointments on %s", p, d)
				}
				seen[p+"|"+d] = true
			}
		}},
		{"HealthData", func(s shapeT, v any) {
			m := s.obj(v)
			for _, id := range m.Keys() {
				r, _ := m.Get(id)
				rs := s.at(id)
				if !patientRe.MatchString(id) {
					rs.errorf("user id must be an uppercase letter and digits")
				}
				recs := rs.list(r)
				if len(recs) < 3 {
					rs.errorf("only %d records: a time span query needs several", len(recs))
				}
				var last time.Time
				for i, x := range recs {
					es := rs.at(fmt.Sprint(i))
					rec := es.obj(x)
					tm := es.when(es.str(rec, "time"), layoutDT)
					if !tm.After(last) {
						es.errorf("records must be in time order")
					}
					last = tm
					if rec.Len() < 2 {
						es.errorf("no measure")
					}
					for _, k := range rec.Keys() {
						if k == "time" {
							continue
						}
						val, _ := rec.Get(k)
						if k == "blood_pressure" { // the original's shape: [systolic, diastolic]
							bp := es.list(val)
							if len(bp) != 2 || es.number(bp[0]) <= es.number(bp[1]) {
								es.errorf("blood_pressure %v", bp)
							}
							continue
						}
						es.number(val)
					}
				}
			}
		}},
		{"Hotel", func(s shapeT, v any) {
			m := s.obj(v)
			s.numberedKeys(m)
			type stay struct {
				hotel   string
				in, out time.Time
				key     string
			}
			var stays []stay
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rec := rs.obj(r)
				rs.keys(rec, "hotel_name", "check_in_time", "check_out_time", "room_count", "adult_count", "child_count")
				st := stay{hotel: rs.str(rec, "hotel_name"), key: k}
				st.in = rs.when(rs.str(rec, "check_in_time"), layoutD)
				st.out = rs.when(rs.str(rec, "check_out_time"), layoutD)
				if !st.out.After(st.in) {
					rs.errorf("check-out not after check-in")
				}
				rooms, adults := rs.integer(rec, "room_count"), rs.integer(rec, "adult_count")
				if rooms < 1 || adults < 1 || rs.integer(rec, "child_count") < 0 {
					rs.errorf("counts")
				}
				if adults > 2 && rooms == 1 { // BookHotel would refuse this order
					rs.errorf("more than 2 adults in one room")
				}
				// BookHotel's overlap rule, against the earlier orders of the same hotel.
				for _, o := range stays {
					if o.hotel == st.hotel && ((!st.in.Before(o.in) && st.in.Before(o.out)) || (st.out.After(o.in) && !st.out.After(o.out))) {
						rs.errorf("overlaps order %s of %s", o.key, o.hotel)
					}
				}
				stays = append(stays, st)
			}
		}},
		{"History", func(s shapeT, v any) {
			m := s.obj(v)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				if !monthDayRe.MatchString(k) {
					rs.errorf("key must be MM-DD")
				}
				evs := rs.list(r)
				if len(evs) == 0 {
					rs.errorf("no events")
				}
				for i, x := range evs {
					es := rs.at(fmt.Sprint(i))
					rec := es.obj(x)
					es.keys(rec, "Title", "Date", "Description")
					es.str(rec, "Title")
					es.str(rec, "Description")
					d := es.str(rec, "Date")
					es.when(d, layoutD)
					if !strings.HasSuffix(d, "-"+k) {
						es.errorf("date %s is not on %s", d, k)
					}
				}
			}
		}},
		{"ImageCaptioning", func(s shapeT, v any) {
			seen := map[string]bool{}
			for i, x := range s.list(v) {
				rs := s.at(fmt.Sprint(i))
				rec := rs.obj(x)
				rs.keys(rec, "url", "caption")
				u := rs.str(rec, "url")
				if !imageURLRe.MatchString(u) {
					rs.errorf("url %q must end with .jpg, .jpeg or .png", u)
				}
				if seen[u] {
					rs.errorf("duplicate url %q", u)
				}
				seen[u] = true
				rs.str(rec, "caption")
			}
		}},
		{"QuestionAnswering", func(s shapeT, v any) {
			m := s.obj(v)
			for _, u := range m.Keys() {
				r, _ := m.Get(u)
				rs := s.at(u)
				if !docURLRe.MatchString(u) {
					rs.errorf("bad document url")
				}
				qas := rs.list(r)
				if len(qas) == 0 {
					rs.errorf("no questions")
				}
				for i, x := range qas {
					es := rs.at(fmt.Sprint(i))
					rec := es.obj(x)
					es.keys(rec, "question", "answer")
					es.str(rec, "question")
					es.str(rec, "answer")
				}
			}
		}},
		{"Scenes", func(s shapeT, v any) {
			m := s.obj(v)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rs.lowerKey(k)
				devs := rs.list(r)
				if len(devs) == 0 {
					rs.errorf("no devices")
				}
				prev := ""
				for i, x := range devs {
					es := rs.at(fmt.Sprint(i))
					rec := es.obj(x)
					es.keys(rec, "name", "description")
					n := es.str(rec, "name")
					es.lowerKey(n)
					if i > 0 && n <= prev { // AddScene stores devices unique and sorted by name
						es.errorf("device %q not after %q", n, prev)
					}
					prev = n
					es.str(rec, "description")
				}
			}
		}},
		{"SearchEngine", func(s shapeT, v any) {
			m := s.obj(v)
			if m.Has("tokenized_documents") {
				s.errorf("tokenized_documents: our engine tokenises raw_documents itself")
			}
			raw, _ := m.Get("raw_documents")
			docs := s.list(raw)
			if len(docs) < 30 {
				s.errorf("only %d documents", len(docs))
			}
			byTitle := map[string]*value.Map{}
			for i, x := range docs {
				rs := s.at(fmt.Sprint(i))
				rec := rs.obj(x)
				rs.keys(rec, "title", "url", "abstract")
				title := rs.str(rec, "title")
				if byTitle[title] != nil {
					rs.errorf("duplicate title %q", title)
				}
				byTitle[title] = rec
				if u := rs.str(rec, "url"); !docURLRe.MatchString(u) {
					rs.errorf("bad url %q", u)
				}
				rs.str(rec, "abstract")
			}
			if sq, ok := m.Get("sample_queries"); ok { // original's shape: query -> its top two documents
				qs := s.at("sample_queries")
				q := qs.obj(sq)
				for _, k := range q.Keys() {
					r, _ := q.Get(k)
					res := qs.list(r)
					if len(res) != 2 {
						qs.errorf("%q: want two documents", k)
					}
					for _, d := range res {
						rec := qs.obj(d)
						if doc := byTitle[rec.String("title")]; doc == nil || !value.Equal(doc, rec) {
							qs.errorf("%q: %q is not a raw document", k, rec.String("title"))
						}
					}
				}
			}
		}},
		{"SpeechRecognition", func(s shapeT, v any) {
			m := s.obj(v)
			for _, u := range m.Keys() {
				if !audioURLRe.MatchString(u) {
					s.errorf("url %q must end with .wav", u)
				}
				x, _ := m.Get(u)
				if t, ok := x.(string); !ok || strings.TrimSpace(t) == "" {
					s.errorf("%s: transcript %#v", u, x)
				}
			}
		}},
		{"Stock", func(s shapeT, v any) {
			m := s.obj(v)
			ints, floats := 0, 0
			for _, code := range m.Keys() {
				r, _ := m.Get(code)
				rs := s.at(code)
				if !tickerRe.MatchString(code) {
					rs.errorf("code must be uppercase")
				}
				prices := rs.obj(r)
				if prices.Len() < 5 {
					rs.errorf("only %d dates", prices.Len())
				}
				for _, d := range prices.Keys() {
					rs.when(d, layoutD)
					p, _ := prices.Get(d)
					switch p.(type) {
					case int64:
						ints++
					case float64:
						floats++
					}
					if rs.number(p) <= 0 {
						rs.errorf("%s: price %v", d, p)
					}
				}
			}
			if ints == 0 || floats == 0 {
				s.errorf("prices should mix integers (%d) and floats (%d)", ints, floats)
			}
		}},
		{"Symptom", func(s shapeT, v any) {
			m := s.obj(v)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rs.lowerKey(k)
				cs := rs.list(r)
				if len(cs) == 0 {
					rs.errorf("no conditions")
				}
				for i, x := range cs {
					es := rs.at(fmt.Sprint(i))
					rec := es.obj(x)
					es.keys(rec, "name", "description", "aid")
					es.str(rec, "name")
					es.str(rec, "description")
					es.str(rec, "aid")
				}
			}
		}},
		{"TimeSwitch", func(s shapeT, v any) {
			m := s.obj(v)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rs.lowerKey(k)
				sws := rs.list(r)
				if len(sws) == 0 {
					rs.errorf("no switch times")
				}
				seen := map[string]bool{}
				for i, x := range sws {
					es := rs.at(fmt.Sprint(i))
					rec := es.obj(x)
					es.keys(rec, "time", "on")
					tm := es.str(rec, "time")
					es.when(tm, layoutDT)
					if seen[tm] {
						es.errorf("time %s twice", tm)
					}
					seen[tm] = true
					if on, _ := rec.Get("on"); on != true && on != false {
						es.errorf("on = %#v: want a boolean", on)
					}
				}
			}
		}},
		{"Wiki", func(s shapeT, v any) {
			m := s.obj(v)
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rs.lowerKey(k)
				if strings.Contains(k, "_") { // Wiki turns "_" into spaces before the lookup
					rs.errorf("key contains an underscore")
				}
				rec := rs.obj(r)
				rs.keys(rec, "url", "summary", "content")
				if u := rs.str(rec, "url"); !docURLRe.MatchString(u) {
					rs.errorf("bad url %q", u)
				}
				rs.str(rec, "summary")
				rs.str(rec, "content")
			}
		}},
		{"Dictionary", func(s shapeT, v any) {
			m := s.obj(v)
			if m.Len() < 20 {
				s.errorf("only %d words", m.Len())
			}
			texts := func(s shapeT, rec *value.Map, key string) {
				s.Helper()
				x, _ := rec.Get(key)
				for _, w := range s.list(x) {
					if t, ok := w.(string); !ok || t == "" {
						s.errorf("%s: %#v", key, w)
					}
				}
			}
			for _, k := range m.Keys() {
				r, _ := m.Get(k)
				rs := s.at(k)
				rs.lowerKey(k)
				if strings.Contains(k, "_") {
					rs.errorf("key contains an underscore")
				}
				meanings := rs.list(r)
				if len(meanings) == 0 {
					rs.errorf("no meanings")
				}
				for i, x := range meanings {
					ms := rs.at(fmt.Sprint(i))
					mean := ms.obj(x)
					ms.keys(mean, "partOfSpeech", "definitions", "synonyms", "antonyms")
					ms.str(mean, "partOfSpeech")
					texts(ms, mean, "synonyms")
					texts(ms, mean, "antonyms")
					defs, _ := mean.Get("definitions")
					dl := ms.list(defs)
					if len(dl) == 0 {
						ms.errorf("no definitions")
					}
					for j, d := range dl {
						ds := ms.at(fmt.Sprint(j))
						def := ds.obj(d)
						if def.Has("example") {
							ds.keys(def, "definition", "synonyms", "antonyms", "example")
							ds.str(def, "example")
						} else {
							ds.keys(def, "definition", "synonyms", "antonyms")
						}
						ds.str(def, "definition")
						texts(ds, def, "synonyms")
						texts(ds, def, "antonyms")
					}
				}
			}
		}},
		{"Translate", func(s shapeT, v any) {
			m := s.obj(v)
			total := 0
			for _, lang := range m.Keys() {
				r, _ := m.Get(lang)
				rs := s.at(lang)
				rs.lowerKey(lang)
				byText := rs.obj(r)
				for _, src := range byText.Keys() {
					x, _ := byText.Get(src)
					if t, ok := x.(string); !ok || t == "" || t == src {
						rs.errorf("%q -> %#v", src, x)
					}
					total++
				}
			}
			if !m.Has("en") {
				s.errorf("no English table (Translate's default target)")
			}
			if total < 30 {
				s.errorf("only %d translations", total)
			}
		}},
	}

	for _, c := range checks {
		t.Run(c.db, func(t *testing.T) {
			v, ok := dbs[c.db]
			if !ok {
				t.Fatalf("%s.json missing", c.db)
			}
			c.check(shapeT{t, c.db}, v)
		})
	}
}

// TestBuiltinWorldOriginality checks that the builtin world takes no account secret and no text of
// some length from the original's init_database. The original's folder is only read here.
func TestBuiltinWorldOriginality(t *testing.T) {
	if _, err := os.Stat(originalWorldDir); err != nil {
		t.Skipf("original init_database not found at %s (%v): originality not checked", originalWorldDir, err)
	}
	orig := loadWorldDir(t, originalWorldDir)
	ours := loadWorldDir(t, builtinWorldDir)

	// Account: usernames, passwords, tokens and emails are all ours.
	secrets := map[string]bool{}
	if acc, ok := orig["Account"].(*value.Map); ok {
		for _, u := range acc.Keys() {
			secrets[u] = true
			a, _ := acc.Get(u)
			if rec, ok := a.(*value.Map); ok {
				for _, k := range []string{"password", "token", "email"} {
					if s := rec.String(k); s != "" {
						secrets[s] = true
					}
				}
			}
		}
	}
	if len(secrets) == 0 {
		t.Fatal("original Account.json has no accounts")
	}
	acc, _ := ours["Account"].(*value.Map)
	for _, u := range acc.Keys() {
		if secrets[u] {
			t.Errorf("Account: username %q is the original's", u)
		}
		a, _ := acc.Get(u)
		rec, _ := a.(*value.Map)
		for _, k := range []string{"password", "token", "email"} {
			if s := rec.String(k); secrets[s] {
				t.Errorf("Account %s: %s %q is the original's", u, k, s)
			}
		}
	}

	// Every text of 20 characters or more (names, sentences, urls), as a key or a value, anywhere.
	long := map[string]string{}
	for name, v := range orig {
		collectTexts(v, func(s string) {
			if len(s) >= 20 {
				long[s] = name
			}
		})
	}
	for name, v := range ours {
		collectTexts(v, func(s string) {
			if from, ok := long[s]; ok {
				t.Errorf("%s: text %q also appears in the original's %s.json", name, s, from)
			}
		})
	}
}

// collectTexts calls f with every object key and every text value inside v.
func collectTexts(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			collectTexts(e, f)
		}
	case *value.Map:
		for _, k := range x.Keys() {
			f(k)
			e, _ := x.Get(k)
			collectTexts(e, f)
		}
	}
}

// TestBuiltinWorldTools runs a few calls of the tools that read each database against the builtin
// world, so the records are known to exercise them: tokens resolve, lookups hit, BookHotel's overlap
// rule fires, and SearchEngine's sample queries give their recorded top two.
func TestBuiltinWorldTools(t *testing.T) {
	dbs := loadWorldDir(t, builtinWorldDir)
	base := tools.NewBase(dbs)
	call := func(name string, kv ...any) *value.Map {
		t.Helper()
		env, err := tools.APIs.Call(base.NewWorld(), name, value.MapOf(kv...))
		if err != nil {
			t.Fatalf("%s%v: %v", name, kv, err)
		}
		return env
	}
	ok := func(name string, kv ...any) any {
		t.Helper()
		env := call(name, kv...)
		if e, _ := env.Get("exception"); e != nil {
			t.Errorf("%s%v: exception %v", name, kv, e)
		}
		out, _ := env.Get("output")
		return out
	}
	fails := func(want string, name string, kv ...any) {
		t.Helper()
		env := call(name, kv...)
		if e, _ := env.Get("exception"); e != want {
			t.Errorf("%s%v: exception %#v, want %q", name, kv, e, want)
		}
	}

	acc, _ := dbs["Account"].(*value.Map)
	bank, _ := dbs["Bank"].(*value.Map)
	for _, u := range acc.Keys() {
		a, _ := acc.Get(u)
		rec := a.(*value.Map)
		tok := rec.String("token")
		if out := ok("GetUserToken", "username", u, "password", rec.String("password")); !value.Equal(out, value.MapOf("token", tok)) {
			t.Errorf("GetUserToken(%s) = %v", u, out)
		}
		if out := ok("CheckToken", "token", tok); !value.Equal(out, value.MapOf("username", u)) {
			t.Errorf("CheckToken(%s) = %v", u, out)
		}
		if b, has := bank.Get(u); has {
			want, _ := b.(*value.Map).Get("balance")
			if out := ok("QueryBalance", "token", tok); !value.Equal(out, want) {
				t.Errorf("QueryBalance(%s) = %v", u, out)
			}
		} else {
			fails("The user does not have an account.", "QueryBalance", "token", tok)
		}
		ok("SendEmail", "receiver", rec.String("email"), "subject", "Hello", "content", "A test message.")
	}

	// Calendar records are found by their owners.
	tokenOf := func(u string) string {
		a, _ := acc.Get(u)
		return a.(*value.Map).String("token")
	}
	for _, db := range []string{"Agenda", "Alarm", "Reminder", "Meeting"} {
		m, _ := dbs[db].(*value.Map)
		for _, k := range m.Keys() {
			r, _ := m.Get(k)
			rec := r.(*value.Map)
			tok := tokenOf(rec.String("username"))
			var out any
			switch db {
			case "Agenda":
				out = ok("QueryAgenda", "token", tok, "content", rec.String("content"), "time", "", "location", "")
			case "Alarm":
				out = ok("QueryAlarm", "token", tok, "time", rec.String("time"))
			case "Reminder":
				out = ok("QueryReminder", "token", tok, "content", rec.String("content"), "time", rec.String("time"))
			case "Meeting":
				out = ok("QueryMeeting", "token", tok, "meeting_topic", rec.String("meeting_topic"), "start_time", "", "end_time", "", "location", "", "attendees", "")
			}
			if !value.Equal(out, rec) {
				t.Errorf("%s %s: query gives %v", db, k, out)
			}
		}
	}

	// Appointments.
	appts, _ := dbs["Appointments"].(*value.Map)
	for _, id := range appts.Keys() {
		r, _ := appts.Get(id)
		rec := r.(*value.Map)
		out := ok("QueryRegistration", "patient_name", rec.String("patient_name"), "date", rec.String("date"))
		if m, _ := out.(*value.Map); !m.Has(id) {
			t.Errorf("QueryRegistration misses %s: %v", id, out)
		}
	}

	// Health data: a span around every user's records.
	health, _ := dbs["HealthData"].(*value.Map)
	for _, id := range health.Keys() {
		r, _ := health.Get(id)
		if out := ok("QueryHealthData", "user_id", strings.ToLower(id), "start_time", "2023-01-01 00:00:00", "end_time", "2024-12-31 23:59:59"); !value.Equal(out, r) {
			t.Errorf("QueryHealthData(%s) = %v", id, out)
		}
	}

	// Hotels: each existing stay is unavailable again; a fresh hotel is bookable.
	hotel, _ := dbs["Hotel"].(*value.Map)
	for _, k := range hotel.Keys() {
		r, _ := hotel.Get(k)
		rec := r.(*value.Map)
		fails("The room is not available.", "BookHotel", "hotel_name", rec.String("hotel_name"),
			"check_in_time", rec.String("check_in_time"), "check_out_time", rec.String("check_out_time"),
			"room_count", "1", "adult_count", "1", "child_count", "0")
	}
	if out := ok("BookHotel", "hotel_name", "A Hotel Nobody Booked", "check_in_time", "2023-07-01", "check_out_time", "2023-07-03",
		"room_count", "1", "adult_count", "2", "child_count", "0"); out != fmt.Sprint(hotel.Len()+1) {
		t.Errorf("BookHotel new order id %v, want %d", out, hotel.Len()+1)
	}

	// Lookups by key.
	each := func(db string, f func(k string, v any)) {
		m, _ := dbs[db].(*value.Map)
		for _, k := range m.Keys() {
			v, _ := m.Get(k)
			f(k, v)
		}
	}
	each("History", func(k string, _ any) { ok("QueryHistoryToday", "date", k) })
	each("Scenes", func(k string, v any) {
		if out := ok("QueryScene", "name", strings.ToUpper(k)); !value.Equal(out, v) {
			t.Errorf("QueryScene(%s) = %v", k, out)
		}
	})
	each("Symptom", func(k string, _ any) {
		ok("SymptomSearch", "symptom", k)
		ok("EmergencyKnowledge", "symptom", k)
	})
	each("Stock", func(code string, v any) {
		prices := v.(*value.Map)
		for _, d := range prices.Keys() {
			p, _ := prices.Get(d)
			if out := ok("QueryStock", "stock_code", strings.ToLower(code), "date", d); !value.Equal(out, p) {
				t.Errorf("QueryStock(%s, %s) = %v", code, d, out)
			}
		}
	})
	each("TimeSwitch", func(k string, v any) {
		first := v.([]any)[0].(*value.Map)
		ok("CancelTimedSwitch", "name", k, "time", first.String("time"))
	})
	each("Wiki", func(k string, _ any) { ok("Wiki", "keyword", strings.ReplaceAll(k, " ", "_")) })
	each("SpeechRecognition", func(k string, v any) {
		if out := ok("SpeechRecognition", "url", k); out != v {
			t.Errorf("SpeechRecognition(%s) = %v", k, out)
		}
	})
	each("QuestionAnswering", func(k string, _ any) {
		if out := ok("DocumentQA", "url", k, "question", "What is this document about?"); out != "The question is too difficult to answer." {
			t.Errorf("DocumentQA(%s) = %v", k, out)
		}
	})
	each("Dictionary", func(k string, v any) {
		if out := ok("Dictionary", "keyword", k); !value.Equal(out, v) {
			t.Errorf("Dictionary(%s) = %v", k, out)
		}
	})
	each("Translate", func(lang string, v any) {
		for _, src := range v.(*value.Map).Keys() {
			want, _ := v.(*value.Map).Get(src)
			if out := ok("Translate", "src", src, "tgt_lang", lang); out != want {
				t.Errorf("Translate(%q -> %s) = %v", src, lang, out)
			}
		}
	})
	for _, x := range dbs["ImageCaptioning"].([]any) {
		rec := x.(*value.Map)
		if out := ok("ImageCaption", "url", rec.String("url")); out != rec.String("caption") {
			t.Errorf("ImageCaption(%s) = %v", rec.String("url"), out)
		}
	}

	// SearchEngine: the recorded sample queries give their top two.
	se, _ := dbs["SearchEngine"].(*value.Map)
	if sq, has := se.Get("sample_queries"); has {
		q := sq.(*value.Map)
		for _, k := range q.Keys() {
			want, _ := q.Get(k)
			if out := ok("SearchEngine", "keyword", k); !value.Equal(out, want) {
				var titles []string
				for _, d := range out.([]any) {
					titles = append(titles, d.(*value.Map).String("title"))
				}
				t.Errorf("SearchEngine(%q) gives %q", k, titles)
			}
		}
	}
}
