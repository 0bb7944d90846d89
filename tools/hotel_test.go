package tools

import "testing"

func TestHomeBookHotel(t *testing.T) {
	book := func(hotel, in, out string, rooms, adults string) string {
		return `{"hotel_name": "` + hotel + `", "check_in_time": "` + in + `", "check_out_time": "` + out + `", "room_count": ` + rooms + `, "adult_count": ` + adults + `, "child_count": 0}`
	}
	w := homeRun(t,
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-10", "2023-08-15", "1", "2"), out: `"11"`},
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-12", "2023-08-20", "1", "2"), exc: "The room is not available."},
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-01", "2023-08-11", "1", "2"), exc: "The room is not available."},
		// A stay that strictly contains an existing one is not detected.
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-09", "2023-08-16", "1", "2"), out: `"12"`},
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-15", "2023-08-16", "1", "2"), exc: "The room is not available."},
		homeStep{tool: "BookHotel", args: book("hilton", "2023-08-10", "2023-08-15", "2", "4"), out: `"13"`},
	)
	homeWantDB(t, w, "Hotel", "11", `{"hotel_name": "Hilton", "check_in_time": "2023-08-10", "check_out_time": "2023-08-15", "room_count": 1, "adult_count": 2, "child_count": 0}`)
	homeWantDB(t, w, "Hotel", "13", `{"hotel_name": "hilton", "check_in_time": "2023-08-10", "check_out_time": "2023-08-15", "room_count": 2, "adult_count": 4, "child_count": 0}`)

	for _, s := range []homeStep{
		{tool: "BookHotel", args: book("Hilton", "2023-04-05", "2023-04-07", "1", "2"), out: `"11"`},
		{tool: "BookHotel", args: book("Hilton", "2023-04-04", "2023-04-07", "1", "2"), exc: "The room is not available."},
		{tool: "BookHotel", args: book("X", "2023-08-10", "2023-08-05", "1", "2"), out: `"11"`},
		{tool: "BookHotel", args: book("X", "2023-8-10", "2023-08-15", "1", "3"), exc: "The number of adults is greater than 2. Two rooms are ordered."},
		{tool: "BookHotel", args: book("X", "2023-08-10x", "2023-08-15", "1", "3"), exc: "unconverted data remains: x"},
		{tool: "BookHotel", args: book("X", "2023-08-10", "15/08/2023", "1", "3"), exc: "time data '15/08/2023' does not match format '%Y-%m-%d'"},
		{tool: "BookHotel", args: `{"hotel_name": "X", "check_in_time": 5, "check_out_time": "2023-08-15", "room_count": 1, "adult_count": 1, "child_count": 0}`, exc: "strptime() argument 1 must be str, not int"},
		{tool: "BookHotel", args: `{"hotel_name": "X", "check_in_time": "2023-08-10", "check_out_time": "2023-08-15", "room_count": "1", "adult_count": "3", "child_count": "0"}`, text: true, exc: "The number of adults is greater than 2. Two rooms are ordered."},
		{tool: "BookHotel", args: `{"hotel_name": "X", "check_in_time": "2023-08-10", "check_out_time": "2023-08-15", "room_count": "1x", "adult_count": "3", "child_count": "0"}`, text: true, escape: "invalid parameter type. parameter: 1x"},
	} {
		homeRun(t, s)
	}
	e := `{"api_name": "BookHotel", "input": ` + book("Hilton", "2023-08-10", "2023-08-15", "1", "2") + `, "output": "11", "exception": null}`
	homeChecks(t, []homeCheckCase{
		{name: "default equal", tool: "BookHotel", resp: e, gold: e, want: true},
		{name: "default input", tool: "BookHotel", resp: `{"input": ` + book("Hilton ", "2023-08-10", "2023-08-15", "1", "2") + `, "output": "11", "exception": null}`, gold: e, want: false},
	})
}
