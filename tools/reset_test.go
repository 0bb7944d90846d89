package tools_test

import (
	"testing"

	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// TestResetWorld: a reset world is its base's initial state again, whatever it wrote or drew (the
// same calls answer the same), and the envelopes of the calls made in it before are kept intact.
func TestResetWorld(t *testing.T) {
	base := tools.NewBase(map[string]any{
		"Account": value.MapOf("mira", value.MapOf("password", "kite42", "token", "tok123", "email", "mira@mail.com")),
		"Alarm":   value.NewMap(0),
	})
	calls := []struct {
		tool string
		args *value.Map
	}{
		{"AddAlarm", value.MapOf("token", "tok123", "time", "2023-04-02 06:30:00")},
		{"RegisterUser", value.MapOf("username", "bo", "password", "pw", "email", "bo@mail.com")},
	}
	w := base.NewWorld()
	var first [][]byte
	for round := range 3 {
		var envs [][]byte
		var kept []*value.Map
		for _, c := range calls {
			env, err := tools.APIs.Call(w, c.tool, c.args)
			if err != nil {
				t.Fatalf("round %d: %s: %v", round, c.tool, err)
			}
			envs, kept = append(envs, value.Marshal(env)), append(kept, env)
		}
		if len(w.Changed()) == 0 {
			t.Fatalf("round %d: the calls changed nothing", round)
		}
		if round == 0 {
			first = envs
		}
		for i := range envs { // the random draws start over too
			if string(envs[i]) != string(first[i]) {
				t.Errorf("round %d: %s after a reset = %s, in a new world %s", round, calls[i].tool, envs[i], first[i])
			}
		}
		base.Reset(w)
		if ch := w.Changed(); len(ch) != 0 {
			t.Fatalf("round %d: a reset world has changed %v", round, ch)
		}
		for _, name := range []string{"Account", "Alarm"} {
			if got, want := value.Marshal(w.Database(name)), value.Marshal(base.NewWorld().Database(name)); string(got) != string(want) {
				t.Errorf("round %d: %s after a reset = %s, want %s", round, name, got, want)
			}
		}
		for i, env := range kept {
			if got := value.Marshal(env); string(got) != string(envs[i]) {
				t.Errorf("round %d: an envelope changed after the reset: %s, was %s", round, got, envs[i])
			}
		}
	}
}
