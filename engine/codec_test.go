package engine

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// rawJSON is a non-zero json.RawMessage of every JSON kind, for the fields that carry any JSON.
var rawJSON = json.RawMessage(`{"k":[1,"two",true,null,{"x":2.5}]}`)

// fill sets v (addressable) to a non-zero value of its type, distinct per field (seed). It fails the
// test for a type it does not know: a new kind of field needs a line here, not a silent skip.
func fill(t *testing.T, path string, v reflect.Value, seed int) {
	t.Helper()
	if v.Type() == reflect.TypeFor[json.RawMessage]() {
		v.SetBytes(rawJSON)
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("value-" + strings.ToLower(path))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(7 + seed))
	case reflect.Uint8:
		v.SetUint(uint64('a' + seed%26))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, path, v.Elem(), seed)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(t, path, v.Index(i), seed+i)
		}
	case reflect.Map:
		m := reflect.MakeMapWithSize(v.Type(), 2)
		for i := range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, path+"-key"+string(rune('a'+i)), k, seed+i)
			fill(t, path, e, seed+i)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(t, path+"."+v.Type().Field(i).Name, v.Field(i), seed+i)
			}
		}
	default:
		t.Fatalf("%s: no non-zero value for a %s: teach fill this type", path, v.Type())
	}
}

// TestDecodeRequestKnowsEveryField: every field of protocol.Request, set alone to a non-zero value
// and encoded as a host encodes it (encoding/json), comes out of the engine's own decoder equal. The
// decoder lists the fields by hand for speed; a field added to the protocol and not to the decoder
// fails here instead of being dropped without a word.
func TestDecodeRequestKnowsEveryField(t *testing.T) {
	typ := reflect.TypeFor[protocol.Request]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			req := protocol.Request{V: protocol.Version, Op: "some_op"}
			field := reflect.ValueOf(&req).Elem().Field(i)
			fill(t, f.Name, field, i)
			switch f.Name {
			case "Form": // the decoder refuses any other value
				req.Form = protocol.FormNative
			case "Parts", "Body": // parts announce the files of a load's body; a body goes with an op that reads one
				req.Op, req.Parts = protocol.OpLoad, []protocol.Part{{Path: "a/b.json", Size: 2}, {Path: "c.jsonl", Size: 3}}
				req.Body = []byte("{}abc")
			}
			wire, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			if tag := f.Tag.Get("json"); tag == "-" {
				if f.Name != "Body" {
					t.Fatalf("%s is not on the wire: the test knows only Body so", f.Name)
				}
			} else if name, _, _ := strings.Cut(tag, ","); !bytes.Contains(wire, []byte(`"`+name+`":`)) {
				t.Fatalf("the request's JSON lacks %q: %s", name, wire)
			}
			if req.Body != nil {
				wire = append(append(wire, '\n'), req.Body...)
			}
			got, err := decodeRequest(wire)
			if err != nil {
				t.Fatalf("the engine refuses %s: %v", wire, err)
			}
			want := field.Interface()
			have := reflect.ValueOf(got).Elem().Field(i).Interface()
			if raw, ok := want.(json.RawMessage); ok {
				want, have = canonical(t, raw), canonical(t, have.(json.RawMessage))
			}
			if !reflect.DeepEqual(have, want) {
				t.Errorf("field %s: the engine decoded %#v, want %#v (from %s)", f.Name, have, want, wire)
			}
		})
	}
}

// TestDecodeRequestAllFieldsAtOnce: a request with every field set (but the parts, which need a
// body of their own) decodes equal, so no field lands in another's place.
func TestDecodeRequestAllFieldsAtOnce(t *testing.T) {
	var req protocol.Request
	v := reflect.ValueOf(&req).Elem()
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() && f.Name != "Parts" && f.Name != "Body" {
			fill(t, f.Name, v.Field(i), i)
		}
	}
	req.V, req.Form = protocol.Version, protocol.FormText
	wire, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRequest(wire)
	if err != nil {
		t.Fatalf("the engine refuses %s: %v", wire, err)
	}
	if c := canonical(t, got.ID); c != canonical(t, req.ID) {
		t.Errorf("ID %s, want %s", got.ID, req.ID)
	}
	if c := canonical(t, got.Call); c != canonical(t, req.Call) {
		t.Errorf("Call %s, want %s", got.Call, req.Call)
	}
	got.ID, got.Call, req.ID, req.Call = nil, nil, nil, nil
	if !reflect.DeepEqual(*got, req) {
		t.Errorf("the engine decoded\n%+v\nwant\n%+v", *got, req)
	}
}

// canonical re-encodes JSON text so that two spellings of one value compare equal.
func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
