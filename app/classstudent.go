package app

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/protocol"
)

var (
	outboxOnce sync.Once
	outbox     *Outbox
)

// theOutbox is the tab's queue of answers for its class, made once over the tab's store.
func theOutbox() *Outbox {
	outboxOnce.Do(func() { outbox = NewOutbox(tab.Store, httpSend) })
	return outbox
}

// mountClass reads the class the tab is in and the one the address names (/classroom?class=CODE):
// a new code opens the join form, with the name typed before.
func (p *ClassroomPage) mountClass(ctx app.Context) {
	p.page = ctx
	_ = tab.Store.Get(joinedKey, &p.joined)
	p.joinName = p.joined.Student
	if code := strings.TrimSpace(ctx.Page().URL().Query().Get("class")); code != "" && !strings.EqualFold(code, p.joined.Class) {
		p.joinCode = strings.ToUpper(code)
	}
	if p.joined.Class != "" {
		p.flush(ctx)
	}
}

// join keeps the class and name the student typed; from now on each checked answer goes to it.
func (p *ClassroomPage) join(ctx app.Context, e app.Event) {
	code, ok := wire.NormalCode(p.joinCode)
	name := strings.TrimSpace(p.joinName)
	switch {
	case !ok:
		p.joinErr = fmt.Sprintf("“%s” is not a class code: %s. Check the code your teacher gave.", strings.TrimSpace(p.joinCode), wire.CodeRule)
		return
	case name == "":
		p.joinErr = "Type your name as your teacher should see it."
		return
	case len([]rune(name)) > 64:
		p.joinErr = "A name has at most 64 characters."
		return
	}
	p.joined, p.joinCode, p.joinErr = Joined{Class: code, Student: name}, "", ""
	if err := tab.Store.Set(joinedKey, p.joined); err != nil {
		p.joinErr = err.Error()
	}
	p.readProgress() // this student's in this class
	p.firstUnsolved()
	p.open(p.page) // the exercise again, from this student's variant (the form is gone)
}

// leave stops sending answers to the class (answers still queued are sent all the same).
func (p *ClassroomPage) leave(ctx app.Context, e app.Event) {
	p.joinName = p.joined.Student
	p.joined = Joined{}
	tab.Store.Del(joinedKey)
	p.readProgress() // the learner alone's, or the assignment's
	p.firstUnsolved()
	p.open(p.page)
}

// sendToClass queues the checked answer for the class, with the tab's verdict for the server's
// parity check, and sends what is queued.
func (p *ClassroomPage) sendToClass(ctx app.Context, s protocol.SampleView, v protocol.CallVerdict) {
	if p.joined.Class == "" {
		return
	}
	if !p.onBuiltin {
		p.saveErr = "This answer was not sent to your class: " + p.otherDataWords()
		return
	}
	err := theOutbox().Add(PendingAnswer{Class: p.joined.Class, Student: p.joined.Student, Level: s.Level, File: s.File, ID: s.ID,
		Answer: p.answer, Verdict: v.Category, Correct: v.Correct})
	if err != nil {
		p.saveErr = "The answer could not be queued for the class: " + err.Error()
	}
	p.flush(ctx)
}

// flush sends the queued answers in the background; while some wait (offline, a busy server), it
// tries again after the wait the outbox asks for.
func (p *ClassroomPage) flush(app.Context) {
	box, ctx := theOutbox(), p.page
	ctx.Async(func() {
		wait := box.Flush(context.Background(), func() { ctx.Dispatch(func(app.Context) {}) })
		if wait > 0 {
			ctx.Dispatch(func(ctx app.Context) { ctx.After(wait, p.flush) })
		}
	})
}

// classCard is the class part of the page: the join form, or the class the answers go to.
func (p *ClassroomPage) classCard() app.UI {
	waiting, offline, refused := theOutbox().State()
	if p.joined.Class == "" && p.joinCode == "" {
		return app.Details().Class("card").DataSet("testid", "class-join-box").Body(
			app.Summary().Text("In a class? Send your answers to your teacher"),
			p.joinForm(),
		)
	}
	if p.joinCode != "" {
		return app.Section().Class("card").DataSet("testid", "class-join-box").Body(
			app.H2().Text("Join class "+p.joinCode),
			p.joinForm(),
		)
	}
	status := "Each answer you check goes to your teacher, judged again by the server."
	switch {
	case waiting > 0 && offline:
		status = fmt.Sprintf("%s to be sent: the class server is out of reach (kept here and sent when it is back).", answersWaiting(waiting))
	case waiting > 0 && theOutbox().Held() != "":
		status = fmt.Sprintf("%s to be sent: the class server asked to wait (%s); kept here and sent again by itself.", answersWaiting(waiting), theOutbox().Held())
	case waiting > 0:
		status = fmt.Sprintf("%s to be sent…", answersWaiting(waiting))
	}
	return app.Section().Class("card").DataSet("testid", "class-joined").Body(
		app.P().Body(app.Text("Class "), app.Strong().DataSet("testid", "class-code").Text(p.joined.Class), app.Text(" as "),
			app.Strong().DataSet("testid", "class-student").Text(p.joined.Student), app.Text(". "),
			app.Button().DataSet("testid", "class-leave").Text("Leave").OnClick(p.leave)),
		app.P().Class("small").DataSet("testid", "class-status").DataSet("waiting", waiting).Text(status),
		app.If(!p.onBuiltin && p.data != "", func() app.UI {
			return app.P().Class("error").DataSet("testid", "class-other-data").Text(p.otherDataWords())
		}),
		app.If(refused != "", func() app.UI {
			return app.P().Class("error").DataSet("testid", "class-refused").Text("The class server refused an answer: " + refused)
		}),
	)
}

// otherDataWords says why a class student's answers cannot go to the class while the tab holds
// data other than the builtin data.
func (p *ClassroomPage) otherDataWords() string {
	return fmt.Sprintf("your class's exercises are your variants of the builtin data, and this tab has “%s” loaded. Choose “builtin” in the Data menu at the top of the page to answer your class.", p.data)
}

func (p *ClassroomPage) joinForm() app.UI {
	return app.Div().Body(
		app.P().Class("small").Text("Your teacher gave you a class code. Your name and your answers go to the class's server and nothing else about you: no account, no e-mail."),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(app.Span().Text("Class code "),
				app.Input().DataSet("testid", "class-code-input").Value(p.joinCode).MaxLength(9).Size(8).Attr("autocapitalize", "characters").
					OnInput(func(ctx app.Context, e app.Event) { p.joinCode = ctx.JSSrc().Get("value").String() })),
			app.Label().Class("field").Body(app.Span().Text("Your name "),
				app.Input().DataSet("testid", "class-name-input").Value(p.joinName).MaxLength(64).
					OnInput(func(ctx app.Context, e app.Event) { p.joinName = ctx.JSSrc().Get("value").String() })),
			app.Button().Class("primary").DataSet("testid", "class-join").Text("Join").OnClick(p.join),
		),
		errorBox(p.joinErr),
	)
}

// serverVerdict shows the server's verdict on the exercise's last sent answer, or that it waits.
func (p *ClassroomPage) serverVerdict(s protocol.SampleView) app.UI {
	if p.joined.Class == "" {
		return nil
	}
	ex := ExerciseRef{s.Level, s.File, s.ID}
	box := theOutbox()
	if box.Waiting(p.joined.Class, p.joined.Student, ex) {
		return app.P().Class("small").DataSet("testid", "class-server-verdict").DataSet("state", "waiting").Text("The server's verdict: waiting to send…")
	}
	v, ok := box.Verdict(p.joined.Class, p.joined.Student, ex)
	if !ok {
		return nil
	}
	text := "The server's verdict: " + v.Verdict
	if v.Parity != nil && !*v.Parity {
		text += " (differs from this tab's: the server's is the one your teacher sees)"
	}
	return app.P().Class("small").DataSet("testid", "class-server-verdict").DataSet("state", "judged").DataSet("category", v.Verdict).Text(text)
}

// answersWaiting says how many answers wait: "1 answer waits", "3 answers wait".
func answersWaiting(n int) string {
	if n == 1 {
		return "1 answer waits"
	}
	return fmt.Sprintf("%d answers wait", n)
}
