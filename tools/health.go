package tools

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// healthTools are the hospital and health tools of the apis catalog: appointments, health records
// and the symptom databases.
func healthTools() []*Tool {
	return []*Tool{
		appointmentRegistration(), queryRegistration(), modifyRegistration(), cancelRegistration(),
		queryHealthData(), recordHealthData(), emergencyKnowledge(), symptomSearch(),
	}
}

// ---------------------------------------------------------------------------------------------
// Appointments

// healthStrip is `v.strip()` inside a tool (a non-text gives the AttributeError's text).
func healthStrip(in *value.Map, key string) (string, error) {
	v, _ := in.Get(key)
	s, err := homeStr(v, "strip")
	if err != nil {
		return "", homeCaught(err)
	}
	return py.Strip(s), nil
}

// healthSameDay is the appointment test of AppointmentRegistration and QueryRegistration: the stored
// record's patient is the name and its date, normalised, is the (normalised) date. The record's date
// is normalised as the tools do, so a non-text raises and an unparsable one never matches.
func healthSameDay(rec *value.Map, patient, date string) (bool, error) {
	p, _ := rec.Get("patient_name")
	if !value.Equal(p, patient) {
		return false, nil
	}
	d, _ := rec.Get("date")
	n, err := homeNormValue(d, py.D)
	if err != nil {
		return false, homeCaught(err)
	}
	return value.Equal(n, date), nil
}

func appointmentRegistration() *Tool {
	return &Tool{
		Name:        "AppointmentRegistration",
		Description: "Book a hospital appointment of a patient with a doctor on a date; answers the new appointment id.",
		Params: []Param{
			{Name: "patient_name", Type: "str", Required: true, Description: "The patient's name."},
			{Name: "date", Type: "str", Required: true, Description: "Day of the appointment, YYYY-MM-DD."},
			{Name: "doctor_name", Type: "str", Required: true, Description: "The doctor's name."},
		},
		Outputs:  []Field{{Name: "appointment_id", Type: "str", Description: "The new appointment's 8-digit id."}},
		Database: "Appointments",
		run: func(c *Ctx, in *value.Map) (any, error) {
			patient, err := healthStrip(in, "patient_name")
			if err != nil {
				return nil, err
			}
			doctor, err := healthStrip(in, "doctor_name")
			if err != nil {
				return nil, err
			}
			if patient == "" || doctor == "" {
				return nil, fail("Patient name or doctor name cannot be empty.")
			}
			dv, _ := in.Get("date")
			date, err := homeNorm(dv, py.D)
			if err != nil {
				return nil, homeCaught(err)
			}
			db := c.table("Appointments")
			for _, id := range db.Keys() {
				rv, _ := db.Get(id)
				rec, ok := rv.(*value.Map)
				if !ok {
					continue
				}
				same, err := healthSameDay(rec, patient, date)
				if err != nil {
					return nil, err
				}
				if same {
					if d, _ := rec.Get("doctor_name"); value.Equal(d, doctor) {
						return nil, fail("This appointment has already been registered.")
					}
					return nil, fail("This patient has already been registered in this day.")
				}
			}
			id := strconv.Itoa(10000000 + c.w.rng().IntN(90000000))
			for db.Has(id) {
				id = strconv.Itoa(10000000 + c.w.rng().IntN(90000000))
			}
			c.writeTop("Appointments").Set(id, value.MapOf("patient_name", patient, "date", date, "doctor_name", doctor))
			return id, nil
		},
		// Names stripped, dates normalised; the random id is not compared, only that a failing
		// gold call has no output.
		check: func(r, g *value.Map) (bool, error) {
			// The original reads and normalises the response's inputs, output and exception, then
			// the gold's inputs; compares; and only then reads the gold's output and exception.
			rv, err := appointmentInputs(r)
			if err != nil {
				return false, err
			}
			rout, err := get(r, "output")
			if err != nil {
				return false, err
			}
			rexc, err := get(r, "exception")
			if err != nil {
				return false, err
			}
			gv, err := appointmentInputs(g)
			if err != nil {
				return false, err
			}
			for j := range rv {
				if !value.Equal(rv[j], gv[j]) {
					return false, nil
				}
			}
			gout, err := get(g, "output")
			if err != nil {
				return false, err
			}
			gexc, err := get(g, "exception")
			if err != nil {
				return false, err
			}
			if gout == nil && rout != nil {
				return false, nil
			}
			return value.Equal(rexc, gexc), nil
		},
	}
}

// appointmentInputs reads an AppointmentRegistration envelope's inputs for its check: the stripped
// patient name, the normalised date (an error object when it does not parse) and the stripped
// doctor name.
func appointmentInputs(env *value.Map) ([3]any, error) {
	var out [3]any
	for j, k := range []string{"patient_name", "date", "doctor_name"} {
		v, err := homeInput(env, k)
		if err != nil {
			return out, err
		}
		if k == "date" {
			if out[j], err = homeNormValue(v, py.D); err != nil {
				return out, err
			}
			continue
		}
		s, err := homeStr(v, "strip")
		if err != nil {
			return out, err
		}
		out[j] = py.Strip(s)
	}
	return out, nil
}

func queryRegistration() *Tool {
	return &Tool{
		Name:        "QueryRegistration",
		Description: "Find a patient's appointments on a date.",
		Params: []Param{
			{Name: "patient_name", Type: "str", Required: true, Description: "The patient's name."},
			{Name: "date", Type: "str", Required: true, Description: "Day to look at, YYYY-MM-DD."},
		},
		Outputs:  []Field{{Name: "appointments", Type: "list", Description: "The matching appointments: an object from appointment id to {patient_name, date, doctor_name}."}},
		Database: "Appointments",
		run: func(c *Ctx, in *value.Map) (any, error) {
			patient, err := healthStrip(in, "patient_name")
			if err != nil {
				return nil, err
			}
			dv, _ := in.Get("date")
			date, err := homeNorm(dv, py.D)
			if err != nil {
				return nil, homeCaught(err)
			}
			db := c.table("Appointments")
			found := value.NewMap(0)
			for _, id := range db.Keys() {
				rv, _ := db.Get(id)
				rec, ok := rv.(*value.Map)
				if !ok {
					continue
				}
				same, err := healthSameDay(rec, patient, date)
				if err != nil {
					return nil, err
				}
				if same {
					found.Set(id, value.Clone(rec))
				}
			}
			if found.Len() == 0 {
				return nil, fail("No appointments found.")
			}
			return found, nil
		},
		check: func(r, g *value.Map) (bool, error) {
			var names, dates [2]any
			for i, env := range []*value.Map{r, g} {
				v, err := homeInput(env, "patient_name")
				if err != nil {
					return false, err
				}
				names[i] = v
			}
			for i, v := range names {
				s, err := homeStr(v, "strip")
				if err != nil {
					return false, err
				}
				names[i] = py.Strip(s)
			}
			for i, env := range []*value.Map{r, g} {
				v, err := homeInput(env, "date")
				if err != nil {
					return false, err
				}
				dates[i] = v
			}
			for i, v := range dates {
				n, err := homeNormValue(v, py.D)
				if err != nil {
					return false, err
				}
				dates[i] = n
			}
			if !value.Equal(names[0], names[1]) || !value.Equal(dates[0], dates[1]) {
				return false, nil
			}
			return homeOutExc(r, g)
		},
	}
}

func modifyRegistration() *Tool {
	return &Tool{
		Name:        "ModifyRegistration",
		Description: "Move an appointment to another date and/or another doctor.",
		Params: []Param{
			{Name: "appointment_id", Type: "str", Required: true, Description: "Id of the appointment to change."},
			{Name: "new_appointment_date", Type: "str", Description: "The new day, YYYY-MM-DD (omit to keep the date)."},
			{Name: "new_appointment_doctor", Type: "str", Description: "The new doctor (omit to keep the doctor)."},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: `"success" when the appointment was changed.`}},
		Database: "Appointments",
		run: func(c *Ctx, in *value.Map) (any, error) {
			id, err := healthStrip(in, "appointment_id")
			if err != nil {
				return nil, err
			}
			rv, ok := c.table("Appointments").Get(id)
			if !ok {
				return nil, fail("The appointment ID does not exist.")
			}
			dv, _ := in.Get("new_appointment_date")
			docV, _ := in.Get("new_appointment_doctor")
			// A date that does not parse is remembered and reported after the doctor test.
			var date any
			if dv != nil {
				date, err = homeNormValue(dv, py.D)
				if err != nil {
					return nil, homeCaught(err)
				}
			}
			var doctor any
			if docV != nil {
				s, err := healthStrip(in, "new_appointment_doctor")
				if err != nil {
					return nil, err
				}
				if s == "" {
					return nil, fail("Fail because the doctor name is empty.")
				}
				doctor = s
			}
			if bad, ok := date.(*value.Opaque); ok {
				return nil, fail(bad.Text)
			}
			rec, _ := rv.(*value.Map)
			curDate, _ := rec.Get("date")
			curDoctor, _ := rec.Get("doctor_name")
			sameDate, sameDoctor := value.Equal(date, curDate), value.Equal(doctor, curDoctor)
			switch {
			case date == nil && doctor == nil:
				return nil, fail("Fail because no modification is made.")
			case date == nil:
				if sameDoctor {
					return nil, fail("Fail because doctor is not changed.")
				}
			case doctor == nil:
				if sameDate {
					return nil, fail("Fail because date is not changed.")
				}
			default:
				if sameDate && sameDoctor {
					return nil, fail("Fail because no modification is made.")
				}
				if sameDate {
					return nil, fail("Fail because date is not changed.")
				}
				if sameDoctor {
					return nil, fail("Fail because doctor is not changed.")
				}
			}
			own, ok := c.writeRecord("Appointments", id)
			if !ok {
				v, _ := c.table("Appointments").Get(id)
				return nil, fail("'" + pyTypeName(v) + "' object does not support item assignment")
			}
			if date != nil {
				own.Set("date", date)
			}
			if doctor != nil {
				own.Set("doctor_name", doctor)
			}
			return "success", nil
		},
		// The id is compared as str(id) stripped; dates normalised and doctors stripped when not
		// null (null stays null).
		check: func(r, g *value.Map) (bool, error) {
			keys := []string{"appointment_id", "new_appointment_date", "new_appointment_doctor"}
			var vals [3][2]any
			for j, k := range keys {
				for i, env := range []*value.Map{r, g} {
					v, err := homeInput(env, k)
					if err != nil {
						return false, err
					}
					vals[j][i] = v
				}
			}
			for i := range 2 {
				vals[0][i] = py.Strip(value.Str(vals[0][i]))
			}
			for i := range 2 {
				if v := vals[1][i]; v != nil {
					n, err := homeNormValue(v, py.D)
					if err != nil {
						return false, err
					}
					vals[1][i] = n
				}
			}
			for i := range 2 {
				if v := vals[2][i]; v != nil {
					s, err := homeStr(v, "strip")
					if err != nil {
						return false, err
					}
					vals[2][i] = py.Strip(s)
				}
			}
			for _, p := range vals {
				if !value.Equal(p[0], p[1]) {
					return false, nil
				}
			}
			return homeOutExc(r, g)
		},
	}
}

func cancelRegistration() *Tool {
	return &Tool{
		Name:        "CancelRegistration",
		Description: "Cancel a hospital appointment by its id.",
		Params: []Param{
			{Name: "appointment_id", Type: "str", Required: true, Description: "Id of the appointment to cancel."},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: `"success" when the appointment was cancelled.`}},
		Database: "Appointments",
		run: func(c *Ctx, in *value.Map) (any, error) {
			id, err := healthStrip(in, "appointment_id")
			if err != nil {
				return nil, err
			}
			if !c.table("Appointments").Has(id) {
				return nil, fail("The appointment ID is incorrect.")
			}
			c.writeTop("Appointments").Delete(id)
			return "success", nil
		},
		check: func(r, g *value.Map) (bool, error) {
			var ids [2]string
			for i, env := range []*value.Map{r, g} {
				v, err := homeInput(env, "appointment_id")
				if err != nil {
					return false, err
				}
				s, err := homeStr(v, "strip")
				if err != nil {
					return false, err
				}
				ids[i] = py.Strip(s)
			}
			if ids[0] != ids[1] {
				return false, nil
			}
			return homeOutExc(r, g)
		},
	}
}

// ---------------------------------------------------------------------------------------------
// Health records

// healthUser is `user_id.upper().strip()` with an empty result as null.
func healthUser(v any) (any, error) {
	s, err := homeStr(v, "upper")
	if err != nil {
		return nil, err
	}
	s = py.Strip(py.Upper(s))
	if s == "" {
		return nil, nil
	}
	return s, nil
}

// healthTime is QueryHealthData's time step: strip, pad the year as the §0.2 normaliser does, and
// parse as DT, giving the instant or, when it does not parse, an error object. A non-text raises
// the AttributeError of strip.
func healthTime(v any) (any, error) {
	s, err := homeStr(v, "strip")
	if err != nil {
		return nil, err
	}
	s = py.Strip(s)
	if strings.Count(s, "-") == 2 {
		first, rest, _ := strings.Cut(s, "-")
		if utf8.RuneCountInString(first) != 4 {
			s = py.Zfill(first, 4) + "-" + rest
		}
	}
	t, perr := py.Strptime(s, py.DT)
	if perr != nil {
		return &value.Opaque{Text: perr.Error()}, nil
	}
	return t, nil
}

// healthQueryInputs is QueryHealthData's format_check of its three inputs.
func healthQueryInputs(user, start, end any) (u, s, e any, err error) {
	if u, err = healthUser(user); err != nil {
		return
	}
	if s, err = healthTime(start); err != nil {
		return
	}
	e, err = healthTime(end)
	return
}

// healthSameTime compares two results of healthTime: equal instants; an error object equals
// nothing but itself.
func healthSameTime(a, b any) bool {
	ta, okA := a.(py.Time)
	tb, okB := b.(py.Time)
	if okA && okB {
		return ta == tb
	}
	return a == b
}

func queryHealthData() *Tool {
	return &Tool{
		Name:        "QueryHealthData",
		Description: "List a user's recorded health measurements within a time span (both ends included).",
		Params: []Param{
			{Name: "user_id", Type: "str", Required: true, Description: "The user's id (case is ignored), e.g. A12345."},
			{Name: "start_time", Type: "str", Required: true, Description: "Start of the span, YYYY-MM-DD HH:MM:SS."},
			{Name: "end_time", Type: "str", Required: true, Description: "End of the span, YYYY-MM-DD HH:MM:SS."},
		},
		Outputs:  []Field{{Name: "health_data", Type: "list", Description: "The records in the span, each {time, measure: value, ...}."}},
		Database: "HealthData",
		run: func(c *Ctx, in *value.Map) (any, error) {
			uv, _ := in.Get("user_id")
			sv, _ := in.Get("start_time")
			ev, _ := in.Get("end_time")
			user, start, end, err := healthQueryInputs(uv, sv, ev)
			if err != nil {
				return nil, homeCaught(err)
			}
			if user == nil {
				return nil, fail("The user id cannot be empty.")
			}
			bs, startBad := start.(*value.Opaque)
			be, endBad := end.(*value.Opaque)
			switch {
			case startBad && endBad:
				return nil, fail(bs.Text + "; " + be.Text)
			case startBad:
				return nil, fail(bs.Text)
			case endBad:
				return nil, fail(be.Text)
			}
			from, to := start.(py.Time), end.(py.Time)
			if to.Before(from) {
				return nil, fail("The start time cannot be later than the end time.")
			}
			recs, ok := c.table("HealthData").Get(user.(string))
			if !ok {
				return nil, fail("The user id does not exist.")
			}
			items, err := homeIter(recs)
			if err != nil {
				return nil, homeCaught(err)
			}
			var out []any
			for _, item := range items {
				tv, err := homeItem(item, "time")
				if err != nil {
					return nil, homeCaught(err)
				}
				t, err := homeStrptime(tv, py.DT)
				if err != nil {
					return nil, err
				}
				if !t.Before(from) && !to.Before(t) {
					out = append(out, value.Clone(item))
				}
			}
			if len(out) == 0 {
				return nil, fail("There is no health data in the given time span.")
			}
			return out, nil
		},
		check: func(r, g *value.Map) (bool, error) {
			keys := []string{"user_id", "start_time", "end_time"}
			var raw [2][3]any
			for i, env := range []*value.Map{r, g} {
				for j, k := range keys {
					v, err := homeInput(env, k)
					if err != nil {
						return false, err
					}
					raw[i][j] = v
				}
			}
			var norm [2][3]any
			for i := range raw {
				u, s, e, err := healthQueryInputs(raw[i][0], raw[i][1], raw[i][2])
				if err != nil {
					return false, err
				}
				norm[i] = [3]any{u, s, e}
			}
			if !value.Equal(norm[0][0], norm[1][0]) ||
				!healthSameTime(norm[0][1], norm[1][1]) || !healthSameTime(norm[0][2], norm[1][2]) {
				return false, nil
			}
			return homeOutExc(r, g)
		},
	}
}

// healthKey turns a health-data item name into an object key. Names are texts in every intended
// call; other JSON scalars (possible only in native calls) are keyed as Python's json module would
// write them.
func healthKey(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return value.Repr(v)
}

// healthLen is Python's len().
func healthLen(v any) (int, error) {
	switch x := v.(type) {
	case string:
		return utf8.RuneCountInString(x), nil
	case []any:
		return len(x), nil
	case value.Tuple:
		return len(x), nil
	case *value.Map:
		return x.Len(), nil
	}
	return 0, escape(Type, "object of type '"+pyTypeName(v)+"' has no len()")
}

func recordHealthData() *Tool {
	return &Tool{
		Name:        "RecordHealthData",
		Description: "Store health measurements of a user at a time (measurements at an already recorded time update that record).",
		Params: []Param{
			{Name: "user_id", Type: "str", Required: true, Description: "The user's id (case is ignored)."},
			{Name: "time", Type: "str", Required: true, Description: "Time of the measurements, YYYY-MM-DD HH:MM:SS."},
			{Name: "health_data", Type: "list", Description: `The measurements, a list of {"name": ..., "value": ...} with distinct names.`},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: `"success" when the data was stored.`}},
		Database: "HealthData",
		run: func(c *Ctx, in *value.Map) (any, error) {
			uv, _ := in.Get("user_id")
			user, err := healthUser(uv)
			if err != nil {
				return nil, homeCaught(err)
			}
			if user == nil {
				return nil, fail("The user id cannot be empty.")
			}
			tv, _ := in.Get("time")
			t, err := homeNorm(tv, py.DT)
			if err != nil {
				return nil, homeCaught(err)
			}
			data, _ := in.Get("health_data")
			if data == nil {
				return nil, fail("The health data cannot be empty.")
			}
			n, err := healthLen(data)
			if err != nil {
				return nil, homeCaught(err)
			}
			if n == 0 {
				return nil, fail("The health data cannot be empty.")
			}
			items, err := homeIter(data)
			if err != nil {
				return nil, homeCaught(err)
			}
			var names []any
			for _, item := range items {
				ok, err := homeContains(item, "name")
				if err != nil {
					return nil, homeCaught(err)
				}
				if !ok {
					return nil, fail("The health data has invalid format.")
				}
				name, err := homeItem(item, "name")
				if err != nil {
					return nil, homeCaught(err)
				}
				switch name.(type) {
				case []any, value.Tuple, *value.Map:
					return nil, fail("unhashable type: '" + pyTypeName(name) + "'")
				}
				for _, seen := range names {
					if value.Equal(seen, name) {
						return nil, fail("The health data cannot contain duplicate items.")
					}
				}
				names = append(names, name)
			}
			db := c.writeTable("HealthData")
			key := user.(string)
			cur, ok := db.Get(key)
			if !ok {
				cur = []any{}
				db.Set(key, cur)
			}
			records, _ := cur.([]any)
			var target *value.Map
			for _, rec := range records {
				if m, ok := rec.(*value.Map); ok && switchAt(m, t) {
					target = m // the last record at that time
				}
			}
			if target != nil {
				// Updated item by item: a missing value leaves the earlier items applied.
				for i, item := range items {
					v, err := homeItem(item, "value")
					if err != nil {
						return nil, homeCaught(err)
					}
					target.Set(healthKey(names[i]), value.Clone(v))
				}
				return "success", nil
			}
			rec := value.MapOf("time", t)
			for i, item := range items {
				v, err := homeItem(item, "value")
				if err != nil {
					return nil, homeCaught(err)
				}
				rec.Set(healthKey(names[i]), value.Clone(v))
			}
			db.Set(key, append(records, rec))
			return "success", nil
		},
		// user_id compared as str(user_id) upper-cased and stripped, time normalised; health_data is
		// not compared.
		check: func(r, g *value.Map) (bool, error) {
			var raw [2][2]any
			for j, k := range []string{"user_id", "time"} {
				for i, env := range []*value.Map{r, g} {
					v, err := homeInput(env, k)
					if err != nil {
						return false, err
					}
					raw[j][i] = v
				}
			}
			var users [2]string
			var times [2]any
			for i := range 2 {
				users[i] = py.Strip(py.Upper(value.Str(raw[0][i])))
			}
			for i := range 2 {
				n, err := homeNormValue(raw[1][i], py.DT)
				if err != nil {
					return false, err
				}
				times[i] = n
			}
			if users[0] != users[1] || !value.Equal(times[0], times[1]) {
				return false, nil
			}
			return homeOutExc(r, g)
		},
	}
}

// ---------------------------------------------------------------------------------------------
// Symptoms

// symptomAttrText is what the original raises for an empty symptom in EmergencyKnowledge: its
// format check replaces the text by an exception object and then calls .lower() on that object.
const symptomAttrText = "'Exception' object has no attribute 'lower'"

// emergencySymptom is EmergencyKnowledge's format_check: strip, empty → AttributeError on the
// exception object, lower.
func emergencySymptom(v any) (string, error) {
	s, err := homeStr(v, "strip")
	if err != nil {
		return "", err
	}
	s = py.Strip(s)
	if s == "" {
		return "", escape(Attribute, symptomAttrText)
	}
	return py.Lower(s), nil
}

// searchSymptom is SymptomSearch's format_check: strip, lower, empty → a plain exception.
func searchSymptom(v any) (string, error) {
	s, err := homeStr(v, "strip")
	if err != nil {
		return "", err
	}
	s = py.Lower(py.Strip(s))
	if s == "" {
		return "", escape(Plain, "The symptom cannot be empty.")
	}
	return s, nil
}

// symptomTool builds EmergencyKnowledge and SymptomSearch: look the normalised symptom up in the
// Symptom database and answer, for each condition in stored order, its name and the one other field.
func symptomTool(name, desc, field, fieldDesc string, norm func(any) (string, error)) *Tool {
	return &Tool{
		Name:        name,
		Description: desc,
		Params: []Param{
			{Name: "symptom", Type: "str", Required: true, Description: "The symptom, e.g. headache (case is ignored)."},
		},
		Outputs:  []Field{{Name: "results", Type: "list", Description: "Possible conditions, each {name, " + field + "}: " + fieldDesc}},
		Database: "Symptom",
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("symptom")
			s, err := norm(v)
			if err != nil {
				return nil, homeCaught(err)
			}
			entries, ok := c.table("Symptom").Get(s)
			if !ok {
				return nil, fail("The symptom does not exist.")
			}
			items, err := homeIter(entries)
			if err != nil {
				return nil, homeCaught(err)
			}
			out := make([]any, 0, len(items))
			for _, item := range items {
				n, err := homeItem(item, "name")
				if err != nil {
					return nil, homeCaught(err)
				}
				f, err := homeItem(item, field)
				if err != nil {
					return nil, homeCaught(err)
				}
				out = append(out, value.MapOf("name", value.Clone(n), field, value.Clone(f)))
			}
			return out, nil
		},
		// Both symptoms are read, then normalised as the tool does (so an empty one raises).
		check: func(r, g *value.Map) (bool, error) {
			var raw [2]any
			for i, env := range []*value.Map{r, g} {
				v, err := homeInput(env, "symptom")
				if err != nil {
					return false, err
				}
				raw[i] = v
			}
			var sym [2]string
			for i, v := range raw {
				s, err := norm(v)
				if err != nil {
					return false, err
				}
				sym[i] = s
			}
			if sym[0] != sym[1] {
				return false, nil
			}
			return homeOutExc(r, g)
		},
	}
}

func emergencyKnowledge() *Tool {
	return symptomTool("EmergencyKnowledge", "First-aid advice for a symptom: the conditions it may indicate and what to do.",
		"aid", "the first aid to give.", emergencySymptom)
}

func symptomSearch() *Tool {
	return symptomTool("SymptomSearch", "Look up the conditions a symptom may indicate, with a short explanation of each.",
		"description", "what the condition is.", searchSymptom)
}
