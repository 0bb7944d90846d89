package synth

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/apibank-playground/apibank/internal/zipfile"
	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
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

// Zip packs a folder (path -> text) under a top folder named name, paths sorted, each file
// compressed by deflate (raw deflate data: zipfile.Deflate, or the browser's in the tab).
func Zip(name string, files map[string]string, deflate func([]byte) ([]byte, error)) ([]byte, error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	zf := make([]zipfile.File, len(paths))
	for i, p := range paths {
		zf[i] = zipfile.File{Name: name + "/" + p, Data: []byte(files[p])}
	}
	return zipfile.Write(zf, zipTime, deflate)
}

// Training writes the accepted dialogues as chat-format training JSONL, one conversation a line:
// the user's request, each step as an assistant message with its tool calls in OpenAI form and a
// tool message per output, then the reply; with the schemas of the tools the prompt offered.
func Training(ctx context.Context, do protocol.Transport, o *Outcome) ([]byte, error) {
	cat, err := protocol.Call[protocol.Catalog](ctx, do, protocol.Request{Op: protocol.OpCatalog, Form: protocol.FormNative})
	if err != nil {
		return nil, err
	}
	list, err := run.Tools(cat.Schemas)
	if err != nil {
		return nil, err
	}
	schemas := map[string]model.Tool{}
	for _, t := range list {
		schemas[t.Name] = t
	}
	// Every conversation offers the tools the prompt offered: a special case's right answer (no
	// call) means something only beside the tools that do not fit.
	var offered []model.Tool
	for _, n := range o.Prompt.Tools {
		if t, ok := schemas[n]; ok {
			offered = append(offered, t)
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

// trainingOf is a candidate's conversation: the request, each step's calls and their outputs, then
// the reply.
func trainingOf(c *protocol.SynthCandidate, tools []model.Tool) ([]byte, error) {
	if c == nil {
		return nil, fmt.Errorf("no candidate")
	}
	ms := []model.Message{{Role: model.RoleUser, Content: c.Request}}
	for i, step := range c.Steps {
		msg := model.Message{Role: model.RoleAssistant}
		var results []model.Message
		for j, call := range step {
			id := fmt.Sprintf("call_%d_%d", i+1, j+1)
			msg.ToolCalls = append(msg.ToolCalls, model.ToolCall{ID: id, Name: call.Name, Arguments: compact(call.Arguments)})
			out := "null"
			if i < len(c.Outputs) && j < len(c.Outputs[i]) {
				out = compact(c.Outputs[i][j].Output)
			}
			results = append(results, model.Message{Role: model.RoleTool, ToolCallID: id, Content: out})
		}
		ms = append(append(ms, msg), results...)
	}
	ms = append(ms, model.Message{Role: model.RoleAssistant, Content: c.Reply})
	return model.Conversation(ms, tools)
}
