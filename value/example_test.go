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
