package value_test

import (
	"fmt"

	"github.com/apibank-playground/apibank/value"
)

// Python's == on JSON-like values: key order does not matter, 2 equals 2.0, and Repr prints as Python.
func ExampleEqual() {
	a, _ := value.DecodeString(`{"n": 2, "tags": ["x", "y"]}`)
	b, _ := value.DecodeString(`{"tags": ["x", "y"], "n": 2.0}`)
	fmt.Println(value.Equal(a, b))
	fmt.Println(value.Repr(a))
	fmt.Println(string(value.Marshal(b)))
	// Output:
	// true
	// {'n': 2, 'tags': ['x', 'y']}
	// {"tags":["x","y"],"n":2.0}
}

// An index over two members of a large array, built without decoding its elements.
func ExampleObjectScanner() {
	text := []byte(`[{"url": "a.jpg", "caption": "a cat", "size": 3}, 7, {"url": "b.jpg"}]`)
	s := value.NewObjectScanner(text, "url", "caption")
	for {
		members, ok := s.Next()
		if !ok {
			break
		}
		caption := string(members[1])
		if members[1] == nil {
			caption = "none"
		}
		fmt.Printf("url %s, caption %s\n", members[0], caption)
	}
	fmt.Println("error:", s.Err())
	// Output:
	// url "a.jpg", caption "a cat"
	// url "b.jpg", caption none
	// error: <nil>
}
