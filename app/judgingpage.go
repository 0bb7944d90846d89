package app

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// JudgingPath is the address of the "How we judge" page; a section is reached as JudgingPath+"#"+its
// ID (judgingLink).
const JudgingPath = "/judging"

// judgingLink is the address of a section of the "How we judge" page ("" for the page's top).
func judgingLink(section string) string {
	if section == "" {
		return JudgingPath
	}
	return JudgingPath + "#" + section
}

// judgingSection is one section of the "How we judge" page (and of docs/JUDGING.md, written from
// the same values by the package's tests).
type judgingSection struct {
	// ID is the section's anchor: JudgingPath#ID.
	ID, Title string
	// Sub marks a subsection of the section before it.
	Sub bool
	// Text are paragraphs; List, bullet points after them; Quote, a line shown as it is written.
	Text  []string
	Quote string
	List  []string
	// Examples show right and wrong answers.
	Examples []judgingExample
}

// judgingExample is a situation with answers and their verdicts. With a File it is taken from the
// builtin data (level, file, sample id), and the package's tests judge every answer again there.
type judgingExample struct {
	Level, File string
	ID          int
	// Episode marks a live episode of the level-3 scene File: each answer's Text is its calls, in
	// one text list, and its Reply the final answer to the user.
	Episode bool
	// Context says what came before the answer.
	Context string
	Answers []judgedAnswer
}

// judgedAnswer is one answer to an example and what it gets.
type judgedAnswer struct {
	// Right says whether the answer is right (for a reply: scores well).
	Right bool
	// Text is the answer as a model writes it.
	Text string
	// Reply is an episode's final answer to the user.
	Reply string
	// Verdict is the category (CORRECT, MISSED_NEED, ...), or for a reply "ROUGE-L x", or for an
	// episode its outcome in words.
	Verdict string
	// Why says the reason in a few words.
	Why string
}

// judgingIntro opens the page.
var judgingIntro = []string{
	"Every answer is judged by the same engine, in this tab, on the server and on the command line, and never by a model. " +
		"A call is run against a small world of tools and its result compared with the gold call's; a reply is scored by ROUGE-L; " +
		"a special case is judged by what the reply says. This page says what counts as right on our data, with a right and a wrong answer for each kind of sample.",
}

// stated is the line our prompts state the world's date with (score's prompt; a test holds them equal).
const stated = "Today is Friday, 31 March 2023 (2023-03-31)."

// judgingVerdictsText introduces the verdict list.
const judgingVerdictsText = "A call or a special case gets one verdict, the first problem found, in this order (the original evaluator's ten first, then ours). A reply gets its ROUGE-L score instead."

// judgingOriginal is the note on the original benchmark's data.
const judgingOriginal = "Data imported in the original's layout keeps the original evaluator's verdicts, quirks included, so its scores compare with the paper's (parity): " +
	"a call runs against the initial world unless you choose replay, the text form is read by the original's rules, each tool's original check decides, " +
	"and there are no special cases, free arguments, accepted sets or stated date."

// judgingSections are the page's sections, in order (the verdict list is drawn in "verdicts").
var judgingSections = []judgingSection{
	{
		ID: "date", Title: "The date",
		Text:  []string{"Our prompts state the world's date, so a date the user gives in words has one right value:"},
		Quote: stated,
		List: []string{
			"\"Monday April 3rd, 6:50 in the morning\" is 2023-04-03 06:50:00.",
			"\"7:30 pm tomorrow\" is 2023-04-01 19:30:00.",
		},
	},
	{
		ID: "call", Title: "A call (levels 1 and 2)",
		Text: []string{
			"The answer is one call, written as [ToolName(key='value', other='value')] or as a native tool call. " +
				"The text form is read as Python reads literals: either quote style, escaped quotes, empty strings, numbers and lists.",
			"The call runs in the world as the dialogue left it: the dialogue's earlier gold calls are made first. " +
				"It is right when the tool's own check accepts its result against the gold call's, and it leaves the world as the gold call does: " +
				"deleting the wrong meeting is wrong even where the check compares only the start time.",
			"Some answers are right though written otherwise:",
		},
		List: []string{
			"Free text: an argument the user never dictated word for word (an e-mail's body) is right with any non-empty text. The Sample page marks it \"any wording\".",
			"Lists whose order means nothing (attendees, genres) are compared as sets.",
			"A Calculator formula is right when it has the gold formula's value: 240/3 for (70+80+90)/3.",
			"Accepted sets: where the dialogue allows another reading, the sample lists the other arguments, and each set is judged as a gold of its own.",
			"An argument the gold leaves empty ('' or []) is one the tool does not use here: leaving it out is right too.",
			"The prompt states today's date, so a GetToday call may be left out: a reply that gives the date, or a set without it, is right.",
		},
		Examples: []judgingExample{
			{Level: "level-1-given-desc", File: "acct-alarm-add-40.jsonl", ID: 2,
				Context: "The user is logged in (token tyyigapmqm903k9me9j) and wants the alarm on \"Monday April 3rd, 6:50 in the morning\".",
				Answers: []judgedAnswer{
					{Right: true, Text: "[AddAlarm(token='tyyigapmqm903k9me9j', time='2023-04-03 06:50:00')]", Verdict: "CORRECT", Why: "the date follows from the stated today"},
					{Right: true, Text: `[AddAlarm(token="tyyigapmqm903k9me9j", time="2023-04-03 06:50:00")]`, Verdict: "CORRECT", Why: "either quote style"},
					{Text: "[AddAlarm(token='tyyigapmqm903k9me9j', time='2023-04-03 18:50:00')]", Verdict: "INPUT_MISMATCH", Why: "6:50 in the evening"},
					{Text: "[AddAlarm(token='tyyigapmqm903k9me9j')]", Verdict: "MISS_INPUT_ARGUMENT", Why: "no time"},
				}},
			{Level: "level-1-given-desc", File: "plan-coop-later-54.jsonl", ID: 6,
				Context: "User: \"Email Abena at abena.owusu@inbox.com so she knows: subject 'Cooperative update moved', and say the update now starts at 4pm on April 21 and ends at 5:30pm, same hall.\" The body is free.",
				Answers: []judgedAnswer{
					{Right: true, Text: "[SendEmail(receiver='abena.owusu@inbox.com', subject='Cooperative update moved', content='Hello Abena: the update is now 4pm to 5:30pm on April 21, same hall.')]", Verdict: "CORRECT", Why: "any wording of the body"},
					{Text: "[SendEmail(receiver='abena.owusu@inbox.com', subject='Update', content='Hello Abena')]", Verdict: "INPUT_MISMATCH", Why: "the subject was dictated"},
				}},
		},
	},
	{
		ID: "set", Title: "A gold call set",
		Text: []string{
			"When the assistant makes several independent calls at once, the gold is a set, and the prompt asks for them in one list: [ToolA(...), ToolB(...)]. " +
				"The answer is right when it makes every call of the set, in any order, and no other. " +
				"Fewer calls are MISSING_CALL, more are EXTRA_CALL; one gold call answered with several calls is EXTRA_CALL too.",
		},
		Examples: []judgingExample{
			{Level: "level-1-given-desc", File: "par-calc-01.jsonl", ID: 0,
				Context: "User: \"what's 1260/3 for rent and 87+45+66 for the groceries?\"",
				Answers: []judgedAnswer{
					{Right: true, Text: "[Calculator(formula='87+45+66'), Calculator(formula='1260/3')]", Verdict: "CORRECT", Why: "any order"},
					{Right: true, Text: "[Calculator(formula='1260/3'), Calculator(formula='66+45+87')]", Verdict: "CORRECT", Why: "the same value"},
					{Text: "[Calculator(formula='1260/3')]", Verdict: "MISSING_CALL", Why: "one of the two calls"},
				}},
		},
	},
	{
		ID: "reply", Title: "A reply",
		Text: []string{
			"After a call the assistant tells the user what happened. That reply is scored by ROUGE-L against the gold reply: " +
				"how many of its words appear in the answer in the same order (an F-measure from 0 to 1, rounded to 4 places). " +
				"An empty reply scores 0. A reply gets a score, not a verdict; reports give the mean.",
		},
		Examples: []judgingExample{
			{Level: "level-1-given-desc", File: "acct-alarm-add-40.jsonl", ID: 3,
				Context: "The gold reply: \"Your alarm is set for Monday, April 3 at 6:50 am.\"",
				Answers: []judgedAnswer{
					{Right: true, Text: "I set your alarm for Monday, April 3 at 6:50 am.", Verdict: "ROUGE-L 0.7273", Why: "most words, in order"},
					{Text: "Done.", Verdict: "ROUGE-L 0", Why: "no word in common"},
				}},
		},
	},
	{
		ID: "special", Title: "Special cases",
		Text: []string{
			"In a special case a careful assistant does not call yet: a value is missing, the request is ambiguous, a value is wrong, or no tool can do it. " +
				"The right answer is a message to the user. It is right when it makes no call (a call is PREMATURE_CALL), does what the kind of case needs, " +
				"and meets every need of the case; otherwise it is MISSED_NEED, and the verdict says which need it missed.",
			"A need is a thing the reply must say, with the phrases that show it: any one of them is enough, in any case, as whole words (\"time\" is not found in \"sometimes\"). " +
				"The Sample page lists each case's needs. The phrases are fixed, so the same reply always gets the same verdict.",
		},
	},
	{
		ID: "missing_value", Title: "A missing value", Sub: true,
		Text: []string{"The reply asks the user for the value, and names it."},
		Examples: []judgingExample{
			{Level: "level-1-given-desc", File: "acct-alarm-add-40.jsonl", ID: 4,
				Context: "User: \"could you set an alarm for me?\" No time is given. The need: asks for the alarm's date and time.",
				Answers: []judgedAnswer{
					{Right: true, Text: "Logged in. What date and time should the alarm ring?", Verdict: "CORRECT", Why: "asks, and names the time"},
					{Text: "OK, all set!", Verdict: "MISSED_NEED", Why: "asks nothing"},
					{Text: "[AddAlarm(token='tyyigapmqm903k9me9j', time='2023-04-03 06:50:00')]", Verdict: "PREMATURE_CALL", Why: "a time the user never gave"},
				}},
		},
	},
	{
		ID: "ambiguous", Title: "An ambiguous request", Sub: true,
		Text: []string{"The reply asks which one is meant, and names the candidates or asks which."},
		Examples: []judgingExample{
			{Level: "level-1-given-desc", File: "acct-agenda-modify-34.jsonl", ID: 6,
				Context: "User: \"I have two things in my agenda right now: 'Dentist check-up' on the 3rd and 'Farewell dinner for Chidi' on the 28th. Can you move it to 11am?\"",
				Answers: []judgedAnswer{
					{Right: true, Text: "Which one should I move to 11am: the dentist check-up or the farewell dinner?", Verdict: "CORRECT", Why: "asks which, naming both"},
					{Text: "Sure, I moved it to 11am.", Verdict: "MISSED_NEED", Why: "asks nothing"},
				}},
		},
	},
	{
		ID: "wrong_value", Title: "A wrong value", Sub: true,
		Text: []string{"The reply says what is wrong with the value, or asks for it again."},
		Examples: []judgingExample{
			{Level: "level-1-given-desc", File: "info-speech-01.jsonl", ID: 4,
				Context: "User: \"transcribe pls: https://audio.playground.example/clips/voice-008.mp3\". The tool takes a .wav link.",
				Answers: []judgedAnswer{
					{Right: true, Text: "I can only transcribe .wav files, and this link is an .mp3. Do you have a .wav version?", Verdict: "CORRECT", Why: "names the format"},
					{Text: "Sorry, that link doesn't look right.", Verdict: "MISSED_NEED", Why: "does not say what is wrong"},
				}},
		},
	},
	{
		ID: "no_tool", Title: "No tool can do it", Sub: true,
		Text: []string{"The reply says it cannot do that, and names what."},
		Examples: []judgingExample{
			{Level: "level-1-given-desc", File: "acct-balance-interest-04.jsonl", ID: 4,
				Context: "User: \"Can you raise my bank's interest rate to 5%?\"",
				Answers: []judgedAnswer{
					{Right: true, Text: "I can't change your bank's interest rate: no tool of mine does that.", Verdict: "CORRECT", Why: "says what it cannot do"},
					{Text: "Sorry, I can't do that.", Verdict: "MISSED_NEED", Why: "does not name the interest rate"},
				}},
		},
	},
	{
		ID: "step", Title: "A level-3 step",
		Text: []string{
			"A level-3 scene is one request that takes several calls. As step samples, each gold call is predicted from the request and the gold calls before it, with their results; " +
				"the prompt shows the tools already used. A step is judged as a call (above). Where its tool has not been shown yet, a ToolSearcher call whose search finds it is right too; " +
				"and since a plan's independent calls may come in any order, a call (or a list of calls) that makes gold calls still to come is as right a next step as the gold's.",
		},
		Examples: []judgingExample{
			{Level: "level-3", File: "scene-average-likes-user3-01.json", ID: 0,
				Context: "User: \"What's the average number of likes on user 3's posts?\" The first step; the prompt shows ToolSearcher, not UserPosts.",
				Answers: []judgedAnswer{
					{Right: true, Text: "[UserPosts(user_id=3)]", Verdict: "CORRECT", Why: "the gold call"},
					{Right: true, Text: "[ToolSearcher(keywords='posts of a user')]", Verdict: "CORRECT", Why: "the search finds UserPosts"},
					{Text: "[ToolSearcher(keywords='weather forecast')]", Verdict: "API_NAME_MISMATCH", Why: "the search finds another tool"},
				}},
			{Level: "level-3", File: "scene-average-likes-user3-01.json", ID: 4,
				Context: "User: \"What's the average number of likes on user 3's posts?\" The steps before found posts 7, 8 and 9 with 70, 80 and 90 likes.",
				Answers: []judgedAnswer{
					{Right: true, Text: "[Calculator(formula='(70+80+90)/3')]", Verdict: "CORRECT", Why: "the gold call"},
					{Right: true, Text: "[Calculator(formula='240/3')]", Verdict: "CORRECT", Why: "the same value"},
					{Text: "[Calculator(formula='(70+80+90)/2')]", Verdict: "OUTPUT_MISMATCH", Why: "another value"},
				}},
		},
	},
	{
		ID: "episode", Title: "A live episode (level 3)",
		Text: []string{
			"On the Run a model and Play a scene pages a scene is played live: the model calls tools as it decides, in one world that keeps what each call changed, then answers the user. " +
				"Besides success, each episode gets milestone credit: the share of the required gold calls it made, from 0 to 1, so partial progress shows.",
			"The episode succeeds when:",
		},
		List: []string{
			"the world it leaves is the world the gold calls leave (a reminder is compared with its content, not only its time); calls that only read, such as queries and searches, change nothing and are fine, and independent calls may come in either order;",
			"it made every required gold call (ToolSearcher is not required: a model offered every tool needs none);",
			"where the request is a question, its final answer says what the scene's answer needs (the Sample page lists them with the gold answer).",
		},
		Examples: []judgingExample{
			{Level: "level-3", File: "scene-average-likes-user3-01.json", Episode: true,
				Context: "User: \"What's the average number of likes on user 3's posts?\" Five gold calls: UserPosts, LikeCount three times, Calculator.",
				Answers: []judgedAnswer{
					{Right: true, Text: "[UserPosts(user_id=3), LikeCount(post_id=7), LikeCount(post_id=8), LikeCount(post_id=9), Calculator(formula='(70+80+90)/3')]", Reply: "The average is 80 likes.", Verdict: "success, milestones 5/5", Why: "every call, the same world"},
					{Text: "[UserPosts(user_id=3), LikeCount(post_id=7)]", Reply: "About 70 likes.", Verdict: "no success, milestones 2/5", Why: "stopped after two calls"},
				}},
		},
	},
	{ID: "verdicts", Title: "Verdict categories", Text: []string{judgingVerdictsText}},
	{ID: "original", Title: "The original benchmark's data", Text: []string{judgingOriginal}},
}

// judgingVerdict is one verdict category and what it means.
type judgingVerdict struct{ Category, Meaning string }

// judgingVerdicts lists every verdict category of a call or special-case sample, in report order (a
// test holds it to the engine's list).
var judgingVerdicts = []judgingVerdict{
	{"CORRECT", "Right."},
	{"NO_API_CALL", "A call was due, but the answer has none."},
	{"FAILED_PARSE_API_CALL", "The answer looks like a call but cannot be read (brackets, quotes, key='value')."},
	{"API_NAME_MISMATCH", "Another tool than the one this step needs."},
	{"INVALID_INPUT_PARAMETER", "An argument name the tool does not have."},
	{"MISS_INPUT_ARGUMENT", "A required argument is missing."},
	{"KEY_ERROR", "The tool's check needs a field the result lacks."},
	{"HAS_EXCEPTION", "The tool answered with an error (a bad token, a malformed date), unlike the gold call."},
	{"OUTPUT_MISMATCH", "The tool answered, but not what the gold call gets."},
	{"INPUT_MISMATCH", "The same answer, but an argument the tool's check compares differs."},
	{"INVALID_PARAMETER_TYPE", "A value of the wrong type: text where a number is due, or the reverse."},
	{"TOOL_ERROR", "The tool failed on the call instead of answering (the original's run stops there)."},
	{"CHECK_ERROR", "The tool's check failed on the result (the original's run stops there)."},
	{"INCORRECT", "Wrong in a way none of the above names; on our data also a call that leaves the world unlike the gold call."},
	{"PREMATURE_CALL", "A special case answered with a call: the right answer was a message."},
	{"MISSED_NEED", "A special case answered with a message that does not do what the case needs; the verdict says which need."},
	{"INPUT_TOO_LARGE", "The answer is larger than any call (4 MiB)."},
	{"MISSING_CALL", "Fewer calls than the gold set has."},
	{"EXTRA_CALL", "More calls than the gold set (or the one gold call) has."},
}

// JudgingPage is "How we judge": what counts as right for each kind of sample, with examples, the
// verdict categories and the note on the original's data. Everything on it is text.
type JudgingPage struct {
	app.Compo
}

// el is an element of tag with attributes (name, value pairs) and, when text is not empty, that text
// as its first child. The page and the Sample page's judging are drawn with it: each chain of go-app
// calls costs app.wasm hundreds of bytes, one call to el a few dozen.
func el(tag string, attrs []string, text string, kids ...app.UI) app.UI {
	e := app.Elem(tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		e = e.Attr(attrs[i], attrs[i+1])
	}
	if text != "" {
		kids = append([]app.UI{app.Text(text)}, kids...)
	}
	return e.Body(kids...)
}

// Render draws the page.
func (p *JudgingPage) Render() app.UI {
	toc := make([]app.UI, 0, len(judgingSections))
	for _, s := range judgingSections {
		if !s.Sub {
			toc = append(toc, el("li", nil, "", el("a", []string{"href", judgingLink(s.ID)}, s.Title)))
		}
	}
	body := make([]app.UI, 0, len(judgingIntro)+1+len(judgingSections))
	for _, t := range judgingIntro {
		body = append(body, el("p", nil, t))
	}
	body = append(body, el("nav", []string{"aria-label", "Sections"}, "", el("ul", nil, "", toc...)))
	for i := range judgingSections {
		body = append(body, judgingSectionView(&judgingSections[i]))
	}
	return shell(JudgingPath, "How we judge", body...)
}

// judgingSectionView draws one section with its examples (and the verdict list in "verdicts").
func judgingSectionView(s *judgingSection) app.UI {
	head := "h2"
	if s.Sub {
		head = "h3"
	}
	kids := []app.UI{el(head, nil, s.Title)}
	for _, t := range s.Text {
		kids = append(kids, el("p", nil, t))
	}
	if s.Quote != "" {
		kids = append(kids, el("pre", nil, s.Quote))
	}
	items := make([]app.UI, 0, len(s.List)+2*len(judgingVerdicts))
	for _, t := range s.List {
		items = append(items, el("li", nil, t))
	}
	if len(items) > 0 {
		kids = append(kids, el("ul", nil, "", items...))
	}
	for i := range s.Examples {
		kids = append(kids, judgingExampleView(&s.Examples[i]))
	}
	if s.ID == "verdicts" {
		items = items[:0]
		for _, v := range judgingVerdicts {
			items = append(items, el("dt", []string{"data-category", v.Category}, "", el("code", nil, v.Category)), el("dd", nil, v.Meaning))
		}
		kids = append(kids, el("dl", nil, "", items...))
	}
	return el("section", []string{"id", s.ID}, "", kids...)
}

// judgingExampleView draws an example: its situation, then each answer with its verdict.
func judgingExampleView(e *judgingExample) app.UI {
	from := app.Text("Example")
	if e.Episode {
		from = el("a", []string{"href", "/play?scene=" + url.QueryEscape(e.File)}, "Example: play "+e.File)
	} else if e.File != "" {
		from = el("a", []string{"href", sampleURL(e.Level, e.File, e.ID)}, "Example: "+e.File+" #"+strconv.Itoa(e.ID))
	}
	kids := []app.UI{el("p", []string{"class", "small"}, "", from), el("p", nil, e.Context)}
	for _, a := range e.Answers {
		label, cls := "Wrong", "verdict bad"
		if a.Right {
			label, cls = "Right", "verdict good"
		}
		text := a.Text
		if a.Reply != "" {
			text += "\nAnswer: " + a.Reply
		}
		kids = append(kids, el("div", []string{"data-answer", strings.ToLower(label)}, "",
			el("strong", nil, label+": "), el("pre", nil, text),
			el("p", nil, "", el("span", []string{"class", cls}, a.Verdict), app.Text(" "+a.Why))))
	}
	return el("div", []string{"class", "card", "data-testid", "judging-example"}, "", kids...)
}

// judgingNote links a page's verdicts to the section of "How we judge" that explains them.
func judgingNote(section string) app.UI {
	return el("p", []string{"class", "small"}, "What each verdict means: ", el("a", []string{"href", judgingLink(section)}, "How we judge"), app.Text("."))
}
