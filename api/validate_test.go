package api

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// A small JSON Schema validator of ours (the subset openapi.json uses: $ref, type, const, enum,
// properties, required, additionalProperties, items, anyOf, minimum, maximum), so the tests check
// the handlers' real answers against the document, not the document against itself.

type validator struct{ doc map[string]any }

func newValidator(doc []byte) (*validator, error) {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	return &validator{doc: d}, nil
}

// resolve follows a local $ref ("#/components/schemas/X").
func (v *validator) resolve(ref string) (map[string]any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("only local $ref are supported: %s", ref)
	}
	var cur any = v.doc
	for _, part := range strings.Split(ref[2:], "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %s: %s is not an object", ref, part)
		}
		cur = m[part]
	}
	s, ok := cur.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("$ref %s resolves to nothing", ref)
	}
	return s, nil
}

// check validates value against schema; path names where the value is, for the error.
func (v *validator) check(schema map[string]any, value any, path string) error {
	if ref, ok := schema["$ref"].(string); ok {
		s, err := v.resolve(ref)
		if err != nil {
			return err
		}
		return v.check(s, value, path)
	}
	known := map[string]bool{"$ref": true, "type": true, "const": true, "enum": true, "properties": true, "required": true,
		"additionalProperties": true, "items": true, "anyOf": true, "minimum": true, "maximum": true, "description": true}
	for k := range schema {
		if !known[k] {
			return fmt.Errorf("%s: the schema uses %q, which this validator does not know", path, k)
		}
	}
	if t, ok := schema["type"]; ok {
		var types []string
		switch x := t.(type) {
		case string:
			types = []string{x}
		case []any:
			for _, e := range x {
				types = append(types, e.(string))
			}
		}
		matched := false
		for _, name := range types {
			if hasType(value, name) {
				matched = true
			}
		}
		if !matched {
			return fmt.Errorf("%s: %s is not of type %v", path, short(value), types)
		}
	}
	if c, ok := schema["const"]; ok && !reflect.DeepEqual(c, value) {
		return fmt.Errorf("%s: %s is not %v", path, short(value), c)
	}
	if e, ok := schema["enum"].([]any); ok {
		found := false
		for _, x := range e {
			if reflect.DeepEqual(x, value) {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("%s: %s is not one of %v", path, short(value), e)
		}
	}
	if n, ok := value.(float64); ok {
		if m, ok := schema["minimum"].(float64); ok && n < m {
			return fmt.Errorf("%s: %v is below %v", path, n, m)
		}
		if m, ok := schema["maximum"].(float64); ok && n > m {
			return fmt.Errorf("%s: %v is above %v", path, n, m)
		}
	}
	if alts, ok := schema["anyOf"].([]any); ok {
		var errs []string
		for _, s := range alts {
			err := v.check(s.(map[string]any), value, path)
			if err == nil {
				errs = nil
				break
			}
			errs = append(errs, err.Error())
		}
		if errs != nil {
			return fmt.Errorf("%s: matches none of anyOf: %s", path, strings.Join(errs, "; "))
		}
	}
	if obj, ok := value.(map[string]any); ok {
		props, _ := schema["properties"].(map[string]any)
		if req, ok := schema["required"].([]any); ok {
			for _, r := range req {
				if _, ok := obj[r.(string)]; !ok {
					return fmt.Errorf("%s: required member %q is missing", path, r)
				}
			}
		}
		for k, x := range obj {
			if ps, ok := props[k].(map[string]any); ok {
				if err := v.check(ps, x, path+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := schema["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: member %q is not in the document", path, k)
				}
			case map[string]any:
				if err := v.check(ap, x, path+"."+k); err != nil {
					return err
				}
			}
		}
	}
	if arr, ok := value.([]any); ok {
		if items, ok := schema["items"].(map[string]any); ok {
			for i, x := range arr {
				if err := v.check(items, x, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func hasType(value any, name string) bool {
	switch name {
	case "null":
		return value == nil
	case "boolean":
		_, ok := value.(bool)
		return ok
	case "string":
		_, ok := value.(string)
		return ok
	case "number":
		_, ok := value.(float64)
		return ok
	case "integer":
		n, ok := value.(float64)
		return ok && n == math.Trunc(n)
	case "array":
		_, ok := value.([]any)
		return ok
	case "object":
		_, ok := value.(map[string]any)
		return ok
	}
	return false
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

// response finds the documented response of path, method and status (405s: of any operation of
// the path), or an error saying it is not documented.
func (v *validator) response(path, method string, status int) (map[string]any, error) {
	item, _ := v.doc["paths"].(map[string]any)[path].(map[string]any)
	if item == nil {
		return nil, fmt.Errorf("path %s is not in the document", path)
	}
	ops := []string{strings.ToLower(method)}
	if status == 405 {
		ops = nil
		for m := range item {
			ops = append(ops, m)
		}
	}
	for _, m := range ops {
		op, _ := item[m].(map[string]any)
		if op == nil {
			continue
		}
		if r, ok := op["responses"].(map[string]any)[fmt.Sprint(status)].(map[string]any); ok {
			return r, nil
		}
	}
	return nil, fmt.Errorf("%s %s answers %d, which the document does not list", method, path, status)
}

// checkAnswer validates a whole answer body of the documented response: a JSON document, or NDJSON
// whose lines are x-ndjson-item (the last line of a score answer is a ScoreTail).
func (v *validator) checkAnswer(resp map[string]any, contentType string, body []byte) error {
	mt := strings.TrimSpace(strings.Split(contentType, ";")[0])
	content, _ := resp["content"].(map[string]any)[mt].(map[string]any)
	if content == nil {
		return fmt.Errorf("content type %q is not documented for this response", mt)
	}
	if mt == NDJSON {
		item, _ := content["x-ndjson-item"].(map[string]any)
		if item == nil {
			return fmt.Errorf("the NDJSON response has no x-ndjson-item")
		}
		lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
		for i, l := range lines {
			if l == "" {
				continue
			}
			var x any
			if err := json.Unmarshal([]byte(l), &x); err != nil {
				return fmt.Errorf("line %d is not JSON: %v", i+1, err)
			}
			schema := item
			if ref, _ := item["$ref"].(string); ref == "#/components/schemas/ScoreLine" && i == len(lines)-1 {
				schema = map[string]any{"$ref": "#/components/schemas/ScoreTail"}
			}
			if err := v.check(schema, x, fmt.Sprintf("line %d", i+1)); err != nil {
				return err
			}
		}
		return nil
	}
	var x any
	if err := json.Unmarshal(body, &x); err != nil {
		return fmt.Errorf("the answer is not JSON: %v", err)
	}
	return v.check(content["schema"].(map[string]any), x, "answer")
}

// TestValidator: the validator refuses what the document does not allow (else the document test
// would prove nothing).
func TestValidator(t *testing.T) {
	v, err := newValidator(openAPI)
	if err != nil {
		t.Fatal(err)
	}
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	tests := []struct {
		schema string
		value  string
		ok     bool
	}{
		{"Error", `{"error":{"code":"busy","message":"m"}}`, true},
		{"Error", `{"error":{"code":"busy","message":"m","line":0}}`, false},
		{"Error", `{"error":{"code":"oops","message":"m"}}`, false},
		{"Error", `{"error":{"code":"busy"}}`, false},
		{"Error", `{"error":{"code":"busy","message":"m"},"extra":1}`, false},
		{"Health", `{"status":"ok","engine":"e","protocol":1,"data":"builtin"}`, true},
		{"Health", `{"status":"ok","engine":"e","protocol":1.5,"data":"builtin"}`, false},
		{"ScoreLine", `{"error":"x","line":3}`, true},
		{"ScoreLine", `{"level":"l","file":"f","id":0,"kind":"call","category":"CORRECT","correct":true,"tool":"T"}`, true},
		{"ScoreLine", `{"level":"l","file":"f","id":0,"kind":"lunch"}`, false},
		{"RougeLine", `{"f":1.5}`, false},
		{"Report", `{"state":"fresh","data":"d","overall":{"calls":0,"correct":0,"accuracy":0,"replies":0,"rouge_l":0},"levels":null,"categories":null,"tools":null,"forms":{},"ceiling":null}`, true},
		{"Report", `{"state":"fresh","data":"d","overall":{"calls":0,"correct":0,"accuracy":0,"replies":0,"rouge_l":0},"levels":{},"categories":null,"tools":null,"forms":{},"ceiling":null}`, false},
	}
	for _, tt := range tests {
		var x any
		if err := json.Unmarshal([]byte(tt.value), &x); err != nil {
			t.Fatal(err)
		}
		err := v.check(ref(tt.schema), x, "value")
		if (err == nil) != tt.ok {
			t.Errorf("%s %s: error %v, want ok=%v", tt.schema, tt.value, err, tt.ok)
		}
	}
}
