package py_test

import (
	"fmt"

	"github.com/apibank-playground/apibank/internal/py"
)

func ExampleStrptime() {
	t, err := py.Strptime("2023-03-16 7:00:00", py.DT)
	fmt.Println(t, err)

	_, err = py.Strptime("2023-03-16", py.DT)
	fmt.Println(err)

	_, err = py.Strptime("2023-03-16 07:00:00 ", py.DT)
	fmt.Printf("%q\n", err.Error())

	_, err = py.Strptime("02-29", py.MD)
	fmt.Println(err)
	// Output:
	// 2023-03-16 07:00:00 <nil>
	// time data '2023-03-16' does not match format '%Y-%m-%d %H:%M:%S'
	// "unconverted data remains:  "
	// day is out of range for month
}

func ExampleNorm() {
	for _, s := range []string{"2023-3-5", " 23-04-21 ", "ab-cd-ef"} {
		fmt.Println(py.Norm(s, py.D))
	}
	// Output:
	// 2023-03-05 <nil>
	// 23-04-21 <nil>
	//  time data '00ab-cd-ef' does not match format '%Y-%m-%d'
}
