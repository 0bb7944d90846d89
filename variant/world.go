package variant

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/apibank-playground/apibank/value"
)

// The variant's world is the original's with moved copies added: every record of a user database
// (userFields) about a moved user (an account, a bank account, their agenda items, alarms, meetings
// and reminders, a moved patient's appointments) is kept as it is and copied, its values moved, under
// the moved key (a username, an appointment id) or a new id. A dialogue served unchanged still finds
// the original records; a variant dialogue finds the copies. The tools find a user's records by
// username (through the token) and a patient's by name, so copies of other users never show in a
// call's result; the proof checks it for every dialogue.

// member is one member of a JSON object's text: its key and where its value's text is.
type member struct {
	key        string
	start, end int
	_          noCompare
}

// members reads the members of the JSON object text is (a database file), without decoding the
// values: a copy is its original's text with values replaced, so numbers keep how they are written
// (12650.0 stays a float). close is the index of the object's closing brace.
func members(text []byte) (ms []member, close int, err error) {
	i := skipSpace(text, 0)
	if i >= len(text) || text[i] != '{' {
		return nil, 0, errors.New("not a JSON object")
	}
	i = skipSpace(text, i+1)
	for i < len(text) && text[i] != '}' {
		if text[i] == ',' {
			i = skipSpace(text, i+1)
		}
		kv, rest, err := value.DecodeHead(text[i:])
		key, ok := kv.(string)
		if err != nil || !ok {
			return nil, 0, errors.New("bad key at " + strconv.Itoa(i))
		}
		i = skipSpace(text, len(text)-len(rest))
		if i >= len(text) || text[i] != ':' {
			return nil, 0, errors.New("no ':' at " + strconv.Itoa(i))
		}
		i = skipSpace(text, i+1)
		rest, err = value.SkipHead(text[i:])
		if err != nil {
			return nil, 0, err
		}
		end := len(text) - len(rest)
		ms = append(ms, member{key: key, start: i, end: end})
		i = skipSpace(text, end)
	}
	if i >= len(text) {
		return nil, 0, errors.New("unterminated object")
	}
	return ms, i, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// worldCopies returns a user database's text with the moved copies of its records added (text itself
// when no record moves), and the number of copies.
func worldCopies(name string, text []byte, p *plan, r *replacer) ([]byte, int) {
	fields := userFields[name]
	ms, closing, err := members(text)
	if err != nil || len(ms) == 0 {
		return text, 0
	}
	keys := map[string]bool{}
	next := 0 // the next free integer key, for tables keyed by id
	for _, m := range ms {
		keys[m.key] = true
		if n, err := strconv.Atoi(m.key); err == nil && n >= next {
			next = n + 1
		}
	}
	type rec struct {
		key, text string
		_         noCompare
	}
	var copies []rec
	for _, m := range ms {
		raw := string(text[m.start:m.end])
		var key string
		switch fields["key"] {
		case KindUsername, KindID:
			// Keyed by what moves: the copy's key is the moved key.
			key = p.to(m.key)
			if key == m.key {
				continue
			}
		default:
			// Keyed by id: a record of a moved user gets a new id.
			v, _ := value.Decode(text[m.start:m.end])
			rv, ok := v.(*value.Map)
			if !ok || p.to(rv.String("username")) == rv.String("username") {
				continue
			}
			for keys[strconv.Itoa(next)] {
				next++
			}
			key = strconv.Itoa(next)
			next++
		}
		if keys[key] {
			continue // never replace a record
		}
		keys[key] = true
		copies = append(copies, rec{key: key, text: r.replace(raw, nil)})
	}
	if len(copies) == 0 {
		return text, 0
	}
	// The copies go after the last member, in the file's own layout (two spaces, one a line).
	end := ms[len(ms)-1].end
	var b bytes.Buffer
	b.Grow(len(text) + len(copies)*256)
	b.Write(text[:end])
	for _, c := range copies {
		b.WriteString(",\n  ")
		b.Write(value.AppendText(nil, c.key))
		b.WriteString(": ")
		b.WriteString(c.text)
	}
	b.Write(text[end:closing])
	b.Write(text[closing:])
	return b.Bytes(), len(copies)
}
