package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
)

// playEpisode plays a level-3 scene live: the model gets the scene's request and the level-3
// catalog, and calls tools one at a time in the episode's own world until it answers without a call
// or reaches cfg.Steps calls; then the engine judges the final world. The response returned sums
// the tokens of every request.
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
		calls := nativeCalls(resp)
		if cfg.Form == Text {
			calls = []json.RawMessage{textCall(resp.Content)}
		}
		if len(calls) == 0 {
			ep.Stopped = "reply"
			break
		}
		var results []string
		replied := false
		for i, c := range calls {
			got, err := ask[protocol.EpisodeCall](ctx, e, protocol.Request{Op: protocol.OpEpisodeStep, Episode: started.Episode, Call: c})
			var pe *protocol.Error
			if errors.As(err, &pe) && pe.Code == protocol.CodeBadRequest && cfg.Form == Text {
				// No call in the text: the model has answered the user.
				replied = true
				break
			}
			if err != nil {
				got = protocol.EpisodeCall{Error: err.Error()}
			} else {
				ep.Calls = append(ep.Calls, got)
			}
			if cfg.Form == Native {
				tm := model.Message{Role: model.RoleTool, ToolCallID: resp.ToolCalls[i].ID, Content: toolContent(got)}
				req.Messages = append(req.Messages, tm)
				ep.Transcript = append(ep.Transcript, tm)
			} else {
				results = append(results, "API: "+strings.TrimSpace(resp.Content)+" Response: "+textResult(got))
			}
		}
		if replied {
			ep.Stopped = "reply"
			break
		}
		if cfg.Form == Text {
			um := model.Message{Role: model.RoleUser, Content: strings.Join(results, "\n") + "\nThe AI's next step (another tool call, or its message to the user when the task is done):"}
			req.Messages = append(req.Messages, um)
			ep.Transcript = append(ep.Transcript, um)
		}
	}
	out, err := ask[protocol.Outcome](context.WithoutCancel(ctx), e, protocol.Request{Op: protocol.OpEpisodeFinish, Episode: started.Episode})
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
// behind do, and returns the engine's judgement: how a kept, imported or compared run's episodes are
// judged by this engine rather than by the outcome they carry.
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
	return protocol.Call[protocol.Outcome](ctx, do, protocol.Request{Op: protocol.OpEpisodeFinish, Episode: started.Episode})
}

// EpisodeSummary sums up a run's level-3 episodes.
type EpisodeSummary struct {
	Episodes, Success, WorldMatch int
	Recall                        float64 // mean recall of gold calls
}

// SumEpisodes sums up episodes as the CLI's report and the Runs page show them.
func SumEpisodes(episodes []Episode) EpisodeSummary {
	var s EpisodeSummary
	for _, ep := range episodes {
		s.Episodes++
		if o := ep.Outcome; o != nil {
			s.Recall += o.Recall
			if o.Success {
				s.Success++
			}
			if o.StateMatch {
				s.WorldMatch++
			}
		}
	}
	if s.Episodes > 0 {
		s.Recall /= float64(s.Episodes)
	}
	return s
}
