package app

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/model"
)

// TeacherClass is a class a teacher's tab can read: its code, name and key (kept in this tab's
// storage only; sent to the server only in the Authorization header).
type TeacherClass struct {
	Class string `json:"class"`
	Name  string `json:"name"`
	Key   string `json:"key"`
}

const teachKey = "teach/classes"

// TeachPage is the teacher's side of a class on the server: make a class, hand out its student
// link, see who solved what (the server's verdicts), the common wrong answers, export them as CSV,
// and delete the class.
type TeachPage struct {
	app.Compo
	classes  []TeacherClass
	current  string
	view     *wire.ClassView
	name     string
	origin   string
	err, msg string
	busy     bool
	confirm  bool
	// subs are the submission files imported; judged is their table, every verdict this tab's.
	subs   []Submission
	judged *SubmissionTable
	// draft is the assignment being made (exercises picked on the Classroom page).
	draft Assignment
	// variants are the class's students' variants read so far (student -> exercise key), and
	// reading the student whose variants are being read.
	variants map[string]map[string]Variant
	reading  string
	// page is the context of the mount: answers of the server are dispatched through it, as the
	// element whose event sent a request may be gone when the answer comes (go-app drops a
	// dispatch to an element no longer mounted).
	page app.Context
}

// OnPreRender renders the empty page where go-app renders without a browser.
func (p *TeachPage) OnPreRender(ctx app.Context) { p.mount(ctx, false) }

// OnMount loads the classes this tab knows and takes one from a teacher link (#class=CODE&key=KEY).
func (p *TeachPage) OnMount(ctx app.Context) { p.mount(ctx, true) }

// OnDismount puts the builtin data back in the tab's engine if a student's variant is loaded.
func (p *TeachPage) OnDismount() { tab.LeaveVariants() }

// readVariants reads each exercise a student of the current class answered from the student's
// variant (its seed, request and gold call), in this tab's engine, one variant after the other.
func (p *TeachPage) readVariants(ctx app.Context, student string) {
	if p.view == nil || p.reading != "" {
		return
	}
	code := p.view.Class
	var exs []ExerciseRef
	var seeds []int64
	seen := map[string]bool{}
	for _, s := range p.view.Students {
		if s.Student != student {
			continue
		}
		for _, a := range s.Answers {
			ex := ExerciseRef{a.Level, a.File, a.ID}
			if !seen[ex.Key()] {
				seen[ex.Key()] = true
				exs = append(exs, ex)
				seeds = append(seeds, ExerciseSeedIn(code, nil, student, ex))
			}
		}
	}
	p.reading, p.err = student, ""
	p.page.Async(func() {
		name, err := tab.DataName()
		var vs map[string]Variant
		switch {
		case err != nil:
		case name != builtinName:
			err = fmt.Errorf("this tab holds %q: a student's variants are of the builtin data (load it on the Dataset page)", name)
		default:
			vs, err = VariantsOf(seeds, exs)
		}
		p.page.Dispatch(func(ctx app.Context) {
			p.reading = ""
			if p.view == nil || p.view.Class != code {
				return
			}
			if err != nil {
				p.err = "The variants of " + student + ": " + err.Error()
			}
			if p.variants == nil {
				p.variants = map[string]map[string]Variant{}
			}
			p.variants[student] = vs
		})
	})
}

func (p *TeachPage) mount(ctx app.Context, browser bool) {
	p.page = ctx
	u := ctx.Page().URL()
	p.origin = u.Scheme + "://" + u.Host
	_ = tab.Store.Get(teachKey, &p.classes)
	_ = tab.Store.Get(draftKey, &p.draft)
	if f, err := url.ParseQuery(u.Fragment); err == nil && f.Get("class") != "" && f.Get("key") != "" {
		p.remember(TeacherClass{Class: strings.ToUpper(f.Get("class")), Key: f.Get("key")})
		p.current = strings.ToUpper(f.Get("class"))
		if browser {
			// The key leaves the address bar (and the history) once it is kept in the tab.
			app.Window().Get("history").Call("replaceState", nil, "", "/teach")
		}
	}
	if p.current == "" && len(p.classes) > 0 {
		p.current = p.classes[0].Class
	}
	if browser && p.current != "" {
		p.load(ctx)
	}
}

// remember keeps a class in the tab's list (a known code takes the new key).
func (p *TeachPage) remember(c TeacherClass) {
	for i, k := range p.classes {
		if k.Class == c.Class {
			if c.Name == "" {
				c.Name = k.Name
			}
			p.classes[i] = c
			p.save()
			return
		}
	}
	p.classes = append(p.classes, c)
	p.save()
}

func (p *TeachPage) save() {
	if err := tab.Store.Set(teachKey, p.classes); err != nil {
		p.err = err.Error()
	}
}

func (p *TeachPage) cur() (TeacherClass, bool) {
	for _, c := range p.classes {
		if c.Class == p.current {
			return c, true
		}
	}
	return TeacherClass{}, false
}

// create makes a class on the server.
func (p *TeachPage) create(ctx app.Context, e app.Event) {
	if el := app.Window().GetElementByID("teach-name"); el.Truthy() {
		p.name = el.Get("value").String()
	}
	name := strings.TrimSpace(p.name)
	if name == "" {
		p.err = "Name the class first."
		return
	}
	p.busy, p.err, p.msg = true, "", ""
	p.page.Async(func() {
		var m wire.ClassMade
		err := classCall(context.Background(), model.DefaultTransport(), "POST", ClassesAPI, "", wire.NewClass{Name: name}, &m)
		p.page.Dispatch(func(ctx app.Context) {
			p.busy = false
			if err != nil {
				p.err = "The class could not be made: " + err.Error()
				return
			}
			p.remember(TeacherClass{Class: m.Class, Name: m.Name, Key: m.TeacherKey})
			p.current, p.name, p.view = m.Class, "", nil
			p.msg = "Class " + m.Class + " is made. Keep the teacher link: it is the only way to this class from another device."
			p.load(ctx)
		})
	})
}

// load reads the current class from the server.
func (p *TeachPage) load(ctx app.Context) {
	c, ok := p.cur()
	if !ok {
		return
	}
	p.busy = true
	p.page.Async(func() {
		var v wire.ClassView
		err := classCall(context.Background(), model.DefaultTransport(), "GET", classPath(c.Class, ""), c.Key, nil, &v)
		p.page.Dispatch(func(ctx app.Context) {
			p.busy = false
			if p.current != c.Class {
				return
			}
			if err != nil {
				p.err, p.view = fmt.Sprintf("Class %s: %v", c.Class, err), nil
				return
			}
			if p.view == nil || p.view.Class != v.Class {
				p.variants = nil
			}
			p.err, p.view = "", &v
			if v.Name != "" && c.Name != v.Name {
				c.Name = v.Name
				p.remember(c)
			}
		})
	})
}

// remove deletes the current class on the server and forgets it here.
func (p *TeachPage) remove(ctx app.Context, e app.Event) {
	c, ok := p.cur()
	if !ok {
		return
	}
	p.busy, p.confirm = true, false
	p.page.Async(func() {
		err := classCall(context.Background(), model.DefaultTransport(), "DELETE", classPath(c.Class, ""), c.Key, nil, nil)
		p.page.Dispatch(func(ctx app.Context) {
			p.busy = false
			if err != nil {
				p.err = "The class could not be deleted: " + err.Error()
				return
			}
			p.forget(c.Class)
			p.msg = "Class " + c.Class + " is deleted, with every answer of it."
		})
	})
}

func (p *TeachPage) forget(code string) {
	var keep []TeacherClass
	for _, k := range p.classes {
		if k.Class != code {
			keep = append(keep, k)
		}
	}
	p.classes, p.view, p.current = keep, nil, ""
	p.save()
}

func (p *TeachPage) exportCSV(ctx app.Context, e app.Event) {
	if p.view == nil {
		return
	}
	if !download("class-"+p.view.Class+".csv", "text/csv", ClassCSV(*p.view)) {
		p.err = "This page cannot save files."
	}
}

// Render draws the page.
func (p *TeachPage) Render() app.UI {
	c, ok := p.cur()
	return shell("/teach", "Teach",
		app.P().Text("Run a class: make one, give your students its link, and see who solved which exercise. Every answer is judged again by the server's engine; what a student's tab claims is never believed."),
		app.P().Class("small").Text("A class keeps the names your students type and their answers, nothing else. A class no one uses for 180 days is deleted; you can delete it any time."),
		app.Section().Class("card").Body(
			app.H2().Text("New class"),
			app.Div().Class("row").Body(
				app.Label().Class("field").Body(app.Span().Text("Name "),
					app.Input().ID("teach-name").DataSet("testid", "teach-name").MaxLength(100).Value(p.name).
						OnInput(func(ctx app.Context, e app.Event) { p.name = ctx.JSSrc().Get("value").String() })),
				app.Button().Class("primary").DataSet("testid", "teach-create").Disabled(p.busy).Text("Make the class").OnClick(p.create),
			),
		),
		errorBox(p.err),
		note(p.msg),
		app.If(len(p.classes) > 0, func() app.UI {
			return app.Div().Class("row").Body(
				app.Span().Text("Your classes: "),
				app.Range(p.classes).Slice(func(i int) app.UI {
					k := p.classes[i]
					label := k.Class
					if k.Name != "" {
						label = k.Name + " (" + k.Class + ")"
					}
					return app.Button().DataSet("testid", "teach-open").DataSet("class", k.Class).Aria("pressed", k.Class == p.current).Text(label).
						OnClick(func(ctx app.Context, e app.Event) {
							// The class is read from the button: go-app keeps a reused element's first handler.
							p.current, p.view, p.confirm = ctx.JSSrc().Get("dataset").Get("class").String(), nil, false
							p.load(ctx)
						})
				}),
			)
		}),
		app.If(ok, func() app.UI { return p.classView(c) }),
		p.assignmentCard(),
		p.submissionsCard(),
	)
}

// submissionsCard imports students' submission files and judges every answer again with this
// tab's engine; what a file says was correct is never read.
func (p *TeachPage) submissionsCard() app.UI {
	return app.Section().Class("card").ID("submissions").Body(
		app.H2().Text("Submissions"),
		app.P().Class("small").Text("Without a class, students download a submission file from the assignment and send it to you. Choose any number of them: each answer is judged here again by this tab's engine, whatever the file says."),
		app.Label().Class("field").Body(app.Span().Text("Submission files "),
			app.Input().Type("file").Accept(".json").Attr("multiple", true).DataSet("testid", "teach-submissions").OnChange(p.onSubmissions)),
		app.If(p.judged != nil, func() app.UI { return submissionTableUI(*p.judged) }),
	)
}

func (p *TeachPage) onSubmissions(ctx app.Context, e app.Event) {
	readFiles(ctx, ctx.JSSrc().Get("files"), func(ctx app.Context, names, texts []string) {
		var errs []string
		for i := range names {
			s, err := ParseSubmission(names[i], []byte(texts[i]))
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			p.subs = append(p.subs, s)
		}
		p.err = strings.Join(errs, "\n")
		subs := p.subs
		refresh(ctx, func() (SubmissionTable, error) { return JudgeSubmissions(subs) }, func(t SubmissionTable, err error) {
			if err != nil {
				p.err = err.Error()
				return
			}
			p.judged = &t
		})
	})
}

// submissionTableUI draws students by exercises with this tab's verdicts; names and answers as text.
func submissionTableUI(t SubmissionTable) app.UI {
	head := []app.UI{app.Th().Scope("col").Text("Student")}
	for _, ex := range t.Exercises {
		head = append(head, app.Th().Scope("col").Title(ex.Level+" "+ex.File+" #"+fmt.Sprint(ex.ID)).Text(fmt.Sprintf("%s #%d", strings.TrimSuffix(ex.File, ".jsonl"), ex.ID)))
	}
	var rows []app.UI
	for _, s := range t.Students {
		cells := []app.UI{app.Th().Scope("row").DataSet("testid", "teach-sub-student").Text(s)}
		for _, ex := range t.Exercises {
			c, ok := t.Cells[s][ex.Key()]
			text := ""
			switch {
			case !ok:
			case c.Correct:
				text = fmt.Sprintf("✓ %d", c.Attempts)
			default:
				text = fmt.Sprintf("✗ %d", c.Attempts)
			}
			if c.SeenAnswer {
				text += " · seen"
			}
			cells = append(cells, app.Td().DataSet("testid", "teach-sub-cell").DataSet("correct", c.Correct).DataSet("category", c.Category).
				Title(c.Category+": "+truncate(c.Answer, 200)).Text(text))
		}
		rows = append(rows, app.Tr().DataSet("student", s).Body(cells...))
	}
	var vrows []variantRow
	for _, s := range t.Students {
		for _, ex := range t.Exercises {
			if c, ok := t.Cells[s][ex.Key()]; ok {
				vrows = append(vrows, variantRow{Student: s, Exercise: ex, Variant: c.Variant, Answer: c.Answer, Category: c.Category, Correct: c.Correct})
			}
		}
	}
	return app.Div().Body(
		app.Div().Class("table-wrap").Body(app.Table().DataSet("testid", "teach-sub-table").Body(
			app.Caption().Text("Judged here: ✓ right, ✗ not; the number is the attempts the student made; seen: the answer was shown"),
			app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...))),
		app.If(!t.Variants, func() app.UI {
			return note("This tab holds other data than the builtin data: the answers were judged on it, not on each student's variant of the builtin data.")
		}).Else(func() app.UI {
			return variantTableUI("teach-sub-variants", "Each student's exercises, from their own variants: what they were asked, the right answer, and their answer as judged here", vrows)
		}),
	)
}

// assignmentCard makes an assignment link from the exercises picked on the Classroom page.
func (p *TeachPage) assignmentCard() app.UI {
	var link, linkErr string
	if len(p.draft.Items) > 0 {
		frag, err := AssignmentFragment(p.draft)
		if err != nil {
			linkErr = err.Error()
		} else {
			link = p.origin + "/classroom#" + frag
		}
	}
	return app.Section().Class("card").ID("assignment").Body(
		app.H2().Text("Assignment"),
		app.P().Class("small").Text("Pick exercises on the Classroom page (\"Add to an assignment\"), name the set, and give the link: it carries the set itself, so it works without a class and offline. With a class, students open the student link first."),
		app.If(len(p.draft.Items) == 0, func() app.UI {
			return app.P().DataSet("testid", "teach-assignment-empty").Text("No exercises picked yet.")
		}).Else(func() app.UI {
			return app.Div().Body(
				app.Label().Class("field").Body(app.Span().Text("Name "),
					app.Input().DataSet("testid", "teach-assignment-name").MaxLength(100).Value(p.draft.Name).
						OnInput(func(ctx app.Context, e app.Event) { p.draft.Name = ctx.JSSrc().Get("value").String(); p.saveDraft() })),
				app.Ol().DataSet("testid", "teach-assignment-items").Body(app.Range(p.draft.Items).Slice(func(i int) app.UI {
					it := p.draft.Items[i]
					return app.Li().Body(app.Text(fmt.Sprintf("%s %s #%d ", LevelLabel(it.Level), it.File, it.ID)),
						app.Button().Text("Remove").OnClick(func(ctx app.Context, e app.Event) {
							p.draft.Items = append(p.draft.Items[:i:i], p.draft.Items[i+1:]...)
							p.saveDraft()
						}))
				})),
				app.Label().Class("block").Text("Assignment link"),
				app.Input().DataSet("testid", "teach-assignment-link").Class("link-box").ReadOnly(true).Value(link).Size(60),
				errorBox(linkErr),
				app.Button().DataSet("testid", "teach-assignment-clear").Text("Start a new assignment").OnClick(func(ctx app.Context, e app.Event) {
					p.draft = Assignment{}
					tab.Store.Del(draftKey)
				}),
			)
		}),
	)
}

func (p *TeachPage) saveDraft() {
	if err := tab.Store.Set(draftKey, p.draft); err != nil {
		p.err = err.Error()
	}
}

func (p *TeachPage) classView(c TeacherClass) app.UI {
	student := p.origin + "/classroom?class=" + c.Class
	teacher := p.origin + "/teach#class=" + c.Class + "&key=" + url.QueryEscape(c.Key)
	var body []app.UI
	body = append(body,
		app.H2().Body(app.Text("Class "), app.Span().DataSet("testid", "teach-code").Text(c.Class), app.Text(" · "+c.Name)),
		app.Label().Class("block").Text("Student link (students type their name once)"),
		app.Input().DataSet("testid", "teach-student-link").Class("link-box").ReadOnly(true).Value(student).Size(60),
		app.Label().Class("block").Text("Teacher link (holds the key: keep it to yourself)"),
		app.Input().DataSet("testid", "teach-teacher-link").Class("link-box").ReadOnly(true).Value(teacher).Size(60).Type("password").
			OnFocus(func(ctx app.Context, e app.Event) { ctx.JSSrc().Set("type", "text") }),
		app.Div().Class("row").Body(
			app.Button().DataSet("testid", "teach-refresh").Disabled(p.busy).Text("Refresh").OnClick(func(ctx app.Context, e app.Event) { p.load(ctx) }),
			app.Button().DataSet("testid", "teach-csv").Disabled(p.view == nil).Text("Export CSV").OnClick(p.exportCSV),
			app.If(!p.confirm, func() app.UI {
				return app.Button().DataSet("testid", "teach-delete").Text("Delete the class").OnClick(func(ctx app.Context, e app.Event) { p.confirm = true })
			}).Else(func() app.UI {
				return app.Span().Body(app.Text("Delete class "+c.Class+" and every answer? "),
					app.Button().Class("danger").DataSet("testid", "teach-delete-confirm").Text("Yes, delete").OnClick(p.remove),
					app.Button().Text("No").OnClick(func(ctx app.Context, e app.Event) { p.confirm = false }))
			}),
			app.Button().DataSet("testid", "teach-forget").Text("Forget on this device").OnClick(func(ctx app.Context, e app.Event) { p.forget(p.current) }),
		),
	)
	if p.view != nil {
		body = append(body, classTableUI(NewClassTable(*p.view), p.view.Class, p.reading, p.readVariants))
		body = append(body, p.classVariantsUI())
	}
	return app.Section().Class("card").DataSet("testid", "teach-class").Body(body...)
}

// classTableUI draws the students by exercises (solved, attempts), then each exercise's most
// common wrong categories with an example answer. Names and answers are shown as text.
func classTableUI(t ClassTable, code, reading string, read func(app.Context, string)) app.UI {
	if len(t.Students) == 0 {
		return app.P().DataSet("testid", "teach-empty").Text("No answers yet. Students open the student link, type their name, and check answers on the Classroom page.")
	}
	head := []app.UI{app.Th().Scope("col").Text("Student")}
	for _, ex := range t.Exercises {
		head = append(head, app.Th().Scope("col").Title(ex.Level+" "+ex.File+" #"+fmt.Sprint(ex.ID)).Text(fmt.Sprintf("%s #%d", strings.TrimSuffix(ex.File, ".jsonl"), ex.ID)))
	}
	head = append(head, app.Th().Scope("col").Text("Their exercises"))
	rows := []app.UI{}
	for _, s := range t.Students {
		cells := []app.UI{app.Th().Scope("row").DataSet("testid", "teach-student").Text(s)}
		solved := 0
		for _, ex := range t.Exercises {
			c := t.Cells[s][ex.Key()]
			text := ""
			switch {
			case c.Solved:
				text = fmt.Sprintf("✓ %d", c.Attempts)
				solved++
			case c.Attempts > 0:
				text = fmt.Sprintf("✗ %d", c.Attempts)
			}
			seed := ExerciseSeedIn(code, nil, s, ex)
			cells = append(cells, app.Td().DataSet("testid", "teach-cell").DataSet("solved", c.Solved).DataSet("attempts", c.Attempts).DataSet("seed", seed).
				Title(fmt.Sprintf("variant %d", seed)).Text(text))
		}
		cells = append(cells, app.Td().Body(app.Button().DataSet("testid", "teach-read-variants").DataSet("student", s).Disabled(reading != "").
			Title("Read each exercise this student answered from their own variant: what they were asked and the right answer").
			Text(map[bool]string{true: "Reading…", false: "Show"}[reading == s]).
			// The student is read from the button: go-app keeps a reused element's first handler.
			OnClick(func(ctx app.Context, e app.Event) { read(ctx, ctx.JSSrc().Get("dataset").Get("student").String()) })))
		rows = append(rows, app.Tr().DataSet("student", s).Body(cells...))
	}
	var wrong []app.UI
	for _, ex := range t.Exercises {
		ws := t.Wrong[ex.Key()]
		if len(ws) == 0 {
			continue
		}
		var items []app.UI
		for i, w := range ws {
			if i == 3 {
				break
			}
			items = append(items, app.Li().Body(app.Strong().Text(w.Category), app.Text(fmt.Sprintf(" ×%d, e.g. ", w.Count)), app.Code().Text(truncate(w.Example, 120))))
		}
		wrong = append(wrong, app.Li().DataSet("testid", "teach-wrong").Body(app.Text(ex.File+" #"+fmt.Sprint(ex.ID)), app.Ul().Body(items...)))
	}
	return app.Div().Body(
		app.Div().Class("table-wrap").Body(app.Table().DataSet("testid", "teach-table").Body(
			app.Caption().Text("✓ solved, ✗ not yet; the number is the answers sent"),
			app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...))),
		app.If(len(wrong) > 0, func() app.UI {
			return app.Div().Body(app.H3().Text("Most common wrong answers"), app.Ul().Body(wrong...))
		}),
	)
}

// classVariantsUI lists the variants read of the class's students: per student and exercise, the
// seed, what the student was asked and the right answer, with their last answer. All as text.
func (p *TeachPage) classVariantsUI() app.UI {
	if len(p.variants) == 0 || p.view == nil {
		return app.Text("")
	}
	var rows []variantRow
	for _, s := range p.view.Students {
		vs, ok := p.variants[s.Student]
		if !ok {
			continue
		}
		last := map[string]wire.AnswerView{}
		var order []ExerciseRef
		for _, a := range s.Answers {
			ex := ExerciseRef{a.Level, a.File, a.ID}
			if _, ok := last[ex.Key()]; !ok {
				order = append(order, ex)
			}
			last[ex.Key()] = a
		}
		for _, ex := range order {
			a := last[ex.Key()]
			rows = append(rows, variantRow{Student: s.Student, Exercise: ex, Variant: vs[ex.Key()], Answer: a.Answer, Category: a.Verdict, Correct: a.Correct})
		}
	}
	return variantTableUI("teach-variants", "Each student's exercises, from their own variants: what they were asked, the right answer, and their last answer (the server's verdict)", rows)
}

// variantRow is one student's exercise in a table of variants.
type variantRow struct {
	Student  string
	Exercise ExerciseRef
	Variant  Variant
	Answer   string
	Category string
	Correct  bool
}

// variantTableUI draws rows of students' variants; every text is shown as text.
func variantTableUI(testid, caption string, rows []variantRow) app.UI {
	body := make([]app.UI, 0, len(rows))
	for _, r := range rows {
		body = append(body, app.Tr().DataSet("testid", testid+"-row").DataSet("student", r.Student).DataSet("exercise", r.Exercise.Key()).
			DataSet("seed", r.Variant.Seed).Body(
			app.Th().Scope("row").Text(r.Student),
			app.Td().Text(fmt.Sprintf("%s #%d", strings.TrimSuffix(r.Exercise.File, ".jsonl"), r.Exercise.ID)),
			app.Td().DataSet("testid", testid+"-seed").Text(fmt.Sprint(r.Variant.Seed)),
			app.Td().DataSet("testid", testid+"-request").Text(truncate(r.Variant.Request, 400)),
			app.Td().Body(app.Code().DataSet("testid", testid+"-gold").Text(r.Variant.Gold)),
			app.Td().Body(app.Code().DataSet("testid", testid+"-answer").Text(truncate(r.Answer, 200))),
			app.Td().DataSet("testid", testid+"-verdict").DataSet("correct", r.Correct).Text(r.Category),
		))
	}
	return app.Div().Class("table-wrap").Body(app.Table().Class("variant-table").DataSet("testid", testid).Body(
		app.Caption().Text(caption),
		app.THead().Body(app.Tr().Body(app.Th().Scope("col").Text("Student"), app.Th().Scope("col").Text("Exercise"),
			app.Th().Scope("col").Text("Variant"), app.Th().Scope("col").Text("They were asked"), app.Th().Scope("col").Text("The right answer"),
			app.Th().Scope("col").Text("Their answer"), app.Th().Scope("col").Text("Verdict"))),
		app.TBody().Body(body...)))
}
