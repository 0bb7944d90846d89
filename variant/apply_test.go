package variant

import "testing"

func TestReplace(t *testing.T) {
	moves := []Move{
		{Kind: KindName, From: "Arjun", To: "Timur", mode: title, upper: "ARJUN"},
		{Kind: KindName, From: "Ferrari", To: "Hashemi", mode: title, upper: "FERRARI"},
		{Kind: KindName, From: "Min", To: "Trinh", mode: title, upper: "MIN"},
		{Kind: KindPlace, From: "Room 12B", To: "Room 47B", mode: fold},
		{Kind: KindPerson, From: "Dinner with Arjun's parents", To: "Dinner with Timur's parents", mode: fold},
		{Kind: KindPassword, From: "Kente2023", To: "Abcde1234", mode: exact},
		{Kind: KindPassword, From: "Kente2023!", To: "Kente2023!", mode: exact}, // pinned
		{Kind: KindUsername, From: "AmaraOkafor", To: "KemalSarkar", mode: fold},
	}
	r := newReplacer(moves)
	for _, c := range []struct{ in, want string }{
		{"Lunch with Arjun", "Lunch with Timur"},
		{"Arjun's parents", "Timur's parents"},
		{"ARJUN", "TIMUR"},
		{"arjun", "arjun"}, // a name part only as written or in capitals
		{"Arjunx", "Arjunx"},
		{"dinner with the Ferraris", "dinner with the Hashemis"},
		{"30 min with Min", "30 min with Trinh"},
		{"meet in room 12B", "meet in room 47B"},
		{"dinner with Arjun's parents", "dinner with Timur's parents"},
		{"pw Kente2023!", "pw Kente2023!"},
		{"pw Kente2023.", "pw Abcde1234."},
		{"kente2023", "kente2023"},
		{"amaraokafor", "kemalsarkar"},
		{"AmaraOkafor1", "AmaraOkafor1"},
	} {
		if got := r.replace(c.in, nil); got != c.want {
			t.Errorf("replace(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSurface(t *testing.T) {
	m := Move{From: "Dinner with Ana", To: "Supper with Noa"}
	for _, c := range []struct{ written, want string }{
		{"Dinner with Ana", "Supper with Noa"},
		{"dinner with ana", "supper with noa"},
		{"DINNER WITH ANA", "SUPPER WITH NOA"},
		{"dinner with Ana", "supper with Noa"},
		{"Dinner With Ana", "Supper with Noa"},
	} {
		if got := surface(&m, c.written); got != c.want {
			t.Errorf("surface(%q) = %q, want %q", c.written, got, c.want)
		}
	}
}
