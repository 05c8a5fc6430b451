package main

// The SQL examples of docs/schema.md run: every ```sql block, statement by
// statement, through sudokulab sql (read-only) on a copy of
// lab.db.example, must succeed and return at least one row, so that an
// example naming a rater, configuration or column that does not exist
// fails here.
//
// A block that is not meant to run as it stands (a sketch with names to
// fill in) is marked by an HTML comment on the line before its fence:
//
//	<!-- schema-example: not run (why) -->
//
// and a statement that may rightly return no row on the example database
// carries the SQL comment "-- may be empty" on one of its lines.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sqlExample is one statement of a ```sql block of a Markdown file.
type sqlExample struct {
	line       int // of the block's fence
	stmt       string
	mayBeEmpty bool
}

// sqlExamples returns the statements of the ```sql blocks of a Markdown
// text, leaving out the blocks marked not to run.
func sqlExamples(text string) []sqlExample {
	var (
		out     []sqlExample
		in      bool
		skip    bool
		start   int
		block   strings.Builder
		prevTxt string
	)
	for i, l := range strings.Split(text, "\n") {
		switch {
		case !in && strings.TrimSpace(l) == "```sql":
			in, start = true, i+1
			skip = strings.HasPrefix(strings.TrimSpace(prevTxt), "<!-- schema-example: not run")
			block.Reset()
		case in && strings.TrimSpace(l) == "```":
			in = false
			if !skip {
				for _, s := range splitStatements(block.String()) {
					out = append(out, sqlExample{line: start, stmt: s, mayBeEmpty: strings.Contains(s, "-- may be empty")})
				}
			}
		case in:
			block.WriteString(l + "\n")
		}
		prevTxt = l
	}
	return out
}

// splitStatements splits SQL text at the semicolons outside quotes and
// comments, dropping pieces that hold only comments and blanks.
func splitStatements(sql string) []string {
	var (
		out   []string
		cur   strings.Builder
		quote rune
	)
	flush := func() {
		s := strings.TrimSpace(cur.String())
		cur.Reset()
		code := false
		for _, l := range strings.Split(s, "\n") {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "--") {
				code = true
			}
		}
		if code {
			out = append(out, s)
		}
	}
	rs := []rune(sql)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '-' && i+1 < len(rs) && rs[i+1] == '-':
			// A comment runs to the end of the line; it stays with the
			// statement before it when on the same line.
			j := i
			for j < len(rs) && rs[j] != '\n' {
				j++
			}
			cur.WriteString(string(rs[i:j]))
			i = j - 1
			continue
		case r == ';':
			cur.WriteRune(r)
			// A comment after the semicolon on its line belongs to it.
			j := i + 1
			for j < len(rs) && (rs[j] == ' ' || rs[j] == '\t') {
				j++
			}
			if j+1 < len(rs) && rs[j] == '-' && rs[j+1] == '-' {
				for j < len(rs) && rs[j] != '\n' {
					j++
				}
				cur.WriteString(string(rs[i+1 : j]))
				i = j - 1
			}
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}

func TestSchemaExamplesRun(t *testing.T) {
	text, err := os.ReadFile("../../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := sqlExamples(string(text))
	if len(examples) < 10 {
		t.Fatalf("found %d SQL examples in docs/schema.md, want at least 10", len(examples))
	}
	path := filepath.Join(t.TempDir(), "lab.db")
	src, err := os.ReadFile("../../lab.db.example")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		out, errOut, code := run(t, "--db", path, "-O", "csv", "sql", "--", ex.stmt)
		if code != 0 {
			t.Errorf("docs/schema.md:%d: exit %d: %s\n%s", ex.line, code, strings.TrimSpace(errOut), ex.stmt)
			continue
		}
		if rows := strings.Count(strings.TrimSpace(out), "\n"); rows == 0 && !ex.mayBeEmpty {
			t.Errorf("docs/schema.md:%d: no row on lab.db.example (mark the statement -- may be empty if that is right):\n%s", ex.line, ex.stmt)
		}
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(src) {
		t.Error("running the examples changed the database")
	}
}

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		sql  string
		want []string
	}{
		{"SELECT 1;", []string{"SELECT 1;"}},
		{"SELECT 1;   -- one\nSELECT ';';\n", []string{"SELECT 1;   -- one", "SELECT ';';"}},
		{"-- a comment only\nSELECT 2", []string{"-- a comment only\nSELECT 2"}},
		{"SELECT 'a -- b'; -- c\n-- trailing\n", []string{"SELECT 'a -- b'; -- c"}},
	}
	for _, tt := range tests {
		got := splitStatements(tt.sql)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("splitStatements(%q) = %q, want %q", tt.sql, got, tt.want)
		}
	}
}
