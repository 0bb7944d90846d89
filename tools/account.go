package tools

import (
	"github.com/apibank-playground/apibank/value"
)

// accountTools are the tools of the Account database and the bank: log-in tokens, registration,
// passwords, balances.
func accountTools() []*Tool {
	return append([]*Tool{getUserToken(), checkToken()}, moreAccountTools()...)
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
