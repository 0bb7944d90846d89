package tools

import (
	"strconv"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// calendarTools are the personal-organiser tools of the apis catalog: agenda items, alarms, meetings
// and reminders, each kept per user (the token's owner) in its own database.
func calendarTools() []*Tool {
	return []*Tool{
		addAgenda(), deleteAgenda(), modifyAgenda(), queryAgenda(),
		addAlarm(), deleteAlarm(), modifyAlarm(), queryAlarm(),
		addMeeting(), deleteMeeting(), modifyMeeting(), queryMeeting(),
		addReminder(), deleteReminder(), modifyReminder(), queryReminder(),
	}
}

// Parameter and output declarations shared by the calendar tools.
var (
	calToken     = Param{Name: "token", Type: "str", Required: true, Description: "The user's token, from GetUserToken."}
	calStatusOut = []Field{{Name: "status", Type: "str", Description: "\"success\" when done."}}
	// The six parameters every apis meeting tool declares (only some are used by each).
	calMeetingParams = []Param{
		calToken,
		{Name: "meeting_topic", Type: "str", Required: true, Description: "What the meeting is about (its title)."},
		{Name: "start_time", Type: "str", Required: true, Description: "When the meeting starts, as YYYY-MM-DD HH:MM:SS."},
		{Name: "end_time", Type: "str", Required: true, Description: "When the meeting ends, as YYYY-MM-DD HH:MM:SS."},
		{Name: "location", Type: "str", Required: true, Description: "Where the meeting takes place."},
		{Name: "attendees", Type: "list(str)", Required: true, Description: "The people invited to the meeting."},
	}
)

// meetingCheck is the correctness check of the meeting tools (AddMeeting of both catalogs,
// ModifyMeeting, QueryMeeting): the topics must overlap by more than half of their words; then
// meeting_topic is removed from both inputs (even when the topics do not match, as the original
// computes the overlap before it removes them); then the remaining inputs, the outputs and the
// exceptions must be equal.
var meetingCheck = all(calThen(jaccardIn("meeting_topic", false), dropIn("meeting_topic")), sameInput, sameOutput, sameException)

// calThen runs first, then next whatever first decided (unless first raised), and answers first's
// verdict: a Python check that computes a condition, does something else, and only then tests it.
func calThen(first, next cond) cond {
	return func(r, g *value.Map) (bool, error) {
		ok, err := first(r, g)
		if err != nil {
			return false, err
		}
		if _, err := next(r, g); err != nil {
			return false, err
		}
		return ok, nil
	}
}

// calDeleteCheck is the check of DeleteAgenda, DeleteReminder and DeleteMeeting: when both outputs
// are "success" only the time inputs are compared (DeleteMeeting has none, so that raises a missing-key
// error); otherwise the outputs and the exceptions must be equal.
func calDeleteCheck(r, g *value.Map) (bool, error) {
	gout, err := get(g, "output")
	if err != nil {
		return false, err
	}
	if value.Equal(gout, "success") {
		rout, err := get(r, "output")
		if err != nil {
			return false, err
		}
		if value.Equal(rout, "success") {
			return sameIn("time", nil)(r, g)
		}
	}
	return all(sameOutput, sameException)(r, g)
}

// ---------------------------------------------------------------------------------------------
// Python semantics the calendar tools need on values that may not be text (native calls).

// calParseDT is datetime.strptime(v, DT) used as a format check.
func calParseDT(v any) error {
	s, ok := v.(string)
	if !ok {
		t := pyTypeName(v)
		if v == nil {
			t = "None"
		}
		return fail("strptime() argument 1 must be str, not " + t)
	}
	_, err := py.Strptime(s, py.DT)
	return err
}

// calArg returns the input field key (nil when absent).
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func calArg(in *value.Map, key string) any {
	v, _ := in.Get(key)
	return v
}

// calTruthy is Python's truth value of a JSON-like value.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func calTruthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case bool:
		return x
	case int64:
		return x != 0
	case float64:
		return x != 0
	case []any:
		return len(x) > 0
	case value.Tuple:
		return len(x) > 0
	case *value.Map:
		return x.Len() > 0
	}
	return true
}

// calBlank is Python's v.strip() == "" (an error for a value that is not text).
func calBlank(v any) (bool, error) {
	s, ok := v.(string)
	if !ok {
		return false, fail("'" + pyTypeName(v) + "' object has no attribute 'strip'")
	}
	return py.Strip(s) == "", nil
}

// calField reads rec[name] as the original's record lookups do: a missing field is a KeyError
// whose text is the field's repr.
func calField(rec any, name string) (any, error) {
	m, ok := rec.(*value.Map)
	if !ok {
		return nil, fail("'" + pyTypeName(rec) + "' object is not subscriptable")
	}
	v, ok := m.Get(name)
	if !ok {
		return nil, fail(py.Repr(name))
	}
	return v, nil
}

// calFind scans db in order for the first record of user for which match holds, as the original's
// loops `for key in db: if db[key]['username'] == user: if match: ...` do. It returns the record's
// key, or found=false.
func calFind(db *value.Map, user string, match func(rec any) (bool, error)) (key string, found bool, err error) {
	for _, k := range db.Keys() {
		rec, _ := db.Get(k)
		owner, err := calField(rec, "username")
		if err != nil {
			return "", false, err
		}
		if !value.Equal(owner, user) {
			continue
		}
		ok, err := match(rec)
		if err != nil {
			return "", false, err
		}
		if ok {
			return k, true, nil
		}
	}
	return "", false, nil
}

// calEither is the usual match: rec[f1] == v1 or rec[f2] == v2 (the second field read only when the
// first does not match).
func calEither(f1 string, v1 any, f2 string, v2 any) func(rec any) (bool, error) {
	return func(rec any) (bool, error) {
		a, err := calField(rec, f1)
		if err != nil {
			return false, err
		}
		if value.Equal(a, v1) {
			return true, nil
		}
		b, err := calField(rec, f2)
		if err != nil {
			return false, err
		}
		return value.Equal(b, v2), nil
	}
}

// calIntKeys names the world database that remembers which records of a counted table (Agenda,
// Alarm) were added by a tool. The original adds them under the integer key len(table)+1, and a Python
// integer key is distinct from the file's text keys: after a deletion the new integer key 10 lives
// beside the file's "10", and a later addition that computes an integer key already used replaces that
// record in place. The side table maps the integer (as decimal text) to the record's key in the world
// database, so those semantics survive text-only keys.
func calIntKeys(table string) string { return "_" + table + "IntKeys" }

// calAddCounted stores rec under the original's key len(table)+1 (see calIntKeys).
func calAddCounted(c *Ctx, table string, rec *value.Map) {
	db := c.writeTop(table)
	ints := c.writeTop(calIntKeys(table))
	n := strconv.Itoa(db.Len() + 1)
	if k, ok := ints.Get(n); ok {
		if ks, ok := k.(string); ok && db.Has(ks) {
			db.Set(ks, rec)
			return
		}
	}
	key := n
	for db.Has(key) {
		// A text key of the file with the same digits: the integer key is another entry.
		key += "+"
	}
	ints.Set(n, key)
	db.Set(key, rec)
}

// calDeleteCounted removes the record under key from a counted table and forgets its integer key.
func calDeleteCounted(c *Ctx, table, key string) {
	c.writeTop(table).Delete(key)
	if c.table(calIntKeys(table)).Len() == 0 {
		return
	}
	ints := c.writeTop(calIntKeys(table))
	for _, n := range ints.Keys() {
		if k, _ := ints.Get(n); k == any(key) {
			ints.Delete(n)
			return
		}
	}
}

// calNextKey is the key AddMeeting and AddReminder use: the largest key read as an integer, plus
// one, as text ("0" for an empty table). A key int() cannot read fails with Python's message.
func calNextKey(db *value.Map) (string, error) {
	if db.Len() == 0 {
		return "0", nil
	}
	var max int64
	for i, k := range db.Keys() {
		n, err := py.Atoi(k)
		if err != nil {
			return "", fail(err.Error())
		}
		if i == 0 || n > max {
			max = n
		}
	}
	return strconv.FormatInt(max+1, 10), nil
}

// ---------------------------------------------------------------------------------------------
// Agenda

var calAgendaParams = []Param{
	calToken,
	{Name: "content", Type: "str", Required: true, Description: "What the agenda item is."},
	{Name: "time", Type: "str", Required: true, Description: "When it happens, as YYYY-MM-DD HH:MM:SS."},
	{Name: "location", Type: "str", Required: true, Description: "Where it happens."},
}

// agendaCheck compares content by word overlap, then time, location, output and exception.
var agendaCheck = all(jaccardIn("content", false), sameIn("time", nil), sameIn("location", nil), sameOutput, sameException)

func addAgenda() *Tool {
	return &Tool{
		Name:        "AddAgenda",
		Description: "Put a new item on the user's agenda: what, when and where.",
		Params:      calAgendaParams,
		Outputs:     calStatusOut,
		Database:    "Agenda",
		run: func(c *Ctx, in *value.Map) (any, error) {
			content, _ := in.Get("content")
			tm, _ := in.Get("time")
			loc, _ := in.Get("location")
			if err := calParseDT(tm); err != nil {
				return nil, err
			}
			if blank, err := calBlank(content); err != nil || blank {
				if err == nil {
					err = fail("Content should not be null")
				}
				return nil, err
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			calAddCounted(c, "Agenda", value.MapOf("username", user, "content", content, "time", tm, "location", loc))
			return "success", nil
		},
		check: all(assertSameName, agendaCheck),
	}
}

func deleteAgenda() *Tool {
	return &Tool{
		Name:        "DeleteAgenda",
		Description: "Remove the user's agenda item with this content or at this time (location is not used).",
		Params:      calAgendaParams,
		Outputs:     calStatusOut,
		Database:    "Agenda",
		run: func(c *Ctx, in *value.Map) (any, error) {
			content, _ := in.Get("content")
			tm, _ := in.Get("time")
			if calTruthy(tm) {
				if err := calParseDT(tm); err != nil {
					return nil, err
				}
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			key, found, err := calFind(c.table("Agenda"), user, calEither("content", content, "time", tm))
			if err != nil {
				return nil, err
			}
			if found {
				calDeleteCounted(c, "Agenda", key)
				return "success", nil
			}
			if calTruthy(content) {
				return nil, fail("You have no meeting about " + value.Str(content))
			}
			if calTruthy(tm) {
				return nil, fail("You have no meeting at time : " + value.Str(tm))
			}
			return "success", nil // nothing deleted, as in the original
		},
		check: calDeleteCheck,
	}
}

func modifyAgenda() *Tool {
	return &Tool{
		Name:        "ModifyAgenda",
		Description: "Rewrite the user's agenda item that has this content or this time with the given content, time and location.",
		Params: []Param{
			calToken,
			{Name: "content", Type: "str", Required: true, Description: "The item's content (also used to find it)."},
			{Name: "time", Type: "str", Required: true, Description: "The item's new time, as YYYY-MM-DD HH:MM:SS (also used to find it)."},
			{Name: "location", Type: "str", Required: true, Description: "The item's new location."},
		},
		Outputs:  calStatusOut,
		Database: "Agenda",
		run: func(c *Ctx, in *value.Map) (any, error) {
			content, _ := in.Get("content")
			tm, _ := in.Get("time")
			loc, _ := in.Get("location")
			if calTruthy(tm) {
				if err := calParseDT(tm); err != nil {
					return nil, err
				}
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			key, found, err := calFind(c.table("Agenda"), user, calEither("content", content, "time", tm))
			if err != nil {
				return nil, err
			}
			if found {
				c.writeTop("Agenda").Set(key, value.MapOf("username", user, "content", content, "time", tm, "location", loc))
				return "success", nil
			}
			if calTruthy(content) {
				return nil, fail("You have no agenda about " + value.Str(content))
			}
			if calTruthy(tm) {
				return nil, fail("You have no agenda at time : " + value.Str(tm))
			}
			// The original returns (not raises) an exception object: it is the output.
			return &value.Opaque{Text: "Error"}, nil
		},
		check: agendaCheck,
	}
}

func queryAgenda() *Tool {
	return &Tool{
		Name:        "QueryAgenda",
		Description: "Look up the user's agenda item with this content or at this time (location is not used).",
		Params:      calAgendaParams,
		Outputs:     []Field{{Name: "info", Type: "json", Description: "The agenda item: content, time, location and username."}},
		Database:    "Agenda",
		run: func(c *Ctx, in *value.Map) (any, error) {
			content, _ := in.Get("content")
			tm, _ := in.Get("time")
			if calTruthy(tm) {
				if err := calParseDT(tm); err != nil {
					return nil, err
				}
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			db := c.table("Agenda")
			key, found, err := calFind(db, user, calEither("content", content, "time", tm))
			if err != nil {
				return nil, err
			}
			if found {
				rec, _ := db.Get(key)
				return value.Clone(rec), nil
			}
			if calTruthy(content) {
				return nil, fail("You have no agenda about " + value.Str(content))
			}
			if calTruthy(tm) {
				return nil, fail("You have no agenda at time : " + value.Str(tm))
			}
			return nil, fail("Error")
		},
		check: agendaCheck,
	}
}

// ---------------------------------------------------------------------------------------------
// Alarm

var calAlarmParams = []Param{
	calToken,
	{Name: "time", Type: "str", Required: true, Description: "The alarm time, as YYYY-MM-DD HH:MM:SS."},
}

func addAlarm() *Tool {
	return &Tool{
		Name:        "AddAlarm",
		Description: "Set an alarm for the user at the given time.",
		Params:      calAlarmParams,
		Outputs:     calStatusOut,
		Database:    "Alarm",
		run: func(c *Ctx, in *value.Map) (any, error) {
			tm, _ := in.Get("time")
			if err := calParseDT(tm); err != nil {
				return nil, err
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			calAddCounted(c, "Alarm", value.MapOf("username", user, "time", tm))
			return "success", nil
		},
	}
}

func deleteAlarm() *Tool {
	return &Tool{
		Name:        "DeleteAlarm",
		Description: "Remove the user's alarm set for exactly this time.",
		Params:      calAlarmParams,
		Outputs:     calStatusOut,
		Database:    "Alarm",
		run: func(c *Ctx, in *value.Map) (any, error) {
			tm, _ := in.Get("time")
			if err := calParseDT(tm); err != nil {
				return nil, err
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			key, found, err := calFind(c.table("Alarm"), user, calIs("time", tm))
			if err != nil {
				return nil, err
			}
			if found {
				calDeleteCounted(c, "Alarm", key)
				return "success", nil
			}
			// A parsed time is never empty, so the original always reaches this message.
			return nil, fail("You have no alarm clock at time : " + value.Str(tm))
		},
	}
}

// calIs is the match rec[field] == v.
func calIs(field string, v any) func(rec any) (bool, error) {
	return func(rec any) (bool, error) {
		a, err := calField(rec, field)
		if err != nil {
			return false, err
		}
		return value.Equal(a, v), nil
	}
}

func modifyAlarm() *Tool {
	return &Tool{
		Name:        "ModifyAlarm",
		Description: "Move the user's alarm from one time to another.",
		Params: []Param{
			calToken,
			{Name: "from_time", Type: "str", Required: true, Description: "The alarm's current time, as YYYY-MM-DD HH:MM:SS."},
			{Name: "to_time", Type: "str", Required: true, Description: "The alarm's new time, as YYYY-MM-DD HH:MM:SS."},
		},
		Outputs:  calStatusOut,
		Database: "Alarm",
		run: func(c *Ctx, in *value.Map) (any, error) {
			from, _ := in.Get("from_time")
			to, _ := in.Get("to_time")
			if err := calParseDT(from); err != nil {
				return nil, err
			}
			if err := calParseDT(to); err != nil {
				return nil, err
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			key, found, err := calFind(c.table("Alarm"), user, calIs("time", from))
			if err != nil {
				return nil, err
			}
			if !found {
				// The original's message says "agenda" (sic); a repaired world says what is missing.
				what := "agenda"
				if c.w.base.repaired {
					what = "alarm"
				}
				return nil, fail("You have no " + what + " at time : " + value.Str(from))
			}
			c.writeTop("Alarm").Set(key, value.MapOf("username", user, "time", to))
			return "success", nil
		},
	}
}

func queryAlarm() *Tool {
	return &Tool{
		Name:        "QueryAlarm",
		Description: "Look up the user's alarm set for exactly this time.",
		Params:      calAlarmParams,
		Outputs:     []Field{{Name: "info", Type: "json", Description: "The alarm: time and username."}},
		Database:    "Alarm",
		run: func(c *Ctx, in *value.Map) (any, error) {
			tm, _ := in.Get("time")
			if err := calParseDT(tm); err != nil {
				return nil, err
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			db := c.table("Alarm")
			key, found, err := calFind(db, user, calIs("time", tm))
			if err != nil {
				return nil, err
			}
			if !found {
				return nil, fail("You have no alarm clock at time : " + value.Str(tm))
			}
			rec, _ := db.Get(key)
			return value.Clone(rec), nil
		},
	}
}

// ---------------------------------------------------------------------------------------------
// Meeting

// calMeetingFind runs the steps DeleteMeeting, ModifyMeeting and QueryMeeting share: the optional
// time checks, the topic-or-start test, the token check and the scan. It returns the database (for
// reading), the key of the match and whether there is one.
func calMeetingFind(c *Ctx, in *value.Map) (db *value.Map, key string, found bool, err error) {
	topic, _ := in.Get("meeting_topic")
	start, _ := in.Get("start_time")
	end, _ := in.Get("end_time")
	if calTruthy(start) {
		if err := calParseDT(start); err != nil {
			return nil, "", false, err
		}
	}
	if calTruthy(end) {
		if err := calParseDT(end); err != nil {
			return nil, "", false, err
		}
	}
	blank, err := calBlank(topic)
	if err != nil {
		return nil, "", false, err
	}
	if blank && !calTruthy(start) {
		return nil, "", false, fail("Meeting Topic and start_time should not be null both")
	}
	user, err := c.user(calArg(in, "token"))
	if err != nil {
		return nil, "", false, err
	}
	db = c.table("Meeting")
	key, found, err = calFind(db, user, calEither("meeting_topic", topic, "start_time", start))
	return db, key, found, err
}

// calNoMeeting is the failure of a meeting search that found nothing. Both arguments empty cannot
// happen (calMeetingFind rejects it first); the original then answers ok, as ok does here.
func calNoMeeting(in *value.Map, ok any) (any, error) {
	topic, _ := in.Get("meeting_topic")
	start, _ := in.Get("start_time")
	if calTruthy(topic) {
		return nil, fail("You have no meeting about " + value.Str(topic))
	}
	if calTruthy(start) {
		return nil, fail("You have no meeting at time : " + value.Str(start))
	}
	return ok, nil
}

func addMeeting() *Tool {
	return &Tool{
		Name:        "AddMeeting",
		Description: "Book a meeting for the user: topic, start and end time, location and attendees.",
		Params:      calMeetingParams,
		Outputs:     calStatusOut,
		Database:    "Meeting",
		run: func(c *Ctx, in *value.Map) (any, error) {
			topic, _ := in.Get("meeting_topic")
			start, _ := in.Get("start_time")
			end, _ := in.Get("end_time")
			loc, _ := in.Get("location")
			att, _ := in.Get("attendees")
			if err := calParseDT(start); err != nil {
				return nil, err
			}
			if err := calParseDT(end); err != nil {
				return nil, err
			}
			if blank, err := calBlank(topic); err != nil || blank {
				if err == nil {
					err = fail("Meeting Topic should not be null")
				}
				return nil, err
			}
			key, err := calNextKey(c.table("Meeting"))
			if err != nil {
				return nil, err
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			c.writeTop("Meeting").Set(key, value.MapOf("username", user, "meeting_topic", topic,
				"start_time", start, "end_time", end, "location", loc, "attendees", value.Clone(att)))
			return "success", nil
		},
		check: meetingCheck,
	}
}

func deleteMeeting() *Tool {
	return &Tool{
		Name:        "DeleteMeeting",
		Description: "Cancel the user's meeting with this topic or this start time (the other inputs are not used).",
		Params:      calMeetingParams,
		Outputs:     calStatusOut,
		Database:    "Meeting",
		run: func(c *Ctx, in *value.Map) (any, error) {
			_, key, found, err := calMeetingFind(c, in)
			if err != nil {
				return nil, err
			}
			if !found {
				return calNoMeeting(in, "success")
			}
			c.writeTop("Meeting").Delete(key)
			return "success", nil
		},
		check: calDeleteCheck,
		// The original's check reads a time input DeleteMeeting does not have, so a successful
		// deletion can never be right (KEY_ERROR). The repaired check compares start_time, the
		// time input the tool has, as DeleteAgenda compares time.
		repaired: func(r, g *value.Map) (bool, error) {
			gout, err := get(g, "output")
			if err != nil {
				return false, err
			}
			rout, err := get(r, "output")
			if err != nil {
				return false, err
			}
			if value.Equal(gout, "success") && value.Equal(rout, "success") {
				return sameIn("start_time", nil)(r, g)
			}
			return all(sameOutput, sameException)(r, g)
		},
	}
}

func modifyMeeting() *Tool {
	return &Tool{
		Name: "ModifyMeeting",
		Description: "Change the user's meeting found by topic or start time: a non-empty topic replaces the topic, " +
			"a non-empty start time replaces both times (location and attendees stay).",
		Params:   calMeetingParams,
		Outputs:  calStatusOut,
		Database: "Meeting",
		run: func(c *Ctx, in *value.Map) (any, error) {
			_, key, found, err := calMeetingFind(c, in)
			if err != nil {
				return nil, err
			}
			if !found {
				return calNoMeeting(in, "success")
			}
			topic, _ := in.Get("meeting_topic")
			start, _ := in.Get("start_time")
			end, _ := in.Get("end_time")
			rec, _ := c.writeRecord("Meeting", key) // calFind checked it is an object
			if calTruthy(topic) {
				rec.Set("meeting_topic", topic)
			}
			if calTruthy(start) {
				rec.Set("start_time", start)
				rec.Set("end_time", end)
			}
			return "success", nil
		},
		check: meetingCheck,
	}
}

func queryMeeting() *Tool {
	return &Tool{
		Name:        "QueryMeeting",
		Description: "Look up the user's meeting with this topic or this start time.",
		Params:      calMeetingParams,
		Outputs:     []Field{{Name: "meeting_info", Type: "json", Description: "The meeting as booked: topic, times, location, attendees, username."}},
		Database:    "Meeting",
		run: func(c *Ctx, in *value.Map) (any, error) {
			db, key, found, err := calMeetingFind(c, in)
			if err != nil {
				return nil, err
			}
			if !found {
				return calNoMeeting(in, &value.Opaque{Text: "Error"})
			}
			rec, _ := db.Get(key)
			return value.Clone(rec), nil
		},
		check: meetingCheck,
	}
}

// ---------------------------------------------------------------------------------------------
// Reminder

var calReminderParams = []Param{
	calToken,
	{Name: "content", Type: "str", Required: true, Description: "What to be reminded of."},
	{Name: "time", Type: "str", Required: true, Description: "When to be reminded, as YYYY-MM-DD HH:MM:SS."},
}

// reminderCheck compares content by word overlap (case-insensitive), then time, output, exception.
var reminderCheck = all(jaccardIn("content", true), sameIn("time", nil), sameOutput, sameException)

// calReminderFind runs the steps DeleteReminder, ModifyReminder and QueryReminder share.
func calReminderFind(c *Ctx, in *value.Map) (db *value.Map, key string, found bool, err error) {
	content, _ := in.Get("content")
	tm, _ := in.Get("time")
	if err := calParseDT(tm); err != nil {
		return nil, "", false, err
	}
	blank, err := calBlank(content)
	if err != nil {
		return nil, "", false, err
	}
	if blank {
		return nil, "", false, fail("Content should not be null")
	}
	user, err := c.user(calArg(in, "token"))
	if err != nil {
		return nil, "", false, err
	}
	db = c.table("Reminder")
	key, found, err = calFind(db, user, calEither("content", content, "time", tm))
	if err == nil && !found {
		err = fail("You have no reminder about " + value.Str(content) + " or at time : " + value.Str(tm))
	}
	return db, key, found, err
}

func addReminder() *Tool {
	return &Tool{
		Name:        "AddReminder",
		Description: "Add a reminder for the user: what and when.",
		Params:      calReminderParams,
		Outputs:     calStatusOut,
		Database:    "Reminder",
		run: func(c *Ctx, in *value.Map) (any, error) {
			content, _ := in.Get("content")
			tm, _ := in.Get("time")
			if err := calParseDT(tm); err != nil {
				return nil, err
			}
			if blank, err := calBlank(content); err != nil || blank {
				if err == nil {
					err = fail("Content should not be null")
				}
				return nil, err
			}
			key, err := calNextKey(c.table("Reminder"))
			if err != nil {
				return nil, err
			}
			user, err := c.user(calArg(in, "token"))
			if err != nil {
				return nil, err
			}
			c.writeTop("Reminder").Set(key, value.MapOf("username", user, "content", content, "time", tm))
			return "success", nil
		},
		check: all(assertSameName, reminderCheck),
	}
}

func deleteReminder() *Tool {
	return &Tool{
		Name:        "DeleteReminder",
		Description: "Remove the user's reminder with this content or at this time.",
		Params:      calReminderParams,
		Outputs:     calStatusOut,
		Database:    "Reminder",
		run: func(c *Ctx, in *value.Map) (any, error) {
			_, key, _, err := calReminderFind(c, in)
			if err != nil {
				return nil, err
			}
			c.writeTop("Reminder").Delete(key)
			return "success", nil
		},
		check: calDeleteCheck,
	}
}

func modifyReminder() *Tool {
	return &Tool{
		Name:        "ModifyReminder",
		Description: "Set the content and time of the user's reminder that has this content or this time.",
		Params:      calReminderParams,
		Outputs:     calStatusOut,
		Database:    "Reminder",
		run: func(c *Ctx, in *value.Map) (any, error) {
			_, key, _, err := calReminderFind(c, in)
			if err != nil {
				return nil, err
			}
			content, _ := in.Get("content")
			tm, _ := in.Get("time")
			rec, _ := c.writeRecord("Reminder", key) // calFind checked it is an object
			rec.Set("content", content)
			rec.Set("time", tm)
			return "success", nil
		},
		check: all(assertSameName, reminderCheck),
	}
}

func queryReminder() *Tool {
	return &Tool{
		Name:        "QueryReminder",
		Description: "Look up the user's reminder with this content or at this time.",
		Params:      calReminderParams,
		Outputs:     []Field{{Name: "reminder_info", Type: "json", Description: "The reminder: content, time and username."}},
		Database:    "Reminder",
		run: func(c *Ctx, in *value.Map) (any, error) {
			db, key, _, err := calReminderFind(c, in)
			if err != nil {
				return nil, err
			}
			rec, _ := db.Get(key)
			return value.Clone(rec), nil
		},
		check: reminderCheck,
	}
}
