// Package tools is API-Bank's runnable world: the databases the tools read and write, and the tools of
// both catalogs (APIs for levels 1-2, LV3 for level 3) with the original's names, parameters,
// exception texts, output shapes and correctness checks, quirks included (see RATIONALE.md).
//
// The package is pure: no I/O, no clock, no network. Dictionary and Translate answer from tables in the
// world; random ids come from the world's seeded generator, so every run is reproducible.
package tools

import (
	"sort"

	"github.com/apibank-playground/apibank/value"
)

// Param declares one input parameter of a tool.
type Param struct {
	// Name is the keyword a call uses.
	Name string
	// Type is the declared type as the original writes it: str, int, float, bool, list or list(str).
	// It decides the conversion a call applies (see Call).
	Type string
	// Description is our own one-line description, shown in prompts and the catalog.
	Description string
	// Required is true when omitting the parameter makes the call fail with a missing-argument error.
	Required bool
	// Loose marks an optional parameter taken as an extra keyword: when omitted it is absent from the
	// result envelope's input instead of holding a default (ForgotPassword, Translate).
	Loose bool
	// Alike says which other values of the parameter mean the same to the tool (see Alike): a
	// level-3 episode is judged by what its calls do, not by how their arguments are written.
	Alike Alike
}

// Alike names the values of a parameter that mean the same as a given one, beyond an equal value.
// A level-3 episode's call whose every argument is alike to its gold call's is that gold call
// (score.Episode): a plan is judged by its effect and its values, not by its text.
type Alike int

const (
	// Equal: only an equal value (Python's ==, so 3 and 3.0 are alike).
	Equal Alike = iota
	// AnyCase: a text in any letter case (the tool reads it lowered: ClothingRecommendation's
	// weather).
	AnyCase
	// AnyOrder: a list with the same items in any order (a meeting's attendees, favourite genres).
	AnyOrder
	// SameResult: any value that gives the call the same output (a Calculator formula of the same
	// value, 70000+140000 for 140000+70000).
	SameResult
)

// Field declares one output field of a tool, for the catalog.
type Field struct {
	Name, Type, Description string
}

// Tool is one runnable tool: its declaration (what prompts and the catalog show) and its behaviour.
type Tool struct {
	// Name is the tool's exact, case-sensitive name.
	Name string
	// Description is our own short description of what the tool does.
	Description string
	// Params are the input parameters in declaration order.
	Params []Param
	// Order is the positional order of the original's call signature: the order of the envelope's
	// input and of missing-argument messages. Nil means the order of Params.
	Order []string
	// Outputs are the declared output fields.
	Outputs []Field
	// Database names the world database the tool reads or writes ("" for none).
	Database string
	// Bare marks the four tools whose envelope has no api_name (CheckToken, DeleteAccount,
	// ForgotPassword, RegisterUser), as in the original.
	Bare bool

	run   func(c *Ctx, in *value.Map) (any, error)
	check func(resp, gold *value.Map) (bool, error)
	// repaired, when set, is a check without a defect of the original's (see CheckRepaired).
	repaired func(resp, gold *value.Map) (bool, error)
	// paramOrder is the names of Params in order, kept so that a call does not rebuild it.
	paramOrder []string
	// nameValue is Name as a value, stored in every envelope's api_name without an allocation.
	nameValue any
	// entryTexts are the texts of the tool's Entry as values (see entryValues), made with its catalog.
	entryTexts []any
}

// Param returns the declared parameter called name.
func (t *Tool) Param(name string) (Param, bool) {
	for _, p := range t.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// order returns the call order of the parameters (computed once, when the catalog is built).
func (t *Tool) order() []string {
	if t.Order != nil {
		return t.Order
	}
	if t.paramOrder != nil {
		return t.paramOrder
	}
	names := make([]string, len(t.Params))
	for i, p := range t.Params {
		names[i] = p.Name
	}
	return names
}

// TakesToken reports whether the tool has a token input.
func (t *Tool) TakesToken() bool {
	_, ok := t.Param("token")
	return ok
}

// Catalog is a named, ordered set of tools: APIs (levels 1-2) or LV3 (level 3).
type Catalog struct {
	// Name is "apis" or "lv3_apis", the original's folder names.
	Name  string
	tools []*Tool
	index map[string]*Tool
}

func newCatalog(name string, list ...[]*Tool) *Catalog {
	c := &Catalog{Name: name, index: map[string]*Tool{}}
	for _, l := range list {
		for _, t := range l {
			if _, dup := c.index[t.Name]; dup {
				panic("tools: duplicate tool " + t.Name + " in " + name)
			}
			c.index[t.Name] = t
			c.tools = append(c.tools, t)
			t.paramOrder = t.order()
			t.nameValue = t.Name
			t.entryTexts = t.entryValues()
		}
	}
	sort.Slice(c.tools, func(i, j int) bool { return c.tools[i].Name < c.tools[j].Name })
	return c
}

// Tools returns the catalog's tools sorted by name. The slice is shared: do not modify it.
func (c *Catalog) Tools() []*Tool { return c.tools }

// Lookup returns the tool called name (exact, case-sensitive).
func (c *Catalog) Lookup(name string) (*Tool, bool) {
	t, ok := c.index[name]
	return t, ok
}

// Catalogs of the original benchmark, built once.
var (
	// APIs is the catalog of levels 1 and 2 (the original's apis folder, 53 tools).
	APIs = newCatalog("apis", accountTools(), calendarTools(), homeTools(), healthTools(), infoTools(), []*Tool{toolSearcher(false)})
	// LV3 is the catalog of level 3 (the original's lv3_apis folder, 22 tools).
	LV3 = newCatalog("lv3_apis", lv3Tools(), []*Tool{toolSearcher(true)})
)

// CatalogByName returns APIs for "apis" (or "", "lv1", "lv2") and LV3 for "lv3_apis" (or "lv3").
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func CatalogByName(name string) (*Catalog, bool) {
	switch name {
	case "", "apis", "lv1", "lv2", "level-1-given-desc", "level-2-toolsearcher":
		return APIs, true
	case "lv3_apis", "lv3", "level-3":
		return LV3, true
	}
	return nil, false
}
