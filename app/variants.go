package app

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/protocol"
)

// A student's exercise in a class or an assignment is a variant of the builtin data of its own
// (wire.ExerciseSeed of the class or assignment, the student's name and the exercise). The tab's
// engine holds one dataset at a time, so the pages that show variants (Classroom, Teach) load each
// in turn, under the tab's variant lock, and put the builtin data back when they are left.

// builtinName is the builtin data's name, the only data that has variants.
const builtinName = "builtin"

// rawEngine is the tab's engine as a variant's requests use it: call does not wait for the
// builtin data to be put back (LeaveVariants) through it, as such requests run under the lock that
// putting it back takes.
type rawEngine struct{ Engine }

// variantState is the tab's variant bookkeeping.
type variantState struct {
	// lock is held while a variant's requests run (OnVariant) and while the builtin data is put
	// back: no other variant's load comes between a variant's requests.
	lock chan struct{}
	// varied is true once a variant was loaded and until the builtin data is back.
	varied bool
	// leaving is closed once the builtin data is back (nil: nothing to wait for).
	leaving chan struct{}
}

func (t *Tab) variantLock() chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.variants.lock == nil {
		t.variants.lock = make(chan struct{}, 1)
	}
	return t.variants.lock
}

// OnVariant runs f with the variant that seed names loaded in the tab's engine (0: the builtin
// data), and no other variant loaded until f returns. f makes its requests through e. The engine
// is asked which data it holds first (a restarted engine holds the builtin data again), and loads
// the variant only when it holds another: the engine keeps the variants it made, so going back to
// one costs a load, not a make.
func (t *Tab) OnVariant(seed int64, f func(e Engine) error) error {
	if t.Engine == nil {
		return fmt.Errorf("the engine is not running (it runs in the browser tab)")
	}
	t.settle()
	lock := t.variantLock()
	lock <- struct{}{}
	defer func() { <-lock }()
	if err := t.ensureVariant(seed); err != nil {
		return err
	}
	return f(rawEngine{t.Engine})
}

// ensureVariant loads the variant seed names unless the engine holds it; the caller holds the lock.
func (t *Tab) ensureVariant(seed int64) error {
	e := rawEngine{t.Engine}
	h, err := call[protocol.Hello](e, protocol.Request{Op: protocol.OpHello})
	if err != nil {
		return err
	}
	var now int64
	if h.Variant != nil {
		now = h.Variant.Seed
	}
	if now == seed {
		return nil
	}
	if _, err := call[protocol.Loaded](e, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed}); err != nil {
		return err
	}
	t.mu.Lock()
	// The caches hold the data the engine held: the variant's texts differ (its samples' ids and
	// kinds do not, nor its files' names).
	t.dialogues, t.byKey, t.samples = nil, nil, nil
	t.variants.varied = seed != 0
	t.mu.Unlock()
	return nil
}

// LeaveVariants puts the builtin data back in the tab's engine when a variant was loaded: a page
// that showed variants calls it when it is left. The next page's requests wait for it (see call).
func (t *Tab) LeaveVariants() {
	t.mu.Lock()
	if !t.variants.varied || t.variants.leaving != nil || t.Engine == nil {
		t.mu.Unlock()
		return
	}
	done := make(chan struct{})
	t.variants.leaving = done
	t.mu.Unlock()
	lock := t.variantLock()
	go func() {
		lock <- struct{}{}
		_ = t.ensureVariant(0) // a failure leaves a variant loaded; the next OnVariant(0) tries again
		<-lock
		t.mu.Lock()
		t.variants.leaving = nil
		t.mu.Unlock()
		close(done)
	}()
}

// settle waits until the builtin data is back after LeaveVariants.
func (t *Tab) settle() {
	t.mu.Lock()
	ch := t.variants.leaving
	t.mu.Unlock()
	if ch != nil {
		<-ch
	}
}

// Variant is a student's exercise as their variant gives it: what they were asked and the right
// answer.
type Variant struct {
	Seed int64
	// Request is the user's last message before the call, as the student read it.
	Request string
	// Gold is the variant's gold call (text form where it writes the call exactly, else native).
	Gold string
}

// variantOf reads an exercise's request and gold call from the data e holds.
func variantOf(e Engine, seed int64, ex ExerciseRef) (Variant, error) {
	id := ex.ID
	pr, err := call[protocol.Prompt](e, protocol.Request{Op: protocol.OpPrompt, Level: ex.Level, File: ex.File, Sample: &id})
	if err != nil {
		return Variant{}, err
	}
	v := Variant{Seed: seed, Gold: pr.Gold}
	var msgs []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	if json.Unmarshal(pr.Messages, &msgs) == nil {
		for i := len(msgs) - 1; i >= 0; i-- {
			if msgs[i].Role == "user" {
				v.Request = msgs[i].Content
				break
			}
		}
	}
	return v, nil
}

// AssignmentID names an assignment for its students' seeds: 16 hex digits of FNV-1a of its link's
// fragment, so the same name and exercises, in the same order, are the same assignment wherever
// the link (or a submission file, which lists them) is read.
func AssignmentID(a Assignment) string {
	frag, err := AssignmentFragment(a)
	if err != nil {
		frag = a.Name
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(frag))
	return fmt.Sprintf("%016x", h.Sum64())
}

// ExerciseSeedIn is the seed of a student's exercise: in class code when there is one (the
// server judges it there), else in the assignment. It is 0 (the builtin data) with neither or
// without a name.
func ExerciseSeedIn(code string, a *Assignment, student string, ex ExerciseRef) int64 {
	switch {
	case strings.TrimSpace(student) == "":
		return 0
	case code != "":
		return wire.ExerciseSeed(wire.ClassScope(code), student, ex.Level, ex.File, ex.ID)
	case a != nil:
		return wire.ExerciseSeed(wire.AssignmentScope(AssignmentID(*a)), student, ex.Level, ex.File, ex.ID)
	}
	return 0
}

// VariantsOf reads each exercise's variant (seeds[i] names exs[i]'s), one variant loaded after
// the other.
func VariantsOf(seeds []int64, exs []ExerciseRef) (map[string]Variant, error) {
	out := map[string]Variant{}
	for i, ex := range exs {
		err := tab.OnVariant(seeds[i], func(e Engine) error {
			v, err := variantOf(e, seeds[i], ex)
			out[ex.Key()] = v
			return err
		})
		if err != nil {
			return out, fmt.Errorf("%s %s #%d: %w", ex.Level, ex.File, ex.ID, err)
		}
	}
	return out, nil
}
