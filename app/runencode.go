package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// encodeStep is how many predictions, responses, episodes or verdicts encodeRun encodes between two
// calls of its yield.
const encodeStep = 100

// encodeRun writes a saved run as json.Marshal does (the same bytes), its long lists (predictions,
// responses, episodes, verdicts) encodeStep items at a time with yield called between two steps:
// in the tab the whole of a level-1 run (megabytes of JSON) encoded at once was a long task on the
// page's thread when the finished run was saved.
func encodeRun(r *SavedRun, yield func()) ([]byte, error) {
	if yield == nil {
		yield = func() {}
	}
	// The run without its long lists as json.Marshal writes it (the lists as null, or left out),
	// then each list, encoded in steps, put in its place: Predictions, Responses, Episodes,
	// Failures and Batch are declared in that order, one after the other. (A json.RawMessage member
	// would be compacted again, all at once.)
	short := *r
	short.Predictions, short.Responses, short.Episodes, short.Failures, short.Batch = nil, nil, nil, nil, nil
	out, err := json.Marshal(&short)
	if err != nil {
		return nil, err
	}
	// Where the placeholders are, found in the short run before anything is put in (the lists'
	// text could hold the same bytes).
	at := map[string]int{}
	for _, member := range []string{"predictions", "episodes", "failures"} {
		i := bytes.Index(out, []byte(`"`+member+`":null`))
		if i < 0 {
			return nil, fmt.Errorf("encoding a run: no %s member", member)
		}
		at[member] = i + len(member) + 3 // the offset of its null
	}
	values := map[string][]byte{}
	preds, err := encodeList(r.Predictions, yield)
	if err != nil {
		return nil, err
	}
	if len(r.Responses) > 0 {
		m, err := encodeMap(r.Responses, yield)
		if err != nil {
			return nil, err
		}
		preds = append(append(preds, `,"responses":`...), m...)
	}
	values["predictions"] = preds
	list, err := encodeList(r.Episodes, yield)
	if err != nil {
		return nil, err
	}
	values["episodes"] = list
	fails, err := encodeList(r.Failures, yield)
	if err != nil {
		return nil, err
	}
	if b := r.Batch; b != nil {
		results, err := encodeList(b.Results, yield)
		if err != nil {
			return nil, err
		}
		errs, err := json.Marshal(b.Errors)
		if err != nil {
			return nil, err
		}
		rep, err := json.Marshal(b.Report)
		if err != nil {
			return nil, err
		}
		fails = append(fails, `,"batch":{"results":`...)
		fails = append(fails, results...)
		fails = append(append(fails, `,"errors":`...), errs...)
		fails = append(append(fails, `,"report":`...), rep...)
		fails = append(fails, '}')
	}
	values["failures"] = fails
	yield()
	var whole bytes.Buffer
	prev := 0
	for _, member := range []string{"predictions", "episodes", "failures"} {
		whole.Write(out[prev:at[member]])
		whole.Write(values[member])
		prev = at[member] + len("null")
	}
	whole.Write(out[prev:])
	return whole.Bytes(), nil
}

// encodeList writes a slice as json.Marshal does ("null" for a nil one), step by step.
func encodeList[T any](items []T, yield func()) (json.RawMessage, error) {
	if items == nil {
		return json.RawMessage("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range items {
		if i > 0 {
			b.WriteByte(',')
			if i%encodeStep == 0 {
				yield()
			}
		}
		one, err := json.Marshal(items[i])
		if err != nil {
			return nil, err
		}
		b.Write(one)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// encodeMap writes a map with string keys as json.Marshal does (keys sorted), step by step.
func encodeMap[T any](m map[string]T, yield func()) (json.RawMessage, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
			if i%encodeStep == 0 {
				yield()
			}
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(m[k])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
