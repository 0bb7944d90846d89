package bm25

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"spaces only", " \t\n ", nil},
		{"plain words", "artificial intelligence", []string{"artificial", "intelligence"}},
		{"inner periods stay", "the u.s. economy", []string{"the", "u.s.", "economy"}},
		{"hyphen stays", "ai-based tools", []string{"ai-based", "tools"}},
		{"digit letter stays", "rise of 5g technology", []string{"rise", "of", "5g", "technology"}},
		{"comma before digit stays", "roughly 3,36 euros", []string{"roughly", "3,36", "euros"}},
		{"comma before space splits", "a, b", []string{"a", ",", "b"}},
		{"comma at end splits", "a,", []string{"a", ","}},
		{"colon", "note: 10:30", []string{"note", ":", "10:30"}},
		{"trailing period", "the end.", []string{"the", "end", "."}},
		{"trailing period then quote", `he said "stop."`, []string{"he", "said", "``", "stop", ".", "''"}},
		{"trailing period then bracket", "(see above.)", []string{"(", "see", "above", ".", ")"}},
		{"inner period kept in one sentence", "3.88 dollars", []string{"3.88", "dollars"}},
		{"ellipsis", "wait... what", []string{"wait", "...", "what"}},
		{"dont", "don't", []string{"do", "n't"}},
		{"DONT", "DON'T stop", []string{"DO", "N'T", "stop"}},
		{"its", "it's here", []string{"it", "'s", "here"}},
		{"well", "we'll see they're", []string{"we", "'ll", "see", "they", "'re"}},
		{"possessive plural", "the users' data", []string{"the", "users", "'", "data"}},
		{"cannot", "i cannot go", []string{"i", "can", "not", "go"}},
		{"gonna wanna", "gonna wanna go", []string{"gon", "na", "wan", "na", "go"}},
		{"tis", "'tis true", []string{"'t", "is", "true"}},
		{"double quotes", `say "hello" now`, []string{"say", "``", "hello", "''", "now"}},
		{"leading double quote", `"hi" there`, []string{"``", "hi", "''", "there"}},
		{"single quotes", "'hello' world", []string{"'hello", "'", "world"}},
		{"curly quotes", "“hi” ‘x’", []string{"“", "hi", "”", "‘", "x", "’"}},
		{"backticks", "``quoted''", []string{"``", "quoted", "''"}},
		{"symbols", "cost $5 & 10% #tag @me", []string{"cost", "$", "5", "&", "10", "%", "#", "tag", "@", "me"}},
		{"question and exclamation", "what? yes!", []string{"what", "?", "yes", "!"}},
		{"brackets", "f(x)[y]{z}<w>", []string{"f", "(", "x", ")", "[", "y", "]", "{", "z", "}", "<", "w", ">"}},
		{"double dash", "a--b", []string{"a", "--", "b"}},
		{"slash stays", "and/or", []string{"and/or"}},
		{"star", "a*b", []string{"a", "*", "b"}},
		{"semicolon", "a;b", []string{"a", ";", "b"}},
		{"stored document 0",
			"impact of artificial intelligence on society - as artificial intelligence continues to advance, it is important.",
			[]string{"impact", "of", "artificial", "intelligence", "on", "society", "-", "as", "artificial",
				"intelligence", "continues", "to", "advance", ",", "it", "is", "important", "."}},
		// Several sentences: every sentence-final period becomes a token
		// (NLTK's documented word_tokenize example).
		{"nltk doc example",
			"Good muffins cost $3.88 (roughly 3,36 euros)\nin New York.  Please buy me\ntwo of them.\nThanks.",
			[]string{"Good", "muffins", "cost", "$", "3.88", "(", "roughly", "3,36", "euros", ")", "in", "New",
				"York", ".", "Please", "buy", "me", "two", "of", "them", ".", "Thanks", "."}},
		{"lowercase sentences", "it works. so do we.", []string{"it", "works", ".", "so", "do", "we", "."}},
		{"abbreviation does not end a sentence", "the u.s. and dr. who", []string{"the", "u.s.", "and", "dr.", "who"}},
		{"period in quotes ends a sentence", `he said "stop." then left`, []string{"he", "said", "``", "stop", ".", "''", "then", "left"}},
		{"question mark sentence", "why? because.", []string{"why", "?", "because", "."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Tokenize(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Tokenize(%q)\n got  %q\n want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestQueryTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"  Artificial Intelligence in Healthcare \n", []string{"artificial", "intelligence", "in", "healthcare"}},
		{"What's AI?", []string{"what", "'s", "ai", "?"}},
		{"\u00a0U.S. ECONOMY\u3000", []string{"u.s.", "economy"}},
		{"ΟΔΟΣ", []string{"οδος"}}, // Python's final sigma
	}
	for _, tt := range tests {
		if got := QueryTokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("QueryTokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTreebankNLTK checks the one-sentence tokenizer against outputs of
// NLTK 3.8's NLTKWordTokenizer on random quote-, clitic- and punctuation-
// heavy strings (testdata/treebank_nltk.json, produced by NLTK itself).
func TestTreebankNLTK(t *testing.T) {
	b, err := os.ReadFile("testdata/treebank_nltk.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct {
			Text   string
			Tokens []string
		}
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range golden.Cases {
		got := treebank(nil, []rune(c.Text))
		if len(got) == 0 && len(c.Tokens) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.Tokens) {
			t.Errorf("treebank(%q)\n got  %q\n want %q", c.Text, got, c.Tokens)
		}
	}
}

// TestStoredDocuments re-tokenises every SearchEngine document and compares
// with the stored tokenized_documents (which NLTK produced).
func TestStoredDocuments(t *testing.T) {
	db := loadDB(t)
	match := 0
	for i, d := range db.RawDocuments {
		got := Tokenize(strings.ToLower(d.Title + " - " + d.Abstract))
		if reflect.DeepEqual(got, db.TokenizedDocuments[i]) {
			match++
		} else {
			t.Errorf("document %d:\n got  %q\n want %q", i, got, db.TokenizedDocuments[i])
		}
	}
	t.Logf("%d of %d documents tokenised as stored", match, len(db.RawDocuments))
}

// TestTokenizeRules pins texts that exercise the rules' fast paths (a rule
// skipped when the text lacks the characters it needs, a pair rule skipped
// without a pair, the contractions looked for once, where their first two
// characters are): tokens as the tokenizer gave them when every rule read
// every position of every text.
func TestTokenizeRules(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"GIMME the gımme, Cannot stop", []string{"GIM", "ME", "the", "gım", "me", ",", "Can", "not", "stop"}},
		{"i gotta wanna\tgo lemme", []string{"i", "got", "ta", "wan", "na", "go", "lem", "me"}},
		{"gonna'tis 'TWAS more'n D'YE", []string{"gon", "na", "'t", "is", "'T", "WAS", "more", "'n", "D", "'YE"}},
		{"cannotx xcannot can't", []string{"cannotx", "xcannot", "ca", "n't"}},
		{"“a” «b» c»", []string{"“", "a", "”", "«", "b", "»", "c", "»"}},
		{"K K ſ: wanna", []string{"K", "K", "ſ", ":", "wan", "na"}},
		{`"hello" he said`, []string{"``", "hello", "''", "he", "said"}},
		{"a..b -- c--d ''e'' f---g", []string{"a", "..", "b", "--", "c", "--", "d", "``", "e", "''", "f", "--", "-g"}},
		{"“x” ‘y’ «z» „w", []string{"“", "x", "”", "‘", "y", "’", "«", "z", "»", "„", "w"}},
		{"gİmme ſ'tis CANNOT Wanna\tgo d'ye", []string{"gİm", "me", "ſ'tis", "CAN", "NOT", "Wan", "na", "go", "d", "'ye"}},
		{"he said ''hi'' to 'em, ok:", []string{"he", "said", "``", "hi", "''", "to", "'em", ",", "ok", ":"}},
		{`"don't" can't 'x y's`, []string{"``", "do", "n't", "''", "ca", "n't", "'", "x", "y", "'s"}},
		{"\xffa,b", []string{"\ufffda", ",", "b"}},
		{`He said "go." Then left.`, []string{"He", "said", "``", "go", ".", "''", "Then", "left", "."}},
		{`("quoted") [''a''] {b} <c>`, []string{"(", "``", "quoted", "''", ")", "[", "``", "a", "''", "]", "{", "b", "}", "<", "c", ">"}},
		{"...", []string{"..."}},
		{"'", []string{"'"}},
		{`"`, []string{"``"}},
	} {
		if got := Tokenize(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func BenchmarkTokenize(b *testing.B) {
	s := "how artificial intelligence is changing business - artificial intelligence is being used by businesses to streamline operations, improve decision-making, and create new products and services."
	for b.Loop() {
		Tokenize(s)
	}
}

// searchDocs returns the builtin SearchEngine documents as the tool
// tokenizes them: title, " - ", abstract, lower-cased.
func searchDocs(tb testing.TB) []string {
	b, err := os.ReadFile("../../dataset/builtin/init_database/SearchEngine.json")
	if err != nil {
		tb.Fatal(err)
	}
	var db searchDB
	if err := json.Unmarshal(b, &db); err != nil {
		tb.Fatal(err)
	}
	docs := make([]string, len(db.RawDocuments))
	for i, d := range db.RawDocuments {
		docs[i] = pyLower(d.Title + " - " + d.Abstract)
	}
	return docs
}

// BenchmarkTokenizeDocs tokenizes every builtin SearchEngine document, as
// the first SearchEngine call of a process does.
func BenchmarkTokenizeDocs(b *testing.B) {
	docs := searchDocs(b)
	for b.Loop() {
		for _, d := range docs {
			Tokenize(d)
		}
	}
}
