package db

// The guard on SQL a person wrote (--where predicates, `sql` without
// --write, canned queries) that runs on a read-only connection. A read-only
// transaction, rolled back afterwards, already stops every change to the
// tables and undoes what a statement did inside it (SET, set_config, large
// objects, LISTEN). It does not stop the functions that act outside the
// transaction: ending other sessions, session advisory locks, NOTIFY,
// reading and writing the server's files, running programs, reloading the
// configuration, connecting elsewhere. Those are refused here, before the
// statement is sent, by name: RefusedFunctions.
//
// Why a token scan and not the server's own parser: PostgreSQL has no way
// to list the functions a statement calls short of running it (EXPLAIN
// VERBOSE prints them, but as text to parse again, not for utility
// statements, and not inside functions that run SQL text, which must be
// refused anyway). The scan reads the statement as the server's lexer
// does: strings ('', E'', U&'', $tag$ quoting), quoted names, nested
// comments, names holding '$'. Where the engines lex differently (and
// PostgreSQL with standard_conforming_strings off) the text is scanned
// every way and refused if either finds a refused call,
// so a text cannot look like a string to the scan and like code to the
// engine. A call is a name followed by '(' (after spaces and comments);
// schema-qualified and quoted names are the same call, and so is a name
// after a '.' (PostgreSQL reads (x).f as f(x)). The functions that
// run SQL given as text (query_to_xml, ts_stat, dblink, ...) are refused
// too, so a refused name cannot be hidden in a string.

import (
	"errors"
	"slices"
	"strings"

	"sudokulab"
)

// ErrOutside is in the chain of the error for read-only SQL that calls a
// function acting outside its transaction (RefusedFunctions), or that is
// a statement read-only SQL does not run on PostgreSQL (not a query).
var ErrOutside = errors.New("read-only SQL calls no function that acts outside its transaction")

// refused lists the functions read-only SQL may not call, by what they do.
// A name ending in '*' is a prefix.
var refused = []struct {
	why   string
	names []string
}{
	{"acts on other sessions", []string{"pg_terminate_backend", "pg_cancel_backend", "pg_log_backend_memory_contexts"}},
	{"takes a lock that outlives the transaction", []string{"pg_advisory_*", "pg_try_advisory_*"}},
	{"changes a setting", []string{"set_config"}},
	{"sends a notification", []string{"pg_notify"}},
	{"reads or writes large objects", []string{"lo_*", "loread", "lowrite"}},
	{"reads or writes the server's files", []string{"pg_read_file", "pg_read_binary_file", "pg_stat_file", "pg_ls_*",
		"pg_file_*", "pg_logdir_ls"}},
	{"controls the server", []string{"pg_reload_conf", "pg_rotate_logfile", "pg_promote", "pg_switch_wal",
		"pg_create_restore_point", "pg_backup_start", "pg_backup_stop", "pg_start_backup", "pg_stop_backup",
		"pg_wal_replay_*", "pg_stat_reset*", "pg_stat_statements_reset", "pg_import_system_collations"}},
	{"acts on replication", []string{"pg_replication_*", "pg_create_*", "pg_drop_replication_slot", "pg_copy_*",
		"pg_logical_*"}},
	{"runs SQL given as text", []string{"query_to_xml*", "cursor_to_xml*", "ts_stat", "ts_rewrite"}},
	{"connects to another database", []string{"dblink*"}},
	{"loads code or touches files (SQLite)", []string{"load_extension", "readfile", "writefile", "edit", "fsdir",
		"zipfile", "fts3_tokenizer"}},
}

// RefusedFunctions returns, sorted, the functions (a trailing '*': every
// function whose name starts so) that read-only SQL may not call on
// either engine, because they act outside the read-only transaction.
func RefusedFunctions() []string {
	var out []string
	for _, r := range refused {
		out = append(out, r.names...)
	}
	slices.Sort(out)
	return out
}

// refusedWhy returns what the function name does that read-only SQL
// refuses, or "" when it may be called.
func refusedWhy(name string) string {
	for _, r := range refused {
		for _, n := range r.names {
			if p, ok := strings.CutSuffix(n, "*"); ok && strings.HasPrefix(name, p) || name == n {
				return r.why
			}
		}
	}
	return ""
}

// queryKeywords are the first words of the statements read-only SQL runs
// on PostgreSQL: queries, and SHOW. writeKeywords start statements that
// change the database, which the read-only transaction refuses (with the
// error that names --write). COPY, SET, NOTIFY, LISTEN, DO, CALL, LOCK,
// PREPARE, transaction control and every other statement are refused.
var (
	queryKeywords = map[string]bool{"select": true, "with": true, "values": true, "table": true, "explain": true, "show": true}
	writeKeywords = map[string]bool{"insert": true, "update": true, "delete": true, "merge": true, "create": true,
		"drop": true, "alter": true, "truncate": true, "grant": true, "revoke": true, "comment": true}
)

// checkCalls refuses SQL text that calls a refused function, as lexed by
// either engine.
func checkCalls(text string) error {
	// PostgreSQL read with and without backslash escapes in plain
	// strings: a predicate of a writing command runs outside the
	// read-only transaction, under the server's standard_conforming_strings.
	lexers := []func(string) ([]token, error){
		func(s string) ([]token, error) { return lexPostgres(s, false) },
		func(s string) ([]token, error) { return lexPostgres(s, true) },
		lexSQLite,
	}
	for _, lex := range lexers {
		toks, err := lex(text)
		if err != nil {
			return err
		}
		for i, t := range toks {
			// f(...), or (x).f: PostgreSQL's attribute notation for f(x).
			called := i+1 < len(toks) && toks[i+1].text == "("
			projected := i > 0 && toks[i-1].text == "."
			if t.kind != tokName || !called && !projected {
				continue
			}
			if why := refusedWhy(t.text); why != "" {
				return sudokulab.WrapError(sudokulab.EINVALID, ErrOutside, "sql: %s() %s, which read-only SQL refuses", t.text, why)
			}
		}
	}
	return nil
}

// checkPostgresStatement refuses a statement that read-only SQL does not
// run on PostgreSQL: anything but a query or SHOW (see queryKeywords), or
// one calling a refused function.
func checkPostgresStatement(text string) error {
	toks, err := lexPostgres(text, false)
	if err != nil {
		return err
	}
	first := ""
	for _, t := range toks {
		if t.text != "(" { // a parenthesised query
			first = t.text
			break
		}
	}
	if first != "" && !queryKeywords[first] && !writeKeywords[first] {
		return sudokulab.WrapError(sudokulab.EINVALID, ErrOutside,
			"sql: read-only SQL on PostgreSQL runs queries (SELECT, WITH, VALUES, TABLE, EXPLAIN) and SHOW, not %s", strings.ToUpper(first))
	}
	return checkCalls(text)
}

// token is one token that matters to the guard: a name (lower-cased
// unless quoted) or a punctuation character. Strings, numbers and
// comments are dropped.
type token struct {
	kind int
	text string
}

const (
	tokName = iota
	tokPunct
)

func isNameStart(c byte) bool {
	return c == '_' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isNameByte(c byte) bool { return isNameStart(c) || ('0' <= c && c <= '9') || c == '$' }

// quoted returns the end (just past the closing quote) of the text quoted
// by q starting at s[i], a doubled q standing for itself; with backslash
// a backslash also escapes the next byte. An unterminated quote runs to
// the end: the database refuses it.
func quoted(s string, i int, q byte, backslash bool) int {
	for j := i + 1; j < len(s); j++ {
		switch {
		case backslash && s[j] == '\\':
			j++
		case s[j] == q && j+1 < len(s) && s[j+1] == q:
			j++
		case s[j] == q:
			return j + 1
		}
	}
	return len(s)
}

// name reads a name starting at s[i] and returns its end.
func name(s string, i int) int {
	j := i + 1
	for j < len(s) && isNameByte(s[j]) {
		j++
	}
	return j
}

// plain reads the token at s[i] that both engines read alike: a number
// (digits, points, '_'; letters after them start a name, as they would for
// PostgreSQL before version 15), a name, or a punctuation character. It
// returns the end of the token and out with the token added.
func plain(s string, i int, out []token) (int, []token) {
	switch c := s[i]; {
	case '0' <= c && c <= '9' || c == '.' && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9':
		i++
		for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '.' || s[i] == '_') {
			i++
		}
		return i, out
	case isNameStart(c):
		j := name(s, i)
		return j, append(out, token{tokName, strings.ToLower(s[i:j])})
	}
	return i + 1, append(out, token{tokPunct, s[i : i+1]})
}

// lexPostgres splits text as PostgreSQL's lexer does, with backslash
// escapes in plain strings if backslash (standard_conforming_strings off;
// read-only transactions set it on).
func lexPostgres(s string, backslash bool) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexAny(s[i:], "\n\r")
			if j < 0 {
				return out, nil
			}
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			// Comments nest.
			depth, j := 1, i+2
			for ; j < len(s) && depth > 0; j++ {
				switch {
				case strings.HasPrefix(s[j:], "/*"):
					depth++
					j++
				case strings.HasPrefix(s[j:], "*/"):
					depth--
					j++
				}
			}
			i = j
		case c == '\'':
			i = quoted(s, i, '\'', backslash)
		case (c == 'e' || c == 'E') && i+1 < len(s) && s[i+1] == '\'':
			i = quoted(s, i+1, '\'', true)
		case (c == 'u' || c == 'U') && strings.HasPrefix(s[i+1:], "&'"):
			i = quoted(s, i+2, '\'', false)
		case (c == 'u' || c == 'U') && strings.HasPrefix(s[i+1:], "&\""):
			return nil, sudokulab.WrapError(sudokulab.EINVALID, ErrOutside, "sql: read-only SQL refuses Unicode-escaped names (U&\"...\")")
		case c == '"':
			j := quoted(s, i, '"', false)
			out = append(out, token{tokName, strings.ReplaceAll(strings.TrimSuffix(s[i+1:j], `"`), `""`, `"`)})
			i = j
		case c == '$':
			// A dollar quote $tag$...$tag$, or a parameter $1.
			j := i + 1
			if j < len(s) && isNameStart(s[j]) {
				for j < len(s) && isNameByte(s[j]) && s[j] != '$' {
					j++
				}
			}
			if j < len(s) && s[j] == '$' {
				tag := s[i : j+1]
				end := strings.Index(s[j+1:], tag)
				if end < 0 {
					return out, nil
				}
				i = j + 1 + end + len(tag)
				break
			}
			i++
			for i < len(s) && '0' <= s[i] && s[i] <= '9' {
				i++
			}
		default:
			i, out = plain(s, i, out)
		}
	}
	return out, nil
}

// lexSQLite splits text as SQLite's tokenizer does.
func lexSQLite(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return out, nil
			}
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return out, nil
			}
			i += j + 4
		case c == '\'':
			i = quoted(s, i, '\'', false)
		case c == '"' || c == '`':
			j := quoted(s, i, c, false)
			out = append(out, token{tokName, strings.ToLower(strings.ReplaceAll(strings.TrimSuffix(s[i+1:j], string(c)), string(c)+string(c), string(c)))})
			i = j
		case c == '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return out, nil
			}
			out = append(out, token{tokName, strings.ToLower(s[i+1 : i+j])})
			i += j + 1
		default:
			i, out = plain(s, i, out)
		}
	}
	return out, nil
}
