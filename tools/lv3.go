package tools

import (
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// lv3Tools are the level-3 tools (the original's lv3_apis folder) except ToolSearcher. None takes a
// token; each keeps the original's literal in-memory table as a world database named "lv3.*", so a
// world carries their state. AddMeeting, PersonalInfoUpdate and EmailReminder change theirs; the
// lookups change none (FlightSearch and HotelAvailability keep what their quirk needs in a
// bookkeeping table, lv3Reached).
func lv3Tools() []*Tool {
	return []*Tool{
		accountInfo(), lv3AddMeeting(), calculator(), clothingRecommendation(), emailReminder(),
		flightSearch(), geocoding(), getOccupationSalary(), getWeatherForCoordinates(),
		hotelAvailability(), likeCount(), movieRecommendations(), nearbyRestaurants(),
		organizationMembers(), personalInfoUpdate(), lv3QueryMeeting(), taxCalculator(),
		travelStatus(), userMoviePreferences(), userPosts(), userWatchedMovies(),
	}
}

// Database names of the level-3 tables, with the shapes a world may give them:
const (
	// lv3Accounts (AccountInfo): array of {username, password, info: {email, phone}}.
	lv3Accounts = "lv3.AccountInfo"
	// lv3PersonalInfo (PersonalInfoUpdate, its own copy of the same users): array of {username,
	// password, info}; a successful update sets info.address.
	lv3PersonalInfo = "lv3.PersonalInfo"
	// lv3Meetings (AddMeeting): array of {meeting_topic, start_time, end_time, location, attendees},
	// initially empty.
	lv3Meetings = "lv3.Meetings"
	// lv3Flights (FlightSearch): array of {source, destination, departure_date, arrival_date
	// ("YYYY-MM-DD HH:MM:SS")}.
	lv3Flights = "lv3.Flights"
	// lv3Reached (FlightSearch, HotelAvailability): the flights ("flight N", N the index in
	// lv3Flights) and hotels ("hotel ID") a search has matched -> true. The original replaces a
	// matched record's datetime objects by texts in its own table, so reaching the record again
	// fails; this table remembers that, unless the world's base is repaired (Base.Repair). It is
	// bookkeeping (its name starts with "_"), so a search leaves the tables a level-3 episode's
	// judge compares as they were: a lookup changes nothing a user would recognise.
	lv3Reached = "_lv3.Reached"
	// lv3Reminders (EmailReminder): array of {content, time, location, recipient}, the reminders
	// sent, initially empty. The original sends nothing and keeps nothing; we keep what was sent, so
	// that a level-3 episode is judged on the reminders it sent (to whom, with what text).
	lv3Reminders = "lv3.Reminders"
	// lv3Places (Geocoding): address -> {latitude, longitude}.
	lv3Places = "lv3.Geocoding"
	// lv3Salaries (GetOccupationSalary): occupation -> salary.
	lv3Salaries = "lv3.OccupationSalary"
	// lv3Weather (GetWeatherForCoordinates): array of {latitude, longitude, temperature, humidity,
	// description}.
	lv3Weather = "lv3.Weather"
	// lv3Hotels (HotelAvailability): hotel id -> {destination, check_in_date, check_out_date
	// ("YYYY-MM-DD")}.
	lv3Hotels = "lv3.Hotels"
	// lv3Likes (LikeCount): post id (decimal text) -> like count.
	lv3Likes = "lv3.LikeCount"
	// lv3Genres (MovieRecommendations): genre -> array of titles.
	lv3Genres = "lv3.MovieGenres"
	// lv3Restaurants (NearbyRestaurants): array of {coordinates: (latitude, longitude) pair, name}.
	lv3Restaurants = "lv3.Restaurants"
	// lv3Organizations (OrganizationMembers): organization -> array of member names.
	lv3Organizations = "lv3.Organizations"
	// lv3UserMeetings (QueryMeeting): user name -> array of {meeting_id, meeting_name, meeting_time,
	// meeting_location, meeting_attendees}.
	lv3UserMeetings = "lv3.UserMeetings"
	// lv3Travel (TravelStatus): member name -> status text.
	lv3Travel = "lv3.TravelStatus"
	// lv3Preferences (UserMoviePreferences): user name -> array of genres.
	lv3Preferences = "lv3.MoviePreferences"
	// lv3Posts (UserPosts): user id (decimal text) -> array of post ids.
	lv3Posts = "lv3.UserPosts"
	// lv3Watched (UserWatchedMovies): user name -> array of titles.
	lv3Watched = "lv3.WatchedMovies"
)

// lv3Strs makes a list value of texts.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func lv3Strs(s ...string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// lv3Users is the original's literal table of AccountInfo and PersonalInfoUpdate.
func lv3Users() any {
	users := [][4]string{
		{"John", "123456", "john@example.com", "1234567890"},
		{"Mary", "abcdef", "mary@example.com", "0987654321"},
		{"Peter", "qwerty", "peter@example.com", "1231231234"},
		{"Tom", "asdfgh", "tom@example.com", "4564564567"},
		{"Jerry", "zxcvbn", "jerry@example.com", "7897897890"},
	}
	out := make([]any, len(users))
	for i, u := range users {
		out[i] = value.MapOf("username", u[0], "password", u[1], "info", value.MapOf("email", u[2], "phone", u[3]))
	}
	return out
}

// lv3Defaults are the level-3 tools' in-memory tables (the original keeps them as literals).
func lv3Defaults() map[string]func() any {
	d := map[string]func() any{}
	d[lv3Accounts] = lv3Users
	d[lv3PersonalInfo] = lv3Users
	d[lv3Meetings] = func() any { return []any{} }
	d[lv3Reminders] = func() any { return []any{} }
	d[lv3Flights] = func() any {
		routes := [][3]string{
			{"New York", "San Francisco", "2022-01-01"},
			{"Los Angeles", "San Francisco", "2022-01-02"},
			{"London", "San Francisco", "2022-01-03"},
			{"New York", "London", "2022-01-04"},
			{"New York", "Los Angeles", "2022-01-05"},
		}
		out := make([]any, len(routes))
		for i, r := range routes {
			out[i] = value.MapOf("source", r[0], "destination", r[1],
				"departure_date", r[2]+" 12:00:00", "arrival_date", r[2]+" 15:00:00")
		}
		return out
	}
	d[lv3Places] = func() any {
		return value.MapOf(
			"New York City", value.MapOf("latitude", 40.7128, "longitude", 74.0060),
			"San Francisco", value.MapOf("latitude", 37.7749, "longitude", 122.4194),
			"London", value.MapOf("latitude", 51.5074, "longitude", 0.1278),
			"Paris", value.MapOf("latitude", 48.8566, "longitude", 2.3522),
			"Tokyo", value.MapOf("latitude", 35.6762, "longitude", 139.6503),
		)
	}
	d[lv3Salaries] = func() any {
		return value.MapOf("Financial Analyst", int64(100000), "Software Engineer", int64(120000),
			"Data Scientist", int64(150000), "Product Manager", int64(130000), "Doctor", int64(200000))
	}
	d[lv3Weather] = func() any {
		rows := []struct {
			lat, lon float64
			temp     int64
			hum      float64
			desc     string
		}{
			{40.7128, 74.0060, 10, 0.5, "Clear"},
			{37.7749, 122.4194, 20, 0.8, "Cloudy"},
			{51.5074, 0.1278, 5, 0.9, "Rainy"},
			{48.8566, 2.3522, 15, 0.7, "Sunny"},
			{35.6762, 139.6503, 25, 0.6, "Rainy"},
		}
		out := make([]any, len(rows))
		for i, r := range rows {
			out[i] = value.MapOf("latitude", r.lat, "longitude", r.lon, "temperature", r.temp,
				"humidity", r.hum, "description", r.desc)
		}
		return out
	}
	d[lv3Hotels] = func() any {
		m := value.NewMap(5)
		for i := 1; i <= 5; i++ {
			m.Set("hotel_"+strconv.Itoa(i), value.MapOf("destination", "San Francisco",
				"check_in_date", "2022-01-0"+strconv.Itoa(i), "check_out_date", "2022-01-0"+strconv.Itoa(i+1)))
		}
		return m
	}
	d[lv3Likes] = func() any {
		m := value.NewMap(15)
		for i := int64(1); i <= 15; i++ {
			m.Set(strconv.FormatInt(i, 10), 10*i)
		}
		return m
	}
	d[lv3Genres] = func() any {
		return value.MapOf(
			"Action", lv3Strs("The Dark Knight", "The Matrix", "The Lord of the Rings"),
			"Comedy", lv3Strs("The Hangover", "Knives Out", "Deadpool"),
			"Drama", lv3Strs("The Shawshank Redemption", "Forrest Gump", "Joker"),
			"Romance", lv3Strs("Titanic", "La La Land", "The Notebook"),
			"Thriller", lv3Strs("Inception", "Parasite", "Get Out"),
		)
	}
	d[lv3Restaurants] = func() any {
		ny, sf := value.Tuple{40.7128, 74.006}, value.Tuple{37.7749, 122.4194}
		return []any{
			value.MapOf("coordinates", ny, "name", "Restaurant A"),
			value.MapOf("coordinates", value.Clone(sf), "name", "Restaurant B"),
			value.MapOf("coordinates", value.Clone(ny), "name", "Restaurant C"),
			value.MapOf("coordinates", value.Clone(sf), "name", "Restaurant D"),
		}
	}
	d[lv3Organizations] = func() any {
		return value.MapOf("Alibaba", lv3Strs("John", "Mary", "Peter"), "Tencent", lv3Strs("Tom", "Jerry"),
			"Baidu", lv3Strs("Jack", "Rose"), "ByteDance", lv3Strs("Bob", "Alice"), "JD", lv3Strs("Mike", "Jane"))
	}
	d[lv3UserMeetings] = func() any {
		meeting := func(id int64, name, time, room string, who ...string) *value.Map {
			return value.MapOf("meeting_id", id, "meeting_name", name, "meeting_time", time,
				"meeting_location", room, "meeting_attendees", lv3Strs(who...))
		}
		three := func() []any {
			return []any{
				meeting(1, "Meeting with the client", "2021-01-01 10:00:00", "Room 1", "John", "Mary", "Peter"),
				meeting(2, "Meeting about the new project", "2021-01-02 10:00:00", "Room 2", "John", "Mary", "Peter"),
			}
		}
		two := func() []any {
			return []any{meeting(1, "Meeting", "2021-01-01 10:00:00", "Room 1", "Tom", "Jerry")}
		}
		return value.MapOf("John", three(), "Mary", three(), "Peter", three(), "Tom", two(), "Jerry", two())
	}
	d[lv3Travel] = func() any {
		return value.MapOf("John", "Traveling", "Mary", "Working from home", "Peter", "Working from office",
			"Tom", "Traveling", "Jerry", "Working from home", "Jack", "Working from office",
			"Rose", "Working from office", "Bob", "Traveling", "Alice", "Working from home",
			"Mike", "Working from office", "Jane", "Working from office")
	}
	d[lv3Preferences] = func() any {
		return value.MapOf("John", lv3Strs("Action", "Comedy", "Drama"), "Mary", lv3Strs("Comedy", "Drama", "Romance"),
			"Peter", lv3Strs("Action", "Drama", "Thriller"), "Tom", lv3Strs("Action", "Comedy", "Drama"),
			"Jerry", lv3Strs("Comedy", "Drama", "Romance"))
	}
	d[lv3Posts] = func() any {
		m := value.NewMap(5)
		for u := int64(1); u <= 5; u++ {
			m.Set(strconv.FormatInt(u, 10), []any{3*u - 2, 3*u - 1, 3 * u})
		}
		return m
	}
	d[lv3Watched] = func() any {
		a := func() []any { return lv3Strs("The Matrix", "The Lord of the Rings", "The Dark Knight") }
		b := func() []any { return lv3Strs("The Lord of the Rings", "The Dark Knight", "The Matrix") }
		return value.MapOf("John", a(), "Peter", a(), "Jerry", a(), "Mary", b(), "Tom", b())
	}
	return d
}

// lv3Reached says whether a search has matched the record key before (see lv3Reached, the table);
// never in a repaired world.
func (c *Ctx) lv3Reached(key string) bool {
	if c.w.base.repaired {
		return false
	}
	v, _ := c.table(lv3Reached).Get(key)
	return v == true
}

// lv3Reach records that a search has matched the record key (nothing in a repaired world).
func (c *Ctx) lv3Reach(key string) {
	if !c.w.base.repaired {
		c.writeTable(lv3Reached).Set(key, true)
	}
}

// lv3List returns a level-3 table that is an array, for reading only.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (c *Ctx) lv3List(name string) []any {
	l, _ := c.read(name).([]any)
	return l
}

// lv3Lookup reads key from a table keyed by texts as a Python dict lookup does inside a tool's try
// block: a missing key fails with the KeyError text (the key's repr), an unhashable key with
// Python's TypeError text.
func lv3Lookup(t *value.Map, key any) (any, error) {
	switch k := key.(type) {
	case string:
		v, ok := t.Get(k)
		if !ok {
			return nil, fail(py.Repr(k))
		}
		return v, nil
	case []any:
		return nil, fail("unhashable type: 'list'")
	case *value.Map:
		return nil, fail("unhashable type: 'dict'")
	}
	return nil, fail(value.Repr(key))
}

// lv3Time parses a text with Python's strptime; another type fails with strptime's TypeError text.
func lv3Time(v any, layout py.Layout) (py.Time, error) {
	s, ok := v.(string)
	if !ok {
		return py.Time{}, fail("strptime() argument 1 must be str, not " + pyTypeName(v))
	}
	return py.Strptime(s, layout)
}

// lv3SameSub compares one field of both envelopes' field (output['hotels']), raising as Python's
// subscription does when a side is null or lacks the key.
func lv3SameSub(field, key string) cond {
	return func(r, g *value.Map) (bool, error) {
		var vals [2]any
		for i, env := range []*value.Map{r, g} {
			v, err := get(env, field)
			if err != nil {
				return false, err
			}
			if vals[i], err = infoSubscript(v, key); err != nil {
				return false, err
			}
		}
		return value.Equal(vals[0], vals[1]), nil
	}
}

// lv3Default is the check of most level-3 tools: equal api_name asserted, then the default check.
var lv3Default = all(assertSameName, defaultCheck)

// lv3User returns the first user whose username and password both equal the call's (nil if none).
func lv3User(users []any, in *value.Map) *value.Map {
	name, _ := in.Get("username")
	pw, _ := in.Get("password")
	for _, u := range users {
		m, ok := u.(*value.Map)
		if !ok {
			continue
		}
		un, _ := m.Get("username")
		up, _ := m.Get("password")
		if value.Equal(un, name) && value.Equal(up, pw) {
			return m
		}
	}
	return nil
}

func accountInfo() *Tool {
	return &Tool{
		Name:        "AccountInfo",
		Description: "Show a user's contact details (email and phone) after checking the password.",
		Params: []Param{
			{Name: "username", Type: "str", Required: true, Description: "The user's name."},
			{Name: "password", Type: "str", Required: true, Description: "The user's password."},
		},
		Outputs: []Field{
			{Name: "status", Type: "str", Description: "Whether the lookup succeeded."},
			{Name: "account_info", Type: "dict", Description: "The user's email and phone."},
		},
		Database: lv3Accounts,
		run: func(c *Ctx, in *value.Map) (any, error) {
			u := lv3User(c.lv3List(lv3Accounts), in)
			if u == nil {
				return nil, fail("User not found.")
			}
			info, _ := u.Get("info")
			return value.Clone(info), nil
		},
		check: lv3Default,
	}
}

func lv3AddMeeting() *Tool {
	return &Tool{
		Name:        "AddMeeting",
		Description: "Book a meeting: topic, start and end time, place and attendees.",
		Params: []Param{
			{Name: "meeting_topic", Type: "str", Required: true, Description: "What the meeting is about (at most 50 characters)."},
			{Name: "start_time", Type: "str", Required: true, Description: "Start, as YYYY-MM-DD HH:MM:SS."},
			{Name: "end_time", Type: "str", Required: true, Description: "End, as YYYY-MM-DD HH:MM:SS."},
			{Name: "location", Type: "str", Required: true, Description: "Where it takes place (at most 100 characters)."},
			{Name: "attendees", Type: "list(str)", Required: true, Description: "Who attends: names, roles and so on.", Alike: AnyOrder},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: "success, or the reason it failed."}},
		Database: lv3Meetings,
		run: func(c *Ctx, in *value.Map) (any, error) {
			for _, k := range []string{"start_time", "end_time"} {
				v, _ := in.Get(k)
				if _, err := lv3Time(v, py.DT); err != nil {
					return nil, err
				}
			}
			v, _ := in.Get("meeting_topic")
			topic, err := infoText(v, "strip")
			if err != nil {
				return nil, err
			}
			if py.Strip(topic) == "" {
				return nil, fail("Meeting Topic should not be null")
			}
			rec := value.NewMap(5)
			for _, k := range []string{"meeting_topic", "start_time", "end_time", "location", "attendees"} {
				v, _ := in.Get(k)
				rec.Set(k, value.Clone(v))
			}
			list, _ := c.write(lv3Meetings).([]any)
			c.w.own[lv3Meetings] = append(list, rec)
			return "success", nil
		},
		check: meetingCheck,
	}
}

func clothingRecommendation() *Tool {
	return &Tool{
		Name:        "ClothingRecommendation",
		Description: "Suggest what to wear for a temperature, humidity and kind of weather.",
		Params: []Param{
			{Name: "temperature", Type: "float", Required: true, Description: "Temperature in degrees Celsius."},
			{Name: "humidity", Type: "float", Required: true, Description: "Relative humidity as a fraction from 0 to 1, as GetWeatherForCoordinates gives it (e.g. 0.7)."},
			{Name: "weather_conditions", Type: "str", Required: true, Description: "The weather in words, e.g. rainy.", Alike: AnyCase},
		},
		Outputs: []Field{{Name: "clothing_options", Type: "list", Description: "Clothes to wear."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			tv, _ := in.Get("temperature")
			hv, _ := in.Get("humidity")
			t, _ := value.Float(tv)
			h, _ := value.Float(hv)
			var out []any
			switch {
			case t < 10:
				out = lv3Strs("Warm coat", "Hat", "Gloves")
			case t < 20:
				out = lv3Strs("Light jacket", "Long-sleeved shirt")
			case t < 30:
				out = lv3Strs("T-shirt", "Shorts")
			default:
				out = lv3Strs("Sun hat", "Sunglasses", "Loose-fitting clothes")
			}
			if h > 70 {
				out = append(out, "Umbrella", "Waterproof shoes")
			}
			wv, _ := in.Get("weather_conditions")
			w, err := infoText(wv, "lower")
			if err != nil {
				return nil, err
			}
			if strings.Contains(py.Lower(w), "rain") {
				out = append(out, "Raincoat")
			}
			return value.MapOf("clothing_options", out), nil
		},
		check: lv3Default,
	}
}

func emailReminder() *Tool {
	return &Tool{
		Name:        "EmailReminder",
		Description: "Email someone a reminder of a meeting: what, when and where.",
		Params: []Param{
			{Name: "content", Type: "str", Required: true, Description: "The reminder's text."},
			{Name: "time", Type: "str", Required: true, Description: "When the meeting is, as YYYY-MM-DD HH:MM:SS."},
			{Name: "location", Type: "str", Required: true, Description: "Where the meeting is."},
			{Name: "recipient", Type: "str", Required: true, Description: "The recipient's email address."},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: "success, or the reason it failed."}},
		Database: lv3Reminders,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("time")
			if _, err := lv3Time(v, py.DT); err != nil {
				return nil, err
			}
			v, _ = in.Get("content")
			s, err := infoText(v, "strip")
			if err != nil {
				return nil, err
			}
			if py.Strip(s) == "" {
				return nil, fail("Content should not be empty")
			}
			// The original sends nothing; the world keeps what was sent (lv3Reminders).
			rec := value.NewMap(4)
			for _, k := range []string{"content", "time", "location", "recipient"} {
				v, _ := in.Get(k)
				rec.Set(k, value.Clone(v))
			}
			list, _ := c.write(lv3Reminders).([]any)
			c.w.own[lv3Reminders] = append(list, rec)
			return "success", nil
		},
		check: all(assertSameName, dropIn("content"), sameInput, sameOutput, sameException),
	}
}

func flightSearch() *Tool {
	return &Tool{
		Name:        "FlightSearch",
		Description: "Find flights from one city to another on a given day.",
		Params: []Param{
			{Name: "source", Type: "str", Required: true, Description: "City of departure."},
			{Name: "destination", Type: "str", Required: true, Description: "City of arrival."},
			{Name: "travel_dates", Type: "str", Required: true, Description: "Day of travel, as YYYY-MM-DD."},
		},
		Outputs:  []Field{{Name: "flights", Type: "list", Description: "Matching flights with departure and arrival times."}},
		Database: lv3Flights,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("travel_dates")
			day, err := lv3Time(v, py.D)
			if err != nil {
				return nil, err
			}
			src, _ := in.Get("source")
			dst, _ := in.Get("destination")
			out := []any{}
			for i, f := range c.lv3List(lv3Flights) {
				m, ok := f.(*value.Map)
				if !ok {
					continue
				}
				fs, _ := m.Get("source")
				fd, _ := m.Get("destination")
				if !value.Equal(fs, src) || !value.Equal(fd, dst) {
					continue
				}
				// The original converts a matched flight's datetimes to texts in its own table, so
				// a flight matched once is a text afterwards and has no .date().
				key := "flight " + strconv.Itoa(i)
				if c.lv3Reached(key) {
					return nil, fail("'str' object has no attribute 'date'")
				}
				dep, err := lv3Time(m.String("departure_date"), py.DT)
				if err != nil {
					return nil, err
				}
				if dep.Year != day.Year || dep.Month != day.Month || dep.Day != day.Day {
					continue
				}
				arr, err := lv3Time(m.String("arrival_date"), py.DT)
				if err != nil {
					return nil, err
				}
				c.lv3Reach(key)
				out = append(out, value.MapOf("source", value.Clone(fs), "destination", value.Clone(fd),
					"departure_date", dep.Format(py.DT), "arrival_date", arr.Format(py.DT)))
			}
			return value.MapOf("flights", out), nil
		},
		check: lv3Default,
	}
}

func geocoding() *Tool {
	return &Tool{
		Name:        "Geocoding",
		Description: "Give the latitude and longitude of a city.",
		Params: []Param{
			{Name: "address", Type: "str", Required: true, Description: "The place, e.g. a city name."},
		},
		Outputs: []Field{
			{Name: "latitude", Type: "float", Description: "Latitude in degrees."},
			{Name: "longitude", Type: "float", Description: "Longitude in degrees."},
		},
		Database: lv3Places,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("address")
			p, err := lv3Lookup(c.table(lv3Places), v)
			if err != nil {
				return nil, err
			}
			lat, err := infoSubscript(p, "latitude")
			if err != nil {
				return nil, infoFailure(err)
			}
			lon, err := infoSubscript(p, "longitude")
			if err != nil {
				return nil, infoFailure(err)
			}
			return value.MapOf("latitude", lat, "longitude", lon), nil
		},
		check: lv3Default,
	}
}

func getOccupationSalary() *Tool {
	return &Tool{
		Name:        "GetOccupationSalary",
		Description: "Give the typical salary of an occupation.",
		Params: []Param{
			{Name: "occupation", Type: "str", Required: true, Description: "The job title."},
		},
		Outputs:  []Field{{Name: "salary", Type: "float", Description: "The yearly salary."}},
		Database: lv3Salaries,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("occupation")
			s, err := lv3Lookup(c.table(lv3Salaries), v)
			if err != nil {
				if strings.HasPrefix(err.Error(), "unhashable") {
					return nil, err
				}
				return nil, fail("The occupation is not in the database.")
			}
			return value.MapOf("salary", value.Clone(s)), nil
		},
		check: lv3Default,
	}
}

func getWeatherForCoordinates() *Tool {
	return &Tool{
		Name:        "GetWeatherForCoordinates",
		Description: "Give the current weather at a latitude and longitude.",
		Params: []Param{
			{Name: "latitude", Type: "float", Required: true, Description: "Latitude in degrees."},
			{Name: "longitude", Type: "float", Required: true, Description: "Longitude in degrees."},
		},
		Outputs: []Field{
			{Name: "temperature", Type: "float", Description: "Temperature in degrees Celsius."},
			{Name: "humidity", Type: "float", Description: "Relative humidity, as a fraction."},
			{Name: "description", Type: "str", Description: "The weather in words."},
		},
		Database: lv3Weather,
		run: func(c *Ctx, in *value.Map) (any, error) {
			lat, _ := in.Get("latitude")
			lon, _ := in.Get("longitude")
			for _, row := range c.lv3List(lv3Weather) {
				m, ok := row.(*value.Map)
				if !ok {
					continue
				}
				rl, _ := m.Get("latitude")
				rn, _ := m.Get("longitude")
				if value.Equal(rl, lat) && value.Equal(rn, lon) {
					t, _ := m.Get("temperature")
					h, _ := m.Get("humidity")
					d, _ := m.Get("description")
					return value.MapOf("temperature", value.Clone(t), "humidity", value.Clone(h), "description", value.Clone(d)), nil
				}
			}
			// The original's lookup answers None for unknown coordinates and indexing it is not
			// caught: the error escapes the call.
			return nil, escape(Type, "'NoneType' object is not subscriptable")
		},
	}
}

func hotelAvailability() *Tool {
	return &Tool{
		Name:        "HotelAvailability",
		Description: "Find hotels at a destination with rooms free for the whole stay.",
		Params: []Param{
			{Name: "destination", Type: "str", Required: true, Description: "City of the stay."},
			{Name: "check_in_date", Type: "str", Required: true, Description: "Arrival day, as YYYY-MM-DD."},
			{Name: "check_out_date", Type: "str", Required: true, Description: "Departure day, as YYYY-MM-DD."},
		},
		Outputs:  []Field{{Name: "hotels", Type: "list", Description: "Available hotels with their free dates."}},
		Database: lv3Hotels,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("check_in_date")
			cin, err := lv3Time(v, py.D)
			if err != nil {
				return nil, err
			}
			v, _ = in.Get("check_out_date")
			cout, err := lv3Time(v, py.D)
			if err != nil {
				return nil, err
			}
			dest, _ := in.Get("destination")
			hotels := c.table(lv3Hotels)
			out := []any{}
			for _, id := range hotels.Keys() {
				hv, _ := hotels.Get(id)
				h, ok := hv.(*value.Map)
				if !ok {
					continue
				}
				hd, _ := h.Get("destination")
				if !value.Equal(hd, dest) {
					continue
				}
				hin, err := lv3Time(h.String("check_in_date"), py.D)
				if err != nil {
					return nil, err
				}
				hout, err := lv3Time(h.String("check_out_date"), py.D)
				if err != nil {
					return nil, err
				}
				if cin.Compare(hin) < 0 || cout.Compare(hout) > 0 {
					continue
				}
				// As FlightSearch: the original turns the matched hotel's dates into texts in its
				// table, and a later match fails to format them again.
				if c.lv3Reached("hotel " + id) {
					return nil, fail("'str' object has no attribute 'strftime'")
				}
				c.lv3Reach("hotel " + id)
				out = append(out, value.MapOf("destination", value.Clone(hd),
					"check_in_date", hin.Format(py.D), "check_out_date", hout.Format(py.D)))
			}
			return value.MapOf("hotels", out), nil
		},
		check: all(assertSameName, sameIn("destination", nil), sameIn("check_in_date", nil),
			sameIn("check_out_date", nil), lv3SameSub("output", "hotels")),
	}
}

// lv3IntKey is the text key of an integer-keyed level-3 table.
func lv3IntKey(v any) string {
	n, _ := value.Int(v)
	return strconv.FormatInt(n, 10)
}

func likeCount() *Tool {
	return &Tool{
		Name:        "LikeCount",
		Description: "Give the number of likes of a post.",
		Params: []Param{
			{Name: "post_id", Type: "int", Required: true, Description: "The post's id."},
		},
		Outputs:  []Field{{Name: "like_count", Type: "int", Description: "How many likes the post has."}},
		Database: lv3Likes,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("post_id")
			n, ok := c.table(lv3Likes).Get(lv3IntKey(v))
			if !ok {
				return nil, fail("Post with ID " + value.Str(v) + " does not exist.")
			}
			return value.MapOf("like_count", value.Clone(n)), nil
		},
		check: lv3Default,
	}
}

func movieRecommendations() *Tool {
	return &Tool{
		Name:        "MovieRecommendations",
		Description: "Recommend movies for a list of favourite genres.",
		Params: []Param{
			{Name: "preferences", Type: "list", Required: true, Description: "Favourite genres, e.g. [\"Action\", \"Drama\"].", Alike: AnyOrder},
		},
		Outputs:  []Field{{Name: "recommended_movies", Type: "list", Description: "Recommended titles."}},
		Database: lv3Genres,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("preferences")
			// A text (what the call parser always gives) is iterated character by character.
			prefs, err := infoIter(v)
			if err != nil {
				return nil, infoFailure(err)
			}
			genres := c.table(lv3Genres)
			out := []any{}
			for _, p := range prefs {
				movies, err := lv3Lookup(genres, p)
				if err != nil {
					return nil, err
				}
				l, _ := movies.([]any)
				out = append(out, value.Clone(l).([]any)...)
			}
			return value.MapOf("recommended_movies", out), nil
		},
		check: lv3Default,
	}
}

func nearbyRestaurants() *Tool {
	return &Tool{
		Name:        "NearbyRestaurants",
		Description: "List restaurants near a location.",
		Params: []Param{
			{Name: "latitude", Type: "float", Required: true, Description: "Latitude in degrees."},
			{Name: "longitude", Type: "float", Required: true, Description: "Longitude in degrees."},
			{Name: "distance", Type: "int", Required: true, Description: "Search radius in meters."},
		},
		Outputs:  []Field{{Name: "restaurants", Type: "list", Description: "Restaurants with their coordinates."}},
		Database: lv3Restaurants,
		run: func(c *Ctx, in *value.Map) (any, error) {
			// The original ignores the location and the distance.
			return value.MapOf("restaurants", value.Clone(c.lv3List(lv3Restaurants))), nil
		},
		check: all(assertSameName, sameInput),
	}
}

func organizationMembers() *Tool {
	return &Tool{
		Name:        "OrganizationMembers",
		Description: "List the members of an organization.",
		Params: []Param{
			{Name: "organization", Type: "str", Required: true, Description: "The organization's name."},
		},
		Outputs:  []Field{{Name: "members", Type: "list", Description: "The members' names."}},
		Database: lv3Organizations,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("organization")
			m, err := lv3Lookup(c.table(lv3Organizations), v)
			if err != nil {
				return nil, err
			}
			return value.MapOf("members", value.Clone(m)), nil
		},
		check: lv3Default,
	}
}

func personalInfoUpdate() *Tool {
	return &Tool{
		Name:        "PersonalInfoUpdate",
		Description: "Change a user's postal address after checking the password.",
		Params: []Param{
			{Name: "username", Type: "str", Required: true, Description: "The user's name."},
			{Name: "password", Type: "str", Required: true, Description: "The user's password."},
			{Name: "address", Type: "str", Required: true, Description: "The new address."},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: "Whether the update succeeded."}},
		Database: lv3PersonalInfo,
		run: func(c *Ctx, in *value.Map) (any, error) {
			if lv3User(c.lv3List(lv3PersonalInfo), in) == nil {
				return nil, fail("User not found.")
			}
			u := lv3User(c.write(lv3PersonalInfo).([]any), in)
			addr, _ := in.Get("address")
			info, ok := u.Get("info")
			im, isMap := info.(*value.Map)
			if !ok || !isMap {
				im = value.NewMap(1)
				u.Set("info", im)
			}
			im.Set("address", value.Clone(addr))
			return value.MapOf("status", "success"), nil
		},
		check: all(assertSameName, sameInput, sameOutput),
	}
}

func lv3QueryMeeting() *Tool {
	return &Tool{
		Name:        "QueryMeeting",
		Description: "List the meetings in a user's calendar.",
		Params: []Param{
			{Name: "user_name", Type: "str", Required: true, Description: "The user's name."},
		},
		Outputs:  []Field{{Name: "meetings", Type: "list", Description: "The user's meetings: id, name, time, place and attendees."}},
		Database: lv3UserMeetings,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("user_name")
			m, err := lv3Lookup(c.table(lv3UserMeetings), v)
			if err != nil {
				return nil, err
			}
			return value.MapOf("meetings", value.Clone(m)), nil
		},
		check: lv3Default,
	}
}

func taxCalculator() *Tool {
	return &Tool{
		Name:        "TaxCalculator",
		Description: "Compute the salary left after income tax.",
		Params: []Param{
			{Name: "salary", Type: "float", Required: true, Description: "The salary before tax."},
		},
		Outputs: []Field{{Name: "salary_after_tax", Type: "float", Description: "The salary after tax."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("salary")
			s, _ := value.Float(v)
			// The original's bands, taken from the highest threshold down: the first one the salary
			// reaches decides the rate (so the 40% band above infinity is never used).
			var rate float64
			switch {
			case s >= 5000:
				rate = 0.3
			case s >= 3000:
				rate = 0.2
			case s >= 1000:
				rate = 0.1
			case s >= 0:
				rate = 0
			default:
				// No band: the original raises an exception without a message.
				return nil, fail("")
			}
			tax := float64(s * rate) // rounded on its own, as Python does (no fused multiply-add)
			return value.MapOf("salary_after_tax", s-tax), nil
		},
		check: all(assertSameName, sameIn("salary", nil), lv3SameSub("output", "salary_after_tax"), sameException),
	}
}

func travelStatus() *Tool {
	return &Tool{
		Name:        "TravelStatus",
		Description: "Tell whether a colleague is traveling or working, and where.",
		Params: []Param{
			{Name: "member_name", Type: "str", Required: true, Description: "The colleague's name."},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: "The colleague's current status."}},
		Database: lv3Travel,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("member_name")
			s, err := lv3Lookup(c.table(lv3Travel), v)
			if err != nil {
				return nil, err
			}
			return value.Clone(s), nil
		},
		check: lv3Default,
	}
}

func userMoviePreferences() *Tool {
	return &Tool{
		Name:        "UserMoviePreferences",
		Description: "List the movie genres a user likes.",
		Params: []Param{
			{Name: "user_name", Type: "str", Required: true, Description: "The user's name."},
		},
		Outputs:  []Field{{Name: "preferences", Type: "list", Description: "The user's favourite genres."}},
		Database: lv3Preferences,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("user_name")
			p, err := lv3Lookup(c.table(lv3Preferences), v)
			if err != nil {
				return nil, err
			}
			return value.MapOf("preferences", value.Clone(p)), nil
		},
		check: lv3Default,
	}
}

func userPosts() *Tool {
	return &Tool{
		Name:        "UserPosts",
		Description: "List the ids of a user's posts.",
		Params: []Param{
			{Name: "user_id", Type: "int", Required: true, Description: "The user's id."},
		},
		Outputs:  []Field{{Name: "post_ids", Type: "list", Description: "Ids of the user's posts."}},
		Database: lv3Posts,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("user_id")
			p, ok := c.table(lv3Posts).Get(lv3IntKey(v))
			if !ok {
				return nil, fail(value.Repr(v))
			}
			return value.MapOf("post_ids", value.Clone(p)), nil
		},
		check: lv3Default,
	}
}

func userWatchedMovies() *Tool {
	return &Tool{
		Name:        "UserWatchedMovies",
		Description: "List the movies a user has already watched.",
		Params: []Param{
			{Name: "user_name", Type: "str", Required: true, Description: "The user's name."},
		},
		Outputs:  []Field{{Name: "watched_movies", Type: "list", Description: "Titles the user has watched."}},
		Database: lv3Watched,
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("user_name")
			m, err := lv3Lookup(c.table(lv3Watched), v)
			if err != nil {
				if strings.HasPrefix(err.Error(), "unhashable") {
					return nil, err
				}
				return nil, fail("User not found.")
			}
			return value.Clone(m), nil
		},
		check: lv3Default,
	}
}
