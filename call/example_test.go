package call_test

import (
	"fmt"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/value"
)

// The original text format, parsed with its quirks: a list stays the text that was written.
func ExampleFind() {
	c, _ := call.Find(`Sure! [AddMeeting(token='abc', meeting_topic="Q3 plan", attendees=['Ana', 'Bo'])]`)
	fmt.Println(c.Name, c.Form, string(value.Marshal(c.Args)))
	n, _ := call.Find(`{"name": "AddAlarm", "arguments": {"token": "abc", "time": "2023-04-01 07:00:00"}}`)
	fmt.Println(n.Name, n.Form, string(value.Marshal(n.Args)))
	// Output:
	// AddMeeting text {"token":"abc","meeting_topic":"Q3 plan","attendees":"['Ana', 'Bo']"}
	// AddAlarm native {"token":"abc","time":"2023-04-01 07:00:00"}
}
