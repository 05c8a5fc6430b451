package queries_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sudokulab/queries"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, file, text string
		want             queries.Query
		err              string
	}{
		{
			name: "full header",
			file: "a.sql",
			text: "-- name: a\n-- description: one\n--   two\n-- param: config NULL the configuration\n--   (NULL: all)\n-- param: n 10 how many\n-- param: label 'hard one' a label\n-- param: empty '' nothing\nSELECT :config, :n, :label, :empty, :n\n",
			want: queries.Query{Name: "a", Description: "one two", Params: []queries.Param{
				{Name: "config", Null: true, Doc: "the configuration (NULL: all)"},
				{Name: "n", Default: "10", Doc: "how many"},
				{Name: "label", Default: "hard one", Doc: "a label"},
				{Name: "empty", Default: "", Doc: "nothing"},
			}},
		},
		{
			name: "parameters note and no name",
			file: "dir/b.sql",
			text: "-- description: d\n-- parameters: none; it reads\n--   the runs.\nSELECT 1 -- :not a placeholder\n",
			want: queries.Query{Name: "b", Description: "d", Notes: "parameters: none; it reads the runs."},
		},
		{
			name: "quoted defaults and literals",
			file: "c.sql",
			text: "-- name: c\n-- param: s 'it''s' doc\nSELECT ':x', \":y\", [:z], :s /* :w */, CAST(1 AS TEXT)\n",
			want: queries.Query{Name: "c", Params: []queries.Param{{Name: "s", Default: "it's", Doc: "doc"}}},
		},
		{name: "undeclared", file: "d.sql", text: "-- name: d\nSELECT :x\n", err: "does not declare"},
		{name: "no default", file: "e.sql", text: "-- name: e\n-- param: x\nSELECT :x\n", err: "no default"},
		{name: "twice", file: "f.sql", text: "-- name: f\n-- param: x 1 a\n-- param: x 2 b\nSELECT :x\n", err: "declared twice"},
		{name: "bad name", file: "g.sql", text: "-- name: g h\nSELECT 1\n", err: "name \"g h\""},
		{name: "unterminated", file: "h.sql", text: "-- name: h\n-- param: x 'a doc\nSELECT :x\n", err: "unterminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := queries.Parse(tt.file, tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.File, tt.want.SQL = tt.file, tt.text
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestBind(t *testing.T) {
	q, err := queries.Parse("q.sql", "-- name: q\n-- param: config NULL c\n-- param: n 10 n\n-- param: s abc s\nSELECT * FROM t WHERE (:config IS NULL OR config = :config) AND n < :n AND s = ':n' AND x = :s\n")
	if err != nil {
		t.Fatal(err)
	}
	sql, args, err := q.Bind(map[string]string{"n": "2.5", "s": "x y"})
	if err != nil {
		t.Fatal(err)
	}
	wantSQL := "SELECT * FROM t WHERE (? IS NULL OR config = ?) AND n < ? AND s = ':n' AND x = ?\n"
	if !strings.HasSuffix(sql, wantSQL) {
		t.Errorf("sql = %q, want suffix %q", sql, wantSQL)
	}
	if want := []any{nil, nil, 2.5, "x y"}; !reflect.DeepEqual(args, want) {
		t.Errorf("args = %#v, want %#v", args, want)
	}
	_, args, _ = q.Bind(map[string]string{"config": "exact"})
	if want := []any{"exact", "exact", int64(10), "abc"}; !reflect.DeepEqual(args, want) {
		t.Errorf("args = %#v, want %#v", args, want)
	}
	if _, _, err := q.Bind(map[string]string{"nope": "1"}); err == nil || !strings.Contains(err.Error(), "has no parameter \"nope\" (it has: config, n, s)") {
		t.Errorf("unknown parameter: %v", err)
	}
}

func TestValue(t *testing.T) {
	for in, want := range map[string]any{"12": int64(12), "-3": int64(-3), "0.5": 0.5, "1e3": 1000.0, "null": nil, "NaN": "NaN", "Inf": "Inf", "abc": "abc", "": ""} {
		if got := queries.Value(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Value(%q) = %#v, want %#v", in, got, want)
		}
	}
}

// TestShipped checks that every embedded file parses and that its
// parameters are all used.
func TestShipped(t *testing.T) {
	qs, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.sql")
	if len(qs) != len(files) || len(qs) == 0 {
		t.Fatalf("%d queries from %d files", len(qs), len(files))
	}
	for _, q := range qs {
		if q.Description == "" {
			t.Errorf("%s: no description", q.File)
		}
		used := map[string]bool{}
		for _, n := range queries.Placeholders(q.SQL) {
			used[n] = true
		}
		for _, p := range q.Params {
			if !used[p.Name] {
				t.Errorf("%s: parameter %s is declared but not used", q.File, p.Name)
			}
			if p.Doc == "" {
				t.Errorf("%s: parameter %s has no doc", q.File, p.Name)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("*.sql")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("-- name: x\n-- param: a 'b''c' d\n--   e\nSELECT :a\n")
	f.Add("-- param: a '\n")
	f.Fuzz(func(t *testing.T, text string) {
		q, err := queries.Parse("fuzz.sql", text)
		if err != nil {
			return
		}
		// A parsed query binds with its defaults, one argument per
		// placeholder, and leaves no placeholder behind.
		sql, args, err := q.Bind(nil)
		if err != nil {
			t.Fatalf("Bind: %v", err)
		}
		if n := len(queries.Placeholders(text)); len(args) != n {
			t.Fatalf("%d args for %d placeholders", len(args), n)
		}
		if p := queries.Placeholders(sql); len(p) != 0 {
			t.Fatalf("placeholders left after Bind: %v", p)
		}
		// A default written back reads the same.
		for _, p := range q.Params {
			r, err := queries.Parse("fuzz.sql", "-- param: "+p.Name+" "+p.DefaultString()+" doc\n")
			if err != nil || len(r.Params) != 1 || r.Params[0].Default != p.Default || r.Params[0].Null != p.Null {
				t.Fatalf("default %q (null %v) does not round-trip: %+v, %v", p.Default, p.Null, r.Params, err)
			}
		}
	})
}
