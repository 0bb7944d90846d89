// Package py reproduces the small set of Python 3.11 semantics that a faithful reimplementation of
// the API-Bank tools needs: str.isspace/strip/split/lower/upper/isdigit/zfill, int() and repr() of
// strings, repr() of floats, and datetime.strptime/strftime restricted to the three date formats the
// tools use (see TOOLS.md §0).
//
// Character properties follow the Unicode 14.0 database that Python 3.11 ships. Go's unicode package
// is newer (15.0 at Go 1.26); the characters assigned after 14.0 are treated here as unassigned, so
// they are not digits, not letters with case and not printable, exactly as in Python 3.11.
//
// Strings are handled as UTF-8. An invalid byte, which a Python string cannot hold, passes through
// the string functions unchanged and is never a digit or whitespace; Repr shows it as U+FFFD. Text
// that comes from JSON never contains one.
package py
