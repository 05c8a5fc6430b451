package migrations_test

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite"

	"sudokulab/internal/pgtest"
	"sudokulab/migrations"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// dialect is one engine the migrations run on: how to open an empty
// database, the goose dialect, the files, and how to read its schema back.
type dialect struct {
	name       string
	open       func(t *testing.T) *sql.DB
	goose      goose.Dialect
	migrations fs.FS
	// objects lists every schema object the migrations made, one line
	// each, with enough detail (columns, definitions) that an Up, Down, Up
	// that leaves anything different shows.
	objects func(t *testing.T, db *sql.DB) []string
	// describe reads the schema for the parity test.
	describe func(t *testing.T, db *sql.DB) schema
}

var dialects = []dialect{
	{
		name: "sqlite",
		open: func(t *testing.T) *sql.DB {
			return openDB(t, "sqlite", "file:"+filepath.Join(t.TempDir(), "m.db")+"?_pragma=foreign_keys(1)")
		},
		goose:      goose.DialectSQLite3,
		migrations: migrations.FS,
		objects:    sqliteObjects,
		describe:   describeSQLite,
	},
	{
		name:       "postgres",
		open:       func(t *testing.T) *sql.DB { return openDB(t, "pgx", pgtest.DSN(t)) },
		goose:      goose.DialectPostgres,
		migrations: migrations.PostgresFS,
		objects:    postgresObjects,
		describe:   describePostgres,
	},
}

func openDB(t *testing.T, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.PingContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

func provider(t *testing.T, d dialect, db *sql.DB) *goose.Provider {
	t.Helper()
	p, err := goose.NewProvider(d.goose, db, d.migrations, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFiles(t *testing.T) {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("embedded migrations: %v %v", names, err)
	}
	valid := regexp.MustCompile(`^\d{5}_[a-z0-9_]+\.sql$`)
	for _, d := range dialects {
		files, err := fs.Glob(d.migrations, "*.sql")
		if err != nil {
			t.Fatal(err)
		}
		// One migration history: the same versions under the same names.
		if !slices.Equal(files, names) {
			t.Errorf("%s migrations %v, want the same files as SQLite's %v", d.name, files, names)
		}
		for i, name := range files {
			if !valid.MatchString(name) || !strings.HasPrefix(name, fmt.Sprintf("%05d_", i+1)) {
				t.Errorf("%s: %s: want %05d_description.sql", d.name, name, i+1)
			}
			b, err := fs.ReadFile(d.migrations, name)
			if err != nil {
				t.Fatal(err)
			}
			for _, ann := range []string{"-- +goose Up", "-- +goose Down"} {
				if !strings.Contains(string(b), "\n"+ann+"\n") {
					t.Errorf("%s: %s lacks %q", d.name, name, ann)
				}
			}
		}
	}
}

// TestUpDownUp applies every migration, reverts them all, and applies them
// again, on every engine: each Down section undoes its Up section exactly
// (checked one version at a time on the way down).
func TestUpDownUp(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			ctx := context.Background()
			db := d.open(t)
			p := provider(t, d, db)
			objects := func() string { return strings.Join(d.objects(t, db), "\n") }
			// The schema after each version, from 0 (empty) on.
			var after []string
			after = append(after, objects())
			if after[0] != "" {
				t.Fatalf("a new database holds:\n%s", after[0])
			}
			for _, src := range p.ListSources() {
				if _, err := p.UpTo(ctx, src.Version); err != nil {
					t.Fatal(err)
				}
				after = append(after, objects())
			}
			first := after[len(after)-1]
			for _, want := range []string{"table puzzles", "table trajectory_points", "table work", "view puzzle_catalog",
				"view run_results", "view rating_table", "view work_progress", "index runs_config_id_status"} {
				if !strings.Contains(first, want+" ") && !strings.Contains(first, want+"\n") {
					t.Errorf("schema lacks %s", want)
				}
			}
			for v := len(after) - 2; v >= 0; v-- {
				if _, err := p.Down(ctx); err != nil {
					t.Fatal(err)
				}
				if got := objects(); got != after[v] {
					t.Fatalf("down to version %d leaves another schema than up to it:\n%s",
						v, lineDiff(strings.Split(after[v], "\n"), strings.Split(got, "\n")))
				}
			}
			if _, err := p.Up(ctx); err != nil {
				t.Fatal(err)
			}
			if again := objects(); again != first {
				t.Fatalf("schema differs after up, down, up:\n%s", lineDiff(strings.Split(first, "\n"), strings.Split(again, "\n")))
			}
		})
	}
}

// TestSchemaParity migrates a SQLite and a PostgreSQL database and
// compares what they hold: the same tables and views with the same columns
// in the same order, each column of the same type class (integer, real,
// text) and nullability, the same primary keys, unique constraints,
// foreign keys and indexes. View columns are compared by name, and by
// type class where SQLite knows the type (a column taken straight from a
// table).
func TestSchemaParity(t *testing.T) {
	ctx := context.Background()
	var schemas []schema
	for _, d := range dialects {
		db := d.open(t)
		if _, err := provider(t, d, db).Up(ctx); err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		schemas = append(schemas, d.describe(t, db))
	}
	lite, pg := schemas[0], schemas[1]
	if len(lite.relations) == 0 {
		t.Fatal("SQLite schema is empty")
	}
	// SQLite gives no type for a view column computed by an expression.
	for name, rl := range lite.relations {
		rp, ok := pg.relations[name]
		if !ok || rl.kind != "view" || rp.kind != "view" {
			continue
		}
		for i := range min(len(rl.columns), len(rp.columns)) {
			if rl.columns[i].class == "" {
				rp.columns[i].class = ""
			}
		}
	}
	if diff := lineDiff(lite.lines(), pg.lines()); diff != "" {
		t.Errorf("the PostgreSQL schema (+) differs from the SQLite one (-):\n%s", diff)
	}
}

// schema is what TestSchemaParity compares.
type schema struct {
	relations map[string]*relation
	// constraints and indexes are lines such as
	// "puzzles: unique (box_rows, box_cols, grid)".
	constraints []string
}

type relation struct {
	kind    string // "table" or "view"
	columns []column
}

type column struct {
	name    string
	class   string // integer, real or text; "" when unknown
	notNull bool
}

func (s schema) lines() []string {
	var out []string
	for name, r := range s.relations {
		for i, c := range r.columns {
			l := fmt.Sprintf("%s %s: column %02d %s %s", r.kind, name, i+1, c.name, c.class)
			if c.notNull {
				l += " not null"
			}
			out = append(out, l)
		}
	}
	out = append(out, s.constraints...)
	slices.Sort(out)
	return out
}

// lineDiff lists the lines only in a (-) and only in b (+).
func lineDiff(a, b []string) string {
	count := map[string]int{}
	for _, l := range a {
		count[l]++
	}
	for _, l := range b {
		count[l]--
	}
	var out []string
	for l, n := range count {
		for ; n > 0; n-- {
			out = append(out, "- "+l)
		}
		for ; n < 0; n++ {
			out = append(out, "+ "+l)
		}
	}
	slices.SortFunc(out, func(x, y string) int { return strings.Compare(x[2:]+x[:1], y[2:]+y[:1]) })
	return strings.Join(out, "\n")
}

// typeClass maps a declared SQLite type or a PostgreSQL data_type to
// integer, real or text; anything else is kept as it is, so that it shows
// as a difference.
func typeClass(t string) string {
	switch strings.ToLower(t) {
	case "":
		return ""
	case "integer", "int", "bigint", "smallint":
		return "integer"
	case "real", "double precision", "numeric", "float":
		return "real"
	case "text", "character varying":
		return "text"
	}
	return strings.ToLower(t)
}

// rows runs query and returns its rows as strings.
func rows(t *testing.T, db *sql.DB, query string) [][]string {
	t.Helper()
	rs, err := db.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rs.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
		}
		out = append(out, row)
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func addColumn(s *schema, kind, table string, c column) {
	if s.relations[table] == nil {
		s.relations[table] = &relation{kind: kind}
	}
	s.relations[table].columns = append(s.relations[table].columns, c)
}

func describeSQLite(t *testing.T, db *sql.DB) schema {
	s := schema{relations: map[string]*relation{}}
	pks := map[string][]string{}
	for _, r := range rows(t, db, `
		SELECT m.type, m.name, p.name, p.type, p."notnull", p.pk
		FROM sqlite_schema m, pragma_table_info(m.name) p
		WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\' AND m.name <> 'goose_db_version'
		ORDER BY m.name, p.cid`) {
		kind, table := r[0], r[1]
		pk := r[5] != "0"
		addColumn(&s, kind, table, column{name: r[2], class: typeClass(r[3]), notNull: kind == "table" && (r[4] == "1" || pk)})
		if n, _ := strconv.Atoi(r[5]); n > 0 {
			for len(pks[table]) < n {
				pks[table] = append(pks[table], "")
			}
			pks[table][n-1] = r[2]
		}
	}
	for table, cols := range pks {
		s.constraints = append(s.constraints, fmt.Sprintf("%s: primary key (%s)", table, strings.Join(cols, ", ")))
	}
	// Unique constraints (SQLite's automatic indexes) and the indexes the
	// migrations create, with their columns in order.
	idx := map[string][]string{}
	var names []string
	for _, r := range rows(t, db, `
		SELECT m.name, il.name, il.origin, ii.name
		FROM sqlite_schema m, pragma_index_list(m.name) il, pragma_index_info(il.name) ii
		WHERE m.type = 'table' AND m.name <> 'goose_db_version' AND il.origin IN ('u', 'c')
		ORDER BY m.name, il.name, ii.seqno`) {
		key := r[0] + ": unique"
		if r[2] == "c" {
			key = r[0] + ": index " + r[1]
		}
		key += "\x00" + r[1]
		if _, ok := idx[key]; !ok {
			names = append(names, key)
		}
		idx[key] = append(idx[key], r[3])
	}
	for _, k := range names {
		label, _, _ := strings.Cut(k, "\x00")
		s.constraints = append(s.constraints, fmt.Sprintf("%s (%s)", label, strings.Join(idx[k], ", ")))
	}
	fks := map[string][]string{}
	var fkNames []string
	for _, r := range rows(t, db, `
		SELECT m.name, f.id, f."from", f."table", f."to", f.on_delete
		FROM sqlite_schema m, pragma_foreign_key_list(m.name) f
		WHERE m.type = 'table'
		ORDER BY m.name, f.id, f.seq`) {
		key := r[0] + "\x00" + r[1]
		if _, ok := fks[key]; !ok {
			fkNames = append(fkNames, key)
			fks[key] = []string{r[0], "", r[3], "", r[5]}
		}
		fks[key][1] = strings.TrimPrefix(fks[key][1]+", "+r[2], ", ")
		fks[key][3] = strings.TrimPrefix(fks[key][3]+", "+r[4], ", ")
	}
	for _, k := range fkNames {
		f := fks[k]
		s.constraints = append(s.constraints, fmt.Sprintf("%s: foreign key (%s) references %s (%s) on delete %s", f[0], f[1], f[2], f[3], strings.ToLower(f[4])))
	}
	return s
}

func describePostgres(t *testing.T, db *sql.DB) schema {
	s := schema{relations: map[string]*relation{}}
	for _, r := range rows(t, db, `
		SELECT CASE t.table_type WHEN 'VIEW' THEN 'view' ELSE 'table' END, c.table_name, c.column_name, c.data_type,
		       CASE WHEN c.is_nullable = 'NO' THEN '1' ELSE '0' END
		FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = current_schema() AND c.table_name <> 'goose_db_version'
		ORDER BY c.table_name, c.ordinal_position`) {
		addColumn(&s, r[0], r[1], column{name: r[2], class: typeClass(r[3]), notNull: r[0] == "table" && r[4] == "1"})
	}
	// Columns of a constraint or index, in order.
	const cols = `array_to_string(ARRAY(
		SELECT a.attname FROM unnest(%s) WITH ORDINALITY u(n, o)
		JOIN pg_attribute a ON a.attrelid = %s AND a.attnum = u.n ORDER BY u.o), ', ')`
	for _, r := range rows(t, db, `
		SELECT k.contype::text, t.relname, `+fmt.Sprintf(cols, "k.conkey", "k.conrelid")+`,
		       COALESCE(f.relname, ''), COALESCE(`+fmt.Sprintf(cols, "k.confkey", "k.confrelid")+`, ''),
		       CASE k.confdeltype WHEN 'c' THEN 'cascade' WHEN 'n' THEN 'set null' WHEN 'r' THEN 'restrict'
		                          WHEN 'd' THEN 'set default' ELSE 'no action' END
		FROM pg_constraint k
		JOIN pg_class t ON t.oid = k.conrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		LEFT JOIN pg_class f ON f.oid = k.confrelid
		WHERE n.nspname = current_schema() AND k.contype IN ('p', 'u', 'f') AND t.relname <> 'goose_db_version'`) {
		switch r[0] {
		case "p":
			s.constraints = append(s.constraints, fmt.Sprintf("%s: primary key (%s)", r[1], r[2]))
		case "u":
			s.constraints = append(s.constraints, fmt.Sprintf("%s: unique (%s)", r[1], r[2]))
		case "f":
			s.constraints = append(s.constraints, fmt.Sprintf("%s: foreign key (%s) references %s (%s) on delete %s", r[1], r[2], r[3], r[4], r[5]))
		}
	}
	// Indexes that no primary key or unique constraint made.
	for _, r := range rows(t, db, `
		SELECT tc.relname, ic.relname, `+fmt.Sprintf(cols, "x.indkey::int2[]", "x.indrelid")+`
		FROM pg_index x
		JOIN pg_class ic ON ic.oid = x.indexrelid
		JOIN pg_class tc ON tc.oid = x.indrelid
		JOIN pg_namespace n ON n.oid = tc.relnamespace
		WHERE n.nspname = current_schema() AND tc.relname <> 'goose_db_version'
		  AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid AND k.contype IN ('p', 'u'))`) {
		s.constraints = append(s.constraints, fmt.Sprintf("%s: index %s (%s)", r[0], r[1], r[2]))
	}
	return s
}

// sqliteObjects lists every table, view, index and trigger with its SQL.
func sqliteObjects(t *testing.T, db *sql.DB) []string {
	var out []string
	for _, r := range rows(t, db, `SELECT type, name, COALESCE(sql, '') FROM sqlite_schema
		WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'goose_%' ORDER BY type, name`) {
		out = append(out, r[0]+" "+r[1]+" "+r[2])
	}
	return out
}

// postgresObjects lists every table and view with its columns, every view
// with its definition, every index, sequence and function of the schema.
func postgresObjects(t *testing.T, db *sql.DB) []string {
	var out []string
	for _, r := range rows(t, db, `
		SELECT CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'i' THEN 'index'
		                      WHEN 'S' THEN 'sequence' ELSE c.relkind::text END,
		       c.relname,
		       CASE c.relkind WHEN 'v' THEN pg_get_viewdef(c.oid)
		                      WHEN 'i' THEN pg_get_indexdef(c.oid)
		                      ELSE '' END,
		       COALESCE((SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		                                   || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY a.attnum)
		                 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		                   AND c.relkind IN ('r', 'v')), '')
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relname NOT LIKE 'goose%'
		UNION ALL
		SELECT CASE p.prokind WHEN 'a' THEN 'aggregate' ELSE 'function' END, p.proname,
		       pg_get_function_identity_arguments(p.oid), ''
		FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE n.nspname = current_schema()
		ORDER BY 1, 2, 3`) {
		out = append(out, strings.Join(r, " "))
	}
	return out
}

// TestImportedRatingsMigration fills a database at version 6 as imports
// left it (an imported rating that replaced a computed "human", an
// imported "se-er", a computed "se"; a collection an import made and one
// collections add froze) and checks that migration 7 keeps the file's
// ratings under their own names with their import, and marks only the
// frozen collection frozen.
func TestImportedRatingsMigration(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			ctx := context.Background()
			db := d.open(t)
			p := provider(t, d, db)
			if _, err := p.UpTo(ctx, 6); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				`INSERT INTO puzzles (id, grid, size, box_rows, box_cols, givens) VALUES (1, '` + strings.Repeat("0", 81) + `', 9, 3, 3, 0)`,
				`INSERT INTO collections (id, name) VALUES (1, 'from-file'), (2, 'frozen'), (3, 'empty')`,
				`INSERT INTO imports (id, file_name, file_sha256, format, collection_id) VALUES (4, 'f.csv', 'x', 'csv', 1)`,
				`INSERT INTO collection_puzzles (collection_id, puzzle_id, position, import_id) VALUES (1, 1, 1, 4)`,
				`INSERT INTO collection_puzzles (collection_id, puzzle_id, position) VALUES (2, 1, 1)`,
				`INSERT INTO ratings (puzzle_id, rater, rater_version, value, details) VALUES
					(1, 'human', 'imported', 3500, '{"import_id":4}'),
					(1, 'se-er', 'imported', 7.1, '{"import_id":4}'),
					(1, 'se', '1', 7.1, '{"er":7.1}')`,
			} {
				if _, err := db.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if _, err := p.UpTo(ctx, 7); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			rows, err := db.QueryContext(ctx, `SELECT rater, COALESCE(CAST(import_id AS TEXT), 'computed') FROM ratings`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var rater, src string
				if err := rows.Scan(&rater, &src); err != nil {
					t.Fatal(err)
				}
				got[rater] = src
			}
			rows.Close()
			want := map[string]string{"file:human": "4", "se-er": "4", "se": "computed"}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("ratings (rater: import) %v, want %v", got, want)
			}
			var frozen string
			if err := db.QueryRowContext(ctx, `SELECT string_agg(name, ',') FROM (SELECT name FROM collections WHERE frozen = 1 ORDER BY name) c`).Scan(&frozen); err != nil {
				// SQLite has group_concat instead.
				if err := db.QueryRowContext(ctx, `SELECT group_concat(name, ',') FROM (SELECT name FROM collections WHERE frozen = 1 ORDER BY name)`).Scan(&frozen); err != nil {
					t.Fatal(err)
				}
			}
			if frozen != "empty,frozen" {
				t.Errorf("frozen collections %q, want empty,frozen", frozen)
			}
		})
	}
}
