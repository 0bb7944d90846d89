package app

import (
	"bytes"
	"encoding/json"
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
	// The run's short members as json.Marshal writes them, then its long lists, which are the last
	// members, appended as written (a json.RawMessage member would be compacted again, all at once).
	h, err := json.Marshal(struct {
		Format    string      `json:"format"`
		ID        string      `json:"id"`
		Host      string      `json:"host"`
		Settings  RunSettings `json:"settings"`
		Status    string      `json:"status"`
		Started   string      `json:"started"`
		Ended     string      `json:"ended,omitempty"`
		Engine    string      `json:"engine"`
		Data      string      `json:"data"`
		DataHash  string      `json:"data_hash"`
		Total     int         `json:"total"`
		TokensIn  int         `json:"tokens_in"`
		TokensOut int         `json:"tokens_out"`
	}{r.Format, r.ID, r.Host, r.Settings, r.Status, r.Started, r.Ended, r.Engine, r.Data, r.DataHash, r.Total, r.TokensIn, r.TokensOut})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(h[:len(h)-1]) // without its closing brace
	member := func(name string, value []byte) {
		out.WriteString(`,"` + name + `":`)
		out.Write(value)
	}
	list, err := encodeList(r.Predictions, yield)
	if err != nil {
		return nil, err
	}
	member("predictions", list)
	if len(r.Responses) > 0 {
		m, err := encodeMap(r.Responses, yield)
		if err != nil {
			return nil, err
		}
		member("responses", m)
	}
	if list, err = encodeList(r.Episodes, yield); err != nil {
		return nil, err
	}
	member("episodes", list)
	if list, err = encodeList(r.Failures, yield); err != nil {
		return nil, err
	}
	member("failures", list)
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
		out.WriteString(`,"batch":{"results":`)
		out.Write(results)
		out.WriteString(`,"errors":`)
		out.Write(errs)
		out.WriteString(`,"report":`)
		out.Write(rep)
		out.WriteByte('}')
	}
	out.WriteByte('}')
	return out.Bytes(), nil
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
