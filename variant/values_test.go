package variant

import (
	"slices"
	"testing"
)

func TestParamKind(t *testing.T) {
	for _, c := range []struct {
		tool, param string
		want        Kind
	}{
		{"GetUserToken", "username", KindUsername},
		{"OpenBankAccount", "name", KindPerson},
		{"TimedSwitch", "name", ""},
		{"AddMeeting", "attendees", KindPerson},
		{"SendEmail", "receiver", KindEmail},
		{"QueryStock", "stock_code", ""},
		{"AddAgenda", "content", kindText},
	} {
		if got := paramKind(c.tool, c.param); got != c.want {
			t.Errorf("paramKind(%s, %s) = %q, want %q", c.tool, c.param, got, c.want)
		}
	}
}

func TestCamelHumps(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"AmaraOkafor", []string{"Amara", "Okafor"}},
		{"LiWei", []string{"Li", "Wei"}},
		{"rafael_silva", nil},
		{"Amara", nil},
		{"ABCDef", nil},
	} {
		if got := camelHumps(c.in); !slices.Equal(got, c.want) {
			t.Errorf("camelHumps(%q) = %v", c.in, got)
		}
	}
}

// TestDiscoverBuiltin: the builtin data's values are found from its world and its gold calls, and
// the fixed vocabulary is protected.
func TestDiscoverBuiltin(t *testing.T) {
	f := discover(parse(builtinFiles(t)))
	for _, k := range []Kind{KindPerson, KindUsername, KindPassword, KindEmail, KindPlace} {
		if len(f.values[k]) < 5 {
			t.Errorf("only %d values of kind %s found", len(f.values[k]), k)
		}
	}
	if len(f.accounts) == 0 || len(f.appointments) == 0 {
		t.Errorf("no accounts (%d) or appointments (%d)", len(f.accounts), len(f.appointments))
	}
	for _, w := range []string{"token", "username", "meeting", "agenda", "role", "param", "dict"} {
		if !f.protected[w] {
			t.Errorf("%q is fixed vocabulary, but not protected", w)
		}
	}
}

func TestFoldAccents(t *testing.T) {
	if got := foldAccents("Tomás Ibáñez"); got != "tomas ibanez" {
		t.Errorf("foldAccents = %q", got)
	}
}
