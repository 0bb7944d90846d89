package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// SamplePage shows a dialogue as a chat and, for one of its samples, the exact prompt a model gets
// in both forms, with the gold answer hidden until asked.
type SamplePage struct {
	app.Compo
	level, file string
	id          int
	idErr       string // the URL's id when it names no sample ("" when none was given or it exists)
	dlg         *protocol.Dialogue
	samples     []protocol.SampleView
	prompt      *protocol.Prompt
	showGold    bool
	err         string
	copied      string
}

// OnNav reads the sample from the URL (?level=&file=&id=) and fetches it.
func (p *SamplePage) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	p.level, p.file = q.Get("level"), q.Get("file")
	p.id, p.idErr = 0, ""
	if raw := q.Get("id"); raw != "" {
		p.idErr = raw
		if n, err := strconv.Atoi(raw); err == nil {
			p.id = n
		}
	}
	p.load(ctx)
}

// OnMount refetches when the data changes.
func (p *SamplePage) OnMount(ctx app.Context) {
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) {
		p.file, p.dlg, p.prompt = "", nil, nil
		p.load(ctx)
	})
}

type sampleData struct {
	level, file string
	dlg         *protocol.Dialogue
	samples     []protocol.SampleView
	prompt      *protocol.Prompt
	id          int
	// missing says which sample the URL asked for that does not exist, and which do.
	missing string
}

func (p *SamplePage) load(ctx app.Context) {
	level, file, id, asked := p.level, p.file, p.id, p.idErr
	refresh(ctx, func() (sampleData, error) {
		if file == "" {
			ds, err := tab.Dialogues()
			if err != nil || len(ds) == 0 {
				return sampleData{}, err
			}
			level, file = ds[0].Level, ds[0].File
		}
		d, err := tab.Dialogue(level, file)
		if err != nil {
			return sampleData{}, err
		}
		ss, err := call[[]protocol.SampleView](tab.Engine, protocol.Request{Op: protocol.OpSamples, Level: d.Level, File: d.File})
		if err != nil {
			return sampleData{}, err
		}
		sd := sampleData{level: d.Level, file: d.File, dlg: d, id: id}
		for _, s := range ss {
			if scorable(s.Kind) {
				sd.samples = append(sd.samples, s)
			}
		}
		valid := false
		for _, s := range sd.samples {
			valid = valid || (s.ID == id && (asked == "" || asked == strconv.Itoa(id)))
		}
		if !valid && asked != "" {
			sd.missing = missingSample(asked, d.File, sd.samples)
		}
		if !valid && len(sd.samples) > 0 {
			sd.id = sd.samples[0].ID
		}
		if len(sd.samples) > 0 {
			pr, err := tab.Prompt(d.Level, d.File, sd.id)
			if err != nil {
				return sd, err
			}
			sd.prompt = &pr
		}
		return sd, nil
	}, func(sd sampleData, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.err = sd.missing
		p.level, p.file, p.dlg, p.samples, p.prompt, p.id = sd.level, sd.file, sd.dlg, sd.samples, sd.prompt, sd.id
		p.showGold, p.copied = false, ""
	})
}

func (p *SamplePage) choose(ctx app.Context, id int) {
	p.id = id
	ctx.Navigate(sampleURL(p.level, p.file, id))
}

// Render draws the page.
func (p *SamplePage) Render() app.UI {
	if p.dlg == nil {
		return shell("/sample", "Sample", errorBox(p.err),
			app.If(p.err == "", func() app.UI {
				return app.P().Body(app.Text("Choose a dialogue in the "), app.A().Href("/dataset").Text("dataset"), app.Text("."))
			}))
	}
	gold := -1
	for _, s := range p.samples {
		if s.ID == p.id {
			gold = s.GoldLine
		}
	}
	return shell("/sample", p.file,
		app.P().Class("small").Text(LevelLabel(p.level)),
		auditBadge(p.dlg.Meta),
		errorBox(p.err),
		app.P().Class("small").DataSet("testid", "id-rule").Text(idRule),
		app.Nav().Class("samples").Aria("label", "Samples of this dialogue").Body(
			app.Range(p.samples).Slice(func(i int) app.UI {
				s := p.samples[i]
				label := sampleLabel(s)
				b := app.Button().Class("chip").Text(label).OnClick(func(ctx app.Context, e app.Event) { p.choose(ctx, s.ID) }, app.EventScope(p.level, p.file, s.ID))
				if s.ID == p.id {
					b = b.Class("chip active").Aria("pressed", "true")
				}
				return b
			}),
		),
		app.Div().Class("two").Body(
			app.Section().Class("chat").Aria("label", "Dialogue").Body(p.chat(gold)...),
			app.Section().Class("prompt").Aria("label", "Prompt").Body(p.promptView()),
		),
	)
}

func (p *SamplePage) chat(goldLine int) []app.UI {
	var out []app.UI
	inGold := false
	for _, t := range p.dlg.Turns {
		// A gold call set's parallel turns are gold with its first.
		inGold = t.Line == goldLine || inGold && t.Role == "API" && t.Parallel
		if goldLine > 0 && t.Line >= goldLine && !p.showGold {
			out = append(out, app.Div().Class("turn hidden-gold").Body(
				app.Span().Text("The rest of the dialogue is hidden: it holds the answer. "),
				app.Button().DataSet("testid", "show-gold").Text("Show the gold answer").OnClick(func(ctx app.Context, e app.Event) { p.showGold = true }),
			))
			break
		}
		cls := "turn turn-" + t.Role
		if inGold {
			cls += " gold"
		}
		switch t.Role {
		case "API":
			who := app.Span().Class("who").Text("API")
			if t.Parallel {
				// Made in the same turn as the call above it (a gold call set).
				who = app.Span().Class("who").Title("made in the same turn as the call above").Text("API ∥")
			}
			out = append(out, app.Div().Class(cls).Body(
				who,
				app.Code().Text(t.APIName+" "+string(t.Params)),
				app.Details().Body(app.Summary().Text("result"), app.Pre().Text(Pretty(t.Result))),
			))
		default:
			out = append(out, app.Div().Class(cls).DataSet("testid", "turn").Body(
				app.Span().Class("who").Text(t.Role),
				app.P().Text(t.Text),
			))
		}
	}
	return out
}

func (p *SamplePage) promptView() app.UI {
	if p.prompt == nil {
		return app.P().Text("…")
	}
	pr := p.prompt
	native, _ := json.MarshalIndent(struct {
		Messages json.RawMessage `json:"messages"`
		Tools    json.RawMessage `json:"tools"`
	}{pr.Messages, pr.Tools}, "", "  ")
	return app.Div().Body(
		app.H2().Text("What the model gets"),
		app.P().Class("small").Text("Expected: "+expectText(pr.Expect)+"."),
		p.judging(false),
		app.H3().Text("Original text format"),
		copyButton("Copy the text prompt", pr.Text, &p.copied),
		app.Pre().Class("prompt-text").TabIndex(0).Aria("label", "The text prompt").DataSet("testid", "prompt-text").Text(pr.Text),
		app.H3().Text("Native tool calling (messages and tools)"),
		copyButton("Copy the messages", string(native), &p.copied),
		app.Pre().Class("prompt-text").TabIndex(0).Aria("label", "The native messages and tools").DataSet("testid", "prompt-native").Text(string(native)),
		app.H3().Text("Gold answer"),
		app.If(!p.showGold, func() app.UI {
			return app.Button().DataSet("testid", "reveal-gold").Text("Show the gold answer").OnClick(func(ctx app.Context, e app.Event) { p.showGold = true })
		}).Else(func() app.UI {
			return app.Div().Body(
				app.Pre().DataSet("testid", "gold").Text(pr.Gold),
				app.If(pr.GoldNative != "", func() app.UI { return app.Pre().Text(pr.GoldNative) }),
				p.judging(true),
			)
		}),
	)
}

// scorable tells whether a sample of this kind is judged: calls, replies and special cases (skip
// samples, whose gold is a User turn, never are).
func scorable(kind string) bool {
	return kind == protocol.KindCall || kind == protocol.KindReply || kind == protocol.KindSpecial
}

// missingSample says that the sample id asked for is not one of file's, and lists those that are.
func missingSample(asked, file string, samples []protocol.SampleView) string {
	ids := make([]string, len(samples))
	for i, s := range samples {
		ids[i] = fmt.Sprintf("%d (%s)", s.ID, s.Kind)
	}
	if len(ids) == 0 {
		return fmt.Sprintf("%s has no sample %q: it has no samples at all.", file, asked)
	}
	return fmt.Sprintf("%s has no sample %q. Its samples are %s; the page shows sample %d.", file, asked, strings.Join(ids, ", "), samples[0].ID)
}

// sampleLabel names a sample in lists: its id, kind and tool, and for a special case what the right
// answer is.
func sampleLabel(s protocol.SampleView) string {
	label := fmt.Sprintf("#%d %s", s.ID, s.Kind)
	if s.Kind == protocol.KindSpecial {
		return label + " · reply, do not call"
	}
	if s.Tool != "" {
		label += " · " + s.Tool
	}
	return label
}

// idRule explains sample numbering where a page lists samples.
const idRule = "Sample 2k is the k-th API call of a dialogue, 2k+1 the AI reply after it. " +
	"A special case has one more sample, numbered after those: there the right answer is a reply " +
	"(ask for the missing value, say no tool fits, ask which was meant): calling a tool is PREMATURE_CALL, " +
	"and a reply that does not do what the case needs is MISSED_NEED."

// copyButton copies text to the clipboard (through web/bridge.js's apibankCopy) and says so right
// beside itself; copied holds the label of the button pressed last.
func copyButton(label, text string, copied *string) app.UI {
	return app.Span().Class("copy").Body(
		app.Button().Class("small-button").Text(label).OnClick(func(ctx app.Context, e app.Event) {
			if f := app.Window().Get("apibankCopy"); f.Truthy() {
				f.Invoke(text)
				*copied = label
			}
		}, app.EventScope(text)),
		app.Span().Class("copied small").DataSet("testid", "copied").Attr("role", "status").
			Text(map[bool]string{true: " Copied.", false: ""}[*copied == label]),
	)
}

// expectText says in words what a sample's answer should be.
func expectText(expect string) string {
	switch expect {
	case protocol.KindSpecial:
		return "a reply — a special case, where calling a tool is a mistake"
	case protocol.KindCall:
		return "a call"
	}
	return "a reply"
}
