package tools_test

import (
	"fmt"

	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// A world is copy-on-write over its base: calls change this world only.
func ExampleCatalog_Call() {
	base := tools.NewBase(map[string]any{
		"Account": value.MapOf("mira", value.MapOf("password", "kite42", "token", "tok123", "email", "mira@mail.com")),
		"Alarm":   value.NewMap(0),
	})
	w := base.NewWorld()
	env, _ := tools.APIs.Call(w, "AddAlarm", value.MapOf("token", "tok123", "time", "2023-04-02 06:30:00"))
	fmt.Println(string(value.Marshal(env)))
	env, _ = tools.APIs.Call(w, "AddAlarm", value.MapOf("token", "wrong", "time", "2023-04-02 06:30:00"))
	fmt.Println(env.String("exception"))
	_, err := tools.APIs.Call(w, "AddAlarm", value.MapOf("token", "tok123"))
	fmt.Println(err)
	fmt.Println(w.Changed(), string(value.Marshal(base.NewWorld().Database("Alarm"))))
	// Output:
	// {"api_name":"AddAlarm","input":{"token":"tok123","time":"2023-04-02 06:30:00"},"output":"success","exception":null}
	// The token is invalid.
	// AddAlarm.call() missing 1 required positional argument: 'time'
	// [Alarm] {}
}
