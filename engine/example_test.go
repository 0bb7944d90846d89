package engine_test

import (
	"encoding/json"
	"fmt"

	"github.com/apibank-playground/apibank/engine"
)

// Every host speaks this protocol: a JSON request in, a JSON response out.
func ExampleSession_Handle() {
	s := engine.New()
	var resp struct {
		OK     bool
		Result struct {
			Name   string
			Result struct{ Output any }
		}
	}
	out := s.Handle([]byte(`{"v":1,"id":1,"op":"call","call":"[Calculator(formula='(1+2)*3')]"}`))
	_ = json.Unmarshal(out, &resp)
	fmt.Println(resp.OK, resp.Result.Name, resp.Result.Result.Output)
	fmt.Println(string(s.Handle([]byte(`{"v":1,"id":2,"op":"rouge","pairs":[{"ref":"the cat is on the mat","hyp":"the cat sat on the mat"}]}`))))
	fmt.Println(string(s.Handle([]byte(`{"v":1,"id":3,"op":"nope"}`))))
	// Output:
	// true Calculator 9
	// {"v":1,"id":2,"ok":true,"result":[{"f":0.7999999950000002}]}
	// {"v":1,"id":3,"ok":false,"error":{"code":"bad_request","message":"unknown op \"nope\""}}
}
