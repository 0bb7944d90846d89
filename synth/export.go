package synth

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/apibank-playground/apibank/protocol"
)

// Dataset is the accepted dialogues as a folder in the original layout (path -> text): one
// lv1-lv2-samples/level-1-given-desc/*.jsonl file each, and the initial world they ran in as
// init_database/*.json, so that the folder loads, validates and replays on its own.
func Dataset(ctx context.Context, do protocol.Transport, o *Outcome) (map[string]string, error) {
	w, err := protocol.Call[protocol.WorldFiles](ctx, do, protocol.Request{Op: protocol.OpWorldFiles})
	if err != nil {
		return nil, err
	}
	files := w.Files
	for _, c := range o.Accepted() {
		files[c.Check.File] = c.Check.Text
	}
	return files, nil
}

// zipTime is every zip entry's time: the same dataset makes the same bytes.
var zipTime = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)

// Zip packs a folder (path -> text) under a top folder named name, paths sorted.
func Zip(name string, files map[string]string) ([]byte, error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, p := range paths {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name + "/" + p, Method: zip.Deflate, Modified: zipTime})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(files[p])); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// chatMessage is a message of a training conversation, in the chat-completions wire form.
type chatMessage struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCalls  []chatCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type chatCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// trainingLine is one conversation of the training JSONL.
type trainingLine struct {
	Messages []chatMessage    `json:"messages"`
	Tools    []map[string]any `json:"tools,omitempty"`
}

// Training writes the accepted dialogues as chat-format training JSONL, one conversation a line:
// the user's request, each step as an assistant message with its tool calls in OpenAI form and a
// tool message per output, then the reply; with the schemas of the tools the prompt offered.
func Training(ctx context.Context, do protocol.Transport, o *Outcome) ([]byte, error) {
	cat, err := protocol.Call[protocol.Catalog](ctx, do, protocol.Request{Op: protocol.OpCatalog, Form: protocol.FormNative})
	if err != nil {
		return nil, err
	}
	list, err := cat.ToolSchemas()
	if err != nil {
		return nil, err
	}
	schemas := map[string]json.RawMessage{}
	for _, s := range list {
		schemas[s.Function.Name] = s.Raw
	}
	// Every conversation offers the tools the prompt offered: a special case's right answer (no
	// call) means something only beside the tools that do not fit.
	var offered []map[string]any
	for _, n := range o.Prompt.Tools {
		if raw, ok := schemas[n]; ok {
			var s map[string]any
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, fmt.Errorf("the schema of %s: %w", n, err)
			}
			offered = append(offered, s)
		}
	}
	var b bytes.Buffer
	for _, c := range o.Accepted() {
		line, err := trainingOf(c.Check.Candidate, offered)
		if err != nil {
			return nil, fmt.Errorf("candidate %d: %w", c.Index, err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

func text(s string) *string { return &s }

func trainingOf(c *protocol.SynthCandidate, tools []map[string]any) ([]byte, error) {
	if c == nil {
		return nil, fmt.Errorf("no candidate")
	}
	l := trainingLine{Messages: []chatMessage{{Role: "user", Content: text(c.Request)}}, Tools: tools}
	for i, step := range c.Steps {
		msg := chatMessage{Role: "assistant"}
		var results []chatMessage
		for j, call := range step {
			cc := chatCall{ID: fmt.Sprintf("call_%d_%d", i+1, j+1), Type: "function"}
			cc.Function.Name, cc.Function.Arguments = call.Name, compact(call.Arguments)
			msg.ToolCalls = append(msg.ToolCalls, cc)
			out := "null"
			if i < len(c.Outputs) && j < len(c.Outputs[i]) {
				out = compact(c.Outputs[i][j].Output)
			}
			results = append(results, chatMessage{Role: "tool", ToolCallID: cc.ID, Content: text(out)})
		}
		l.Messages = append(append(l.Messages, msg), results...)
	}
	l.Messages = append(l.Messages, chatMessage{Role: "assistant", Content: text(c.Reply)})
	return json.Marshal(l)
}
