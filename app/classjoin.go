package app

import (
	"context"
	"sync"
	"time"

	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/model"
)

// Joined is the class a student's tab sends its answers to: the code and the name the student
// typed once.
type Joined struct {
	Class   string `json:"class"`
	Student string `json:"student"`
}

// Keys of the student's class state in the tab's store.
const (
	joinedKey  = "class/joined"
	outboxKey  = "class/outbox"
	verdictKey = "class/verdicts"
)

// Outbox holds a student's checked answers until the class server has them: kept in the tab's
// store (an answer made offline survives a reload), sent in order, one at a time; an answer the
// server refuses for good (its class deleted, say) is dropped and the reason kept for the page.
type Outbox struct {
	mu      sync.Mutex
	store   Store
	send    func(ctx context.Context, p PendingAnswer) (wire.AnswerVerdict, error)
	items   []PendingAnswer
	results map[string]wire.AnswerVerdict // class, student and exercise -> the server's verdict on the last answer
	sending bool
	// Offline is true while the last send could not reach the server; Refused is the last reason
	// the server gave for dropping an answer; Held is why it asked to send again later (a limit, a
	// busy server), the answer kept.
	offline bool
	refused string
	held    string
}

// NewOutbox loads the queue and the server's verdicts from store; send delivers one answer.
func NewOutbox(store Store, send func(ctx context.Context, p PendingAnswer) (wire.AnswerVerdict, error)) *Outbox {
	o := &Outbox{store: store, send: send, results: map[string]wire.AnswerVerdict{}}
	_ = store.Get(outboxKey, &o.items)
	_ = store.Get(verdictKey, &o.results)
	return o
}

// httpSend delivers an answer to the page's own class server.
func httpSend(ctx context.Context, p PendingAnswer) (wire.AnswerVerdict, error) {
	id, correct := p.ID, p.Correct
	body := wire.AnswerRequest{Student: p.Student, Level: p.Level, File: p.File, ID: &id, Answer: p.Answer, Verdict: p.Verdict, Correct: &correct}
	var v wire.AnswerVerdict
	err := classCall(ctx, model.DefaultTransport(), "POST", classPath(p.Class, "/answers"), "", body, &v)
	return v, err
}

// resultKey names the server's verdict on a student's answer to an exercise in a class: per
// student, so that on a shared computer the next student to join never sees the last one's.
func resultKey(class, student string, ex ExerciseRef) string {
	return class + " " + student + "\x00" + ex.Key()
}

// Add queues an answer and keeps the queue.
func (o *Outbox) Add(p PendingAnswer) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.items = append(o.items, p)
	return o.store.Set(outboxKey, o.items)
}

// Held says why the server asked to send the waiting answers again later ("" when it did not).
func (o *Outbox) Held() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.held
}

// State says how many answers wait, whether the server was out of reach, and the last refusal.
func (o *Outbox) State() (waiting int, offline bool, refused string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.items), o.offline, o.refused
}

// Verdict returns the server's verdict on the last answer the student sent to the exercise in
// class.
func (o *Outbox) Verdict(class, student string, ex ExerciseRef) (wire.AnswerVerdict, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	v, ok := o.results[resultKey(class, student, ex)]
	return v, ok
}

// Waiting reports whether the student's answer to the exercise in class is still queued.
func (o *Outbox) Waiting(class, student string, ex ExerciseRef) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range o.items {
		if p.Class == class && p.Student == student && p.Level == ex.Level && p.File == ex.File && p.ID == ex.ID {
			return true
		}
	}
	return false
}

// Flush sends the queued answers in order until the queue is empty or a send fails in a way worth
// retrying (no connection, a busy server, a limit); it returns how long to wait before the next
// try (0: the queue is empty). changed is called after each step. Only one Flush runs at a time.
func (o *Outbox) Flush(ctx context.Context, changed func()) time.Duration {
	o.mu.Lock()
	if o.sending {
		o.mu.Unlock()
		return 0
	}
	o.sending = true
	o.mu.Unlock()
	defer func() { o.mu.Lock(); o.sending = false; o.mu.Unlock() }()
	for {
		o.mu.Lock()
		if len(o.items) == 0 {
			o.mu.Unlock()
			return 0
		}
		p := o.items[0]
		o.mu.Unlock()
		v, err := o.send(ctx, p)
		o.mu.Lock()
		if err != nil && retryable(err) {
			o.offline = true
			wait := 5 * time.Second
			if ce, ok := err.(*classError); ok {
				o.offline = false
				o.held = ce.Message // kept, and sent again: not refused
				wait = max(wait, ce.RetryAfter)
			}
			o.mu.Unlock()
			changed()
			return wait
		}
		o.offline, o.held = false, ""
		o.items = o.items[1:]
		if err != nil {
			o.refused = err.(*classError).Message
		} else {
			o.refused = ""
			o.results[resultKey(p.Class, p.Student, ExerciseRef{p.Level, p.File, p.ID})] = v
			_ = o.store.Set(verdictKey, o.results)
		}
		_ = o.store.Set(outboxKey, o.items)
		o.mu.Unlock()
		changed()
	}
}
