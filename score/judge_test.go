package score

import (
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

// TestVerdictCategories judges hand-made predictions for the first GetUserToken and AddAlarm samples of
// the builtin data, one per category.
func TestVerdictCategories(t *testing.T) {
	data, ix := builtin(t)
	var login, alarm *Sample
	for _, s := range ix.All() {
		s := s
		if s.Kind != KindCall || s.Dialogue.Level != dataset.Level1 {
			continue
		}
		switch s.GoldTurn().Tool {
		case "GetUserToken":
			if login == nil && s.GoldTurn().Result.String("exception") == "" {
				if e, _ := s.GoldTurn().Result.Get("exception"); e == nil {
					login = &s
				}
			}
		case "AddAlarm":
			if e, _ := s.GoldTurn().Result.Get("exception"); alarm == nil && e == nil {
				alarm = &s
			}
		}
	}
	if login == nil || alarm == nil {
		t.Fatal("the builtin data lacks a successful GetUserToken or AddAlarm call")
	}
	user, pass := login.GoldTurn().Params.String("username"), login.GoldTurn().Params.String("password")
	tests := []struct {
		name, pred, want string
		s                *Sample
	}{
		{"gold", GoldText(login.GoldTurn()), Correct, login},
		{"gold native", GoldNative(login.GoldTurn()), Correct, login},
		{"no call", "Sure, logging you in.", NoAPICall, login},
		{"wrong tool", "[CheckToken(token='x')]", APINameMismatch, login},
		{"unknown parameter", "[GetUserToken(username='" + user + "', password='" + pass + "', otp='1')]", InvalidInputParameter, login},
		{"missing argument", "[GetUserToken(username='" + user + "')]", MissInputArgument, login},
		{"wrong password", "[GetUserToken(username='" + user + "', password='nope')]", HasException, login},
		{"alarm bad time", "[AddAlarm(token='" + alarm.GoldTurn().Params.String("token") + "', time='tomorrow')]", HasException, alarm},
	}
	s := New(data, Replay)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := s.Call(*tt.s, tt.pred)
			if v.Category != tt.want || v.Correct != (tt.want == Correct) {
				t.Errorf("%s: %s (correct=%v) %s; want %s", tt.pred, v.Category, v.Correct, v.Error, tt.want)
			}
		})
	}
}

func TestPrematureCall(t *testing.T) {
	data, ix := builtin(t)
	s := New(data, Replay)
	n := 0
	for _, sm := range ix.All() {
		if sm.Kind != KindSpecial {
			continue
		}
		n++
		if v := s.Call(sm, "[GetToday()]"); v.Category != PrematureCall || v.Correct {
			t.Errorf("%s #%d: a call where the gold is to reply gave %s", sm.Dialogue.File, sm.ID, v.Category)
		}
	}
	if n < 40 {
		t.Errorf("%d special samples, want at least 40", n)
	}
}

// TestKeyErrorOnSecondEvaluation: the meeting check removes meeting_topic from the gold record, so in
// the original's data a second judgement of the same gold turn in one batch is KEY_ERROR, as in the
// original; our own (repaired) data judges it as the first.
func TestKeyErrorOnSecondEvaluation(t *testing.T) {
	repaired, ix := builtin(t)
	original := *repaired
	original.Repaired = false
	tests := []struct {
		name   string
		data   *dataset.Data
		second string
	}{
		{"original's rule", &original, KeyError},
		{"repaired", repaired, Correct},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, sm := range ix.All() {
				if sm.Kind != KindCall || sm.GoldTurn().Tool != "AddMeeting" || sm.Dialogue.Level != dataset.Level1 {
					continue
				}
				s := New(tt.data, Replay)
				first := s.Call(sm, GoldNative(sm.GoldTurn()))
				second := s.Call(sm, GoldNative(sm.GoldTurn()))
				if first.Category != Correct || second.Category != tt.second {
					t.Fatalf("AddMeeting twice: %s then %s; want CORRECT then %s", first.Category, second.Category, tt.second)
				}
				fresh := New(tt.data, Replay).Call(sm, GoldNative(sm.GoldTurn()))
				if fresh.Category != Correct {
					t.Fatalf("a new batch must start from pristine gold records, got %s", fresh.Category)
				}
				return
			}
			t.Fatal("no level-1 AddMeeting sample in the builtin data")
		})
	}
}

func TestRound4(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{{0.999999995, 1}, {0.12345, 0.1235}, {0.00005, 0.0001}, {0.7999999950000002, 0.8}, {0, 0}} {
		if got := Round4(tt.in); got != tt.want {
			t.Errorf("Round4(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestParseMode: the two mode names read as themselves, "" gives the default, any other name (a
// different case included) is an error that quotes it.
func TestParseMode(t *testing.T) {
	tests := []struct {
		in   string
		def  Mode
		want Mode
		err  string
	}{
		{"fresh", Replay, Fresh, ""},
		{"replay", Fresh, Replay, ""},
		{"", Replay, Replay, ""},
		{"", Fresh, Fresh, ""},
		{"Replay", Fresh, "", `state must be fresh or replay, not "Replay"`},
		{"live", Fresh, "", `state must be fresh or replay, not "live"`},
	}
	for _, tt := range tests {
		got, err := ParseMode(tt.in, tt.def)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) {
			t.Errorf("ParseMode(%q, %s) = %q, %v; want %q, %q", tt.in, tt.def, got, err, tt.want, tt.err)
		}
	}
}
