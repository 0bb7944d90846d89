package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
)

// playEpisode plays a level-3 scene live: the model gets the scene's request and the level-3
// catalog, and calls tools in the episode's own world (each call of an answer in turn, a text list
// as several calls) until it answers without a call or has had cfg.Steps answers; then the engine
// judges the episode: its final world, the gold calls it achieved and its final reply. The response
// returned sums the tokens of every request.
func playEpisode(ctx context.Context, e *serial, chat Chat, cfg Config, t Task) (*Episode, model.Response, *Failure) {
	var total model.Response
	ep := &Episode{Level: Level3, File: t.File, Calls: []protocol.EpisodeCall{}, Transcript: []model.Message{}}
	started, err := ask[protocol.EpisodeStarted](ctx, e, protocol.Request{Op: protocol.OpEpisodeStart, File: t.File})
	if err != nil {
		ep.Stopped = "failed"
		return ep, total, failure(t, err)
	}
	ep.Scene = started.Scene
	req, err := Request(started.Prompt, cfg.Form)
	if err != nil {
		ep.Stopped = "failed"
		return ep, total, failure(t, err)
	}
	if cfg.Form == Native {
		if req.Tools, err = Tools(started.Tools); err != nil {
			ep.Stopped = "failed"
			return ep, total, failure(t, err)
		}
	}
	ep.Transcript = append(ep.Transcript, req.Messages...)
	var fail *Failure
	for step := 0; ; step++ {
		if ctx.Err() != nil {
			ep.Stopped = "cancelled"
			break
		}
		if step >= cfg.Steps {
			ep.Stopped = "steps"
			break
		}
		resp, err := chat.Chat(ctx, req)
		total.Usage.PromptTokens += resp.Usage.PromptTokens
		total.Usage.CompletionTokens += resp.Usage.CompletionTokens
		if err != nil {
			ep.Stopped, fail = "failed", failure(t, err)
			break
		}
		if resp.Truncated {
			// Over a limit: the episode ends there, judged on the world as it stands; the cut
			// answer is kept as its head only.
			ep.Transcript = append(ep.Transcript, Kept(resp).Message())
			ep.Stopped, ep.Cut = "cut", CutOf(resp)
			break
		}
		msg := resp.Message()
		req.Messages = append(req.Messages, msg)
		ep.Transcript = append(ep.Transcript, msg)
		if cfg.Form == Text {
			// Every call of the answer runs, in order (a list [A(..), B(..)] is several calls), each
			// with its own result; an answer without a call is the model's reply to the user.
			got, err := ask[[]protocol.EpisodeCall](ctx, e, protocol.Request{Op: protocol.OpEpisodeCalls, Episode: started.Episode, Call: textCall(resp.Content)})
			if err != nil {
				ep.Stopped, fail = "failed", failure(t, err)
				break
			}
			if len(got) == 0 {
				ep.Stopped, ep.Reply = "reply", resp.Content
				break
			}
			results := make([]string, len(got))
			for i, c := range got {
				ep.Calls = append(ep.Calls, c)
				results[i] = "API: " + CallText(c) + " Response: " + textResult(c)
			}
			um := model.Message{Role: model.RoleUser, Content: strings.Join(results, "\n") + "\nThe AI's next step (another tool call, or its message to the user when the task is done):"}
			req.Messages = append(req.Messages, um)
			ep.Transcript = append(ep.Transcript, um)
			continue
		}
		calls := nativeCalls(resp)
		if len(calls) == 0 {
			ep.Stopped, ep.Reply = "reply", resp.Content
			break
		}
		for i, c := range calls {
			got, err := ask[protocol.EpisodeCall](ctx, e, protocol.Request{Op: protocol.OpEpisodeStep, Episode: started.Episode, Call: c})
			if err != nil {
				got = protocol.EpisodeCall{Error: err.Error()}
			} else {
				ep.Calls = append(ep.Calls, got)
			}
			tm := model.Message{Role: model.RoleTool, ToolCallID: resp.ToolCalls[i].ID, Content: toolContent(got)}
			req.Messages = append(req.Messages, tm)
			ep.Transcript = append(ep.Transcript, tm)
		}
	}
	out, err := ask[protocol.Outcome](context.WithoutCancel(ctx), e, protocol.Request{Op: protocol.OpEpisodeFinish, Episode: started.Episode, Reply: ep.Reply})
	if err == nil {
		ep.Outcome = &out
	} else if fail == nil {
		fail = failure(t, err)
	}
	return ep, total, fail
}

// nativeCalls are a native answer's calls as the engine reads them ({"name", "arguments"}).
func nativeCalls(r model.Response) []json.RawMessage {
	var out []json.RawMessage
	for _, c := range r.ToolCalls {
		out = append(out, json.RawMessage(Pred(model.Response{ToolCalls: []model.ToolCall{c}})))
	}
	return out
}

// CallText is an episode's call as the text prompts write a past call: [Name(key=value, ...)], each
// value as JSON writes it (a text in double quotes), in the order the call gave them.
func CallText(c protocol.EpisodeCall) string {
	var b strings.Builder
	b.WriteString("[" + c.Name + "(")
	dec := json.NewDecoder(bytes.NewReader(c.Args))
	if t, err := dec.Token(); err == nil && t == json.Delim('{') {
		for i := 0; dec.More(); i++ {
			k, err := dec.Token()
			if err != nil {
				break
			}
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%v=%s", k, v)
		}
	}
	b.WriteString(")]")
	return b.String()
}

// textCall is a text answer as the engine's call field (a JSON string it searches for a call).
func textCall(text string) json.RawMessage {
	b, _ := json.Marshal(text)
	return b
}

// toolContent is a call's outcome as the tool message the model reads: the output and exception.
func toolContent(c protocol.EpisodeCall) string {
	if c.Result == nil {
		b, _ := json.Marshal(map[string]any{"output": nil, "exception": c.Error})
		return string(b)
	}
	env, _ := protocol.ReadEnvelope(c.Result)
	b, _ := json.Marshal(map[string]json.RawMessage{"output": orNull(env.Output), "exception": orNull(env.Exception)})
	return string(b)
}

// textResult is a call's outcome as the text prompts write past calls: the output, or "error: ...".
func textResult(c protocol.EpisodeCall) string {
	if c.Result == nil {
		return "error: " + c.Error
	}
	env, _ := protocol.ReadEnvelope(c.Result)
	if text, raised := env.Raised(); raised {
		return "error: " + text
	}
	return string(orNull(env.Output))
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// EpisodeLine is an episode as a line of the run's predictions file.
func EpisodeLine(ep Episode) []byte {
	b, err := json.Marshal(ep)
	if err != nil {
		return []byte(fmt.Sprintf(`{"level":"level-3","file":%q,"error":%q}`, ep.File, err.Error()))
	}
	return b
}

// OutJSONL is a run's predictions file: the predictions in the original's format, then one line
// per level-3 episode. It is what `apibank run --out` writes and what the tab exports, the same
// bytes for the same answers.
func OutJSONL(preds []Prediction, episodes []Episode) []byte {
	var b bytes.Buffer
	b.Write(PredictionsJSONL(preds))
	for _, ep := range episodes {
		b.Write(EpisodeLine(ep))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// ReplayEpisode plays a recorded episode's calls again, in order, in a fresh episode of the engine
// behind do, and returns the engine's judgement of them and of its final reply: how a kept, imported
// or compared run's episodes are judged by this engine rather than by the outcome they carry.
func ReplayEpisode(ctx context.Context, do protocol.Transport, ep Episode) (protocol.Outcome, error) {
	started, err := protocol.Call[protocol.EpisodeStarted](ctx, do, protocol.Request{Op: protocol.OpEpisodeStart, File: ep.File, Bare: true})
	if err != nil {
		return protocol.Outcome{}, err
	}
	for _, c := range ep.Calls {
		name, _ := json.Marshal(c.Name)
		args := c.Args
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		callJSON, _ := json.Marshal(map[string]json.RawMessage{"name": name, "arguments": args})
		if _, err := protocol.Call[protocol.EpisodeCall](ctx, do, protocol.Request{Op: protocol.OpEpisodeStep, Episode: started.Episode, Call: callJSON}); err != nil {
			return protocol.Outcome{}, err
		}
	}
	return protocol.Call[protocol.Outcome](ctx, do, protocol.Request{Op: protocol.OpEpisodeFinish, Episode: started.Episode, Reply: ep.Reply})
}

// EpisodeSummary sums up a run's level-3 episodes.
type EpisodeSummary struct {
	Episodes, Success, WorldMatch int
	// Milestone is the mean milestone credit (protocol.Outcome.Milestone): the share of the required
	// gold calls achieved, success or not; an episode without a judgement counts 0.
	Milestone float64
	// Recall is Milestone under the name older pages and records read.
	Recall float64
}

// OutcomeMilestone is an outcome's milestone credit; for an outcome recorded before the credit
// existed, its recall (the same share then, ToolSearcher's gold calls aside).
func OutcomeMilestone(o protocol.Outcome) float64 {
	if o.Milestone == 0 && o.Recall > 0 {
		return o.Recall
	}
	return o.Milestone
}

// SumEpisodes sums up episodes as the CLI's report and the Runs page show them.
func SumEpisodes(episodes []Episode) EpisodeSummary {
	var s EpisodeSummary
	for _, ep := range episodes {
		s.Episodes++
		if o := ep.Outcome; o != nil {
			s.Milestone += OutcomeMilestone(*o)
			if o.Success {
				s.Success++
			}
			if o.StateMatch {
				s.WorldMatch++
			}
		}
	}
	if s.Episodes > 0 {
		s.Milestone /= float64(s.Episodes)
	}
	s.Recall = s.Milestone
	return s
}
