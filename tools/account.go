package tools

import (
	"strconv"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// accountTools are the tools of the Account database and the bank: log-in tokens, deleting an
// account, resetting and changing a password, registering, the bank balance and opening a bank
// account.
func accountTools() []*Tool {
	return []*Tool{
		getUserToken(), checkToken(),
		deleteAccount(), forgotPassword(), modifyPassword(), registerUser(), queryBalance(), openBankAccount(),
	}
}

func getUserToken() *Tool {
	return &Tool{
		Name:        "GetUserToken",
		Description: "Log a user in: exchange a username and password for the token other tools ask for.",
		Params: []Param{
			{Name: "username", Type: "str", Required: true, Description: "The account's username."},
			{Name: "password", Type: "str", Required: true, Description: "The account's password."},
		},
		Outputs:  []Field{{Name: "token", Type: "str", Description: "The user's token."}},
		Database: "Account",
		run: func(c *Ctx, in *value.Map) (any, error) {
			rec, ok := c.table("Account").Get(in.String("username"))
			acct, _ := rec.(*value.Map)
			if !ok || !isString(in, "username") {
				return nil, fail("The username does not exist.")
			}
			pw, _ := in.Get("password")
			stored, _ := acct.Get("password")
			if !value.Equal(stored, pw) {
				return nil, fail("The password is incorrect.")
			}
			tok, _ := acct.Get("token")
			return value.MapOf("token", tok), nil
		},
	}
}

func checkToken() *Tool {
	return &Tool{
		Name:        "CheckToken",
		Description: "Tell whose token this is: resolve a token to its username.",
		Params: []Param{
			{Name: "token", Type: "str", Required: true, Description: "The token to look up."},
		},
		Outputs:  []Field{{Name: "username", Type: "str", Description: "The username the token belongs to."}},
		Database: "Account",
		Bare:     true,
		run: func(c *Ctx, in *value.Map) (any, error) {
			tok, _ := in.Get("token")
			name, err := c.user(tok)
			if err != nil {
				return nil, err
			}
			return value.MapOf("username", name), nil
		},
	}
}

// isString reports whether the input field key holds a text (parser arguments always do; native
// calls may send other JSON types, which the original would look up and fail on).
func isString(in *value.Map, key string) bool {
	v, _ := in.Get(key)
	_, ok := v.(string)
	return ok
}

// Internal world databases of the account tools.
const (
	// acctForgotDB holds ForgotPassword's remembered state: the code it handed out and for whom.
	acctForgotDB = "_ForgotPassword"
	// acctBankAccountsDB is OpenBankAccount's own table (the original keeps it in memory).
	acctBankAccountsDB = "OpenBankAccount"
	// acctResetCode is the verification code ForgotPassword always hands out.
	acctResetCode int64 = 970420
)

// accountDefaults are the account tools' in-memory tables: OpenBankAccount's one account.
func accountDefaults() map[string]func() any {
	return map[string]func() any{
		acctBankAccountsDB: func() any {
			return value.MapOf("0", value.MapOf("account", "test", "password", "test", "name", "yifei"))
		},
	}
}

// acctStatus is the wrapped status output of DeleteAccount and ModifyPassword.
var acctStatusOut = []Field{{Name: "status", Type: "str", Description: "\"success\" when done."}}

func deleteAccount() *Tool {
	return &Tool{
		Name:        "DeleteAccount",
		Description: "Delete the account the token belongs to; its token stops working.",
		Params: []Param{
			{Name: "token", Type: "str", Required: true, Description: "The token of the account to delete."},
		},
		Outputs:  acctStatusOut,
		Database: "Account",
		Bare:     true,
		run: func(c *Ctx, in *value.Map) (any, error) {
			tok, _ := in.Get("token")
			// The original checks the token twice; the second check answers as the first.
			user, err := c.user(tok)
			if err != nil {
				return nil, err
			}
			accounts := c.writeTop("Account")
			if !accounts.Delete(user) {
				return nil, fail("No such user.")
			}
			return value.MapOf("status", "success"), nil
		},
	}
}

func forgotPassword() *Tool {
	return &Tool{
		Name: "ForgotPassword",
		Description: "Reset a forgotten password in two calls: first status 'Forgot Password' with username and email, " +
			"which answers a verification code; then status 'Verification Code' with that code and the new password. " +
			"Name every argument.",
		Params: []Param{
			{Name: "status", Type: "str", Required: true, Description: "'Forgot Password' for the first call, 'Verification Code' for the second."},
			{Name: "username", Type: "str", Loose: true, Description: "The account's username (first call)."},
			{Name: "email", Type: "str", Loose: true, Description: "The account's email address (first call)."},
			{Name: "verification_code", Type: "int", Loose: true, Description: "The code the first call answered (second call)."},
			{Name: "new_password", Type: "str", Loose: true, Description: "The password to set (second call)."},
		},
		Order:    []string{"status"},
		Outputs:  []Field{{Name: "status", Type: "str", Description: "The verification code after the first call; \"success\" after the second."}},
		Database: "Account",
		Bare:     true,
		run: func(c *Ctx, in *value.Map) (any, error) {
			status, _ := in.Get("status")
			switch {
			case value.Equal(status, "Forgot Password"):
				if !in.Has("username") || !in.Has("email") {
					return nil, fail("The username and email are required for the first call.")
				}
				name, _ := in.Get("username")
				email, _ := in.Get("email")
				user, ok, err := acctLookup(c.table("Account"), name)
				if err != nil {
					return nil, err
				}
				if !ok {
					return nil, fail("The username does not exist.")
				}
				stored, err := calField(user, "email")
				if err != nil {
					return nil, err
				}
				if !value.Equal(stored, email) {
					return nil, fail("The email is incorrect.")
				}
				state := c.writeTop(acctForgotDB)
				state.Set("username", name)
				state.Set("verification_code", acctResetCode)
				return acctResetCode, nil
			case value.Equal(status, "Verification Code"):
				state := c.table(acctForgotDB)
				code, _ := state.Get("verification_code")
				if !calTruthy(code) {
					return nil, fail("You need to call the API with status 'Forgot Password' at first.")
				}
				if !in.Has("new_password") || !in.Has("verification_code") {
					return nil, fail("The new password and verification code are required for the second call.")
				}
				given, _ := in.Get("verification_code")
				if !value.Equal(code, given) {
					return nil, fail("The verification code is incorrect.")
				}
				name := state.String("username")
				acct, isMap := c.writeRecord("Account", name)
				if !isMap {
					// The account was deleted after the first call.
					return nil, fail(py.Repr(name))
				}
				pw, _ := in.Get("new_password")
				acct.Set("password", pw)
				return "success", nil
			}
			return nil, fail("The status is only 'Forgot Password' or 'Verification Code'.")
		},
	}
}

// acctLookup is Python's `name in accounts` followed by accounts[name]: a text name is looked up,
// other hashable values are never found, and lists and objects fail as unhashable.
func acctLookup(accounts *value.Map, name any) (rec any, found bool, err error) {
	switch name := name.(type) {
	case string:
		rec, found = accounts.Get(name)
		return rec, found, nil
	case []any:
		return nil, false, fail("unhashable type: 'list'")
	case *value.Map:
		return nil, false, fail("unhashable type: 'dict'")
	}
	return nil, false, nil
}

func modifyPassword() *Tool {
	return &Tool{
		Name:        "ModifyPassword",
		Description: "Change the password of the token's account, given the current one.",
		Params: []Param{
			{Name: "token", Type: "str", Required: true, Description: "The user's token."},
			{Name: "old_password", Type: "str", Required: true, Description: "The current password."},
			{Name: "new_password", Type: "str", Required: true, Description: "The password to set."},
		},
		Outputs:  acctStatusOut,
		Database: "Account",
		run: func(c *Ctx, in *value.Map) (any, error) {
			tok, _ := in.Get("token")
			user, err := c.user(tok)
			if err != nil {
				return nil, err
			}
			rec, _ := c.table("Account").Get(user)
			stored, err := calField(rec, "password")
			if err != nil {
				return nil, err
			}
			old, _ := in.Get("old_password")
			if !value.Equal(stored, old) {
				return nil, fail("The old password is incorrect.")
			}
			pw, _ := in.Get("new_password")
			acct, _ := c.writeRecord("Account", user) // calField checked it is an object
			acct.Set("password", pw)
			return value.MapOf("status", "success"), nil
		},
	}
}

// acctTokenAlphabet is what RegisterUser draws token characters from (Python's ascii_letters then
// digits).
const acctTokenAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func registerUser() *Tool {
	return &Tool{
		Name:        "RegisterUser",
		Description: "Create an account and log it in: answers the new account's token.",
		Params: []Param{
			{Name: "username", Type: "str", Required: true, Description: "The username to register."},
			{Name: "password", Type: "str", Required: true, Description: "The account's password."},
			{Name: "email", Type: "str", Required: true, Description: "The account's email address."},
		},
		Outputs:  []Field{{Name: "token", Type: "str", Description: "The new account's token."}},
		Database: "Account",
		Bare:     true,
		run: func(c *Ctx, in *value.Map) (any, error) {
			nameV, _ := in.Get("username")
			_, exists, err := acctLookup(c.table("Account"), nameV)
			if err != nil {
				return nil, err
			}
			if exists {
				return nil, fail("The username already exists.")
			}
			name, ok := nameV.(string)
			if !ok {
				// The original would file the account under a non-text key no log-in can reach.
				return nil, fail("The username must be text.")
			}
			tok := make([]byte, 18)
			for i := range tok {
				tok[i] = acctTokenAlphabet[c.w.rng().IntN(len(acctTokenAlphabet))]
			}
			token := py.Lower(string(tok))
			pw, _ := in.Get("password")
			email, _ := in.Get("email")
			c.writeTop("Account").Set(name, value.MapOf("password", pw, "token", token, "email", email))
			return value.MapOf("token", token), nil
		},
		check: func(r, g *value.Map) (bool, error) {
			gout, err := get(g, "output")
			if err != nil {
				return false, err
			}
			if gout == nil {
				rout, err := get(r, "output")
				if err != nil {
					return false, err
				}
				if rout != nil {
					return false, nil
				}
			}
			return all(sameInput, sameException)(r, g)
		},
	}
}

func queryBalance() *Tool {
	return &Tool{
		Name:        "QueryBalance",
		Description: "Tell the bank balance of the token's user.",
		Params: []Param{
			{Name: "token", Type: "str", Required: true, Description: "The user's token."},
		},
		Outputs:  []Field{{Name: "balance", Type: "float", Description: "The balance."}},
		Database: "Bank",
		run: func(c *Ctx, in *value.Map) (any, error) {
			tok, _ := in.Get("token")
			if _, ok := tok.(string); !ok {
				// token.strip() fails first; any failure of the token step reads the same.
				return nil, fail("The token is incorrect.")
			}
			user, err := c.user(tok)
			if err != nil {
				return nil, fail("The token is incorrect.")
			}
			rec, ok := c.table("Bank").Get(user)
			if !ok {
				return nil, fail("The user does not have an account.")
			}
			bal, err := calField(rec, "balance")
			if err != nil {
				return nil, err
			}
			return value.Clone(bal), nil
		},
		check: all(acctStripToken, sameOutput, sameException),
	}
}

// acctStripToken compares the stripped tokens of both inputs; a token that is not text makes the
// check raise, as the original's token.strip() does.
func acctStripToken(r, g *value.Map) (bool, error) {
	var toks [2]string
	for i, env := range []*value.Map{r, g} {
		v, err := inputField(env, "token")
		if err != nil {
			return false, err
		}
		s, ok := v.(string)
		if !ok {
			return false, escape(Attribute, "'"+pyTypeName(v)+"' object has no attribute 'strip'")
		}
		toks[i] = py.Strip(s)
	}
	return toks[0] == toks[1], nil
}

func openBankAccount() *Tool {
	return &Tool{
		Name:        "OpenBankAccount",
		Description: "Open a bank account with an account id, a password and the holder's name; answers \"failed\" when the id is taken.",
		Params: []Param{
			{Name: "account", Type: "str", Required: true, Description: "The account id to open."},
			{Name: "password", Type: "str", Required: true, Description: "The account's password."},
			{Name: "name", Type: "str", Required: true, Description: "The account holder's name."},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: "\"success\", or \"failed\" when the account id exists."}},
		Database: acctBankAccountsDB,
		run: func(c *Ctx, in *value.Map) (any, error) {
			account, _ := in.Get("account")
			db := c.table(acctBankAccountsDB)
			for _, k := range db.Keys() {
				rec, _ := db.Get(k)
				a, err := calField(rec, "account")
				if err != nil {
					return nil, err
				}
				if value.Equal(a, account) {
					return "failed", nil
				}
			}
			pw, _ := in.Get("password")
			name, _ := in.Get("name")
			w := c.writeTop(acctBankAccountsDB)
			// The original's key is len+1 after the initial key 0; nothing is ever deleted, so it
			// is always new.
			w.Set(strconv.Itoa(w.Len()+1), value.MapOf("account", account, "password", pw, "name", name))
			return "success", nil
		},
	}
}
