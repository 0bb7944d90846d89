package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var errImportAgain = errors.New("the imported folder is not kept in this tab any more: import it again")

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// readFirstFile reads the first file of a FileList (a file input's or a drop's) as text and hands its
// name and text to done on the UI goroutine; an empty list does nothing.
func readFirstFile(ctx app.Context, files app.Value, done func(ctx app.Context, name, text string)) {
	if files.Get("length").Int() == 0 {
		return
	}
	f := files.Index(0)
	name := f.Get("name").String()
	f.Call("text").Then(func(v app.Value) {
		text := v.String()
		ctx.Dispatch(func(ctx app.Context) { done(ctx, name, text) })
	})
}

// readFiles reads every chosen file as text and hands them over together, in the order chosen.
func readFiles(ctx app.Context, files app.Value, done func(ctx app.Context, names, texts []string)) {
	n := files.Get("length").Int()
	if n == 0 {
		return
	}
	names, texts, left := make([]string, n), make([]string, n), n
	for i := 0; i < n; i++ {
		f := files.Index(i)
		names[i] = f.Get("name").String()
		f.Call("text").Then(func(v app.Value) {
			texts[i] = v.String()
			if left--; left == 0 {
				ctx.Dispatch(func(ctx app.Context) { done(ctx, names, texts) })
			}
		})
	}
}

// LevelLabel names a level folder in plain words.
func LevelLabel(level string) string {
	switch level {
	case "level-1-given-desc":
		return "Level 1 · Call"
	case "level-2-toolsearcher":
		return "Level 2 · Retrieve+Call"
	case "level-3":
		return "Level 3 · Plan+Retrieve+Call"
	case "":
		return "All levels"
	}
	return level
}

// Levels are the level folders the UI offers, in order.
var Levels = []string{"level-1-given-desc", "level-2-toolsearcher", "level-3"}

// Percent formats a ratio as a percentage with one decimal: 0.5 -> "50.0%".
func Percent(r float64) string { return fmt.Sprintf("%.1f%%", r*100) }

// Round4 formats a ROUGE-L score with four decimals, as the original reports it.
func Round4(f float64) string { return fmt.Sprintf("%.4f", f) }

// truncate shortens s to n runes for lists.
func truncate(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}

func errorAs(err error, target any) bool { return errors.As(err, target) }
