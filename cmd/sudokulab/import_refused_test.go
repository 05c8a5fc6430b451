package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/db"
	"sudokulab/internal/pgtest"
)

// TestImportRefusedByTheDatabase imports a file one of whose entries the
// database itself refuses (a rule the lab's keeper added: a trigger that
// raises SQLite's constraint error, PostgreSQL's value-too-long, class
// 22), on SQLite and PostgreSQL: importing again cannot mend that, so the
// import fails as a bad file does, naming the file and the entry's line
// (found by writing the batch's entries one by one), exit
// status invalid, with nothing of it stored, no import left loading to be
// resumed; without the rule the same file imports.
func TestImportRefusedByTheDatabase(t *testing.T) {
	const (
		g1 = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
		g2 = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
	)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"refused.csv": "puzzle,label\n" + g1 + ",fine\n" + g2 + ",refuse me\n"})
	file := filepath.Join(dir, "refused.csv")
	for _, b := range []struct {
		name   string
		target func(t *testing.T) string
		rule   []string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "lab.db") }, []string{
			`CREATE TRIGGER refuse_label BEFORE INSERT ON collection_puzzles WHEN NEW.label = 'refuse me'
			BEGIN SELECT RAISE(ABORT, 'label refused by the lab''s rule'); END`}},
		{"postgres", func(t *testing.T) string { return pgtest.DSN(t) }, []string{
			`CREATE FUNCTION refuse_label() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN
				IF NEW.label = 'refuse me' THEN
					RAISE EXCEPTION 'label refused by the lab''s rule' USING ERRCODE = 'string_data_right_truncation';
				END IF;
				RETURN NEW;
			END $$`,
			`CREATE TRIGGER refuse_label BEFORE INSERT ON collection_puzzles FOR EACH ROW EXECUTE FUNCTION refuse_label()`}},
	} {
		t.Run(b.name, func(t *testing.T) {
			target := initDB(t, b.target(t))
			ctx := context.Background()
			d, err := db.Open(ctx, target)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range b.rule {
				if _, err := d.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			_, errOut, code := run(t, "--db", target, "import", file)
			if want := "refused.csv:3: the database refuses the entry"; code != exitInvalid || !strings.Contains(errOut, want) ||
				!strings.Contains(errOut, "label refused by the lab's rule") {
				t.Errorf("import: exit %d, %q; want exit %d naming %q and the database's message", code, errOut, exitInvalid, want)
			}
			state := "SELECT (SELECT COUNT(*) FROM puzzles) AS puzzles, (SELECT COUNT(*) FROM imports) AS imports, " +
				"(SELECT COUNT(*) FROM collection_puzzles) AS members, (SELECT COUNT(*) FROM collections) AS collections"
			if got := mustRun(t, "--db", target, "-O", "csv", "sql", state); got != "puzzles,imports,members,collections\n0,0,0,0\n" {
				t.Errorf("after the refused import:\n%s", got)
			}
			if _, err := d.ExecContext(ctx, "DROP TRIGGER refuse_label"+map[string]string{"postgres": " ON collection_puzzles"}[b.name]); err != nil {
				t.Fatal(err)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			mustRun(t, "--db", target, "import", file)
			if got := mustRun(t, "--db", target, "-O", "csv", "sql", state); got != "puzzles,imports,members,collections\n2,1,2,1\n" {
				t.Errorf("after importing without the rule:\n%s", got)
			}
		})
	}
}
