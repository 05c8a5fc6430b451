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
// refused anyway). The scan is predicateReader's, which reads text as
// each engine's tokenizer does (strings, E'' and $tag$ quoting, quoted
// names, nested comments, names holding '$', SQLite's variables), every
// way the engines differ, so a text cannot look like a string to the scan
// and like code to the engine. A call is a name followed by '(' (after
// spaces and comments); schema-qualified and quoted names are the same
// call, and so is a name after a '.' (PostgreSQL reads (x).f as f(x)).
// Unicode-escaped names (U&"...") could spell any name and are refused.
// The functions that run SQL given as text (query_to_xml, ts_stat,
// dblink, ...) are refused too, so a refused name cannot be hidden in a
// string.

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

// checkCalls refuses SQL text that calls a refused function, or names one
// with U&"...", as any of predicateReaders reads it.
func checkCalls(text string) error {
	for _, r := range predicateReaders {
		var prev, last token
		var err error
		// A text the reader cannot read to its end fails in the engine
		// that reads it so: only the tokens before matter.
		r.scan(text, func(t token, _ int) string {
			// f(...), or (x).f: PostgreSQL's attribute notation for f(x).
			if t.text == "(" && last.kind == tokName || last.kind == tokName && prev.text == "." {
				if why := refusedWhy(last.text); why != "" {
					err = sudokulab.WrapError(sudokulab.EINVALID, ErrOutside, "sql: %s() %s, which read-only SQL refuses", last.text, why)
				}
			}
			if t.kind == tokUnicodeName {
				err = sudokulab.WrapError(sudokulab.EINVALID, ErrOutside, "sql: read-only SQL refuses Unicode-escaped names (%s)", t.text)
			}
			if err != nil {
				return "refused"
			}
			prev, last = last, t
			return ""
		})
		if err == nil && last.kind == tokName && prev.text == "." && refusedWhy(last.text) != "" {
			err = sudokulab.WrapError(sudokulab.EINVALID, ErrOutside, "sql: %s() %s, which read-only SQL refuses", last.text, refusedWhy(last.text))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkPostgresStatement refuses a statement that read-only SQL does not
// run on PostgreSQL: anything but a query or SHOW (see queryKeywords), or
// one calling a refused function.
func checkPostgresStatement(text string) error {
	first := ""
	pg := predicateReader{engine: "PostgreSQL", pg: true} // as read-only transactions set standard_conforming_strings
	pg.scan(text, func(t token, _ int) string {
		if t.text == "(" { // a parenthesised query
			return ""
		}
		first = t.text
		return "first"
	})
	if first != "" && !queryKeywords[first] && !writeKeywords[first] {
		return sudokulab.WrapError(sudokulab.EINVALID, ErrOutside,
			"sql: read-only SQL on PostgreSQL runs queries (SELECT, WITH, VALUES, TABLE, EXPLAIN) and SHOW, not %s", strings.ToUpper(first))
	}
	return checkCalls(text)
}

// token is one token that matters to the checks of SQL a person wrote: a
// name or a punctuation character. Literals, numbers and comments are
// left out (see predicateReader.scan).
type token struct {
	kind int
	text string
}

const (
	tokName = iota + 1
	tokUnicodeName
	tokPunct
)
