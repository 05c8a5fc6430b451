package db

import (
	"fmt"
	"strings"

	"sudokulab"
)

// A predicate a person gives (--where, --runs-where) is pasted into the
// store's SQL inside parentheses, as "... AND (" + where + "\n)". It must
// not leave them: "0) OR (1=1" would turn "id > 10 AND (0) OR (1=1)" into
// a condition that no longer holds the rest of the statement. So a
// predicate is read here the way each engine's tokenizer reads it (SQLite's
// tokenize.c, PostgreSQL's scan.l, the latter with and without backslash
// escapes in plain strings, since a server may run with
// standard_conforming_strings off), and it is refused unless, read every
// way, its parentheses balance without ever closing one they did not open,
// its strings, quoted names and comments end, and it holds no ';'. What is
// inside the parentheses is then the database's to parse.

// predicateReader reads a predicate the way one engine tokenizes SQL.
type predicateReader struct {
	// engine names the reading in messages.
	engine string
	// pg reads PostgreSQL's tokens; otherwise SQLite's.
	pg bool
	// backslash makes a backslash escape the next character in plain
	// strings (PostgreSQL with standard_conforming_strings off).
	backslash bool
}

var predicateReaders = []predicateReader{
	{engine: "SQLite"},
	{engine: "PostgreSQL", pg: true},
	{engine: "PostgreSQL", pg: true, backslash: true},
}

// checkPredicate refuses a predicate that could leave the parentheses it
// is pasted into or end the statement (see predicateReader), or that calls
// a function acting outside the read-only transaction (RefusedFunctions).
func checkPredicate(where string) error {
	if err := checkCalls(where); err != nil {
		return err
	}
	if strings.IndexByte(where, 0) >= 0 {
		return sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: holds a NUL byte", where)
	}
	for _, r := range predicateReaders {
		if reason := r.check(where); reason != "" {
			return sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", where, reason)
		}
	}
	return nil
}

// check returns why the predicate cannot be pasted between parentheses as
// this engine reads it, or "".
func (r predicateReader) check(s string) string {
	depth := 0
	stray := "" // the first ')' without its '('
	reason := r.scan(s, func(t token, at int) string {
		switch t.text {
		case "(":
			depth++
		case ")":
			if depth == 0 && stray == "" {
				// Read on: a ';' is the graver fault.
				stray = fmt.Sprintf("the ')' at byte %d closes a parenthesis the predicate did not open", at)
			}
			depth--
		case ";":
			return "must be one expression, without ';'"
		}
		return ""
	})
	if reason != "" {
		return reason
	}
	return r.closeAt(depth, stray)
}

// scan reads s as this engine tokenizes SQL and calls visit, with its
// byte offset, for each token that is not a literal or a comment: a name
// (tokName: lower-cased, as given inside quotes on PostgreSQL), a
// Unicode-escaped PostgreSQL name U&"..." (tokUnicodeName, which could
// spell any name), and each other character (tokPunct). It returns why s
// cannot be read to its end (a string, quoted name or comment that does
// not end, an ambiguous '$'), or the first reason a visit returned, or "".
func (r predicateReader) scan(s string, visit func(t token, at int) string) string {
	for i := 0; i < len(s); {
		c := s[i]
		var t token
		at := i
		switch {
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return "" // the wrapper's newline ends the comment
			}
			i += j + 1
			continue
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			end := r.commentEnd(s, i)
			if end < 0 {
				return "a /* comment is not closed"
			}
			i = end
			continue
		case c == '\'':
			end := r.quoted(s, i, '\'', r.backslash)
			if end < 0 {
				return fmt.Sprintf("a string opened at byte %d is not closed (as %s reads it)", i, r.engine)
			}
			i = end
			continue
		case c == '"' || (c == '`' || c == '[') && !r.pg:
			closer := c
			if c == '[' {
				closer = ']'
			}
			end := r.quoted(s, i, closer, false)
			if end < 0 {
				return fmt.Sprintf("a quoted name opened at byte %d is not closed (as %s reads it)", i, r.engine)
			}
			name := s[i+1 : end-1]
			if closer != ']' {
				name = strings.ReplaceAll(name, string(closer)+string(closer), string(closer))
			}
			if !r.pg {
				name = strings.ToLower(name) // SQLite's names ignore case, quoted or not
			}
			t, i = token{tokName, name}, end
		case c == '$' && r.pg:
			end, ok := dollarQuoted(s, i)
			if !ok {
				return fmt.Sprintf("a $-quoted string opened at byte %d is not closed (as %s reads it)", i, r.engine)
			}
			if end == i+1 {
				t = token{tokPunct, "$"}
			}
			i = end
		case (c == '$' || c == '@' || c == ':' || c == '#') && !r.pg:
			i = sqliteVariable(s, i)
			continue
		case r.pg && (c == 'u' || c == 'U') && strings.HasPrefix(s[i+1:], "&\""):
			end := r.quoted(s, i+2, '"', false)
			if end < 0 {
				return fmt.Sprintf("a quoted name opened at byte %d is not closed (as %s reads it)", i+2, r.engine)
			}
			t, i = token{tokUnicodeName, s[i:end]}, end
		case identStart(c) || isDigit(c):
			j := i + 1
			for j < len(s) && (identChar(s[j]) || isDigit(c) && s[j] == '.') {
				j++
			}
			// Where a number ends before a '$' differs between
			// PostgreSQL's versions, and a '$' there may open a string.
			if r.pg && isDigit(c) && strings.IndexByte(s[i:j], '$') >= 0 {
				return fmt.Sprintf("the '$' after the number at byte %d is ambiguous: put a space before it", i)
			}
			// PostgreSQL's E'...' strings take backslash escapes.
			if r.pg && j == i+1 && (c == 'e' || c == 'E') && j < len(s) && s[j] == '\'' {
				end := r.quoted(s, j, '\'', true)
				if end < 0 {
					return fmt.Sprintf("a string opened at byte %d is not closed (as %s reads it)", j, r.engine)
				}
				i = end
				continue
			}
			word := s[i:j]
			if isDigit(c) {
				// Letters after a number may start a name (PostgreSQL
				// before version 15): read them as one, to be safe.
				word = strings.TrimLeft(word, "0123456789._")
			}
			if word != "" {
				t = token{tokName, strings.ToLower(word)}
			}
			i = j
		case isSpace(c) || c == '\v':
			i++
			continue
		default:
			t = token{tokPunct, s[i : i+1]}
			i++
		}
		if t.text != "" {
			if reason := visit(t, at); reason != "" {
				return reason
			}
		}
	}
	return ""
}

// closeAt is the complaint about the parentheses at the end: a stray ')'
// met on the way, or '(' left open.
func (r predicateReader) closeAt(depth int, stray string) string {
	if stray != "" {
		return stray
	}
	if depth > 0 {
		return fmt.Sprintf("%d '(' not closed", depth)
	}
	return ""
}

// identChar reports whether c continues a name, keyword or number (a
// number also takes '.'). Both engines take '$' inside a name; SQLite's
// numbers swallow the name characters after them (as an illegal token),
// and PostgreSQL's trailing letters make a new name or an error, so
// reading them as one token changes no parenthesis.
func identChar(c byte) bool { return identStart(c) || isDigit(c) || c == '$' }

func identStart(c byte) bool {
	return c == '_' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// quoted returns the index after the quoted token that starts at s[i] and
// ends with closer (a doubled closer stands for itself, except in SQLite's
// [names]), or -1 when it does not end.
func (r predicateReader) quoted(s string, i int, closer byte, backslash bool) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if backslash {
				j++
			}
		case closer:
			if closer != ']' && j+1 < len(s) && s[j+1] == closer {
				j++
				continue
			}
			return j + 1
		}
	}
	return -1
}

// commentEnd returns the index after the /* comment at s[i], or -1 when
// it does not end. PostgreSQL's comments nest; SQLite's end at the first
// */.
func (r predicateReader) commentEnd(s string, i int) int {
	depth := 0
	for j := i; j+1 < len(s); j++ {
		switch {
		case s[j] == '/' && s[j+1] == '*' && (r.pg || depth == 0):
			depth++
			j++
		case s[j] == '*' && s[j+1] == '/':
			depth--
			j++
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// dollarQuoted returns the index after the PostgreSQL token that starts
// with the '$' at s[i]: a $tag$...$tag$ string, a $1 parameter or a lone
// '$'. ok is false for a string that does not end.
func dollarQuoted(s string, i int) (end int, ok bool) {
	j := i + 1
	if j < len(s) && isDigit(s[j]) {
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		return j, true
	}
	if j < len(s) && identStart(s[j]) {
		for j < len(s) && (identStart(s[j]) || isDigit(s[j])) {
			j++
		}
	}
	if j >= len(s) || s[j] != '$' {
		return i + 1, true
	}
	tag := s[i : j+1]
	k := strings.Index(s[j+1:], tag)
	if k < 0 {
		return 0, false
	}
	return j + 1 + k + len(tag), true
}

// sqliteVariable returns the index after SQLite's variable token that
// starts at s[i] ($name, @name, :name or #name), which may end with a
// Tcl-style "(...)" holding anything but spaces up to the first ')'.
func sqliteVariable(s string, i int) int {
	n := 0
	j := i + 1
	for ; j < len(s); j++ {
		c := s[j]
		switch {
		case identStart(c) || isDigit(c) || c == '$':
			n++
		case c == '(' && n > 0:
			for j++; j < len(s) && !isSpace(s[j]) && s[j] != ')'; j++ {
			}
			if j < len(s) && s[j] == ')' {
				j++
			}
			return j
		case c == ':' && j+1 < len(s) && s[j+1] == ':':
			j++
		default:
			return j
		}
	}
	return j
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// AndPredicates joins predicates with AND into one, each checked as
// CheckPredicate does and kept in its own parentheses, so that none can
// reach into another; empty ones are left out. A predicate a person gave
// is checked before it is combined: once wrapped, "0) OR (1=1" would
// balance.
func AndPredicates(preds ...string) (string, error) {
	var parts []string
	for _, p := range preds {
		if strings.TrimSpace(p) == "" {
			continue
		}
		if err := checkPredicate(p); err != nil {
			return "", err
		}
		parts = append(parts, p)
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(" AND ")
		}
		// The newline ends a trailing "--" comment.
		b.WriteString("(" + p + "\n)")
	}
	return b.String(), nil
}
