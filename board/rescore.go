package board

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/stats"
)

// Levels are the levels a submission may cover, in order.
var Levels = run.AllLevels

// MaxLine bounds one line of a submitted predictions file (a model's answer is cut at 1 MiB by the
// run; its JSON escaping may add to that).
const MaxLine = 4 << 20

// InputError is a submission the board refuses: what is wrong and, when it is one line's fault,
// which trial and line (both from 1).
type InputError struct {
	Trial, Line int
	Message     string
}

func (e *InputError) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("trial %d, line %d: %s", e.Trial, e.Line, e.Message)
	case e.Trial > 0:
		return fmt.Sprintf("trial %d: %s", e.Trial, e.Message)
	}
	return e.Message
}

func refuse(trial, line int, format string, a ...any) error {
	return &InputError{Trial: trial, Line: line, Message: fmt.Sprintf(format, a...)}
}

// Score is the host's judgement of an entry, every trial pooled.
type Score struct {
	// Levels has one score per level submitted, in level order; Overall pools their tasks.
	Levels  []LevelScore `json:"levels"`
	Overall LevelScore   `json:"overall"`
	// Complete says every task of the levels submitted was answered or failed in every trial.
	Complete bool `json:"complete"`
	// Expected is the tasks of one trial (samples of levels 1-2, scenes of level 3); Answered,
	// Failed and Missing count them over every trial: failed requests count as wrong, missing tasks
	// make the entry partial.
	Expected int `json:"expected"`
	Answered int `json:"answered"`
	Failed   int `json:"failed"`
	Missing  int `json:"missing"`
	// Marks holds, per level, the first trial's judged tasks in the level's order ('1' right, '0'
	// wrong, '-' not judged): what two entries are paired on to say whether they are tied.
	Marks map[string]string `json:"marks"`
}

// LevelScore is one level's score (or every level's, pooled).
type LevelScore struct {
	Level string `json:"level,omitempty"`
	// Tasks is the judged tasks of one trial (call samples, level-3 episodes); Judged and Right
	// pool them over the trials. Accuracy is Right/Judged, Low and High its 95% Wilson interval.
	Tasks    int     `json:"tasks"`
	Judged   int     `json:"judged"`
	Right    int     `json:"right"`
	Accuracy float64 `json:"accuracy"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	// Replies and RougeL: the reply samples and their mean ROUGE-L (a failed one scores 0).
	Replies int     `json:"replies"`
	RougeL  float64 `json:"rouge_l"`
	// Special and SpecialRight: the special cases (incomplete, wrong-value, irrelevant requests).
	Special      int `json:"special"`
	SpecialRight int `json:"special_right"`
	// Episodes and Successes: level 3's scenes played and those the engine judged a success.
	Episodes  int `json:"episodes"`
	Successes int `json:"successes"`
	// Milestone is the episodes' mean milestone credit (protocol.Outcome.Milestone: the share of a
	// scene's required gold calls achieved, success or not); a failed episode counts 0.
	Milestone float64 `json:"milestone"`
}

// SampleVerdict is the host's verdict on one task of one trial, as an entry's page lists them.
type SampleVerdict struct {
	Trial int    `json:"trial"`
	Level string `json:"level"`
	File  string `json:"file"`
	// ID is the sample's id; -1 for a level-3 episode.
	ID int `json:"id"`
	// Kind is call, special, reply or episode; Status answered, failed or missing.
	Kind     string   `json:"kind"`
	Status   string   `json:"status"`
	Category string   `json:"category,omitempty"`
	Correct  bool     `json:"correct"`
	RougeL   *float64 `json:"rouge_l,omitempty"`
	Called   string   `json:"called,omitempty"`
	// Recall is a level-3 episode's recall of the gold calls.
	Recall *float64 `json:"recall,omitempty"`
	// Milestone is a level-3 episode's milestone credit (protocol.Outcome.Milestone).
	Milestone *float64 `json:"milestone,omitempty"`
}

// Statuses of a SampleVerdict.
const (
	StatusAnswered = "answered"
	StatusFailed   = "failed"
	StatusMissing  = "missing"
)

// Judged is a submission as the host judged it: the score and every sample's verdict.
type Judged struct {
	Score    Score
	Verdicts []SampleVerdict
}

// Rescore judges a submission with the engine behind do (the data the run was made on loaded: the
// builtin data, or its variant the run's seed names; see Entry.Seed): every trial's
// predictions scored as the score op scores them, every episode's calls replayed, the failed
// requests counted as wrong. A line the engine cannot judge, a sample outside the run's levels, a
// task answered twice in a trial or a malformed file refuses the whole submission (an
// *InputError naming the trial and line); a missing task only makes it partial.
func Rescore(ctx context.Context, do protocol.Transport, sub Submission) (Judged, error) {
	return RescoreTasks(ctx, do, sub, nil)
}

// RescoreTasks is Rescore with the run's tasks as run.Tasks lists them for the submission's levels,
// when the caller has them (a host keeps them: they change only with the data); nil lists them.
func RescoreTasks(ctx context.Context, do protocol.Transport, sub Submission, tasks []run.Task) (Judged, error) {
	if err := Check(sub); err != nil {
		return Judged{}, err
	}
	if tasks == nil {
		var err error
		if tasks, err = run.Tasks(ctx, do, run.Config{Levels: sub.Run.Levels}); err != nil {
			return Judged{}, err
		}
	}
	index := map[taskKey]int{}
	for i, t := range tasks {
		index[taskKey{t.Level, t.File, t.ID}] = i
	}
	var verdicts []SampleVerdict
	for ti, tr := range sub.Trials {
		trial := ti + 1
		got := make([]*SampleVerdict, len(tasks))
		out, err := run.ReadOut([]byte(tr.Predictions), MaxLine)
		if err != nil {
			return Judged{}, refuse(trial, 0, "%v", err)
		}
		if len(out.Errors) > 0 {
			return Judged{}, refuse(trial, out.Errors[0].Line, "%s", out.Errors[0].Message)
		}
		if len(bytes.TrimSpace(out.Preds)) > 0 {
			b, err := run.ScoreInSteps(ctx, do, out.Preds, "", "board", nil)
			if err != nil {
				var pe *protocol.Error
				if errors.As(err, &pe) && pe.Code == protocol.CodeBadRequest {
					return Judged{}, refuse(trial, 0, "%s", pe.Message)
				}
				return Judged{}, err
			}
			if len(b.Errors) > 0 {
				return Judged{}, refuse(trial, b.Errors[0].Line, "%s", b.Errors[0].Message)
			}
			for _, v := range b.Results {
				i, ok := index[taskKey{v.Level, v.File, v.ID}]
				if !ok {
					return Judged{}, refuse(trial, v.Line, "%s %s #%d is not a task of the run's levels (%s) as this board asks them", v.Level, v.File, v.ID, strings.Join(sub.Run.Levels, ", "))
				}
				if got[i] != nil {
					return Judged{}, refuse(trial, v.Line, "%s %s #%d is answered twice in one trial", v.Level, v.File, v.ID)
				}
				got[i] = verdictOf(trial, v)
			}
		}
		for _, le := range out.Episodes {
			ep := le.Episode
			i, ok := index[taskKey{run.Level3, ep.File, -1}]
			if !ok {
				return Judged{}, refuse(trial, le.Line, "level-3 episode %s is not a scene of the run's levels", ep.File)
			}
			if got[i] != nil {
				return Judged{}, refuse(trial, le.Line, "level-3 episode %s is played twice in one trial", ep.File)
			}
			o, err := run.ReplayEpisode(ctx, do, ep)
			if err != nil {
				var pe *protocol.Error
				if errors.As(err, &pe) && (pe.Code == protocol.CodeBadRequest || pe.Code == protocol.CodeNotFound) {
					return Judged{}, refuse(trial, le.Line, "level-3 episode %s: %s", ep.File, pe.Message)
				}
				return Judged{}, err
			}
			recall, milestone := o.Recall, o.Milestone
			got[i] = &SampleVerdict{Trial: trial, Level: run.Level3, File: ep.File, ID: -1, Kind: kindEpisode, Status: StatusAnswered,
				Correct: o.Success, Recall: &recall, Milestone: &milestone}
		}
		for _, f := range tr.Failures {
			i, ok := index[taskKey{f.Level, f.File, f.ID}]
			if !ok {
				return Judged{}, refuse(trial, 0, "a failed request names %s %s #%d, not a task of the run's levels", f.Level, f.File, f.ID)
			}
			if got[i] == nil { // an answer, if there is one, is what counts
				got[i] = failed(trial, tasks[i])
			}
		}
		for i, v := range got {
			if v == nil {
				t := tasks[i]
				v = &SampleVerdict{Trial: trial, Level: t.Level, File: t.File, ID: t.ID, Kind: kindOf(t), Status: StatusMissing}
			}
			verdicts = append(verdicts, *v)
		}
	}
	return Judged{Score: summarize(sub.Run.Levels, len(tasks), verdicts), Verdicts: verdicts}, nil
}

// Load loads, in the fresh engine session behind do, the data a run made on seed is judged on: the
// variant of the builtin data that seed names. Seed 0 is the builtin data itself, which a fresh
// session holds already: nothing is sent.
func Load(ctx context.Context, do protocol.Transport, seed int64) error {
	if seed == 0 {
		return nil
	}
	_, err := protocol.Call[protocol.Loaded](ctx, do, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed})
	return err
}

const kindEpisode = "episode"

type taskKey struct {
	level, file string
	id          int
}

func kindOf(t run.Task) string {
	if t.ID < 0 {
		return kindEpisode
	}
	return t.Kind
}

// failed is a task whose request failed: judged wrong (a reply scores 0).
func failed(trial int, t run.Task) *SampleVerdict {
	v := &SampleVerdict{Trial: trial, Level: t.Level, File: t.File, ID: t.ID, Kind: kindOf(t), Status: StatusFailed}
	if v.Kind == protocol.KindReply {
		zero := 0.0
		v.RougeL = &zero
	}
	return v
}

func verdictOf(trial int, v protocol.Verdict) *SampleVerdict {
	out := &SampleVerdict{Trial: trial, Level: v.Level, File: v.File, ID: v.ID, Kind: v.Kind, Status: StatusAnswered}
	if v.CallVerdict != nil {
		out.Category, out.Correct, out.Called = v.CallVerdict.Category, v.CallVerdict.Correct, v.CallVerdict.Called
	}
	if v.ReplyVerdict != nil {
		r := v.ReplyVerdict.RougeL
		out.RougeL = &r
	}
	return out
}

// Check refuses a submission whose form is wrong before any judging (an *InputError): its format,
// trials, form, model, levels, seed and the sizes of what it records.
func Check(sub Submission) error {
	switch {
	case sub.Format != Format:
		return refuse(0, 0, "format %q; a submission is %q", sub.Format, Format)
	case len(sub.Trials) == 0:
		return refuse(0, 0, "the submission has no trials")
	case len(sub.Trials) > run.MaxTrials:
		return refuse(0, 0, "%d trials; the most is %d", len(sub.Trials), run.MaxTrials)
	case sub.Run.Trials != len(sub.Trials):
		return refuse(0, 0, "the run recorded %d trials but %d are submitted", sub.Run.Trials, len(sub.Trials))
	case sub.Run.Form != run.Text && sub.Run.Form != run.Native:
		return refuse(0, 0, "form %q: a run's form is %s or %s", sub.Run.Form, run.Text, run.Native)
	case strings.TrimSpace(sub.Run.Model) == "":
		return refuse(0, 0, "the run recorded no model")
	case len(sub.Run.Levels) == 0:
		return refuse(0, 0, "the run recorded no levels")
	case !protocol.ValidSeed(sub.Run.Seed):
		return refuse(0, 0, "seed %d: a variant's seed is from 1 to %d (0: the original data)", sub.Run.Seed, int64(protocol.MaxSeed))
	case sub.Run.Variants > 0:
		return refuse(0, 0, "a robustness run (--variants) is not a board run: its trials were made on different data; submit a run of one data (apibank run, with --seed for a variant)")
	}
	seen := map[string]bool{}
	for _, l := range sub.Run.Levels {
		if !slices.Contains(Levels, l) {
			return refuse(0, 0, "level %q: the levels are %s", l, strings.Join(Levels, ", "))
		}
		if seen[l] {
			return refuse(0, 0, "level %s is listed twice", l)
		}
		seen[l] = true
	}
	for _, t := range []string{sub.Run.Started, sub.Run.Ended} {
		if len(t) > 64 {
			return refuse(0, 0, "a run's time is at most 64 characters")
		}
	}
	if len(sub.Run.Model) > 200 || len(sub.Run.Host) > 255 || len(sub.Run.Source) > 16 || len(sub.Run.DataHash) > 64 || len(sub.Run.Engine) > 200 {
		return refuse(0, 0, "the run's model, host, source, data hash or engine is too long")
	}
	return nil
}

// summarize pools the verdicts of every trial into the entry's score.
func summarize(levels []string, expected int, vs []SampleVerdict) Score {
	s := Score{Expected: expected, Marks: map[string]string{}}
	by := map[string]*LevelScore{}
	var rouge = map[string]float64{}
	for _, l := range Levels {
		if slices.Contains(levels, l) {
			by[l] = &LevelScore{Level: l}
		}
	}
	marks := map[string]*strings.Builder{}
	for _, v := range vs {
		ls := by[v.Level]
		if ls == nil {
			continue
		}
		switch v.Status {
		case StatusAnswered:
			s.Answered++
		case StatusFailed:
			s.Failed++
		default:
			s.Missing++
		}
		judged := v.Status != StatusMissing
		switch v.Kind {
		case protocol.KindCall, kindEpisode:
			if v.Trial == 1 {
				ls.Tasks++
				m := marks[v.Level]
				if m == nil {
					m = &strings.Builder{}
					marks[v.Level] = m
				}
				switch {
				case !judged:
					m.WriteByte('-')
				case v.Correct:
					m.WriteByte('1')
				default:
					m.WriteByte('0')
				}
			}
			if judged {
				ls.Judged++
				if v.Correct {
					ls.Right++
				}
				if v.Kind == kindEpisode {
					ls.Episodes++
					if v.Correct {
						ls.Successes++
					}
					if v.Milestone != nil {
						ls.Milestone += *v.Milestone // a sum until finish makes it the mean
					}
				}
			}
		case protocol.KindSpecial:
			if judged {
				ls.Special++
				if v.Correct {
					ls.SpecialRight++
				}
			}
		case protocol.KindReply:
			if judged && v.RougeL != nil {
				ls.Replies++
				rouge[v.Level] += *v.RougeL
			}
		}
	}
	s.Complete = s.Missing == 0
	var all LevelScore
	var allRouge float64
	for _, l := range Levels {
		ls := by[l]
		if ls == nil {
			continue
		}
		if ls.Replies > 0 {
			ls.RougeL = rouge[l] / float64(ls.Replies)
		}
		ls.finish()
		if m := marks[l]; m != nil {
			s.Marks[l] = m.String()
		}
		all.Tasks += ls.Tasks
		all.Judged += ls.Judged
		all.Right += ls.Right
		all.Replies += ls.Replies
		allRouge += rouge[l]
		all.Special += ls.Special
		all.SpecialRight += ls.SpecialRight
		all.Episodes += ls.Episodes
		all.Successes += ls.Successes
		all.Milestone += ls.Milestone * float64(ls.Episodes) // back to a sum: all.finish takes the mean
		s.Levels = append(s.Levels, *ls)
	}
	if all.Replies > 0 {
		all.RougeL = allRouge / float64(all.Replies)
	}
	all.finish()
	s.Overall = all
	return s
}

func (ls *LevelScore) finish() {
	if ls.Judged > 0 {
		ls.Accuracy = float64(ls.Right) / float64(ls.Judged)
	}
	if ls.Episodes > 0 {
		ls.Milestone /= float64(ls.Episodes)
	}
	iv := stats.Wilson(ls.Right, ls.Judged)
	ls.Low, ls.High = iv.Low, iv.High
}

// VerdictsJSONL is the verdicts as JSON lines, as an entry keeps them (BlobVerdicts).
func VerdictsJSONL(vs []SampleVerdict) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, v := range vs {
		_ = enc.Encode(v) // plain values: never fails
	}
	return b.Bytes()
}

// ReadVerdicts reads an entry's kept verdicts (VerdictsJSONL).
func ReadVerdicts(b []byte) ([]SampleVerdict, error) {
	out := []SampleVerdict{}
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var v SampleVerdict
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("board: an entry's verdicts: %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}

// EpisodeScore is level 3's score of episodes judged elsewhere than in a submission (a predictions
// file re-scored in a tab): outcomes[i] is episode i's judgement (nil: it could not be judged, not
// a success, no milestone), and the score is summarize's, so the rate, its interval and the
// milestone credit are the board's for the same episodes.
func EpisodeScore(outcomes []*protocol.Outcome) LevelScore {
	vs := make([]SampleVerdict, len(outcomes))
	for i, o := range outcomes {
		vs[i] = SampleVerdict{Trial: 1, Level: run.Level3, ID: -1, Kind: kindEpisode, Status: StatusAnswered}
		if o != nil {
			m := run.OutcomeMilestone(*o)
			vs[i].Correct, vs[i].Milestone = o.Success, &m
		}
	}
	s := summarize([]string{run.Level3}, len(vs), vs)
	return s.Levels[0]
}
