package migrations_test

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite"

	"sudokulab/migrations"
)

func TestFiles(t *testing.T) {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("embedded migrations: %v %v", names, err)
	}
	valid := regexp.MustCompile(`^\d{5}_[a-z0-9_]+\.sql$`)
	for i, name := range names {
		if !valid.MatchString(name) || !strings.HasPrefix(name, fmt.Sprintf("%05d_", i+1)) {
			t.Errorf("%s: want %05d_description.sql", name, i+1)
		}
		b, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ann := range []string{"-- +goose Up", "-- +goose Down"} {
			if !strings.Contains(string(b), "\n"+ann+"\n") {
				t.Errorf("%s lacks %q", name, ann)
			}
		}
	}
}

// TestUpDownUp applies every migration, reverts them all, and applies them
// again: the Down sections undo the Up sections exactly.
func TestUpDownUp(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db")+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	objects := func() string {
		rows, err := db.QueryContext(ctx, `SELECT type || ' ' || name FROM sqlite_schema
			WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'goose_%' ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			rows.Scan(&s)
			out = append(out, s)
		}
		return strings.Join(out, "\n")
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	first := objects()
	for _, want := range []string{"table puzzles", "table trajectory_points", "view puzzle_catalog", "view run_results", "view rating_table", "index runs_config_id_status"} {
		if !strings.Contains(first, want) {
			t.Errorf("schema lacks %s", want)
		}
	}
	if _, err := p.DownTo(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if left := objects(); left != "" {
		t.Fatalf("after migrating down, left:\n%s", left)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if again := objects(); again != first {
		t.Fatalf("schema differs after up, down, up:\n%s\nvs\n%s", again, first)
	}
}
