// Package queries holds the canned SQL queries of the laboratory, embedded
// in the binary, and reads their headers. `sudokulab query list` lists
// them and `sudokulab query NAME --param k=v` runs one.
//
// Each file NAME.sql starts with a header of SQL comments:
//
//	-- name: success-by-collection
//	-- description: Success rate and running time per configuration and collection.
//	-- param: experiment NULL only the runs of this experiment (NULL: all)
//	-- param: collection paper-puzzles only the puzzles of this collection
//
// A header line whose text after "--" is indented by two spaces or more
// continues the field above it, so a description may span several lines.
// A "-- parameters:" field is free text kept in Query.Notes, as are other
// comment lines of the header. A parameter line gives the parameter's name,
// its default (one word, or a string quoted as in SQL: 'two words', ”
// for the empty string; NULL for SQL NULL) and a one-line doc. The SQL
// refers to parameter p as :p; Bind turns each reference into a
// positional ? and returns the values in order, so values are never
// spliced into the SQL text.
package queries

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// FS holds the query files at its root.
//
//go:embed *.sql
var FS embed.FS

// Query is one canned query.
type Query struct {
	Name        string
	Description string
	// Notes holds the header's free text: a "parameters:" field and
	// comment lines that are not fields.
	Notes  string
	Params []Param
	// SQL is the whole file, header included.
	SQL string
	// File is the file name the query came from.
	File string
}

// Param is a named parameter of a query.
type Param struct {
	Name string
	// Default is the value used when none is given; Null is true when the
	// default is SQL NULL.
	Default string
	Null    bool
	Doc     string
}

// DefaultString returns the default as it is written in a header.
func (p Param) DefaultString() string {
	switch {
	case p.Null:
		return "NULL"
	case p.Default == "" || strings.EqualFold(p.Default, "NULL") || strings.ContainsAny(p.Default, " \t'"):
		return "'" + strings.ReplaceAll(p.Default, "'", "''") + "'"
	}
	return p.Default
}

// All reads and parses every embedded query, sorted by name. Two files
// with the same name are an error.
func All() ([]Query, error) {
	return Load(FS)
}

// Names returns the names of the embedded queries, sorted.
func Names() ([]string, error) {
	qs, err := All()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(qs))
	for i, q := range qs {
		names[i] = q.Name
	}
	return names, nil
}

// Load reads and parses every *.sql file at the root of fsys, sorted by
// name.
func Load(fsys fs.FS) ([]Query, error) {
	files, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	var out []Query
	seen := map[string]string{}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		q, err := Parse(f, string(b))
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[q.Name]; ok {
			return nil, fmt.Errorf("queries: %s and %s are both called %q", prev, f, q.Name)
		}
		seen[q.Name] = f
		out = append(out, q)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Find returns the query called name from qs.
func Find(qs []Query, name string) (Query, bool) {
	for _, q := range qs {
		if q.Name == name {
			return q, true
		}
	}
	return Query{}, false
}

// Parse reads the header of the query in file (used for messages and, when
// the header has no name, as the name without ".sql") and checks that the
// SQL refers only to declared parameters.
func Parse(file, text string) (Query, error) {
	q := Query{File: file, SQL: text}
	errf := func(line int, format string, args ...any) error {
		return fmt.Errorf("query %s:%d: %s", file, line, fmt.Sprintf(format, args...))
	}
	var (
		field *string // the field a continuation line extends
		notes []string
	)
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		line = strings.TrimRight(line, " \t\r")
		if !strings.HasPrefix(line, "--") {
			break
		}
		body := strings.TrimPrefix(line, "--")
		if strings.HasPrefix(body, "  ") || strings.HasPrefix(body, "\t") {
			if field == nil {
				notes = append(notes, strings.TrimSpace(body))
				continue
			}
			*field = strings.TrimSpace(*field + " " + strings.TrimSpace(body))
			continue
		}
		body = strings.TrimSpace(body)
		key, val, ok := strings.Cut(body, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		if !ok || strings.ContainsAny(key, " \t") {
			field = nil
			if body != "" {
				notes = append(notes, body)
			}
			continue
		}
		switch key {
		case "name":
			if q.Name != "" {
				return Query{}, errf(n, "a second name")
			}
			if !validName(val, true) {
				return Query{}, errf(n, "name %q: want letters, digits, '-', '_' and '.'", val)
			}
			q.Name = val
			field = nil
		case "description":
			q.Description = val
			field = &q.Description
		case "param":
			p, err := parseParam(val)
			if err != nil {
				return Query{}, errf(n, "%v", err)
			}
			for _, o := range q.Params {
				if o.Name == p.Name {
					return Query{}, errf(n, "parameter %q declared twice", p.Name)
				}
			}
			q.Params = append(q.Params, p)
			field = &q.Params[len(q.Params)-1].Doc
		default:
			// "parameters:" and any other field are notes for the reader.
			notes = append(notes, body)
			field = &notes[len(notes)-1]
		}
	}
	q.Notes = strings.Join(notes, "\n")
	if q.Name == "" {
		q.Name = strings.TrimSuffix(path.Base(file), ".sql")
	}
	declared := map[string]bool{}
	for _, p := range q.Params {
		declared[p.Name] = true
	}
	for _, name := range Placeholders(text) {
		if !declared[name] {
			return Query{}, fmt.Errorf("query %s: the SQL uses :%s, which the header does not declare (-- param: %s DEFAULT doc)", file, name, name)
		}
	}
	return q, nil
}

// parseParam reads "NAME DEFAULT doc".
func parseParam(s string) (Param, error) {
	name, rest, _ := strings.Cut(s, " ")
	if !validName(name, false) {
		return Param{}, fmt.Errorf("param %q: want NAME DEFAULT doc, NAME of letters, digits and '_'", s)
	}
	p := Param{Name: name}
	rest = strings.TrimSpace(rest)
	switch {
	case rest == "":
		return Param{}, fmt.Errorf("param %s: no default (write NULL or '' for none)", name)
	case rest[0] == '\'':
		var b strings.Builder
		i := 1
		for {
			if i >= len(rest) {
				return Param{}, fmt.Errorf("param %s: unterminated quoted default", name)
			}
			if rest[i] == '\'' {
				if i+1 < len(rest) && rest[i+1] == '\'' {
					b.WriteByte('\'')
					i += 2
					continue
				}
				i++
				break
			}
			b.WriteByte(rest[i])
			i++
		}
		p.Default = b.String()
		rest = rest[i:]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return Param{}, fmt.Errorf("param %s: text right after the quoted default", name)
		}
	default:
		def, after, _ := strings.Cut(rest, " ")
		if strings.EqualFold(def, "NULL") {
			p.Null = true
		} else {
			p.Default = def
		}
		rest = after
	}
	p.Doc = strings.TrimSpace(rest)
	return p, nil
}

// validName reports whether s is a non-empty name of ASCII letters,
// digits and '_' (and '-' and '.' when file is true).
func validName(s string, file bool) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9':
			if !file && i == 0 {
				return false
			}
		case file && (c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// Placeholders returns the names of the :name placeholders in sql, in
// order and with repeats, skipping string literals, quoted identifiers and
// comments.
func Placeholders(sql string) []string {
	var names []string
	scan(sql, func(name string) string {
		names = append(names, name)
		return ""
	}, nil)
	return names
}

// scan walks sql, calls repl for every :name placeholder and, if out is
// not nil, writes sql to it with each placeholder replaced by what repl
// returned.
func scan(sql string, repl func(name string) string, out *strings.Builder) {
	emit := func(s string) {
		if out != nil {
			out.WriteString(s)
		}
	}
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			j := i + 1
			for j < len(sql) {
				if sql[j] == end {
					if end != ']' && j+1 < len(sql) && sql[j+1] == end {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(sql))
			emit(sql[i:j])
			i = j
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = len(sql) - i
			}
			emit(sql[i : i+j])
			i += j
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				j = len(sql)
			} else {
				j += i + 4
			}
			emit(sql[i:j])
			i = j
		case c == ':' && i+1 < len(sql) && isStart(sql[i+1]) && (i == 0 || sql[i-1] != ':'):
			j := i + 1
			for j < len(sql) && isPart(sql[j]) {
				j++
			}
			emit(repl(sql[i+1 : j]))
			i = j
		default:
			emit(sql[i : i+1])
			i++
		}
	}
}

func isStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isPart(c byte) bool  { return isStart(c) || '0' <= c && c <= '9' }

// Bind returns the SQL of q with every :name placeholder replaced by a
// positional ?, and the values to pass for them in order: those in values,
// else the defaults. A value that reads as an integer or a real number is
// passed as one, so that it compares as a number; NULL (any case) is SQL
// NULL. A value for a parameter q does not declare is an error.
func (q Query) Bind(values map[string]string) (string, []any, error) {
	byName := map[string]Param{}
	for _, p := range q.Params {
		byName[p.Name] = p
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := byName[k]; !ok {
			names := make([]string, len(q.Params))
			for i, p := range q.Params {
				names[i] = p.Name
			}
			if len(names) == 0 {
				return "", nil, fmt.Errorf("query %s takes no parameters (got %q)", q.Name, k)
			}
			return "", nil, fmt.Errorf("query %s has no parameter %q (it has: %s)", q.Name, k, strings.Join(names, ", "))
		}
	}
	var (
		b    strings.Builder
		args []any
	)
	scan(q.SQL, func(name string) string {
		p := byName[name]
		v, given := values[name]
		switch {
		case given:
			args = append(args, Value(v))
		case p.Null:
			args = append(args, nil)
		default:
			args = append(args, Value(p.Default))
		}
		return "?"
	}, &b)
	return b.String(), args, nil
}

// Value converts a parameter's text to the value bound: an int64 or a
// float64 when it reads as one, nil for NULL, else the string.
func Value(s string) any {
	if strings.EqualFold(s, "NULL") {
		return nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "nN") {
		return f
	}
	return s
}
