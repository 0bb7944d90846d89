package variant

import "testing"

func TestUnreadDate(t *testing.T) {
	for _, c := range []struct {
		text   string
		unread bool
	}{
		{"Book it for April 9 at 10:00.", false},
		{"On 2023-04-09 and 9th of April, or Apr. the 9th.", false},
		{"Apollo 11 landed on July 20, 1969.", false},
		{"Next January 2024 I fly out.", false},
		{"I have 3 kids and 12 cats; room 4B.", false},
		{"August 30 or Oct 2? The April one, she'll still go in May.", true},
		{"Friday, September 8. Ah, Friday the 21st.", true},
		{"The 4th stays.", true},
		{"What happened on 04/12?", true},
		{"check-in 2023-05-32, check-out 2023-10-21", true},
		{"Hotel Alpenblick, April 23\u201326, one room", true},
		{"Standup, 9:00\u20139:45 in the lab", true},
		{`Standup, 9:00\u20139:45 in the lab`, true},
		{"Hotel, April 23-26, one room", true},
		{"Hotel, April 23 to 26, one room", true},
		{"Hotel, April 23 to April 26, one room", false},
		{"between January 10 and January 22, 2024", true},
		{"April only has 30 days", true},
		{"Call May tomorrow? no, may I call", true},
		{"may I call you at 5", false},
	} {
		if got := unreadDate(c.text); got != c.unread {
			t.Errorf("unreadDate(%q) = %v, want %v", c.text, got, c.unread)
		}
	}
}
