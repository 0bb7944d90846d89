package tools

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// Ctx is what a tool's behaviour sees while it runs: the world and its own declaration.
type Ctx struct {
	w    *World
	tool *Tool
}

// Call runs the named tool in world w with the given arguments, exactly as the original's api_call
// does for arguments that come from its text parser: each argument, in the map's order, must be a
// declared parameter and is converted by its declared type (see convert); missing required
// parameters fail the call; then the tool runs and answers an envelope {api_name, input, output,
// exception}. Errors that the original raises out of api_call instead of answering an envelope
// (unknown tool, invalid parameter name or type, missing arguments, a few uncaught tool errors) are
// returned as *Error with the original's text; the world is then unchanged.
func (c *Catalog) Call(w *World, name string, args *value.Map) (*value.Map, error) {
	return c.call(w, name, args, false)
}

// CallNative is Call for native tool calls, whose arguments are typed JSON: it differs only in that a
// JSON true for a bool parameter means true (the original's conversion accepts only the text "True").
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (c *Catalog) CallNative(w *World, name string, args *value.Map) (*value.Map, error) {
	return c.call(w, name, args, true)
}

func (c *Catalog) call(w *World, name string, args *value.Map, native bool) (*value.Map, error) {
	t, ok := c.Lookup(name)
	if !ok {
		return nil, escape(Plain, "invalid tool name.")
	}
	// The converted arguments in the map's order (few: a slice, not another map).
	var buf [8]arg
	converted := buf[:0]
	var err error
	args.Each(func(k string, v any) bool {
		p, ok := t.Param(k)
		if !ok {
			err = escape(Assertion, "invalid parameter name. parameter: "+k)
			return false
		}
		cv, e := convert(p.Type, v, native, w.base.repaired)
		if e != nil {
			err = e
			return false
		}
		converted = append(converted, arg{k, cv})
		return true
	})
	if err != nil {
		return nil, err
	}
	in := value.NewMap(max(len(t.Params), len(converted)))
	var missing []string
	for _, k := range t.order() {
		if v, ok := argOf(converted, k); ok {
			in.Set(k, v)
			continue
		}
		p, _ := t.Param(k)
		if p.Required {
			missing = append(missing, k)
			continue
		}
		if !p.Loose {
			in.Set(k, nil)
		}
	}
	if len(missing) > 0 {
		return nil, escape(Type, missingText(t.Name, missing))
	}
	for _, a := range converted {
		if !in.Has(a.key) {
			in.Set(a.key, a.val)
		}
	}
	// The world's own Ctx: no tool calls another, so one per world serves every call in it.
	w.ctx = Ctx{w: w, tool: t}
	out, err := t.run(&w.ctx, in)
	env := value.NewMap(4)
	if !t.Bare {
		name := t.nameValue
		if name == nil { // a tool outside a catalog (tests)
			name = t.Name
		}
		env.Set("api_name", name)
	}
	if len(t.Params) == 0 {
		env.Set("input", nil)
	} else {
		env.Set("input", in)
	}
	if err != nil {
		if e, ok := err.(*Error); ok {
			return nil, e
		}
		env.Set("output", nil)
		env.Set("exception", err.Error())
		return env, nil
	}
	env.Set("output", out)
	env.Set("exception", nil)
	return env, nil
}

// arg is one converted argument of a call.
type arg struct {
	key string
	val any
}

// argOf returns the converted argument called k.
func argOf(args []arg, k string) (any, bool) {
	for _, a := range args {
		if a.key == k {
			return a.val, true
		}
	}
	return nil, false
}

// missingText is Python's message for a call that lacks required positional arguments.
func missingText(tool string, names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + n + "'"
	}
	var list string
	switch len(quoted) {
	case 1:
		list = quoted[0]
	case 2:
		list = quoted[0] + " and " + quoted[1]
	default:
		list = strings.Join(quoted[:len(quoted)-1], ", ") + ", and " + quoted[len(quoted)-1]
	}
	plural := "s"
	if len(names) == 1 {
		plural = ""
	}
	return tool + ".call() missing " + strconv.Itoa(len(names)) + " required positional argument" + plural + ": " + list
}

// convert applies the original's conversion by declared type: int accepts only digit-only text
// (then int()), float only text that is digit-only once its first '.' is removed (then float()),
// bool is true only for the text "True", and str and list types pass through unchanged (so a list
// written in a call's text stays text). In a repaired world (Base.Repair: our data) a number's text
// may also carry a sign, as Python's int() and float() read it: our data has negative values (the
// longitudes west of Greenwich), which the original's digit test would refuse when quoted.
func convert(typ string, v any, native, repaired bool) (any, error) {
	if s, ok := v.(string); ok && repaired && (typ == "int" || typ == "float") && len(s) > 1 && (s[0] == '-' || s[0] == '+') {
		// Otherwise the original's conversion below refuses it, naming the text as written.
		if n, err := convert(typ, s[1:], native, false); err == nil {
			switch x := n.(type) {
			case int64:
				if s[0] == '-' {
					return -x, nil
				}
				return x, nil
			case float64:
				if s[0] == '-' {
					return -x, nil
				}
				return x, nil
			}
		}
	}
	switch typ {
	case "int":
		if s, ok := v.(string); ok {
			if !py.IsDigit(s) {
				return nil, escape(Assertion, "invalid parameter type. parameter: "+s)
			}
			n, err := py.Atoi(s)
			if err != nil {
				return nil, escape(Value, err.Error())
			}
			return n, nil
		}
		return pyInt(v)
	case "float":
		if s, ok := v.(string); ok {
			if !py.IsDigit(strings.Replace(s, ".", "", 1)) {
				return nil, escape(Assertion, "invalid parameter type.")
			}
			return parseFloat(s)
		}
		if f, ok := value.Float(v); ok {
			return f, nil
		}
		return nil, escape(Type, fmt.Sprintf("float() argument must be a string or a real number, not '%s'", pyTypeName(v)))
	case "bool":
		if native {
			if b, ok := v.(bool); ok {
				return b, nil
			}
		}
		s, ok := v.(string)
		return ok && s == "True", nil
	case "str", "list", "list(str)":
		return v, nil
	}
	return nil, escape(Assertion, "invalid parameter type.")
}

// pyInt is Python's int() of a non-text value.
func pyInt(v any) (any, error) {
	switch n := v.(type) {
	case int64:
		return n, nil
	case bool:
		if n {
			return int64(1), nil
		}
		return int64(0), nil
	case float64:
		if n != n || n > 9.2e18 || n < -9.2e18 {
			return nil, escape(Value, "cannot convert float NaN or infinity to integer")
		}
		return int64(n), nil
	}
	return nil, escape(Type, fmt.Sprintf("int() argument must be a string, a bytes-like object or a real number, not '%s'", pyTypeName(v)))
}

// parseFloat is Python's float() of a text that passed the digit test: digits of any script.
func parseFloat(s string) (any, error) {
	var b strings.Builder
	for _, r := range s {
		if r == '.' {
			b.WriteRune(r)
			continue
		}
		if !unicode.IsDigit(r) {
			return nil, escape(Value, "could not convert string to float: "+py.Repr(s))
		}
		b.WriteByte(byte('0' + digitValue(r)))
	}
	f, err := strconv.ParseFloat(b.String(), 64)
	if err != nil {
		return nil, escape(Value, "could not convert string to float: "+py.Repr(s))
	}
	return f, nil
}

// digitValue returns the value of a Unicode decimal digit. Decimal digits come in contiguous runs
// of ten starting at zero (a Unicode stability guarantee), so the value is the count of digits before
// r in its run of runs, modulo ten.
func digitValue(r rune) int {
	n := 0
	for unicode.IsDigit(r - rune(n+1)) {
		n++
	}
	return n % 10
}

// pyTypeName is Python's type name of a JSON-like value, for error texts.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func pyTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64, int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []any:
		return "list"
	case value.Tuple:
		return "tuple"
	case *value.Map:
		return "dict"
	}
	return "object"
}

// read returns a database of the running tool's world, for reading only.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (c *Ctx) read(name string) any { return c.w.read(name) }

// write returns the running tool's world's own copy of a database, for changing it.
func (c *Ctx) write(name string) any { return c.w.write(name) }

// table returns a database that is an object (the usual shape), for reading only.
func (c *Ctx) table(name string) *value.Map {
	m, _ := c.w.read(name).(*value.Map)
	if m == nil {
		return value.NewMap(0)
	}
	return m
}

// writeTable returns the world's own copy of an object database, for changing it.
func (c *Ctx) writeTable(name string) *value.Map { return c.ownTable(name, c.w.write(name)) }

// writeTop returns the world's own copy of an object database at its top level, for adding,
// replacing and removing records only: a record in it may be the base's, never to be changed in
// place (see World.writeTop; writeRecord gives a record to change).
func (c *Ctx) writeTop(name string) *value.Map { return c.ownTable(name, c.w.writeTop(name)) }

// ownTable returns v, the world's own copy of database name, as an object: a database of another
// shape is replaced in the world by an empty object, as the tools that write it expect.
func (c *Ctx) ownTable(name string, v any) *value.Map {
	m, _ := v.(*value.Map)
	if m == nil {
		m = value.NewMap(0)
		c.w.own[name] = m
	}
	return m
}

// writeRecord returns the world's own copy of the record under key of an object database, for
// changing it, and whether there is one that is an object.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (c *Ctx) writeRecord(table, key string) (*value.Map, bool) { return c.w.writeRecord(table, key) }

// user resolves a token to its username as CheckToken does: the first account, in file order, whose
// token equals the text exactly. It fails with "The token is invalid.".
func (c *Ctx) user(token any) (string, error) {
	found, user := false, ""
	c.table("Account").Each(func(name string, rec any) bool {
		if m, ok := rec.(*value.Map); ok {
			if t, ok := m.Get("token"); ok && value.Equal(t, token) {
				found, user = true, name
			}
		}
		return !found
	})
	if !found {
		return "", fail("The token is invalid.")
	}
	return user, nil
}
