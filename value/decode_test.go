package value

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestDecodeMarshal(t *testing.T) {
	tests := []struct{ in, out string }{
		{`{"b": 1, "a": [1.0, 2e3, -0, "x"], "c": null, "d": true}`, `{"b":1,"a":[1.0,2000.0,0,"x"],"c":null,"d":true}`},
		{`{"k": 1, "k": 2, "j": 3}`, `{"k":2,"j":3}`},
		{`"caf\u00e9 \ud83d\ude00 \ud800 \n\t\"\\\/"`, `"café 😀 ` + "\ufffd" + ` \n\t\"\\/"`},
		{`123456789012345678901234567890`, `1.2345678901234568e+29`},
		{`[NaN, Infinity, -Infinity]`, `["NaN","Infinity","-Infinity"]`},
		{` [ ] `, `[]`},
		{`{"html": "<a href='x'>&</a>"}`, `{"html":"<a href='x'>&</a>"}`},
	}
	for _, tt := range tests {
		v, err := DecodeString(tt.in)
		if err != nil {
			t.Errorf("Decode(%s): %v", tt.in, err)
			continue
		}
		if got := string(Marshal(v)); got != tt.out {
			t.Errorf("Decode(%s) -> %s, want %s", tt.in, got, tt.out)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a" 1}`, `[1,]`, `01`, `1.`, `"abc`, `"\x"`, `{"a":1} x`, `tru`, "\"a\x01\"", `{1:2}`} {
		if _, err := DecodeString(in); err == nil {
			t.Errorf("Decode(%q) succeeded", in)
		} else if _, ok := err.(*SyntaxError); !ok {
			t.Errorf("Decode(%q): error %T is not a *SyntaxError", in, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00"`, `1e400`, `[`, `-`, `{"a":"\u0000"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := DecodeString(s)
		if err != nil {
			return
		}
		// What decodes re-encodes to JSON that decodes to an equal value (NaN aside).
		again, err := Decode(Marshal(v))
		if err != nil {
			t.Fatalf("re-decode of %s: %v", Marshal(v), err)
		}
		if !json.Valid(Marshal(again)) {
			t.Fatalf("Marshal produced invalid JSON: %s", Marshal(again))
		}
	})
}

func TestDecodeFields(t *testing.T) {
	in := `{"file": "a.jsonl", "detail": {"x": [1, {"y": "z\"}"}], "n": null}, "id": 3, "pred": "[A()]"}`
	m, err := DecodeFields([]byte(in), func(k string) bool { return k != "detail" })
	if err != nil {
		t.Fatal(err)
	}
	if got := string(Marshal(m)); got != `{"file":"a.jsonl","id":3,"pred":"[A()]"}` {
		t.Errorf("DecodeFields = %s", got)
	}
	for _, bad := range []string{`{"a": {"b": }`, `{"a": [1, 2}`, `{"a": "x`, `{"a": tru}`, `{"a": 1} x`, `[1]`} {
		if _, err := DecodeFields([]byte(bad), func(string) bool { return false }); err == nil {
			t.Errorf("DecodeFields(%s) succeeded", bad)
		}
	}
}

// TestDecodeStringsLikeEncodingJSON compares string decoding with encoding/json on random texts
// (quotes, backslashes, control characters, non-ASCII, invalid UTF-8) written with every escape JSON
// has, long plain runs between them included.
func TestDecodeStringsLikeEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "plain text ", strings.Repeat("x", 300), `"`, `\`, "/", "\n", "\t", "\x01", "é", "😀", "\u2028", "\xff", "\ud7ff"}
	escapes := []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00x`, `\u0000`}
	for i := range 3000 {
		var raw strings.Builder
		raw.WriteByte('"')
		for range rng.IntN(12) {
			if rng.IntN(2) == 0 {
				raw.WriteString(escapes[rng.IntN(len(escapes))])
				continue
			}
			enc, _ := json.Marshal(pieces[rng.IntN(len(pieces))])
			raw.WriteString(string(enc[1 : len(enc)-1]))
		}
		raw.WriteByte('"')
		in := raw.String()
		if i%3 == 0 {
			// Raw (unescaped) bytes that JSON allows inside strings, invalid UTF-8 among them.
			in = `"` + pieces[rng.IntN(len(pieces))] + in[1:]
			if strings.ContainsAny(in[1:2], "\"\\\n\t\x01") {
				continue
			}
		}
		var want string
		wantErr := json.Unmarshal([]byte(in), &want)
		got, err := DecodeString(in)
		if (err != nil) != (wantErr != nil) || (err == nil && got != want) {
			t.Fatalf("DecodeString(%q) = %q, %v; encoding/json gives %q, %v", in, got, err, want, wantErr)
		}
	}
}

// TestDecodeFieldsKeys: plain and escaped keys are matched alike, wanted or not.
func TestDecodeFieldsKeys(t *testing.T) {
	want := func(k string) bool { return k == "file" || k == "" || k == "é" }
	tests := []struct{ in, out string }{
		{`{"file": 1, "other": 2}`, `{"file":1}`},
		{`{"fi\u006ce": 1, "oth\u0065r": 2}`, `{"file":1}`},
		{`{"": 1, "x": {"file": 3}}`, `{"":1}`},
		{`{"\u00e9": 1, "é": 2, "e\u0301": 3}`, `{"é":2}`},
		{"{\"\xff\": 1, \"file\": 2}", `{"file":2}`},
	}
	for _, tt := range tests {
		m, err := DecodeFields([]byte(tt.in), want)
		if err != nil {
			t.Fatalf("DecodeFields(%s): %v", tt.in, err)
		}
		if got := string(Marshal(m)); got != tt.out {
			t.Errorf("DecodeFields(%s) = %s, want %s", tt.in, got, tt.out)
		}
	}
}

func TestDecodeHead(t *testing.T) {
	tests := []struct{ in, head, rest string }{
		{`{"op":"x"}` + "\nraw {not json", `{"op":"x"}`, "\nraw {not json"},
		{` [1, 2]  tail`, `[1,2]`, "  tail"},
		{`"s"`, `"s"`, ""},
		{"{\n \"a\": 1\n}\n", `{"a":1}`, "\n"},
	}
	for _, tt := range tests {
		v, rest, err := DecodeHead([]byte(tt.in))
		if err != nil {
			t.Errorf("DecodeHead(%q): %v", tt.in, err)
			continue
		}
		if got := string(Marshal(v)); got != tt.head || string(rest) != tt.rest {
			t.Errorf("DecodeHead(%q) = %s, %q; want %s, %q", tt.in, got, rest, tt.head, tt.rest)
		}
	}
	for _, bad := range []string{``, `{"a": `, `tail`} {
		if _, _, err := DecodeHead([]byte(bad)); err == nil {
			t.Errorf("DecodeHead(%q) succeeded", bad)
		}
	}
}

// TestSkipHead: SkipHead ends a value where DecodeHead does, and refuses what it refuses.
func TestSkipHead(t *testing.T) {
	for _, in := range []string{
		`{"op":"x"}` + "\nraw {not json", ` [1, 2]  tail`, `"s"`, "{\n \"a\": 1\n}\n",
		`{"t": "a \"quoted\" \u00e9 text", "n": [1.5, -2e3, true, null, {"x": []}]}, {"next": 1}`,
		``, `{"a": `, `tail`, `{"a" 1}`, `[1,]`,
	} {
		_, want, werr := DecodeHead([]byte(in))
		got, err := SkipHead([]byte(in))
		if (err == nil) != (werr == nil) || string(got) != string(want) {
			t.Errorf("SkipHead(%q) = %q, %v; DecodeHead leaves %q, %v", in, got, err, want, werr)
		}
	}
}

// TestFieldReaderEqualsDecodeFields: one reader decoding many objects in a row gives, object by
// object, what DecodeFields gives (values, order, errors), with many more distinct texts than it
// shares, and values it returned earlier stay intact.
func TestFieldReaderEqualsDecodeFields(t *testing.T) {
	want := func(k string) bool { return k == "file" || k == "id" || k == "pred" || k == "é" }
	lines := []string{
		`{"file": "a.jsonl", "detail": {"x": [1, {"y": "z\"}"}]}, "id": 3, "pred": "[A()]"}`,
		`{"pred": {"name": "B", "arguments": {"k": "v"}}, "file": "a.jsonl", "file": "b.jsonl"}`,
		`{"fi\u006ce": "c", "\u00e9": "é", "id": -1}`,
		`{"file": "x", "id": 1} trailing`,
		`{"file": "unterminated`,
		`[1, 2]`,
		`{}`,
		`{"file": "` + strings.Repeat("long ", 40) + `", "id": 1.5}`,
	}
	for i := range 5000 { // more distinct texts and keys than a reader shares
		lines = append(lines, fmt.Sprintf(`{"file": "f%d.jsonl", "id": %d, "k%d": 1, "pred": {"a%d": "t%d"}}`, i, i, i, i, i))
		// Texts that repeat (shared) between texts met once, and integers of every size.
		lines = append(lines, fmt.Sprintf(`{"file": "r%d.jsonl", "id": %d, "pred": "[P%d()]"}`, i%3, -i*7919*1000003*1000003, i))
	}
	lines = append(lines, `{"id": -0}`, `{"id": 999999999999999999}`, `{"id": 9223372036854775807}`,
		`{"id": -9223372036854775808}`, `{"id": 9223372036854775808}`, `{"id": 12345678901234567890123}`)
	for _, share := range [][]string{nil, {"file", "level"}} {
		t.Run(fmt.Sprintf("share %q", share), func(t *testing.T) { fieldReaderEqualsDecodeFields(t, NewFieldReader(want, share...), want, lines) })
		keys := []string{"file", "id", "pred", "é"}
		t.Run(fmt.Sprintf("members share %q", share), func(t *testing.T) { membersEqualDecodeFields(t, NewMemberReader(keys, share...), keys, lines) })
	}
}

// fieldReaderEqualsDecodeFields decodes lines with r and with DecodeFields, and checks they agree.
func fieldReaderEqualsDecodeFields(t *testing.T, r *FieldReader, want func(string) bool, lines []string) {
	var kept []any
	var keptWant []string
	for _, line := range lines {
		m, err := r.Decode([]byte(line))
		wm, werr := DecodeFields([]byte(line), want)
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("%s: reader error %v, DecodeFields error %v", line, err, werr)
		}
		if err != nil {
			continue
		}
		if got, w := string(Marshal(m)), string(Marshal(wm)); got != w {
			t.Fatalf("%s: reader %s, DecodeFields %s", line, got, w)
		}
		if v, ok := m.Get("pred"); ok {
			kept = append(kept, v)
			keptWant = append(keptWant, string(Marshal(v)))
		}
	}
	for i, v := range kept {
		if got := string(Marshal(v)); got != keptWant[i] {
			t.Fatalf("value %d changed after later decodes: %s, was %s", i, got, keptWant[i])
		}
	}
}

// TestDecodeIntegers: integers are read without strconv up to 18 digits; every size gives what
// strconv gives (an int64 when it fits, else a float), negative zero included.
func TestDecodeIntegers(t *testing.T) {
	for _, text := range []string{"0", "-0", "7", "-7", "255", "256", "123456789012345678", "-123456789012345678",
		"999999999999999999", "1000000000000000000", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "-9223372036854775809", "123456789012345678901234567890"} {
		var want any
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			want = n
		} else {
			f, _ := strconv.ParseFloat(text, 64)
			want = f
		}
		got, err := DecodeString(text)
		if err != nil || got != want {
			t.Errorf("Decode(%s) = %#v, %v; want %#v", text, got, err, want)
		}
	}
}

// TestPlainScans: the word-at-a-time scans stop where a byte-by-byte scan stops, whatever byte
// sits wherever: each of the bytes that end a run or border on them, at every position of texts of
// every length around the word size.
func TestPlainScans(t *testing.T) {
	byByte := func(data []byte, i int) (int, bool) {
		ascii := true
		for ; i < len(data) && data[i] != '"' && data[i] != '\\' && data[i] >= 0x20; i++ {
			ascii = ascii && data[i] < 0x80
		}
		return i, ascii
	}
	for _, c := range []byte{'"', '\\', 0x00, 0x01, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xc3, 0xff} {
		for n := 0; n <= 26; n++ {
			for at := 0; at < n; at++ {
				for from := 0; from <= n && from <= 9; from++ {
					data := []byte(strings.Repeat("abcdefgh", 4)[:n])
					data[at] = c
					wantEnd, wantASCII := byByte(data, from)
					if got := plainEnd(data, from); got != wantEnd {
						t.Fatalf("plainEnd(%q, %d) = %d, want %d", data, from, got, wantEnd)
					}
					if got, ascii := plainEndASCII(data, from); got != wantEnd || ascii != wantASCII {
						t.Fatalf("plainEndASCII(%q, %d) = %d, %v; want %d, %v", data, from, got, ascii, wantEnd, wantASCII)
					}
				}
			}
		}
	}
}
