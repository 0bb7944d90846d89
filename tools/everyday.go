package tools

import (
	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// playMusic is PlayMusic: the music:// link of a title, lowercased and stripped.
func playMusic() *Tool {
	return &Tool{
		Name:        "PlayMusic",
		Description: "Start playing a piece of music; answers the player link it opens.",
		Params: []Param{
			{Name: "music_name", Type: "str", Required: true, Description: "Title of the music to play."},
		},
		Outputs: []Field{{Name: "status", Type: "str", Description: "The music:// link that starts the player."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("music_name")
			s, err := homeStr(v, "lower")
			if err != nil {
				return nil, homeCaught(err)
			}
			s = py.Strip(py.Lower(s))
			if s == "" {
				return nil, fail("The music name cannot be empty.")
			}
			return "music://" + s, nil
		},
		check: func(r, g *value.Map) (bool, error) { return homeEq(r, g, "output") },
	}
}

// Today is the benchmark's fixed today, GetToday's answer, whatever the clock says. The world's
// dates are written from it (the data's "tomorrow", "next Monday"), so our prompts state it.
const Today = "2023-03-31"

// TodayInWords is Today as a prompt states it, with its weekday: a weekday is what a user's "next
// Monday" needs. Written out rather than formatted with package time, which would add a tenth of a
// megabyte to the engine module (a test checks the two agree).
const TodayInWords = "Friday, 31 March 2023"

// getToday is GetToday: the benchmark's fixed today, whatever the clock says.
func getToday() *Tool {
	return &Tool{
		Name:        "GetToday",
		Description: "Tell today's date (the benchmark's fixed today).",
		Outputs:     []Field{{Name: "date", Type: "str", Description: "Today as YYYY-MM-DD."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			return Today, nil
		},
		// Correct iff the response has an output, no exception and no input (the gold is not read).
		check: func(r, g *value.Map) (bool, error) {
			out, err := get(r, "output")
			if err != nil || out == nil {
				return false, err
			}
			for _, k := range []string{"exception", "input"} {
				v, err := get(r, k)
				if err != nil || v != nil {
					return false, err
				}
			}
			return true, nil
		},
	}
}
