package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// hints turn a verdict category into advice for a student.
var hints = map[string]string{
	"CORRECT":                 "The call does what the dialogue needs.",
	"NO_API_CALL":             "Write the call as [ToolName(key='value', other='value')], brackets included.",
	"FAILED_PARSE_API_CALL":   "Check the brackets, the parentheses and the key='value' pairs.",
	"API_NAME_MISMATCH":       "Re-read what the user asks for: which tool does exactly that?",
	"INVALID_INPUT_PARAMETER": "Check each argument name against the tool's parameters.",
	"MISS_INPUT_ARGUMENT":     "Every required parameter of the tool needs a value.",
	"KEY_ERROR":               "Check the spelling of each argument name against the tool's description.",
	"HAS_EXCEPTION":           "A value is wrong or badly formatted (a token? a date?).",
	"OUTPUT_MISMATCH":         "A value differs from what the user said.",
	"INPUT_MISMATCH":          "Compare each value with the one the dialogue gives.",
	"INVALID_PARAMETER_TYPE":  "A number where text is expected, or the reverse?",
	"TOOL_ERROR":              "Check each value's format.",
	"CHECK_ERROR":             "Check the values' formats.",
	"INCORRECT":               "Compare each argument with what the user said.",
	"PREMATURE_CALL":          "The right move here is to reply: ask for what is missing or malformed, or say no tool fits.",
	"MISSED_NEED":             "Not calling was right, but say what the case needs: name the missing or wrong value (\"What time should the alarm ring?\"), the options to choose from, or what you cannot do.",
	"MISSING_CALL":            "This step makes several calls at once: write them all in one list, [A(...), B(...)].",
	"EXTRA_CALL":              "One of your calls is not needed here: make only the calls this step asks for.",
}

// Hint returns the advice for a verdict category.
func Hint(category string) string {
	if h, ok := hints[category]; ok {
		return h
	}
	return "Not right yet (" + category + "). Compare your call with the dialogue."
}

// Progress is a student's record on one exercise.
type Progress struct {
	Attempts int  `json:"attempts"`
	Solved   bool `json:"solved"`
	// Shown counts the times the student asked to see the answer (a solve after it is still a
	// solve, but the record says the answer was seen).
	Shown int `json:"shown,omitempty"`
	// Answer is the last answer checked (the solving one, once solved), for a submission file.
	Answer string `json:"answer,omitempty"`
}

func exerciseKey(s protocol.SampleView) string {
	return s.Level + "/" + s.File + "#" + strconv.Itoa(s.ID)
}

// ClassroomPage turns a level's call samples into exercises: the student writes the call and gets an
// instant verdict with a hint; progress over the set is kept.
type ClassroomPage struct {
	app.Compo
	data      string
	level     string
	exercises []protocol.SampleView
	index     int
	dlg       *protocol.Dialogue
	tools     json.RawMessage
	// sameness says how the variant shown differs from the builtin data's exercise (see open).
	sameness variantSameness
	verdict  *protocol.Verdict
	progress map[string]Progress
	answer   string
	err      string
	saveErr  string
	// docs are the tools of the level's catalog, for concrete hints.
	docs       []ToolDoc
	showAnswer bool
	// joined is the class this tab sends its answers to (none: Class is ""); joinCode and
	// joinName are the join form's fields.
	joined             Joined
	joinCode, joinName string
	joinErr            string
	// assignment, when the address carries one (#a=...), is the only set shown; picked counts
	// the exercises this tab put in its assignment draft.
	assignment *Assignment
	picked     int
	// student is the name an assignment's student gave (kept per assignment in the tab's store):
	// with the assignment, it names their exercises' variants and their submission file; subName
	// is the name field before it is given.
	student, subName string
	// onBuiltin is true when the tab holds the builtin data, whose variants a class's or an
	// assignment's exercises are; shown is the exercise and seed that dlg is from.
	onBuiltin bool
	shown     shownExercise
	// units are the curriculum and unitEx each unit's exercises in this data; unit is the unit shown
	// (-1: a level's exercises); example is its worked example, run by the engine.
	units   []Unit
	unitEx  [][]protocol.SampleView
	unit    int
	example *workedExample
	// page is the context of the mount, which the answers sent in the background report through
	// (the element whose click sent one may be gone by then).
	page app.Context
}

// progressKey names where the tab keeps the progress of the learner the page serves, for data: a
// learner alone's, per data; a class student's, per class and student; an assignment's student's,
// per assignment and student. Each of them answers other variants, so none of them sees another's
// exercises solved, nor a submission carry another's answers; two students sharing a computer
// keep apart.
func (p *ClassroomPage) progressKey(data string) string {
	k := "classroom/" + data
	switch {
	case p.joined.Class != "":
		k += "/class/" + p.joined.Class + "/" + p.joined.Student
	case p.assignment != nil:
		k += "/assignment/" + AssignmentID(*p.assignment) + "/" + p.student
	}
	return k
}

// readProgress reads the progress of the learner the page now serves (see progressKey).
func (p *ClassroomPage) readProgress() {
	p.progress = map[string]Progress{}
	_ = tab.Store.Get(p.progressKey(p.data), &p.progress)
}

// firstUnsolved moves to the first exercise the learner has not solved yet (the first when they
// solved them all).
func (p *ClassroomPage) firstUnsolved() {
	p.index = 0
	for i, s := range p.exercises {
		if !p.progress[exerciseKey(s)].Solved {
			p.index = i
			return
		}
	}
}

// shownExercise names what the page shows: an exercise, and the variant it is shown from.
type shownExercise struct {
	key  string
	seed int64
}

// studentKey keeps the name an assignment's student gave, per assignment.
func studentKey(a Assignment) string { return "classroom/student/" + AssignmentID(a) }

// seedOf is the seed of the variant the exercise is shown and judged on: the student's own in a
// class or an assignment (wire.ExerciseSeed), 0 (the builtin data) for a learner alone or when the
// tab holds other data.
func (p *ClassroomPage) seedOf(s protocol.SampleView) int64 {
	if !p.onBuiltin {
		return 0
	}
	ex := ExerciseRef{s.Level, s.File, s.ID}
	if p.joined.Class != "" {
		return ExerciseSeedIn(p.joined.Class, nil, p.joined.Student, ex)
	}
	return ExerciseSeedIn("", p.assignment, p.student, ex)
}

// needsName is true while an assignment's student (in no class) has not given the name their
// exercises are made from.
func (p *ClassroomPage) needsName() bool {
	return p.assignment != nil && p.joined.Class == "" && p.student == ""
}

// OnDismount puts the builtin data back in the tab's engine if an exercise's variant is loaded.
func (p *ClassroomPage) OnDismount() { tab.LeaveVariants() }

// start takes the name an assignment's student typed: their exercises are made from it.
func (p *ClassroomPage) start(ctx app.Context, e app.Event) {
	if el := app.Window().GetElementByID("classroom-student-name"); el.Truthy() {
		p.subName = el.Get("value").String()
	}
	name := strings.TrimSpace(p.subName)
	switch {
	case name == "":
		p.saveErr = "Type your name as your teacher should see it: your exercises are made from it."
		return
	case len([]rune(name)) > 64:
		p.saveErr = "A name has at most 64 characters."
		return
	}
	p.student, p.saveErr = name, ""
	if err := tab.Store.Set(studentKey(*p.assignment), name); err != nil {
		p.saveErr = err.Error()
	}
	p.readProgress() // this student's
	p.firstUnsolved()
	p.open(p.page) // the mount's context: the form whose button was clicked is gone
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (p *ClassroomPage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// OnMount loads the exercises.
func (p *ClassroomPage) OnMount(ctx app.Context) {
	p.level = Levels[0]
	p.unit = -1
	p.mountClass(ctx)
	p.assignment = nil
	if a, ok, err := ParseAssignment(ctx.Page().URL().Fragment); ok {
		if err != nil {
			p.err = err.Error()
		} else {
			p.assignment = &a
			p.student = ""
			_ = tab.Store.Get(studentKey(a), &p.student)
			p.subName = p.student
		}
	}
	p.load(ctx)
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) { p.load(ctx) })
	ctx.Handle(dataCleared, func(ctx app.Context, a app.Action) { p.progress = map[string]Progress{} })
}

func (p *ClassroomPage) load(ctx app.Context) {
	level := p.level
	if p.assignment != nil {
		level = p.assignment.Items[0].Level
	}
	assignment := p.assignment
	unit := p.unit
	if unit >= 0 {
		level = p.units[unit].Rule.Level
	}
	type loaded struct {
		data    string
		builtin bool
		ex      []protocol.SampleView
		docs    []ToolDoc
		units   []Unit
		unitEx  [][]protocol.SampleView
		example []*protocol.SampleView
	}
	refresh(ctx, func() (loaded, error) {
		name, err := tab.DataName()
		if err != nil {
			return loaded{}, err
		}
		if name == builtinName {
			// The lists are the builtin data's: a variant loaded for an exercise goes first.
			if err := tab.OnVariant(0, func(Engine) error { return nil }); err != nil {
				return loaded{}, err
			}
		}
		ss, err := tab.Samples(level)
		if err != nil {
			return loaded{}, err
		}
		if assignment != nil {
			if ss, err = assignmentSamples(assignment); err != nil {
				return loaded{}, err
			}
		}
		catalog := "apis"
		if level == "level-3" {
			catalog = "lv3_apis"
		}
		c, err := call[protocol.Catalog](tab.Engine, protocol.Request{Op: protocol.OpCatalog, Catalog: catalog, Form: protocol.FormNative})
		if err != nil {
			return loaded{}, err
		}
		docs, err := ToolDocs(c)
		if err != nil {
			return loaded{}, err
		}
		var ex []protocol.SampleView
		for _, s := range ss {
			if s.Kind == protocol.KindCall || (assignment != nil && s.Kind == protocol.KindSpecial) {
				ex = append(ex, s)
			}
		}
		l := loaded{data: name, builtin: name == builtinName, ex: ex, docs: docs}
		if assignment == nil {
			if l.units, err = Curriculum(); err != nil {
				return l, err
			}
			for _, u := range l.units {
				e, x, err := tab.UnitExercises(u)
				if err != nil {
					return l, err
				}
				l.example, l.unitEx = append(l.example, e), append(l.unitEx, x)
			}
			if unit >= 0 && unit < len(l.unitEx) {
				l.ex = l.unitEx[unit]
			}
		}
		return l, nil
	}, func(l loaded, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.data, p.exercises, p.index, p.docs, p.onBuiltin = l.data, l.ex, 0, l.docs, l.builtin
		p.units, p.unitEx = l.units, l.unitEx
		p.example = nil
		if unit >= 0 && unit < len(l.example) && l.example[unit] != nil {
			p.runExample(ctx, *l.example[unit])
		}
		p.readProgress()
		p.firstUnsolved()
		p.open(ctx)
	})
}

// open fetches the current exercise's dialogue and tools, from the student's variant of it. Its
// answer comes through the mount's context: the element whose event asked may be gone by then.
func (p *ClassroomPage) open(app.Context) {
	ctx := p.page // set on mount
	p.verdict, p.answer, p.dlg, p.showAnswer, p.shown = nil, "", nil, false, shownExercise{}
	if el := app.Window().GetElementByID("classroom-input"); el.Truthy() {
		el.Set("value", "")
	}
	if p.index >= len(p.exercises) || p.needsName() {
		return
	}
	s := p.exercises[p.index]
	want := shownExercise{exerciseKey(s), p.seedOf(s)}
	onBuiltin := p.onBuiltin
	type loaded struct {
		d        *protocol.Dialogue
		tools    json.RawMessage
		sameness variantSameness
	}
	id := s.ID
	promptOf := func(e Engine) (protocol.Prompt, error) {
		return call[protocol.Prompt](e, protocol.Request{Op: protocol.OpPrompt, Level: s.Level, File: s.File, Sample: &id})
	}
	refresh(ctx, func() (l loaded, err error) {
		var pr protocol.Prompt
		read := func(e Engine) error {
			d, err := call[protocol.Dialogue](e, protocol.Request{Op: protocol.OpDialogue, Level: s.Level, File: s.File})
			if err != nil {
				return err
			}
			pr, err = promptOf(e)
			l = loaded{d: &d, tools: pr.Tools}
			return err
		}
		if !onBuiltin {
			return l, read(tab.Engine)
		}
		// The builtin data's exercise first, to say whether the student's is their own; then
		// theirs, which the engine then holds, as it holds it while they answer.
		var orig protocol.Prompt
		if want.seed != 0 {
			if err := tab.OnVariant(0, func(e Engine) (err error) { orig, err = promptOf(e); return err }); err != nil {
				return l, err
			}
		}
		if err := tab.OnVariant(want.seed, read); err != nil || want.seed == 0 {
			return l, err
		}
		l.sameness = samenessOf(pr, orig)
		return l, nil
	}, func(l loaded, err error) {
		if p.index >= len(p.exercises) || (shownExercise{exerciseKey(p.exercises[p.index]), p.seedOf(p.exercises[p.index])}) != want {
			return // the student moved on (or joined a class) meanwhile: another open is under way
		}
		if err != nil {
			p.err = err.Error()
			return
		}
		p.dlg, p.tools, p.shown, p.sameness = l.d, l.tools, want, l.sameness
	})
}

// variantSameness says how a student's variant of an exercise differs from the builtin data's.
type variantSameness int

const (
	// ownAnswer: the exercise's values and its answer are the student's own.
	ownAnswer variantSameness = iota
	// ownWording: its wording moved, but the answer is everyone's (what it asks for is a fact of
	// the tools' world, which no variant moves).
	ownWording
	// sameForAll: nothing in it could move: it is the builtin data's exercise.
	sameForAll
)

// samenessOf compares a variant's prompt of an exercise with the builtin data's.
func samenessOf(variant, orig protocol.Prompt) variantSameness {
	switch {
	case variant.Gold != orig.Gold || variant.GoldNative != orig.GoldNative:
		return ownAnswer
	case variant.Text != orig.Text:
		return ownWording
	}
	return sameForAll
}

// variantNote says whose exercise a student's variant is: their own, or everyone's where it could
// not vary, so that no student is told an answer is theirs that every student shares.
func variantNote(seed int64, same variantSameness) string {
	switch same {
	case sameForAll:
		return fmt.Sprintf("This exercise is the same for everyone (variant %d moved nothing in it: its values are facts of the tools' world), and so is its answer.", seed)
	case ownWording:
		return fmt.Sprintf("Your own version of this exercise (variant %d): its wording is yours, but its answer is the same for everyone (what it asks for is a fact of the tools' world).", seed)
	}
	return fmt.Sprintf("Your own version of this exercise (variant %d): its names, places and secrets are yours, so is its answer.", seed)
}

// Render draws the page.
func (p *ClassroomPage) Render() app.UI {
	solved := 0
	for _, s := range p.exercises {
		if p.progress[exerciseKey(s)].Solved {
			solved++
		}
	}
	total := len(p.exercises)
	return shell("/classroom", "Classroom",
		app.P().Text("Each exercise is a dialogue that stops where the assistant must call a tool. Write that call; the tool runs and you get a verdict with a hint."),
		app.If(p.assignment != nil, func() app.UI {
			return app.P().Class("card").DataSet("testid", "classroom-assignment").Body(
				app.Text("Assignment: "), app.Strong().Text(p.assignment.Name), app.Text(fmt.Sprintf(" · %d exercises · ", len(p.assignment.Items))),
				app.A().Href("/classroom").Text("all exercises"), app.Br(),
				p.assignmentStudent())
		}).Else(func() app.UI {
			return app.Div().Body(p.curriculum(),
				app.Div().Class("row").Body(
					levelSelect(p.level, false, func(ctx app.Context, v string) {
						p.level, p.unit = v, -1
						p.load(ctx)
					}),
				))
		}),
		app.If(p.unit >= 0 && p.unit < len(p.units) && p.assignment == nil, func() app.UI { return p.unitIntro() }),
		app.Div().Class("progress").Body(
			app.Progress().Max(max(total, 1)).Value(solved).Aria("label", "exercises solved"),
			app.Span().DataSet("testid", "classroom-progress").Text(fmt.Sprintf(" %d of %d solved", solved, total)),
		),
		p.classCard(),
		errorBox(p.err),
		note(p.saveErr),
		app.If(total == 0 && p.err == "", func() app.UI { return note("No call samples at this level.") }),
		app.If(total > 0 && p.index < total && !p.needsName(), func() app.UI { return p.exercise() }),
	)
}

// assignmentStudent is the assignment's name field, before the name is given (the exercises are
// made from it), or the name and the submission's download.
func (p *ClassroomPage) assignmentStudent() app.UI {
	download := app.Button().DataSet("testid", "classroom-submission").Title("A file of your answers and attempts to hand to your teacher").
		Text("Download my submission").OnClick(func(ctx app.Context, e app.Event) { p.downloadSubmission() })
	if p.joined.Class != "" {
		return app.Span().Body(app.Text("Your answers go to class "+p.joined.Class+"; a file of them for your teacher: "), download)
	}
	if p.student != "" {
		return app.Span().Body(app.Text("Working as "), app.Strong().DataSet("testid", "classroom-student").Text(p.student), app.Text(" · "), download)
	}
	return app.Div().DataSet("testid", "classroom-student-form").Body(
		app.P().Class("small").Text("Your exercises are made for you from your name: the names, places and secrets in them are yours, and your teacher sees the same ones. Type it as your teacher should see it."),
		app.Label().Class("field").Body(app.Span().Text("Your name "),
			app.Input().ID("classroom-student-name").DataSet("testid", "classroom-submission-name").MaxLength(64).Value(p.subName).
				OnInput(func(ctx app.Context, e app.Event) { p.subName = ctx.JSSrc().Get("value").String() })),
		app.Text(" "),
		app.Button().Class("primary").DataSet("testid", "classroom-student-start").Text("Start").OnClick(p.start))
}

func (p *ClassroomPage) exercise() app.UI {
	s := p.exercises[p.index]
	var turns []app.UI
	if p.dlg != nil {
		for _, t := range p.dlg.Turns {
			if t.Line >= s.GoldLine {
				break
			}
			if t.Role == "API" {
				turns = append(turns, app.Div().Class("turn turn-API").Body(app.Span().Class("who").Text("API"), app.Code().Text(t.APIName+" "+string(t.Params)),
					app.Details().Body(app.Summary().Text("result"), app.Pre().Text(Pretty(t.Result)))))
				continue
			}
			turns = append(turns, app.Div().Class("turn turn-"+t.Role).Body(app.Span().Class("who").Text(t.Role), app.P().Text(t.Text)))
		}
	}
	pr := p.progress[exerciseKey(s)]
	seed := p.seedOf(s)
	ready := p.dlg != nil && p.shown == shownExercise{exerciseKey(s), seed}
	return app.Section().Class("card").DataSet("testid", "classroom-exercise").DataSet("seed", seed).DataSet("ready", ready).Body(
		app.H2().Text(fmt.Sprintf("Exercise %d of %d · %s", p.index+1, len(p.exercises), s.File)),
		app.If(seed != 0 && ready, func() app.UI {
			return app.P().Class("small").DataSet("testid", "classroom-variant").DataSet("sameness", int(p.sameness)).Text(variantNote(seed, p.sameness))
		}),
		// Always there, so that the elements after it keep their places while a variant loads.
		app.P().Class("small").DataSet("testid", "classroom-preparing").Hidden(ready).Text("Preparing the exercise…"),
		app.Div().Class("chat").DataSet("testid", "classroom-chat").Body(turns...),
		app.Details().Body(app.Summary().Text("Tools you can use"), app.Pre().Class("prompt-text").Text(Pretty(p.tools))),
		app.Label().For("classroom-input").Class("block").Text("Your call"),
		app.Textarea().ID("classroom-input").DataSet("testid", "classroom-input").Rows(2).Spellcheck(false).
			Placeholder("[ToolName(key='value')]").Text(p.answer).
			OnChange(func(ctx app.Context, e app.Event) { p.answer = ctx.JSSrc().Get("value").String() }).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
					e.PreventDefault()
					p.check(ctx, e)
				}
			}),
		app.Div().Class("row").Body(
			app.Button().Class("primary").DataSet("testid", "classroom-check").Body(app.Text("Check"), keyHint("Ctrl+Enter")).OnClick(p.check),
			app.Button().DataSet("testid", "classroom-prev").Text("Previous").Disabled(p.index == 0).OnClick(func(ctx app.Context, e app.Event) { p.index--; p.open(ctx) }),
			app.Button().DataSet("testid", "classroom-next").Text("Next").Disabled(p.index+1 >= len(p.exercises)).OnClick(func(ctx app.Context, e app.Event) { p.index++; p.open(ctx) }),
			app.Button().DataSet("testid", "classroom-pick").Title("Put this exercise in the assignment you are making (see Teach)").
				Text("Add to an assignment").OnClick(func(ctx app.Context, e app.Event) { p.pick() }),
			app.If(p.picked > 0, func() app.UI {
				return app.A().Href("/teach#assignment").DataSet("testid", "classroom-picked").Text(fmt.Sprintf("%d in the assignment", p.picked))
			}),
			// A variant's answer is not the sample page's (the builtin data's): "Show the answer" gives it.
			app.If(seed == 0, func() app.UI {
				return app.A().Href(sampleURL(s.Level, s.File, s.ID)).Text("see the answer").OnClick(func(ctx app.Context, e app.Event) { p.countShown() })
			}),
		),
		app.If(s.Level == "level-3", func() app.UI {
			return app.P().Class("note").Body(app.Text("A level-3 scene is a whole plan, not one call: "),
				app.A().DataSet("testid", "classroom-play").Href(PlayURL(s.File)).Text("play this scene yourself, call by call"), app.Text("."))
		}),
		app.If(p.verdict != nil, func() app.UI {
			v := p.verdict.Call()
			cls := "bad"
			if v.Correct {
				cls = "good"
			}
			lines := ConcreteHint(v, p.docs)
			if len(lines) == 0 {
				lines = []string{Hint(v.Category)}
			}
			return app.Div().Class("hint "+cls).DataSet("testid", "classroom-verdict").DataSet("category", v.Category).Aria("live", "polite").Body(
				app.P().Body(app.Span().Class("small").Text("Verdict: "), app.Strong().Text(v.Category)),
				app.Ul().DataSet("testid", "classroom-hint").Body(app.Range(lines).Slice(func(i int) app.UI { return app.Li().Text(lines[i]) })),
				app.If(!v.Correct && v.GoldCall != "", func() app.UI {
					if !p.showAnswer {
						return app.Button().DataSet("testid", "classroom-show-answer").Text("Show the answer").
							OnClick(func(ctx app.Context, e app.Event) { p.showAnswer = true; p.countShown() })
					}
					return app.P().Body(app.Text("The answer: "), app.Code().DataSet("testid", "classroom-answer").Text(v.GoldCall))
				}),
			)
		}),
		p.serverVerdict(s),
		app.P().Class("small").DataSet("testid", "classroom-attempts").Text(fmt.Sprintf("Attempts: %d%s%s", pr.Attempts, map[bool]string{true: " · solved", false: ""}[pr.Solved],
			map[bool]string{true: " · answer seen", false: ""}[pr.Shown > 0])),
	)
}

func (p *ClassroomPage) check(_ app.Context, e app.Event) {
	if el := app.Window().GetElementByID("classroom-input"); el.Truthy() {
		p.answer = el.Get("value").String()
	}
	s := p.exercises[p.index]
	answer := SubmissionAnswer{Level: s.Level, File: s.File, ID: s.ID, Answer: p.answer}
	p.showAnswer = false
	type judged struct {
		vs   map[string]protocol.Verdict
		errs map[string]string
	}
	seed, onBuiltin := p.seedOf(s), p.onBuiltin
	ctx := p.page // the verdict comes through the mount's context (see open)
	refresh(ctx, func() (j judged, err error) {
		// Judged on the variant the exercise is shown from: the student's own gold is the right one.
		run := func(e Engine) error {
			j.vs, j.errs, err = judgeOn(e, []SubmissionAnswer{answer})
			return err
		}
		if !onBuiltin {
			return j, run(tab.Engine)
		}
		return j, tab.OnVariant(seed, run)
	}, func(j judged, err error) {
		k := exerciseKey(s)
		if err != nil {
			p.err = err.Error()
			return
		}
		v, ok := j.vs[k]
		if !ok {
			p.err = j.errs[k]
			return
		}
		p.verdict, p.err = &v, ""
		pr := p.progress[k]
		pr.Attempts++
		if !pr.Solved {
			pr.Answer = answer.Answer
		}
		pr.Solved = pr.Solved || v.Call().Correct
		p.progress[k] = pr
		p.saveErr = ""
		if err := tab.Store.Set(p.progressKey(p.data), p.progress); err != nil {
			p.saveErr = err.Error()
		}
		p.sendToClass(ctx, s, v.Call())
	})
}

// downloadSubmission saves the assignment's answers and attempts as a file for the teacher.
func (p *ClassroomPage) downloadSubmission() {
	if p.assignment == nil {
		return
	}
	sub := NewSubmission(p.student, *p.assignment, p.progress)
	if p.joined.Class != "" {
		sub.Student, sub.Class = p.joined.Student, p.joined.Class
	}
	b, _ := json.MarshalIndent(sub, "", " ")
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, sub.Student)
	if name == "" {
		name = "student"
	}
	if !download("submission-"+name+".json", "application/json", b) {
		p.saveErr = "This page cannot save files."
	}
}

// countShown records that the student asked to see the current exercise's answer. Handlers read
// the current exercise when they run: go-app keeps an element's first handler when it reuses it.
func (p *ClassroomPage) countShown() {
	if p.index >= len(p.exercises) {
		return
	}
	k := exerciseKey(p.exercises[p.index])
	pr := p.progress[k]
	pr.Shown++
	p.progress[k] = pr
	if err := tab.Store.Set(p.progressKey(p.data), p.progress); err != nil {
		p.saveErr = err.Error()
	}
}

// assignmentSamples are the samples of an assignment's exercises, in its order; an exercise the data
// does not have is an error naming it.
func assignmentSamples(a *Assignment) ([]protocol.SampleView, error) {
	byLevel := map[string]map[string]protocol.SampleView{}
	var out []protocol.SampleView
	for _, it := range a.Items {
		if byLevel[it.Level] == nil {
			ss, err := tab.Samples(it.Level)
			if err != nil {
				return nil, err
			}
			m := map[string]protocol.SampleView{}
			for _, s := range ss {
				m[exerciseKey(s)] = s
			}
			byLevel[it.Level] = m
		}
		s, ok := byLevel[it.Level][it.Key()]
		if !ok {
			return nil, fmt.Errorf("the assignment's exercise %s %s #%d is not in this data", it.Level, it.File, it.ID)
		}
		out = append(out, s)
	}
	return out, nil
}

// draftKey keeps the assignment a teacher is making, exercise by exercise, from the Classroom.
const draftKey = "teach/draft"

// pick adds the current exercise to the assignment draft (once).
func (p *ClassroomPage) pick() {
	if p.index >= len(p.exercises) {
		return
	}
	s := p.exercises[p.index]
	var d Assignment
	_ = tab.Store.Get(draftKey, &d)
	ex := ExerciseRef{s.Level, s.File, s.ID}
	for _, it := range d.Items {
		if it == ex {
			p.picked = len(d.Items)
			return
		}
	}
	if len(d.Items) >= MaxAssignment {
		p.saveErr = fmt.Sprintf("An assignment holds at most %d exercises.", MaxAssignment)
		return
	}
	d.Items = append(d.Items, ex)
	if err := tab.Store.Set(draftKey, d); err != nil {
		p.saveErr = err.Error()
		return
	}
	p.picked = len(d.Items)
}
