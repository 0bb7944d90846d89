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

// Our own data's text calls, read as Python reads them: either quote, escapes, empty strings, lists.
// The original's reading of the same text cuts each quoted value at the first quote of either kind.
func ExampleReading_Find() {
	text := `[AddMeeting(meeting_topic="Arjun's farewell", location='', attendees=['Ana', 'Bo'])]`
	c, _ := call.Literal.Find(text)
	fmt.Println(c.Reading, string(value.Marshal(c.Args)))
	o, _ := call.Regex.Find(text)
	fmt.Println(o.Reading, string(value.Marshal(o.Args)))
	// Output:
	// literal {"meeting_topic":"Arjun's farewell","location":"","attendees":["Ana","Bo"]}
	// regex {"meeting_topic":"Arjun","location":"', attendees=["}
}
