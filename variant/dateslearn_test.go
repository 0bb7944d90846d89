package variant

import (
	"strings"
	"testing"
)

func TestUnreadDate(t *testing.T) {
	for _, c := range []struct {
		text         string
		alone, other bool
	}{
		{"Book it for April 9 at 10:00.", false, false},
		{"On 2023-04-09 and 9th of April, or Apr. the 9th.", false, false},
		{"Apollo 11 landed on July 20, 1969.", false, false},
		{"Next January 2024 I fly out.", false, false},
		{"I have 3 kids and 12 cats; room 4B.", false, false},
		{"may I call you at 5", false, false},
		{"Hotel, April 23 to April 26, one room", false, false},
		// A day or a month alone.
		{"August 30 or Oct 2? The April one, she'll still go in May.", true, false},
		{"Friday, September 8. Ah, Friday the 21st.", true, false},
		{"The 4th stays.", true, false},
		{"April only has 30 days", true, false},
		{"Call May tomorrow? no, may I call", true, false},
		// Other forms.
		{"What happened on 04/12?", false, true},
		{"check-in 2023-05-32, check-out 2023-10-21", false, true},
		{"Hotel Alpenblick, April 23\u201326, one room", false, true},
		{"Standup at 9\u201310 in the lab", false, true},
		{"Hotel, April 23-26, one room", false, true},
		{"Hotel, April 23 to 26, one room", false, true},
		{"between January 10 and January 22, 2024", false, true},
	} {
		if alone, other := unreadDate(c.text); alone != c.alone || other != c.other {
			t.Errorf("unreadDate(%q) = %v, %v, want %v, %v", c.text, alone, other, c.alone, c.other)
		}
	}
}

func TestSettleUnread(t *testing.T) {
	for _, c := range []struct {
		before string
		days   int
		want   string
		ok     bool
	}{
		{"Two alarms, on April 4 and April 25. April 25. The 4th stays.", 140, "Two alarms, on August 22 and September 12. September 12. The 22nd stays.", true},
		{"One on 12 April and one on 15 May. The April one, she'll still go in May.", 140, "One on 30 August and one on 2 October. The August one, she'll still go in October.", true},
		{`"Dentist" on the 3rd; {"time": "2023-04-03 10:30:00"}`, 7, `"Dentist" on the 10th; {"time": "2023-04-10 10:30:00"}`, true},
		// A day that names two dates read, or none: left, and said.
		{"On April 4 and May 4. The 4th stays.", 7, "On April 11 and May 11. The 4th stays.", false},
		{"On April 4. The 9th is free.", 7, "On April 11. The 9th is free.", false},
		// A month whose dates move into two months.
		{"On April 1 and April 29, both in April.", 7, "On April 8 and May 6, both in April.", false},
	} {
		after := shiftDates(c.before, c.days, nil, 0)
		got, ok := settleUnread(c.before, after, c.days, 0)
		if got != c.want || ok != c.ok {
			t.Errorf("settleUnread(%q, %d) = %q, %v, want %q, %v", c.before, c.days, got, ok, c.want, c.ok)
		}
	}
}

// TestSettleUnreadLeaves: what is not a day or a month alone is never settled, and says so.
func TestSettleUnreadLeaves(t *testing.T) {
	for _, c := range []struct {
		before string
		days   int
	}{
		{"May I book it for May 5?", 28},
		{"the twenty-fourth of March, that is 2023-03-24", 14},
		{"On December 28. The 28th works.", 14},
		{"On April 19. Built in the late 19th century.", 7},
		// A longer word before the day is no "the" (it was read as one, past its end).
		{"On April 4. Ask these 4th graders.", 7},
	} {
		after := shiftDates(c.before, c.days, nil, 0)
		got, ok := settleUnread(c.before, after, c.days, 0)
		if ok {
			t.Errorf("settleUnread(%q, %d) = %q, settled", c.before, c.days, got)
		}
		for _, w := range []string{"May I", "of March", "The 28th", "19th century"} {
			if strings.Contains(c.before, w) && !strings.Contains(got, w) {
				t.Errorf("settleUnread(%q, %d) = %q: %q moved", c.before, c.days, got, w)
			}
		}
	}
}

func TestClockRangeRead(t *testing.T) {
	for _, c := range []struct {
		text         string
		alone, other bool
	}{
		{"Standup, 9:00\u20139:45 in the lab", false, false},
		{"on April 3, 10:00 am\u201312:30 pm at the hall", false, false},
		{"rehearsal (April 5, 7\u20139 pm)", false, true},
		{"Hotel, April 23\u201326", false, true},
	} {
		if alone, other := unreadDate(c.text); alone != c.alone || other != c.other {
			t.Errorf("unreadDate(%q) = %v, %v, want %v, %v", c.text, alone, other, c.alone, c.other)
		}
	}
}
