package variant_test

import (
	"fmt"
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/variant"
)

// Make a variant of the builtin data, prove it, and look at one of its moves.
func ExampleMake() {
	files, err := dataset.BuiltinFiles()
	if err != nil {
		panic(err)
	}
	out, rep, err := variant.Make(files, 42)
	if err != nil {
		panic(err)
	}
	proof, err := variant.Prove(out)
	if err != nil {
		panic(err)
	}
	moved, unchanged := rep.Shares()
	fmt.Println(rep.Name, "proven:", proof.OK, "files moved:", moved, "served unchanged:", unchanged)
	fmt.Println("dates moved by whole weeks:", rep.Shift != 0 && rep.Shift%7 == 0)
	for _, m := range rep.Moves {
		if m.From == "PriyaSharma" {
			fmt.Println(m.Kind, "moved:", m.To != m.From, strings.Contains(string(out["init_database/Account.json"]), `"`+m.To+`"`))
		}
	}
	// Output:
	// builtin~s42 proven: true files moved: 191 served unchanged: 47
	// dates moved by whole weeks: true
	// username moved: true true
}
