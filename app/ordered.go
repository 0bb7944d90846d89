package app

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Field is one member of a JSON object.
type Field struct {
	Key   string
	Value json.RawMessage
}

// OrderedObject is a JSON object decoded with its members in their original order (a Go map would lose
// it, and the engine's databases and tool results keep the original's key order).
type OrderedObject []Field

// orderedOf reads a JSON object kept raw (empty when raw is absent or null).
func orderedOf(raw json.RawMessage) (OrderedObject, error) {
	var o OrderedObject
	if len(raw) == 0 {
		return nil, nil
	}
	err := json.Unmarshal(raw, &o)
	return o, err
}

// UnmarshalJSON reads a JSON object; null gives an empty object.
func (o *OrderedObject) UnmarshalJSON(b []byte) error {
	*o = nil
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("want a JSON object")
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, Field{Key: kt.(string), Value: v})
	}
	return nil
}

// Get returns the value of key.
func (o OrderedObject) Get(key string) (json.RawMessage, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// Pretty indents JSON for display; text that is not JSON comes back as it is.
func Pretty(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}
