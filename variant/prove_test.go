package variant

import (
	"strings"
	"testing"
)

// TestGuardCatchesBrokenVariant: a variant file made wrong on purpose (its gold call's recorded
// result no longer what the call gives) is caught by the guard, with the check that failed.
func TestGuardCatchesBrokenVariant(t *testing.T) {
	files := builtinFiles(t)
	const p = "lv1-lv2-samples/level-1-given-desc/acct-agenda-add-28.jsonl"
	broken := strings.Replace(string(files[p]), `"output":"success"`, `"output":"failure"`, 1)
	if broken == string(files[p]) {
		t.Skip("the file changed: no success output to break")
	}
	sub := map[string][]byte{p: []byte(broken)}
	for k, v := range files {
		if strings.HasPrefix(k, "init_database/") {
			sub[k] = v
		}
	}
	fails, err := guard(sub)
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := fails[p]; !ok || u.Check != "execution" {
		t.Errorf("guard = %v, want an execution failure of %s", fails, p)
	}
}
