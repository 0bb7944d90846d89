package app

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
)

// Assignment is a set of exercises a teacher hands out as a link: the set travels in the URL's
// fragment (#a=...), which never reaches a server, so the link works on the static site and offline.
type Assignment struct {
	Name  string        `json:"name"`
	Items []ExerciseRef `json:"items"`
}

// MaxAssignment is the most exercises an assignment holds (a link stays well under the length
// browsers and chat apps keep).
const MaxAssignment = 100

// assignmentItem is an exercise as a link writes it: short member names.
type assignmentItem struct {
	L string `json:"l"`
	F string `json:"f"`
	I int    `json:"i"`
}

// AssignmentFragment is the fragment of an assignment's link ("a=" and the set as base64url JSON).
func AssignmentFragment(a Assignment) (string, error) {
	switch {
	case len(a.Items) == 0:
		return "", errors.New("an assignment needs at least one exercise")
	case len(a.Items) > MaxAssignment:
		return "", fmt.Errorf("an assignment holds at most %d exercises, not %d", MaxAssignment, len(a.Items))
	}
	w := struct {
		N string           `json:"n"`
		X []assignmentItem `json:"x"`
	}{N: a.Name}
	for _, it := range a.Items {
		w.X = append(w.X, assignmentItem{it.Level, it.File, it.ID})
	}
	b, err := json.Marshal(w)
	if err != nil {
		return "", err
	}
	return "a=" + base64.RawURLEncoding.EncodeToString(b), nil
}

// ParseAssignment reads an assignment from a link's fragment (with or without its "#"); ok is false
// when the fragment holds none, err says what is wrong with one that does not read.
func ParseAssignment(fragment string) (a Assignment, ok bool, err error) {
	if len(fragment) > 0 && fragment[0] == '#' {
		fragment = fragment[1:]
	}
	q, err := url.ParseQuery(fragment)
	if err != nil || q.Get("a") == "" {
		return Assignment{}, false, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(q.Get("a"))
	if err != nil {
		return Assignment{}, true, fmt.Errorf("the assignment link is damaged (not base64url: %v)", err)
	}
	var w struct {
		N string           `json:"n"`
		X []assignmentItem `json:"x"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return Assignment{}, true, fmt.Errorf("the assignment link is damaged: %v", err)
	}
	if len(w.X) == 0 || len(w.X) > MaxAssignment {
		return Assignment{}, true, fmt.Errorf("the assignment link holds %d exercises; an assignment has 1 to %d", len(w.X), MaxAssignment)
	}
	a.Name = w.N
	for i, x := range w.X {
		if x.L == "" || x.F == "" || x.I < 0 {
			return Assignment{}, true, fmt.Errorf("the assignment link's exercise %d is incomplete", i+1)
		}
		a.Items = append(a.Items, ExerciseRef{x.L, x.F, x.I})
	}
	return a, true, nil
}
