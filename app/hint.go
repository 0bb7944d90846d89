package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/protocol"
)

// The error texts a hint reads are matched by the scanners at the end of this file rather than by
// package regexp, which the UI links for nothing else (about 85 KB of app.wasm on the wire); each
// scanner says the expression it stands for, and hint_test.go fuzzes it against that expression.

// ConcreteHint says what is wrong with a call, in terms of this call: which argument is missing, which
// name is not a parameter, which value or type differs, which kind of tool was expected. It never
// writes a gold value or the gold tool's name (the student asks for the answer to see them). It
// returns nothing when it has nothing more precise than the category's general hint.
func ConcreteHint(v protocol.CallVerdict, tools []ToolDoc) []string {
	called, goldTool := findTool(tools, v.Called), findTool(tools, v.Tool)
	var out []string
	switch v.Category {
	case "MISSED_NEED":
		// The verdict names the need missed ("the reply does not do what the case needs: asks ...").
		if _, need, ok := strings.Cut(v.Error, "needs: "); ok && need != "" {
			return []string{"Not calling was right, but your reply must also do this: " + need + "."}
		}
		return nil
	case "API_NAME_MISMATCH":
		out = append(out, fmt.Sprintf("You called %s, but this step needs another tool.", v.Called))
		if goldTool != nil && goldTool.Description != "" {
			out = append(out, "Look for the one that does this: "+goldTool.Description)
		}
		return out
	case "MISS_INPUT_ARGUMENT":
		if names, ok := missingArgs(v.Error); ok {
			for _, n := range quotedNames(names) {
				out = append(out, "The argument "+n+" is missing"+paramNote(called, n)+".")
			}
		}
	case "INVALID_INPUT_PARAMETER", "KEY_ERROR":
		if name, ok := badParam(v.Error); ok && called != nil {
			out = append(out, fmt.Sprintf("%s is not a parameter of %s. Its parameters are %s.", name, called.Name, paramNames(called)))
		}
	}
	if len(v.Result) == 0 {
		return out
	}
	mine, err1 := protocol.ReadEnvelope(v.Result)
	gold, err2 := protocol.ReadEnvelope(v.GoldResult)
	mineIn, err3 := orderedOf(mine.Input)
	goldIn, err4 := orderedOf(gold.Input)
	if errors.Join(err1, err2, err3, err4) != nil {
		return out
	}
	if text, _ := mine.Raised(); text != "" {
		out = append(out, fmt.Sprintf("The tool answered: “%s”", text))
	}
	if v.Called != v.Tool {
		return out
	}
	for _, g := range goldIn {
		got, ok := mineIn.Get(g.Key)
		switch {
		case !ok || string(got) == "null" && string(g.Value) != "null":
			out = append(out, "The call also needs "+g.Key+paramNote(called, g.Key)+".")
		case jsonKind(got) != jsonKind(g.Value):
			out = append(out, fmt.Sprintf("%s should be %s; you gave %s.", g.Key, jsonKind(g.Value), jsonKind(got)))
		case !same(got, g.Value):
			out = append(out, fmt.Sprintf("The value of %s (%s) is not the one the dialogue gives.", g.Key, strings.TrimSpace(string(got))))
		}
	}
	return out
}

func findTool(tools []ToolDoc, name string) *ToolDoc {
	for i := range tools {
		if tools[i].Name == name {
			return &tools[i]
		}
	}
	return nil
}

// paramNote describes a parameter for a hint: " (str: The user's token)".
func paramNote(t *ToolDoc, name string) string {
	if t == nil {
		return ""
	}
	for _, p := range t.Params {
		if p.Name == name {
			if p.Description == "" {
				return " (" + p.Type + ")"
			}
			return " (" + p.Type + ": " + strings.TrimSuffix(p.Description, ".") + ")"
		}
	}
	return ""
}

func paramNames(t *ToolDoc) string {
	names := make([]string, len(t.Params))
	for i, p := range t.Params {
		names[i] = p.Name
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// jsonKind names a JSON value's type in words.
func jsonKind(b json.RawMessage) string {
	s := strings.TrimSpace(string(b))
	switch {
	case s == "" || s == "null":
		return "nothing"
	case s[0] == '"':
		return "a text"
	case s[0] == '{':
		return "an object"
	case s[0] == '[':
		return "a list"
	case s == "true" || s == "false":
		return "a boolean"
	}
	return "a number"
}

// missingArgs is regexp `missing \d+ required positional arguments?: (.*)$`'s submatch in s: the
// text after the first "missing N required positional argument(s): " whose rest holds no newline.
func missingArgs(s string) (string, bool) {
	for i := 0; ; i++ {
		j := strings.Index(s[i:], "missing ")
		if j < 0 {
			return "", false
		}
		i += j
		k := i + len("missing ")
		d := k
		for d < len(s) && s[d] >= '0' && s[d] <= '9' {
			d++
		}
		if d == k {
			continue
		}
		rest, ok := strings.CutPrefix(s[d:], " required positional argument")
		if !ok {
			continue
		}
		rest = strings.TrimPrefix(rest, "s")
		if rest, ok = strings.CutPrefix(rest, ": "); ok && !strings.Contains(rest, "\n") {
			return rest, true
		}
	}
}

// quotedNames are regexp `'(\w+)'`'s submatches in s, leftmost first and not overlapping: the
// words of ASCII letters, digits and underscores between single quotes.
func quotedNames(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '\'' {
			continue
		}
		j := i + 1
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if j > i+1 && j < len(s) && s[j] == '\'' {
			out = append(out, s[i+1:j])
			i = j
		}
	}
	return out
}

// badParam is regexp `parameter: (\w+)`'s submatch in s: the word after the first "parameter: "
// that has one.
func badParam(s string) (string, bool) {
	for i := 0; ; {
		j := strings.Index(s[i:], "parameter: ")
		if j < 0 {
			return "", false
		}
		k := i + j + len("parameter: ")
		e := k
		for e < len(s) && isWordByte(s[e]) {
			e++
		}
		if e > k {
			return s[k:e], true
		}
		i = k
	}
}

// isWordByte is regexp's \w: an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
