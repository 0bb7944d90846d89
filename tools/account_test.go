package tools_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// acctTestFoo is foo's token in the original's Account database.
const acctTestFoo = "z9x8c7v6b5n4m3q2w1"

func TestAccountDeleteAccount(t *testing.T) {
	w := calWorld(t)
	env := calDo(t, w, "DeleteAccount", "token", acctTestFoo)
	calWant(t, "delete", env, value.MapOf("status", "success"), nil)
	if got := strings.Join(env.Keys(), ","); got != "input,output,exception" {
		t.Errorf("DeleteAccount envelope keys %s", got)
	}
	if w.Database("Account").(*value.Map).Has("foo") {
		t.Errorf("foo still has an account")
	}
	calRun(t, w, []calStep{
		{"token now invalid", "DeleteAccount", []any{"token", acctTestFoo}, nil, "The token is invalid."},
		{"other tools see it", "AddAlarm", []any{"token", acctTestFoo, "time", "2023-04-01 06:00:00"}, nil, "The token is invalid."},
		{"balance too", "QueryBalance", []any{"token", acctTestFoo}, nil, "The token is incorrect."},
		{"log-in fails", "GetUserToken", []any{"username", "foo", "password", "bar"}, nil, "The username does not exist."},
	})
	// Re-registering the deleted name works in the same world (not in a fresh one, §1.11).
	env = calDo(t, w, "RegisterUser", "username", "foo", "password", "bar", "email", "foo@example.com")
	if exc, _ := env.Get("exception"); exc != nil {
		t.Errorf("re-register: %v", exc)
	}
	// A fresh world is unaffected.
	calWant(t, "fresh world", calDo(t, calWorld(t), "CheckToken", "token", acctTestFoo), value.MapOf("username", "foo"), nil)
}

func TestAccountForgotPassword(t *testing.T) {
	w := calWorld(t)
	first := func(kv ...any) []any { return append([]any{"status", "Forgot Password"}, kv...) }
	second := func(kv ...any) []any { return append([]any{"status", "Verification Code"}, kv...) }
	calRun(t, w, []calStep{
		{"second before first", "ForgotPassword", second("verification_code", int64(970420), "new_password", "n"), nil, "You need to call the API with status 'Forgot Password' at first."},
		{"bad status", "ForgotPassword", []any{"status", "forgot password"}, nil, "The status is only 'Forgot Password' or 'Verification Code'."},
		{"no email", "ForgotPassword", first("username", "foo"), nil, "The username and email are required for the first call."},
		{"no username", "ForgotPassword", first("email", "foo@example.com"), nil, "The username and email are required for the first call."},
		{"unknown user", "ForgotPassword", first("username", "Foo", "email", "foo@example.com"), nil, "The username does not exist."},
		{"wrong email", "ForgotPassword", first("username", "foo", "email", "foo@example.com "), nil, "The email is incorrect."},
		{"unhashable", "ForgotPassword", first("username", []any{"foo"}, "email", "x"), nil, "unhashable type: 'list'"},
		{"first", "ForgotPassword", first("username", "foo", "email", "foo@example.com"), int64(970420), nil},
		{"second without code", "ForgotPassword", second("new_password", "n"), nil, "The new password and verification code are required for the second call."},
		{"second without password", "ForgotPassword", second("verification_code", int64(970420)), nil, "The new password and verification code are required for the second call."},
		{"wrong code", "ForgotPassword", second("verification_code", int64(970421), "new_password", "n"), nil, "The verification code is incorrect."},
		{"second", "ForgotPassword", second("verification_code", int64(970420), "new_password", "newbar"), "success", nil},
		{"log in with it", "GetUserToken", []any{"username", "foo", "password", "newbar"}, value.MapOf("token", acctTestFoo), nil},
		// The remembered code stays: a second reset works again.
		{"again", "ForgotPassword", second("new_password", "third", "verification_code", int64(970420)), "success", nil},
	})
	// The output is the integer 970420, not text, and the envelope has no api_name; input holds only
	// the arguments given, status first.
	env := calDo(t, calWorld(t), "ForgotPassword", "email", "foo@example.com", "status", "Forgot Password", "username", "foo")
	out, _ := env.Get("output")
	if n, ok := out.(int64); !ok || n != 970420 {
		t.Errorf("output %#v", out)
	}
	in, _ := env.Get("input")
	if got := strings.Join(in.(*value.Map).Keys(), ","); got != "status,email,username" {
		t.Errorf("input keys %s", got)
	}
	if got := strings.Join(env.Keys(), ","); got != "input,output,exception" {
		t.Errorf("envelope keys %s", got)
	}

	// The remembered state belongs to the world: a clone keeps it, a fresh world does not.
	w = calWorld(t)
	calDo(t, w, "ForgotPassword", first("username", "JohnDoe", "email", "johndoe@example.com")...)
	clone := w.Clone()
	calWant(t, "clone remembers", calDo(t, clone, "ForgotPassword", second("verification_code", int64(970420), "new_password", "x")...), "success", nil)
	calWant(t, "fresh forgets", calDo(t, calWorld(t), "ForgotPassword", second("verification_code", int64(970420), "new_password", "x")...),
		nil, "You need to call the API with status 'Forgot Password' at first.")
	// The account deleted between the two steps: the original's lookup fails with a KeyError.
	calDo(t, w, "DeleteAccount", "token", calJohn)
	calWant(t, "deleted meanwhile", calDo(t, w, "ForgotPassword", second("verification_code", int64(970420), "new_password", "x")...), nil, "'JohnDoe'")

	// Text semantics: the code arrives as text and is converted to an integer.
	w = calWorld(t)
	calDo(t, w, "ForgotPassword", first("username", "foo", "email", "foo@example.com")...)
	env, err := tools.APIs.Call(w, "ForgotPassword", value.MapOf("status", "Verification Code", "verification_code", "970420", "new_password", "p"))
	if err != nil {
		t.Fatal(err)
	}
	calWant(t, "text code", env, "success", nil)
	in, _ = env.Get("input")
	if code, _ := in.(*value.Map).Get("verification_code"); code != int64(970420) {
		t.Errorf("converted code %#v", code)
	}
	_, err = tools.APIs.Call(w, "ForgotPassword", value.MapOf("status", "Verification Code", "verification_code", "970420x"))
	var e *tools.Error
	if !errors.As(err, &e) || e.Kind != tools.Assertion || e.Text != "invalid parameter type. parameter: 970420x" {
		t.Errorf("bad code: %v", err)
	}
	_, err = tools.APIs.Call(w, "ForgotPassword", value.MapOf("username", "foo"))
	if !errors.As(err, &e) || e.Kind != tools.Type || e.Text != "ForgotPassword.call() missing 1 required positional argument: 'status'" {
		t.Errorf("no status: %v", err)
	}
}

func TestAccountModifyPassword(t *testing.T) {
	w := calWorld(t)
	calRun(t, w, []calStep{
		{"bad token", "ModifyPassword", []any{"token", calBad, "old_password", "bar", "new_password", "x"}, nil, "The token is invalid."},
		{"wrong old", "ModifyPassword", []any{"token", acctTestFoo, "old_password", "Bar", "new_password", "x"}, nil, "The old password is incorrect."},
		{"change", "ModifyPassword", []any{"token", acctTestFoo, "old_password", "bar", "new_password", "baz"}, value.MapOf("status", "success"), nil},
		{"old no longer works", "GetUserToken", []any{"username", "foo", "password", "bar"}, nil, "The password is incorrect."},
		{"new works", "GetUserToken", []any{"username", "foo", "password", "baz"}, value.MapOf("token", acctTestFoo), nil},
	})
	if env := calDo(t, w, "ModifyPassword", "token", acctTestFoo, "old_password", "baz", "new_password", "q"); !env.Has("api_name") {
		t.Errorf("ModifyPassword envelope must have api_name")
	}
}

func TestAccountRegisterUser(t *testing.T) {
	w := calWorld(t)
	calWant(t, "exists", calDo(t, w, "RegisterUser", "username", "foo", "password", "p", "email", "e"), nil, "The username already exists.")
	env := calDo(t, w, "RegisterUser", "username", "alice", "password", "pw", "email", "alice@example.com")
	if got := strings.Join(env.Keys(), ","); got != "input,output,exception" {
		t.Errorf("envelope keys %s", got)
	}
	out, _ := env.Get("output")
	tok := out.(*value.Map).String("token")
	if len(tok) != 18 || strings.ToLower(tok) != tok || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		t.Errorf("token %q", tok)
	}
	rec := calRecord(t, w, "Account", "alice")
	if strings.Join(rec.Keys(), ",") != "password,token,email" || !value.Equal(rec, value.MapOf("password", "pw", "token", tok, "email", "alice@example.com")) {
		t.Errorf("stored %s", value.Marshal(rec))
	}
	calRun(t, w, []calStep{
		{"token works", "CheckToken", []any{"token", tok}, value.MapOf("username", "alice"), nil},
		{"log in", "GetUserToken", []any{"username", "alice", "password", "pw"}, value.MapOf("token", tok), nil},
		{"no bank account", "QueryBalance", []any{"token", tok}, nil, "The user does not have an account."},
		{"again", "RegisterUser", []any{"username", "alice", "password", "pw", "email", "e"}, nil, "The username already exists."},
		{"unhashable", "RegisterUser", []any{"username", value.MapOf(), "password", "pw", "email", "e"}, nil, "unhashable type: 'dict'"},
	})
	// Tokens come from the world's seeded generator: the same sequence in a new world, a different
	// token for the next registration.
	env2 := calDo(t, calWorld(t), "RegisterUser", "username", "bob", "password", "pw", "email", "e")
	out2, _ := env2.Get("output")
	if out2.(*value.Map).String("token") != tok {
		t.Errorf("tokens not reproducible: %s vs %s", value.Marshal(out2), tok)
	}
	env3 := calDo(t, w, "RegisterUser", "username", "bob", "password", "pw", "email", "e")
	out3, _ := env3.Get("output")
	if out3.(*value.Map).String("token") == tok {
		t.Errorf("second token repeats the first")
	}
	// Uniform draw over A-Z a-z 0-9 then lowercased: each letter about 2/62, each digit 1/62.
	counts := map[rune]int{}
	ww := calWorld(t)
	const n = 400
	for i := 0; i < n; i++ {
		env := calDo(t, ww, "RegisterUser", "username", "u"+string(rune('A'+i%26))+strings.Repeat("x", i/26), "password", "p", "email", "e")
		o, _ := env.Get("output")
		for _, r := range o.(*value.Map).String("token") {
			counts[r]++
		}
	}
	total := float64(n * 18)
	if got := float64(counts['a']) / total; got < 0.02 || got > 0.045 {
		t.Errorf("share of 'a' %.3f, want about %.3f", got, 2.0/62)
	}
	if got := float64(counts['7']) / total; got < 0.008 || got > 0.025 {
		t.Errorf("share of '7' %.3f, want about %.3f", got, 1.0/62)
	}
}

func TestAccountQueryBalance(t *testing.T) {
	w := calWorld(t)
	calRun(t, w, []calStep{
		{"balance", "QueryBalance", []any{"token", calJohn}, 2739.25, nil},
		{"incorrect (not invalid)", "QueryBalance", []any{"token", calBad}, nil, "The token is incorrect."},
		{"not stripped", "QueryBalance", []any{"token", " " + calJohn}, nil, "The token is incorrect."},
		{"not text", "QueryBalance", []any{"token", int64(3)}, nil, "The token is incorrect."},
	})
}

func TestAccountOpenBankAccount(t *testing.T) {
	w := calWorld(t)
	calRun(t, w, []calStep{
		{"initial entry", "OpenBankAccount", []any{"account", "test", "password", "x", "name", "y"}, "failed", nil},
		{"open", "OpenBankAccount", []any{"account", "acc1", "password", "p", "name", "Ann"}, "success", nil},
		{"taken now", "OpenBankAccount", []any{"account", "acc1", "password", "q", "name", "Bob"}, "failed", nil},
		{"open another", "OpenBankAccount", []any{"account", "acc2", "password", "p", "name", "Bob"}, "success", nil},
	})
	db := w.Database("OpenBankAccount").(*value.Map)
	if got := strings.Join(db.Keys(), ","); got != "0,2,3" {
		t.Errorf("keys %s", got)
	}
	if rec, _ := db.Get("2"); !value.Equal(rec, value.MapOf("account", "acc1", "password", "p", "name", "Ann")) {
		t.Errorf("record %s", value.Marshal(rec))
	}
	// Another world starts with the initial table only.
	calWant(t, "fresh", calDo(t, calWorld(t), "OpenBankAccount", "account", "acc1", "password", "p", "name", "Ann"), "success", nil)
}

func TestAccountChecks(t *testing.T) {
	bare := func(kv ...any) func(out, exc any) *value.Map {
		return func(out, exc any) *value.Map {
			return value.MapOf("input", value.MapOf(kv...), "output", out, "exception", exc)
		}
	}
	bal := func(tok string) func(out, exc any) *value.Map { return calEnv("QueryBalance", "token", tok) }
	reg := bare("username", "u", "password", "p", "email", "e")
	cases := []struct {
		what       string
		tool       string
		resp, gold *value.Map
		want       bool
		errKind    tools.Kind
	}{
		{"balance stripped tokens", "QueryBalance", bal(" t ")(1.5, nil), bal("t")(1.5, nil), true, ""},
		{"balance output", "QueryBalance", bal("t")(1.5, nil), bal("t")(1.25, nil), false, ""},
		{"balance int equals float", "QueryBalance", bal("t")(int64(2), nil), bal("t")(2.0, nil), true, ""},
		{"balance exception", "QueryBalance", bal("t")(nil, "The token is incorrect."), bal("t")(nil, "The token is invalid."), false, ""},
		{"balance token not text", "QueryBalance", calEnv("QueryBalance", "token", int64(1))(nil, nil), bal("t")(nil, nil), false, tools.Attribute},
		{"register token ignored", "RegisterUser", reg(value.MapOf("token", "abc"), nil), reg(value.MapOf("token", "xyz"), nil), true, ""},
		{"register gold failed", "RegisterUser", reg(value.MapOf("token", "abc"), nil), reg(nil, "The username already exists."), false, ""},
		{"register both failed", "RegisterUser", reg(nil, "The username already exists."), reg(nil, "The username already exists."), true, ""},
		{"register input", "RegisterUser", bare("username", "v", "password", "p", "email", "e")(value.MapOf("token", "a"), nil), reg(value.MapOf("token", "a"), nil), false, ""},
		{"forgot default", "ForgotPassword", bare("status", "Forgot Password", "username", "foo", "email", "foo@example.com")(int64(970420), nil),
			bare("status", "Forgot Password", "username", "foo", "email", "foo@example.com")(int64(970420), nil), true, ""},
		{"forgot output type", "ForgotPassword", bare("status", "Forgot Password")("970420", nil), bare("status", "Forgot Password")(int64(970420), nil), false, ""},
		{"forgot extra input", "ForgotPassword", bare("status", "Verification Code", "username", "u")("success", nil), bare("status", "Verification Code")("success", nil), false, ""},
		{"delete account default", "DeleteAccount", bare("token", "t")(value.MapOf("status", "success"), nil), bare("token", "t")(value.MapOf("status", "success"), nil), true, ""},
		{"modify password default", "ModifyPassword", calEnv("ModifyPassword", "token", "t", "old_password", "a", "new_password", "b")(value.MapOf("status", "success"), nil),
			calEnv("ModifyPassword", "token", "t", "old_password", "a", "new_password", "c")(value.MapOf("status", "success"), nil), false, ""},
		{"open bank default", "OpenBankAccount", calEnv("OpenBankAccount", "account", "a", "password", "p", "name", "n")("failed", nil),
			calEnv("OpenBankAccount", "account", "a", "password", "p", "name", "n")("failed", nil), true, ""},
	}
	for _, c := range cases {
		got, err := calCheck(t, c.tool, c.resp, c.gold)
		switch {
		case c.errKind != "":
			var e *tools.Error
			if !errors.As(err, &e) || e.Kind != c.errKind {
				t.Errorf("%s: got %v, want a %s", c.what, err, c.errKind)
			}
		case err != nil:
			t.Errorf("%s: unexpected error %v", c.what, err)
		case got != c.want:
			t.Errorf("%s: got %v, want %v", c.what, got, c.want)
		}
	}
	_, err := calCheck(t, "RegisterUser", value.MapOf("input", value.MapOf()), reg(nil, "x"))
	calWantKeyError(t, "register response without output", err, "output")
}
