package tools

import (
	"testing"

	"github.com/apibank-playground/apibank/value"
)

func TestHealthAppointmentRegistration(t *testing.T) {
	base := homeBase(t)
	w := base.NewWorld()
	args := homeJSON(t, `{"patient_name": " John Smith ", "date": "2022-6-1", "doctor_name": " Dr. Johnson "}`).(*value.Map)
	env, err := APIs.CallNative(w, "AppointmentRegistration", args)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := env.Get("output")
	id, ok := out.(string)
	if exc, _ := env.Get("exception"); !ok || exc != nil || len(id) != 8 || id < "10000000" || id > "99999999" {
		t.Fatalf("registration: %s", value.Repr(env))
	}
	if in, _ := env.Get("input"); !value.Equal(in, args) {
		t.Errorf("input %s", value.Repr(in))
	}
	homeWantDB(t, w, "Appointments", id, `{"patient_name": "John Smith", "date": "2022-06-01", "doctor_name": "Dr. Johnson"}`)
	homeDo(t, w, homeStep{tool: "QueryRegistration", args: `{"patient_name": "John Smith", "date": "2022-06-01"}`,
		out: `{"` + id + `": {"patient_name": "John Smith", "date": "2022-06-01", "doctor_name": "Dr. Johnson"}}`})
	homeDo(t, w, homeStep{tool: "AppointmentRegistration", args: `{"patient_name": "John Smith", "date": "2022-06-01", "doctor_name": "Dr. Johnson"}`, exc: "This appointment has already been registered."})
	homeDo(t, w, homeStep{tool: "AppointmentRegistration", args: `{"patient_name": "John Smith", "date": "2022-06-01", "doctor_name": "Dr. Who"}`, exc: "This patient has already been registered in this day."})

	// A second registration draws the generator's next id; a base where the first draw is taken
	// redraws and gets that same next id.
	env2, err := APIs.CallNative(w, "AppointmentRegistration", value.MapOf("patient_name", "Ann", "date", "2022-06-01", "doctor_name", "Dr. Who"))
	out2, _ := env2.Get("output")
	id2, _ := out2.(string)
	if err != nil || len(id2) != 8 || id2 == id {
		t.Fatalf("second id %q (first %q): %v", id2, id, err)
	}
	homeWantDB(t, w, "Appointments", id2, `{"patient_name": "Ann", "date": "2022-06-01", "doctor_name": "Dr. Who"}`)
	dbs := map[string]any{}
	for _, name := range base.Names() {
		v, _ := base.Database(name)
		dbs[name] = value.Clone(v)
	}
	dbs["Appointments"].(*value.Map).Set(id, value.MapOf("patient_name", "Someone", "date", "2020-01-01", "doctor_name", "Dr. X"))
	w2 := NewBase(dbs).NewWorld()
	env3, _ := APIs.CallNative(w2, "AppointmentRegistration", args)
	if out, _ := env3.Get("output"); out != id2 {
		t.Errorf("redraw gave %s, want %s", value.Repr(out), id2)
	}

	for _, s := range []homeStep{
		{tool: "AppointmentRegistration", args: `{"patient_name": "John Doe", "date": "2023-04-12", "doctor_name": "Dr. Smith"}`, exc: "This appointment has already been registered."},
		{tool: "AppointmentRegistration", args: `{"patient_name": "John Doe", "date": " 2023-4-12 ", "doctor_name": "Dr. Who"}`, exc: "This patient has already been registered in this day."},
		{tool: "AppointmentRegistration", args: `{"patient_name": "john doe", "date": "2023-04-12", "doctor_name": "Dr. Smith"}`, out: `"` + id + `"`},
		{tool: "AppointmentRegistration", args: `{"patient_name": " ", "date": "2023-04-12", "doctor_name": "Dr. Smith"}`, exc: "Patient name or doctor name cannot be empty."},
		{tool: "AppointmentRegistration", args: `{"patient_name": "A", "date": "x", "doctor_name": ""}`, exc: "Patient name or doctor name cannot be empty."},
		{tool: "AppointmentRegistration", args: `{"patient_name": "A", "date": "2023-02-30", "doctor_name": "B"}`, exc: "day is out of range for month"},
		{tool: "AppointmentRegistration", args: `{"patient_name": "A", "date": "2023/04/12", "doctor_name": "B"}`, exc: "time data '2023/04/12' does not match format '%Y-%m-%d'"},
		{tool: "AppointmentRegistration", args: `{"patient_name": "A", "date": "ab-cd-ef", "doctor_name": "B"}`, exc: "time data '00ab-cd-ef' does not match format '%Y-%m-%d'"},
		{tool: "AppointmentRegistration", args: `{"patient_name": 5, "date": "2023-04-12", "doctor_name": "B"}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "AppointmentRegistration", args: `{"patient_name": "A", "date": 5, "doctor_name": "B"}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "AppointmentRegistration", args: `{"patient_name": "A", "date": "2023-04-12"}`, escape: "AppointmentRegistration.call() missing 1 required positional argument: 'doctor_name'"},
	} {
		homeRun(t, s)
	}
	// Years below 1000 are re-printed unpadded: "23-04-12" is not the stored "2023-04-12".
	w = homeRun(t, homeStep{tool: "AppointmentRegistration", args: `{"patient_name": "John Doe", "date": "23-04-12", "doctor_name": "Dr. Smith"}`, text: true, out: `"` + id + `"`})
	homeWantDB(t, w, "Appointments", id, `{"patient_name": "John Doe", "date": "23-04-12", "doctor_name": "Dr. Smith"}`)
}

func TestHealthRegistrations(t *testing.T) {
	jane := `{"23456789": {"patient_name": "Jane Smith", "date": "2023-05-20", "doctor_name": "Dr. Johnson"}}`
	for _, s := range []homeStep{
		{tool: "QueryRegistration", args: `{"patient_name": "Jane Smith", "date": "2023-05-20"}`, text: true, out: jane},
		{tool: "QueryRegistration", args: `{"patient_name": " Jane Smith ", "date": "2023-5-20"}`, out: jane},
		{tool: "QueryRegistration", args: `{"patient_name": "jane smith", "date": "2023-05-20"}`, exc: "No appointments found."},
		{tool: "QueryRegistration", args: `{"patient_name": "Jane Smith", "date": "2023-05-21"}`, exc: "No appointments found."},
		{tool: "QueryRegistration", args: `{"patient_name": "Jane Smith", "date": "2023-05-20x"}`, exc: "unconverted data remains: x"},
		{tool: "QueryRegistration", args: `{"patient_name": null, "date": "2023-05-20"}`, exc: "'NoneType' object has no attribute 'strip'"},
		{tool: "CancelRegistration", args: `{"appointment_id": "78901234x"}`, exc: "The appointment ID is incorrect."},
		{tool: "CancelRegistration", args: `{"appointment_id": 78901234}`, exc: "'int' object has no attribute 'strip'"},
	} {
		homeRun(t, s)
	}

	w := homeRun(t,
		homeStep{tool: "CancelRegistration", args: `{"appointment_id": " 78901234 "}`, out: `"success"`},
		homeStep{tool: "CancelRegistration", args: `{"appointment_id": "78901234"}`, exc: "The appointment ID is incorrect."},
		homeStep{tool: "QueryRegistration", args: `{"patient_name": "Sarah Johnson", "date": "2023-08-05"}`, exc: "No appointments found."},
	)
	homeWantDB(t, w, "Appointments", "78901234", "")

	// ModifyRegistration on 90123456: Olivia Davis, 2023-10-10, Dr. Smith.
	const id = `"appointment_id": "90123456"`
	w = homeRun(t,
		homeStep{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": "2023-10-15", "new_appointment_doctor": " Dr. Johnson "}`, out: `"success"`},
		homeStep{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": "2023-10-15", "new_appointment_doctor": "Dr. Johnson"}`, exc: "Fail because no modification is made."},
	)
	homeWantDB(t, w, "Appointments", "90123456", `{"patient_name": "Olivia Davis", "date": "2023-10-15", "doctor_name": "Dr. Johnson"}`)
	w = homeRun(t, homeStep{tool: "ModifyRegistration", args: `{"appointment_id": " 90123456", "new_appointment_date": "2023-10-9"}`, text: true, out: `"success"`})
	homeWantDB(t, w, "Appointments", "90123456", `{"patient_name": "Olivia Davis", "date": "2023-10-09", "doctor_name": "Dr. Smith"}`)
	w = homeRun(t, homeStep{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_doctor": "Dr. Lee"}`, out: `"success"`})
	homeWantDB(t, w, "Appointments", "90123456", `{"patient_name": "Olivia Davis", "date": "2023-10-10", "doctor_name": "Dr. Lee"}`)

	env := homeDo(t, homeBase(t).NewWorld(), homeStep{tool: "ModifyRegistration", args: `{` + id + `}`, exc: "Fail because no modification is made."})
	if in, _ := env.Get("input"); !value.Equal(in, homeJSON(t, `{`+id+`, "new_appointment_date": null, "new_appointment_doctor": null}`)) || len(in.(*value.Map).Keys()) != 3 {
		t.Errorf("ModifyRegistration input %s", value.Repr(in))
	}
	for _, s := range []homeStep{
		{tool: "ModifyRegistration", args: `{"appointment_id": "x", "new_appointment_date": "bad"}`, exc: "The appointment ID does not exist."},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_doctor": "Dr. Smith"}`, exc: "Fail because doctor is not changed."},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": "2023-10-10"}`, exc: "Fail because date is not changed."},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": "2023-10-10", "new_appointment_doctor": "Dr. Smith"}`, exc: "Fail because no modification is made."},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": "2023-10-10", "new_appointment_doctor": "Dr. Lee"}`, exc: "Fail because date is not changed."},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": "2023-10-11", "new_appointment_doctor": "Dr. Smith"}`, exc: "Fail because doctor is not changed."},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": "bad", "new_appointment_doctor": " "}`, exc: "Fail because the doctor name is empty."},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": "bad", "new_appointment_doctor": "Dr. Lee"}`, exc: "time data 'bad' does not match format '%Y-%m-%d'"},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": ""}`, exc: "time data '' does not match format '%Y-%m-%d'"},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_date": 3}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "ModifyRegistration", args: `{` + id + `, "new_appointment_doctor": 3}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "ModifyRegistration", args: `{"new_appointment_doctor": "x"}`, escape: "ModifyRegistration.call() missing 1 required positional argument: 'appointment_id'"},
	} {
		homeRun(t, s)
	}
}

func TestHealthRegistrationChecks(t *testing.T) {
	ar := func(p, d, doc, out, exc string) string {
		return `{"api_name": "AppointmentRegistration", "input": {"patient_name": ` + p + `, "date": ` + d + `, "doctor_name": ` + doc + `}, "output": ` + out + `, "exception": ` + exc + `}`
	}
	mr := func(id, d, doc, out string) string {
		return `{"api_name": "ModifyRegistration", "input": {"appointment_id": ` + id + `, "new_appointment_date": ` + d + `, "new_appointment_doctor": ` + doc + `}, "output": ` + out + `, "exception": null}`
	}
	homeChecks(t, []homeCheckCase{
		{name: "id not compared", tool: "AppointmentRegistration", resp: ar(`" John"`, `"2022-6-1"`, `"Dr. X "`, `"12345678"`, "null"), gold: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, `"87654321"`, "null"), want: true},
		{name: "gold failed", tool: "AppointmentRegistration", resp: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, `"12345678"`, "null"), gold: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, "null", `"e"`), want: false},
		{name: "both failed", tool: "AppointmentRegistration", resp: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, "null", `"e"`), gold: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, "null", `"e"`), want: true},
		{name: "unparsable dates unequal", tool: "AppointmentRegistration", resp: ar(`"John"`, `"x"`, `"Dr. X"`, "null", `"e"`), gold: ar(`"John"`, `"x"`, `"Dr. X"`, "null", `"e"`), want: false},
		{name: "doctor differs", tool: "AppointmentRegistration", resp: ar(`"John"`, `"2022-06-01"`, `"Dr. Y"`, `"1"`, "null"), gold: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, `"1"`, "null"), want: false},
		{name: "missing gold output after compare", tool: "AppointmentRegistration", resp: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, `"1"`, "null"),
			gold: `{"input": {"patient_name": "John", "date": "2022-06-01", "doctor_name": "Dr. X"}, "exception": null}`, errKind: Key, errText: "'output'"},
		{name: "missing gold output never read", tool: "AppointmentRegistration", resp: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, `"1"`, "null"),
			gold: `{"input": {"patient_name": "Jim", "date": "2022-06-01", "doctor_name": "Dr. X"}, "exception": null}`, want: false},
		{name: "non-text date", tool: "AppointmentRegistration", resp: ar(`"John"`, `5`, `"Dr. X"`, `"1"`, "null"), gold: ar(`"John"`, `"2022-06-01"`, `"Dr. X"`, `"1"`, "null"),
			errKind: Attribute, errText: "'int' object has no attribute 'strip'"},
		{name: "query equal", tool: "QueryRegistration", resp: `{"input": {"patient_name": " Jane", "date": "2023-5-20"}, "output": {"1": 2}, "exception": null}`,
			gold: `{"input": {"patient_name": "Jane", "date": "2023-05-20"}, "output": {"1": 2}, "exception": null}`, want: true},
		{name: "query output", tool: "QueryRegistration", resp: `{"input": {"patient_name": "Jane", "date": "2023-05-20"}, "output": null, "exception": "No appointments found."}`,
			gold: `{"input": {"patient_name": "Jane", "date": "2023-05-20"}, "output": {"1": 2}, "exception": null}`, want: false},
		{name: "query missing gold date", tool: "QueryRegistration", resp: `{"input": {"patient_name": "Jane", "date": "2023-05-20"}, "output": null, "exception": null}`,
			gold: `{"input": {"patient_name": "Jane"}, "output": null, "exception": null}`, errKind: Key, errText: "'date'"},
		{name: "modify str id", tool: "ModifyRegistration", resp: mr(`90123456`, "null", `" Dr. Lee"`, `"success"`), gold: mr(`"90123456 "`, "null", `"Dr. Lee"`, `"success"`), want: true},
		{name: "modify dates", tool: "ModifyRegistration", resp: mr(`"1"`, `"2023-1-2"`, "null", `"success"`), gold: mr(`"1"`, `"2023-01-02"`, "null", `"success"`), want: true},
		{name: "modify null vs date", tool: "ModifyRegistration", resp: mr(`"1"`, "null", "null", `"success"`), gold: mr(`"1"`, `"2023-01-02"`, "null", `"success"`), want: false},
		{name: "modify non-text doctor", tool: "ModifyRegistration", resp: mr(`"1"`, "null", `7`, `"success"`), gold: mr(`"1"`, "null", `"x"`, `"success"`),
			errKind: Attribute, errText: "'int' object has no attribute 'strip'"},
		{name: "modify output", tool: "ModifyRegistration", resp: mr(`"1"`, "null", `"x"`, "null"), gold: mr(`"1"`, "null", `"x"`, `"success"`), want: false},
		{name: "cancel equal", tool: "CancelRegistration", resp: `{"input": {"appointment_id": " 1 "}, "output": "success", "exception": null}`,
			gold: `{"input": {"appointment_id": "1"}, "output": "success", "exception": null}`, want: true},
		{name: "cancel exception", tool: "CancelRegistration", resp: `{"input": {"appointment_id": "1"}, "output": null, "exception": "a"}`,
			gold: `{"input": {"appointment_id": "1"}, "output": null, "exception": "b"}`, want: false},
		{name: "cancel non-text", tool: "CancelRegistration", resp: `{"input": {"appointment_id": 1}, "output": null, "exception": null}`,
			gold: `{"input": {"appointment_id": "1"}, "output": null, "exception": null}`, errKind: Attribute, errText: "'int' object has no attribute 'strip'"},
	})
}

func TestHealthData(t *testing.T) {
	j46801 := `[{"time": "2023-03-11 14:20:00", "blood_pressure": [140, 90], "triglycerides": 130, "heart_rate": 85}]`
	q := func(user, start, end string) string {
		return `{"user_id": ` + user + `, "start_time": ` + start + `, "end_time": ` + end + `}`
	}
	const dtErr = " does not match format '%Y-%m-%d %H:%M:%S'"
	for _, s := range []homeStep{
		{tool: "QueryHealthData", args: q(`"j46801 "`, `"2023-03-01 00:00:00"`, `"2023-03-31 23:59:59"`), out: j46801},
		{tool: "QueryHealthData", args: q(`"J46801"`, `"2023-03-11 14:20:00"`, `"2023-03-11 14:20:00"`), text: true, out: j46801},
		{tool: "QueryHealthData", args: q(`"J46801"`, `"23-03-11 14:20:00"`, `"2023-3-11 14:20:00"`), out: j46801},
		{tool: "QueryHealthData", args: q(`"J46801"`, `"2023-03-11 14:20:01"`, `"2023-03-12 00:00:00"`), exc: "There is no health data in the given time span."},
		{tool: "QueryHealthData", args: q(`" "`, `"x"`, `"y"`), exc: "The user id cannot be empty."},
		{tool: "QueryHealthData", args: q(`"J46801"`, `"x"`, `"2023-03-11"`), exc: "time data 'x'" + dtErr + "; time data '2023-03-11'" + dtErr},
		{tool: "QueryHealthData", args: q(`"J46801"`, `"x"`, `"2023-03-11 00:00:00"`), exc: "time data 'x'" + dtErr},
		{tool: "QueryHealthData", args: q(`"J46801"`, `"2023-03-11 00:00:00"`, `"2023-03-11 00:00:60"`), exc: "second must be in 0..59"},
		{tool: "QueryHealthData", args: q(`"J46801"`, `"2023-03-12 00:00:00"`, `"2023-03-11 00:00:00"`), exc: "The start time cannot be later than the end time."},
		{tool: "QueryHealthData", args: q(`"Z1"`, `"2023-03-11 00:00:00"`, `"2023-03-12 00:00:00"`), exc: "The user id does not exist."},
		{tool: "QueryHealthData", args: q(`5`, `"2023-03-11 00:00:00"`, `"2023-03-12 00:00:00"`), exc: "'int' object has no attribute 'upper'"},
		{tool: "QueryHealthData", args: q(`"J46801"`, `5`, `"2023-03-12 00:00:00"`), exc: "'int' object has no attribute 'strip'"},
		{tool: "QueryHealthData", args: `{"user_id": "J46801"}`, escape: "QueryHealthData.call() missing 2 required positional arguments: 'start_time' and 'end_time'"},
	} {
		homeRun(t, s)
	}

	rec := func(user, tm, data string) string {
		if data == "" {
			return `{"user_id": ` + user + `, "time": ` + tm + `}`
		}
		return `{"user_id": ` + user + `, "time": ` + tm + `, "health_data": ` + data + `}`
	}
	w := homeRun(t,
		homeStep{tool: "RecordHealthData", args: rec(`" a1 "`, `"2023-4-1 8:00:00"`, `[{"name": "hr", "value": 80}, {"name": "bp", "value": "120/80"}]`), out: `"success"`},
		homeStep{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `[{"name": "hr", "value": 90}]`), out: `"success"`},
		homeStep{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-02 08:00:00"`, `[{"name": "w", "value": 70.5}]`), out: `"success"`},
		homeStep{tool: "QueryHealthData", args: q(`"a1"`, `"2023-04-01 00:00:00"`, `"2023-04-30 00:00:00"`),
			out: `[{"time": "2023-04-01 08:00:00", "hr": 90, "bp": "120/80"}, {"time": "2023-04-02 08:00:00", "w": 70.5}]`},
		homeStep{tool: "RecordHealthData", args: rec(`"A12345"`, `"2023-03-15 10:30:00"`, `[{"name": "heart_rate", "value": 81}, {"name": "spo2", "value": 99}]`), out: `"success"`},
		// A missing value fails after the items before it were applied (update) ...
		homeStep{tool: "RecordHealthData", args: rec(`"A12345"`, `"2023-03-15 10:30:00"`, `[{"name": "a", "value": 1}, {"name": "b"}]`), exc: "'value'"},
		// ... or after the user's list was created (new record).
		homeStep{tool: "RecordHealthData", args: rec(`"NEWU"`, `"2023-03-15 10:30:00"`, `[{"name": "a", "value": 1}, {"name": "b"}]`), exc: "'value'"},
	)
	homeWantDB(t, w, "HealthData", "A12345", `[{"time": "2023-03-15 10:30:00", "blood_pressure": [120, 80], "heart_rate": 81, "spo2": 99, "a": 1}]`)
	homeWantDB(t, w, "HealthData", "NEWU", `[]`)

	for _, s := range []homeStep{
		{tool: "RecordHealthData", args: rec(`""`, `"x"`, `[]`), exc: "The user id cannot be empty."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01"`, `[]`), exc: "time data '2023-04-01'" + dtErr},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, ``), exc: "The health data cannot be empty."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `[]`), exc: "The health data cannot be empty."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `""`), exc: "The health data cannot be empty."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `"[{'name': 'hr', 'value': '80'}]"`), exc: "The health data has invalid format."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `"[{'name': 'hr', 'value': '80'}]"`), text: true, exc: "The health data has invalid format."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `[{"value": 1}]`), exc: "The health data has invalid format."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `[{"name": "a", "value": 1}, {"name": "a", "value": 2}]`), exc: "The health data cannot contain duplicate items."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `[{"name": 1, "value": 1}, {"name": true, "value": 2}]`), exc: "The health data cannot contain duplicate items."},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `[{"name": [1], "value": 1}]`), exc: "unhashable type: 'list'"},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `5`), exc: "object of type 'int' has no len()"},
		{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, `["name"]`), exc: "string indices must be integers, not 'str'"},
		{tool: "RecordHealthData", args: rec(`7`, `"2023-04-01 08:00:00"`, `[]`), exc: "'int' object has no attribute 'upper'"},
	} {
		homeRun(t, s)
	}
	// Of several records at the same time, the last one is updated.
	dup := homeJSON(t, `{"U": [{"time": "2023-01-01 00:00:00", "a": 1}, {"time": "2023-01-01 00:00:00", "a": 2}]}`)
	w = NewBase(map[string]any{"HealthData": dup}).NewWorld()
	homeDo(t, w, homeStep{tool: "RecordHealthData", args: rec(`"u"`, `"2023-1-1 0:00:00"`, `[{"name": "a", "value": 3}]`), out: `"success"`})
	homeWantDB(t, w, "HealthData", "U", `[{"time": "2023-01-01 00:00:00", "a": 1}, {"time": "2023-01-01 00:00:00", "a": 3}]`)

	env := homeDo(t, homeBase(t).NewWorld(), homeStep{tool: "RecordHealthData", args: rec(`"A1"`, `"2023-04-01 08:00:00"`, ``), exc: "The health data cannot be empty."})
	if in, _ := env.Get("input"); !value.Equal(in, homeJSON(t, `{"user_id": "A1", "time": "2023-04-01 08:00:00", "health_data": null}`)) {
		t.Errorf("RecordHealthData input %s", value.Repr(in))
	}

	qh := func(user, start, end, out string) string {
		return `{"api_name": "QueryHealthData", "input": ` + q(user, start, end) + `, "output": ` + out + `, "exception": null}`
	}
	rh := func(user, tm, data, out string) string {
		return `{"api_name": "RecordHealthData", "input": {"user_id": ` + user + `, "time": ` + tm + `, "health_data": ` + data + `}, "output": ` + out + `, "exception": null}`
	}
	homeChecks(t, []homeCheckCase{
		{name: "query normalised", tool: "QueryHealthData", resp: qh(`"a12345 "`, `"2023-3-1 0:0:0"`, `"2023-03-02 00:00:00"`, "[]"), gold: qh(`"A12345"`, `"2023-03-01 00:00:00"`, `"2023-03-02 00:00:00"`, "[]"), want: true},
		{name: "query padded year", tool: "QueryHealthData", resp: qh(`"A"`, `"23-03-01 00:00:00"`, `"2023-03-02 00:00:00"`, "[]"), gold: qh(`"A"`, `"0023-03-01 00:00:00"`, `"2023-03-02 00:00:00"`, "[]"), want: true},
		{name: "query empty users", tool: "QueryHealthData", resp: qh(`""`, `"2023-03-01 00:00:00"`, `"2023-03-02 00:00:00"`, "null"), gold: qh(`" "`, `"2023-03-01 00:00:00"`, `"2023-03-02 00:00:00"`, "null"), want: true},
		{name: "query bad times", tool: "QueryHealthData", resp: qh(`"A"`, `"x"`, `"2023-03-02 00:00:00"`, "null"), gold: qh(`"A"`, `"x"`, `"2023-03-02 00:00:00"`, "null"), want: false},
		{name: "query output", tool: "QueryHealthData", resp: qh(`"A"`, `"2023-03-01 00:00:00"`, `"2023-03-02 00:00:00"`, "null"), gold: qh(`"A"`, `"2023-03-01 00:00:00"`, `"2023-03-02 00:00:00"`, "[]"), want: false},
		{name: "query non-text user", tool: "QueryHealthData", resp: qh(`1`, `"x"`, `"y"`, "null"), gold: qh(`"A"`, `"x"`, `"y"`, "null"), errKind: Attribute, errText: "'int' object has no attribute 'upper'"},
		{name: "query missing gold end", tool: "QueryHealthData", resp: qh(`"A"`, `"x"`, `"y"`, "null"), gold: `{"input": {"user_id": "A", "start_time": "x"}, "output": null, "exception": null}`, errKind: Key, errText: "'end_time'"},
		{name: "record data not compared", tool: "RecordHealthData", resp: rh(`12345`, `"2023-8-6 9:00:00"`, `"[{"`, `"success"`), gold: rh(`"12345"`, `"2023-08-06 09:00:00"`, `[{"name": "a", "value": 1}]`, `"success"`), want: true},
		{name: "record text list fails", tool: "RecordHealthData", resp: `{"input": {"user_id": "12345", "time": "2023-08-06 09:00:00", "health_data": "[{"}, "output": null, "exception": "The health data has invalid format."}`,
			gold: rh(`"12345"`, `"2023-08-06 09:00:00"`, `[{"name": "a", "value": 1}]`, `"success"`), want: false},
		{name: "record user case", tool: "RecordHealthData", resp: rh(`"a1"`, `"2023-08-06 09:00:00"`, "null", `"success"`), gold: rh(`"A1 "`, `"2023-08-06 09:00:00"`, "null", `"success"`), want: true},
		{name: "record bad time", tool: "RecordHealthData", resp: rh(`"a1"`, `"bad"`, "null", "null"), gold: rh(`"A1"`, `"bad"`, "null", "null"), want: false},
		{name: "record non-text time", tool: "RecordHealthData", resp: rh(`"a1"`, `1`, "null", "null"), gold: rh(`"A1"`, `"bad"`, "null", "null"), errKind: Attribute, errText: "'int' object has no attribute 'strip'"},
	})
}

func TestHealthSymptoms(t *testing.T) {
	for _, s := range []homeStep{
		{tool: "EmergencyKnowledge", args: `{"symptom": " Shortness of Breath "}`,
			out: `[{"name": "Asthma", "aid": "Treatment may involve inhalers or nebulizers to open the airways, as well as medications to manage inflammation and prevent attacks."}, {"name": "Pneumonia", "aid": "Treatment may involve antibiotics, rest, and fluids to help the body fight the infection and recover."}]`},
		{tool: "EmergencyKnowledge", args: `{"symptom": "  "}`, exc: "'Exception' object has no attribute 'lower'"},
		{tool: "EmergencyKnowledge", args: `{"symptom": "headachex"}`, text: true, exc: "The symptom does not exist."},
		{tool: "EmergencyKnowledge", args: `{"symptom": 1}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "SymptomSearch", args: `{"symptom": "NAUSEA"}`,
			out: `[{"name": "Gastroenteritis", "description": "An infection or inflammation of the digestive tract that can cause nausea, vomiting, diarrhea, and other symptoms."}, {"name": "Migraine", "description": "A neurological condition characterized by recurrent headaches, often accompanied by other symptoms such as nausea, vomiting, and sensitivity to light and sound."}]`},
		{tool: "SymptomSearch", args: `{"symptom": ""}`, exc: "The symptom cannot be empty."},
		{tool: "SymptomSearch", args: `{"symptom": "itch"}`, exc: "The symptom does not exist."},
		{tool: "SymptomSearch", args: `{"symptom": []}`, exc: "'list' object has no attribute 'strip'"},
	} {
		homeRun(t, s)
	}
	env := func(tool, sym, out, exc string) string {
		return `{"api_name": "` + tool + `", "input": {"symptom": ` + sym + `}, "output": ` + out + `, "exception": ` + exc + `}`
	}
	homeChecks(t, []homeCheckCase{
		{name: "case", tool: "EmergencyKnowledge", resp: env("EmergencyKnowledge", `"Fever "`, "[1]", "null"), gold: env("EmergencyKnowledge", `"fever"`, "[1]", "null"), want: true},
		{name: "output", tool: "EmergencyKnowledge", resp: env("EmergencyKnowledge", `"fever"`, "[2]", "null"), gold: env("EmergencyKnowledge", `"fever"`, "[1]", "null"), want: false},
		{name: "empty response", tool: "EmergencyKnowledge", resp: env("EmergencyKnowledge", `" "`, "null", `"x"`), gold: env("EmergencyKnowledge", `"fever"`, "[1]", "null"),
			errKind: Attribute, errText: "'Exception' object has no attribute 'lower'"},
		{name: "empty gold", tool: "EmergencyKnowledge", resp: env("EmergencyKnowledge", `"a"`, "null", `"x"`), gold: env("EmergencyKnowledge", `""`, "[1]", "null"),
			errKind: Attribute, errText: "'Exception' object has no attribute 'lower'"},
		{name: "search case", tool: "SymptomSearch", resp: env("SymptomSearch", `" NAUSEA"`, "[1]", "null"), gold: env("SymptomSearch", `"nausea"`, "[1]", "null"), want: true},
		{name: "search exception", tool: "SymptomSearch", resp: env("SymptomSearch", `"x"`, "null", `"a"`), gold: env("SymptomSearch", `"x"`, "null", `"b"`), want: false},
		{name: "search empty", tool: "SymptomSearch", resp: env("SymptomSearch", `""`, "null", `"x"`), gold: env("SymptomSearch", `"nausea"`, "[1]", "null"),
			errKind: Plain, errText: "The symptom cannot be empty."},
		{name: "search missing gold", tool: "SymptomSearch", resp: env("SymptomSearch", `""`, "null", `"x"`), gold: `{"input": {}, "output": null, "exception": null}`,
			errKind: Key, errText: "'symptom'"},
	})
}
