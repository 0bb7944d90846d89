package tools

import (
	"github.com/apibank-playground/apibank/internal/py"
)

// Kind classifies an error that escapes a call or a check the way the original's evaluators tell
// them apart: by Python exception class.
type Kind string

// Error kinds, named after the Python exception classes they stand for.
const (
	// Assertion is an AssertionError: invalid parameter names and types, and a check's api_name test.
	Assertion Kind = "AssertionError"
	// Type is a TypeError: missing arguments, and errors some tools let escape.
	Type Kind = "TypeError"
	// Value is a ValueError, such as int() on a digit it cannot read.
	Value Kind = "ValueError"
	// Key is a KeyError raised by a correctness check reading a key that is not there.
	Key Kind = "KeyError"
	// Attribute is an AttributeError raised inside a check (a quirk of the original).
	Attribute Kind = "AttributeError"
	// Plain is any other exception, such as "invalid tool name.".
	Plain Kind = "Exception"
)

// Error is an error that escapes a tool call or a correctness check instead of becoming an envelope's
// exception. Its text is exactly the original's.
type Error struct {
	Kind Kind
	Text string
}

func (e *Error) Error() string { return e.Text }

// escape returns the error of kind with text: an exception the tool's call lets escape.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func escape(kind Kind, text string) *Error { return &Error{Kind: kind, Text: text} }

// keyError is the error of a lookup of a missing key: its text is the key's Python repr.
func keyError(key string) *Error { return &Error{Kind: Key, Text: py.Repr(key)} }

// failure is an exception raised inside a tool: it becomes the envelope's exception text.
type failure string

func (f failure) Error() string { return string(f) }

// fail returns an error that the tool call turns into the envelope's exception.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func fail(text string) error { return failure(text) }
