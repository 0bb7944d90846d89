package variant

import (
	"math/rand/v2"
	"strings"
)

// The pools new values are drawn from: our own lists, of diverse origins, plain ASCII letters only (a
// new name is also a username's and an e-mail's part, and a JSON text with no escape). A pool entry
// that already occurs anywhere in the data, as a word in any case, is never drawn (see draw): a new
// value must not collide with another entity of the data.

// The pools, by the values they give.
const (
	// femalePool: given names that read as a woman's.
	femalePool = iota
	// malePool: given names that read as a man's.
	malePool
	// neutralPool: given names borne by women and men alike.
	neutralPool
	// familyPool: family names, every name part but a first one (and a doctor's name) is given.
	familyPool
	// placePool: the proper words of a place's new name.
	placePool
)

// pools are the pools' entries (femalePool...placePool), split from their texts once.
//
// A person's first name part is given a name of the gender the data gives it (givenPool), so that
// the texts' pronouns and kinship words still fit the person ("my grandmother, Elena Popescu.
// She..."). The female and male pools end with the data's own first names that read as that gender
// and that its texts, where they tell, use as such ("my mum Amara", "my son Pablo", "Sofia Rossi...
// I'm her husband"), accents dropped: words of the data, they are never drawn, and they tell
// givenPool a name's gender, which most texts do not (they name a person with no pronoun at all). A
// first name in neither (one borne by women and men alike: Sam, Yuki, Noor; a family name written
// first: Zhang Min; one the data gains later) is given a neutral one.
var pools = func() (p [placePool + 1][]string) {
	for i, s := range [...]string{femalePool: `
	Adaeze Aiko Akosua Alinta Anahera Asha Astrid Ayesha Beatriz Camila Caoimhe Chiamaka Dalia Damla
	Dilnoza Ebru Eilidh Esperanza Farida Fenna Gulnara Hanne Hedda Ilse Imani Ines Jelena Jorun Ksenia
	Leilani Luana Madina Mahala Malak Manon Mariam Nalani Nandi Niamh Noa Odile Parisa Quilla Rahel
	Renske Saanvi Salma Saoirse Selin Solveig Suvi Tahmina Teodora Thandiwe Tove Uzma Valeska Vesna
	Wairimu Wanjiru Xiadani Yara Zainab Zarina Zeynep Ximena Mele Iolana Anouk Dagny Elif Fiadh Ludmila
	Abena Aisha Amara Ana Analucia Chiara Chloe Elena Fatima Giulia Grace Ingrid Laura Lea Maria Mei
	Nadia Neha Nia Nusrat Priya Rosa Rumana Sanna Sofia Valentina`, malePool: `
	Ahanu Alejandro Anselm Baptiste Bashir Bjorn Bongani Cosmin Darius Dmitri Emeka Eskil Florin
	Gaspard Hamid Haruto Idris Isidro Jomo Kaveh Keanu Kemal Lars Lorcan Matteo Mihai Miro Naveen
	Nikolai Oskar Paavo Radek Ramin Rustam Sandor Sipho Takoda Tariq Timur Yerlan Yusuf Zoltan Rangi
	Tevita Sione Halvard Ivo Bartosz Cyrus Goran Kasimir
	Andrei Arjun Baraka Bruno Diego Erik Farhan Harry Kenji Kofi Kwame Lucas Lukas Marco Mateo Oliver
	Omar Pablo Paolo Rafael Ravi Samuel Sven Tomas Tomasz`, neutralPool: `
	Amani Dembe Kiri Jarrah Kalani Liko Olufemi Aroha Tendai Farai Nyasha Ayo Hikaru Akira Haru Sora
	Minh Kiran Tenzin Pema Eren Deniz Arya Sasha Keala Malu Remy Kai Lior Kehinde Taiwo`, familyPool: `
	Abdullahi Achebe Adeyemi Aguilar Alanis Amsel Andersson Arnaud Asantewa Baptista Barzani Bekov
	Berglund Bhattacharya Bianco Brannigan Castellano Cerny Chaudhry Cojocaru Dahlberg Dalca Demir
	Desai Dlamini Drummond Eliasson Emenike Engstrom Esposito Farouk Fitzgerald Fonseca Gallagher
	Gashi Gundersen Hakimi Halvorsen Hashemi Hendriks Holm Ibarra Iskandar Jablonski Jovanovic Kahale
	Kamara Karimi Kaya Keskin Kovalenko Kowalczyk Kuznetsova Lachance Lindgren Lungu Mabuza Makoa
	Malenko Marchetti Mbeki Medina Moana Moyo Mukherjee Murillo Nakamura Ndlovu Nowicki Nwosu Oduya
	Okeke Olsen Ortega Osterberg Pajari Papadakis Pereira Petrovic Quispe Rahimi Rasku Rautio Reyes
	Rinaldi Rostami Saarinen Salazar Santoro Sarkar Seddiki Sekibo Serrano Shevchenko Sorensen Stojanov
	Suleiman Takahashi Tamura Tembo Toivonen Trinh Tshabalala Udeh Uribe Valdivia Vasquez Vukovic
	Wachira Waititi Yildiz Yoshida Zapata Zeller Zielinski Zubiri Haddadi Kealoha Mahuika Tuilagi
	Fakatava Nkemelu Oyelaran Brennock Castaneda Delacroix`, placePool: `
	Alderbrook Ashcombe Bellhaven Birchley Blackthorn Bramblewood Briarfield Calderwood Carrowmore
	Cedarholm Clearwater Copperfield Crestmoor Dunmarsh Elmstead Emberly Fairhollow Fernhill Foxmere
	Glenrowan Goldmere Greystoke Hallowmere Hazelgrove Heatherly Hollinsworth Ironbridge Juniper
	Kestrelmoor Kingsward Lanternfield Larkspur Linden Marigold Merrowdale Millbeck Mistral Northwold
	Oakhurst Orchardine Pebblestone Pinecrest Quarrington Ravensholm Redwater Rosemere Saffron
	Silverbeck Skylark Stonebridge Sunnyvale Thistledown Tidewater Umberfield Velvetmoor Willowmere
	Wrenfield Yarrowby Zephyrine Amberlyn Bluewater Coralline Driftwood Evergreen Falconer Gladstone
	Harrowgate Islington Jasperwood`} {
		p[i] = strings.Fields(s)
	}
	return p
}()

// givenPool returns the pool a first name part's new name is drawn from: the female or the male
// pool when it holds the name (accents dropped, in any case), else the neutral one.
func givenPool(w string) []string {
	// The pool's place in pools, or more than neutralPool's (one of no pool is 0-1, the largest).
	return pools[min(uint(poolWords[foldAccents(w)])-1, neutralPool)]
}

// draw returns an entry of pool that is not taken (already drawn, or a word of the data), near in
// length to want: a random one among the untaken entries whose length is within slack of want, or
// among those nearest when none is (see drawIndex). ok is false when every entry is taken.
func draw(rng *rand.Rand, pool []string, want, slack int, taken func(string) bool) (string, bool) {
	i := drawIndex(rng, len(pool), want, slack, func(i int) int { return len(pool[i]) }, func(i int) bool { return taken(pool[i]) })
	if i < 0 {
		return "", false
	}
	return pool[i], true
}

// Slacks are how far a new value's length may be from its original's. A name of a person or a place
// keeps about its size ("Ana" becomes "Noa", "Mia" or "Lea", never "Maximiliane"); an item word is
// any word of its group ("car" becomes "van", "scooter" or "motorbike"). With only the nearest
// lengths, most words had one replacement in every seed, and the variants varied less than they
// seemed to.
const (
	nameSlack = 2
	itemSlack = 1 << 10
)

// drawIndex is draw over n entries, told by their length and whether each is taken: the index of the
// entry drawn, or -1.
func drawIndex(rng *rand.Rand, n, want, slack int, length func(int) int, taken func(int) bool) int {
	away := func(i int) int { return max(length(i)-want, want-length(i)) }
	best := -1 // the nearest distance of an untaken entry so far
	var candidates []int
	for i := 0; i < n; i++ {
		d := away(i)
		if best >= 0 && d > max(best, slack) || taken(i) {
			continue // taken asked last: it looks the entry up
		}
		if best < 0 || d < best {
			best = d
		}
		candidates = append(candidates, i)
	}
	near := candidates[:0] // those within the slack, or the nearest
	for _, i := range candidates {
		if away(i) <= max(best, slack) {
			near = append(near, i)
		}
	}
	if len(near) == 0 {
		return -1
	}
	return near[rng.IntN(len(near))]
}

// openPool is the entries of a pool that are no word of the data and no value found (see
// plan.isTaken), in the pool's order, and each in lower case: what a seed draws from, found once per
// process (see found.open).
type openPool struct {
	words, lower []string
}

// openPools returns the pools' open entries (see openPool) for the data f found, by the pool's first
// entry.
func (f *found) openPools() map[*string]openPool {
	m := map[*string]openPool{}
	for _, pool := range pools {
		var o openPool
		for _, w := range pool {
			if l := lowerASCII(w); !f.words[l] && !f.known[l] {
				o.words, o.lower = append(o.words, w), append(o.lower, l)
			}
		}
		m[&pool[0]] = o
	}
	return m
}

// Character classes, as a password, a token or an id keeps them position by position.
const (
	lowerLetters = "abcdefghijklmnopqrstuvwxyz"
	upperLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digitChars   = "0123456789"
)

// reshape returns a text of s's length and character classes (a lower-case letter stays a lower-case
// letter, a digit a digit, an upper-case letter an upper-case letter, anything else itself), drawn at
// random: a new password, token or id that looks like the one it replaces. A leading digit that is
// not 0 stays not 0 (an id keeps its number of digits).
func reshape(rng *rand.Rand, s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = lowerLetters[rng.IntN(26)]
		case c >= 'A' && c <= 'Z':
			b[i] = upperLetters[rng.IntN(26)]
		case c >= '0' && c <= '9':
			if i == 0 && c != '0' {
				b[i] = digitChars[1+rng.IntN(9)]
			} else {
				b[i] = digitChars[rng.IntN(10)]
			}
		}
	}
	return string(b)
}

// sameShape reports whether a and b have the same length and the same character class at every
// position (reshape's promise).
func sameShape(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if class(a[i]) != class(b[i]) {
			return false
		}
	}
	return true
}

// class is a byte's character class: 'a' lower, 'A' upper, '0' digit, else the byte itself.
func class(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return 'a'
	case c >= 'A' && c <= 'Z':
		return 'A'
	case c >= '0' && c <= '9':
		return '0'
	}
	return c
}

// recase writes word in the letter case of like: all lower, all upper, or capitalised.
func recase(word, like string) string {
	switch {
	case like == strings.ToLower(like) && like != strings.ToUpper(like):
		return strings.ToLower(word)
	case like == strings.ToUpper(like) && len(like) > 1 && like != strings.ToLower(like):
		return strings.ToUpper(word)
	case word == "":
		return word
	}
	return strings.ToUpper(word[:1]) + strings.ToLower(word[1:])
}
