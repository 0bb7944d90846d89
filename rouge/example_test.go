package rouge_test

import (
	"fmt"

	"github.com/apibank-playground/apibank/rouge"
)

// ExampleL scores a generated reply against the gold reply, and shows the
// error for a reply that has no sentence at all.
func ExampleL() {
	f, err := rouge.L("the cat sat on the mat", "the cat is on the mat")
	fmt.Println(f, err)

	_, err = rouge.L("...", "the cat is on the mat")
	fmt.Println(err)
	// Output:
	// 0.7999999950000002 <nil>
	// Hypothesis is empty.
}
