package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Row change kinds of a database diff.
const (
	RowAdded   = "added"
	RowRemoved = "removed"
	RowChanged = "changed"
)

// RowChange is one row of a database that a call added, removed or changed. Key is the row's key in
// an object database, or its position ("#3") in a list database.
type RowChange struct {
	Key      string
	Kind     string
	Old, New json.RawMessage
}

// DiffDB compares two states of one database. Object databases are compared key by key (a key whose
// value differs is changed); list databases row by row as a multiset, so a row taken out of the middle
// is one removal, not a change of every row after it; anything else is one change when it differs.
func DiffDB(before, after json.RawMessage) []RowChange {
	if same(before, after) {
		return nil
	}
	var ob, oa OrderedObject
	if isObject(before) && isObject(after) && json.Unmarshal(before, &ob) == nil && json.Unmarshal(after, &oa) == nil {
		var out []RowChange
		for _, f := range oa {
			old, ok := ob.Get(f.Key)
			switch {
			case !ok:
				out = append(out, RowChange{Key: f.Key, Kind: RowAdded, New: f.Value})
			case !same(old, f.Value):
				out = append(out, RowChange{Key: f.Key, Kind: RowChanged, Old: old, New: f.Value})
			}
		}
		for _, f := range ob {
			if _, ok := oa.Get(f.Key); !ok {
				out = append(out, RowChange{Key: f.Key, Kind: RowRemoved, Old: f.Value})
			}
		}
		return out
	}
	var lb, la []json.RawMessage
	if isList(before) && isList(after) && json.Unmarshal(before, &lb) == nil && json.Unmarshal(after, &la) == nil {
		used := make([]bool, len(lb))
		var out []RowChange
		for i, r := range la {
			found := false
			for j, o := range lb {
				if !used[j] && same(o, r) {
					used[j], found = true, true
					break
				}
			}
			if !found {
				out = append(out, RowChange{Key: fmt.Sprintf("#%d", i), Kind: RowAdded, New: r})
			}
		}
		for j, o := range lb {
			if !used[j] {
				out = append(out, RowChange{Key: fmt.Sprintf("#%d", j), Kind: RowRemoved, Old: o})
			}
		}
		return out
	}
	return []RowChange{{Kind: RowChanged, Old: before, New: after}}
}

// DiffWorld compares two states of the databases (name -> database) and returns the changes of each
// database that changed, in the order of after's databases (then those only before had).
func DiffWorld(before, after OrderedObject) (names []string, changes map[string][]RowChange) {
	changes = map[string][]RowChange{}
	for _, f := range after {
		old, _ := before.Get(f.Key)
		if c := DiffDB(old, f.Value); len(c) > 0 {
			names = append(names, f.Key)
			changes[f.Key] = c
		}
	}
	for _, f := range before {
		if _, ok := after.Get(f.Key); !ok {
			names = append(names, f.Key)
			changes[f.Key] = DiffDB(f.Value, nil)
		}
	}
	return names, changes
}

func same(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b))
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

func isObject(b json.RawMessage) bool { return strings.HasPrefix(strings.TrimSpace(string(b)), "{") }
func isList(b json.RawMessage) bool   { return strings.HasPrefix(strings.TrimSpace(string(b)), "[") }

// Suggestion is one completion of what is typed: replace Text[From:caret] with Insert.
type Suggestion struct {
	Label  string
	From   int
	Insert string
}

// Complete proposes tool names while a call's name is typed ("[AddAl" or "AddAl") and the tool's
// parameter names not used yet while its arguments are ("[AddAlarm(token='x', ti"). caret is the byte
// offset of the cursor; only the text before it counts. Native JSON calls get no suggestions.
func Complete(text string, caret int, tools []ToolDoc) []Suggestion {
	if caret < 0 || caret > len(text) {
		caret = len(text)
	}
	s := text[:caret]
	if strings.HasPrefix(strings.TrimSpace(s), "{") {
		return nil
	}
	open := strings.LastIndexByte(s, '[')
	start, body := open+1, s[open+1:]
	if open < 0 {
		start = len(s) - len(strings.TrimLeft(s, " \t\n"))
		body = s[start:]
	}
	paren := strings.IndexByte(body, '(')
	if paren < 0 {
		if body == "" && open < 0 || !isName(body) {
			return nil
		}
		var out []Suggestion
		for _, t := range tools {
			if strings.HasPrefix(strings.ToLower(t.Name), strings.ToLower(body)) && t.Name != body {
				ins := t.Name + "("
				if open < 0 {
					ins = "[" + ins
				}
				out = append(out, Suggestion{Label: t.Name, From: start, Insert: ins})
			}
		}
		return out
	}
	name, args := body[:paren], body[paren+1:]
	if strings.ContainsAny(args, ")") {
		return nil
	}
	var tool *ToolDoc
	for i := range tools {
		if tools[i].Name == name {
			tool = &tools[i]
		}
	}
	if tool == nil || inQuotes(args) {
		return nil
	}
	cut := strings.LastIndexAny(args, ",(")
	partial := strings.TrimLeft(args[cut+1:], " ")
	if strings.Contains(partial, "=") || !isName(partial) && partial != "" {
		return nil
	}
	from := caret - len(partial)
	var out []Suggestion
	for _, p := range tool.Params {
		if strings.Contains(args, p.Name+"=") || !strings.HasPrefix(p.Name, partial) {
			continue
		}
		out = append(out, Suggestion{Label: p.Name + "=", From: from, Insert: p.Name + "='"})
	}
	return out
}

// inQuotes tells whether the text ends inside a quoted value.
func inQuotes(s string) bool {
	var q rune
	for _, r := range s {
		switch {
		case q == 0 && (r == '\'' || r == '"'):
			q = r
		case r == q:
			q = 0
		}
	}
	return q != 0
}

func isName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// ByteOffset converts a cursor position in UTF-16 code units (what a textarea's selectionStart
// counts) into a byte offset in s.
func ByteOffset(s string, units int) int {
	n := 0
	for i, r := range s {
		if n >= units {
			return i
		}
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return len(s)
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}
