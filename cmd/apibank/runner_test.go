package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestCallWithFilesFraming: callWithFiles sends the bytes protocol.Encode makes of the same request
// with its files as parts and body (asParts), whatever the files, and decodes the answer.
func TestCallWithFilesFraming(t *testing.T) {
	cases := map[string]map[string][]byte{
		"none":  {},
		"one":   {"init_database/Alarm.json": []byte(`{"a": {}}`)},
		"empty": {"b.jsonl": nil, "a.jsonl": []byte("{}\n")},
		"several": {
			"lv1-lv2-samples/level-1-given-desc/z.jsonl": []byte("{\"role\":\"User\",\"text\":\"hi\"}\n"),
			"init_database/Wiki.json":                    []byte("[\"\\u00e9\", \"\n\"]"),
			"lv3-samples/a.txt":                          []byte("line\r\nline"),
		},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			parts, body := asParts(files)
			if body == nil {
				body = []byte{}
			}
			want, err := protocol.Encode(protocol.Request{Op: protocol.OpLoad, Name: "d", Parts: parts, Body: body})
			if err != nil {
				t.Fatal(err)
			}
			var sent []byte
			r := runner{do: func(_ context.Context, req []byte) ([]byte, error) {
				sent = req
				return []byte(`{"v":1,"ok":true,"result":{"name":"d","dialogues":{},"scenes":0,"databases":[],"tables":"world","errors":[]}}`), nil
			}}
			got, err := callWithFiles[protocol.Loaded](r, protocol.Request{Op: protocol.OpLoad, Name: "d"}, files)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(sent, want) {
				t.Errorf("sent\n%q\nwant\n%q", sent, want)
			}
			if got.Name != "d" || got.Tables != "world" {
				t.Errorf("answer decoded as %+v", got)
			}
		})
	}
}
