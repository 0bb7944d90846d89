package tools

import (
	"strings"
	"unicode"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// validEmail is the original's receiver test, ^[a-z0-9]+[\._]?[a-z0-9]+[@]\w+[.]\w{2,3}$, with
// Python's Unicode \w (letters, numbers and underscore): a local part of lowercase letters and digits
// with at most one inner '.' or '_' (two characters at least), '@', one word, '.', and an ending of two
// or three word characters. The receiver is stripped first, so `$` never meets a trailing newline.
// (Hand-written rather than a regular expression: it keeps the regexp package out of the module.)
func validEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at < 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	seps := 0
	for i := 0; i < len(local); i++ {
		c := local[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c == '.' || c == '_':
			if i == 0 || i == len(local)-1 {
				return false
			}
			seps++
		default:
			return false
		}
	}
	if seps > 1 || len(local)-seps < 2 {
		return false
	}
	dot := strings.IndexByte(domain, '.')
	if dot <= 0 {
		return false
	}
	name, end := domain[:dot], []rune(domain[dot+1:])
	for _, r := range name {
		if !homeWord(r) {
			return false
		}
	}
	if len(end) < 2 || len(end) > 3 {
		return false
	}
	for _, r := range end {
		if !homeWord(r) {
			return false
		}
	}
	return true
}

// homeWord reports whether r is in Python's Unicode \w.
func homeWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// sendEmail is SendEmail: it checks the receiver, subject and content and sends nothing.
func sendEmail() *Tool {
	return &Tool{
		Name:        "SendEmail",
		Description: "Send an e-mail with a subject and a body to one receiver.",
		Params: []Param{
			{Name: "receiver", Type: "str", Required: true, Description: "The receiver's e-mail address (lowercase)."},
			{Name: "subject", Type: "str", Required: true, Description: "Subject line; must not be empty."},
			{Name: "content", Type: "str", Required: true, Description: "Body text; must not be empty."},
		},
		Outputs: []Field{{Name: "status", Type: "str", Description: `"success" when the e-mail was accepted.`}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			var parts [3]string
			for i, k := range []string{"receiver", "subject", "content"} {
				v, _ := in.Get(k)
				s, err := homeStr(v, "strip")
				if err != nil {
					return nil, homeCaught(err)
				}
				parts[i] = py.Strip(s)
			}
			if !validEmail(parts[0]) {
				return nil, fail("Email address of the receiver is invalid.")
			}
			if parts[1] == "" {
				return nil, fail("Subject cannot be empty.")
			}
			if parts[2] == "" {
				return nil, fail("Content cannot be empty.")
			}
			return "success", nil
		},
		check: func(r, g *value.Map) (bool, error) {
			var norm [3][2]string
			for i, k := range []string{"receiver", "subject", "content"} {
				for j, env := range []*value.Map{r, g} {
					v, err := homeInput(env, k)
					if err != nil {
						return false, err
					}
					s, err := homeStr(v, "strip")
					if err != nil {
						return false, err
					}
					s = py.Strip(s)
					if i == 0 {
						s = py.Lower(s)
					}
					norm[i][j] = s
				}
			}
			for _, p := range norm {
				if p[0] != p[1] {
					return false, nil
				}
			}
			return homeOutExc(r, g)
		},
	}
}
