package pipeline_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/importers/pipeline"
)

// TestImportFiles imports five files on three cores: done sees them in
// the order of the files, whose import ids follow that order; a file that
// fails stops the rest, and done gets its error.
func TestImportFiles(t *testing.T) {
	d := openTemp(t)
	dir := t.TempDir()
	var files []string
	for i := range 5 {
		// The easy puzzle with its digits relabelled: five puzzles.
		p := strings.Map(func(r rune) rune {
			if r == '.' {
				return r
			}
			return '1' + (r-'1'+rune(i))%9
		}, easy)
		f := filepath.Join(dir, string(rune('a'+i))+".txt")
		if err := os.WriteFile(f, []byte(p+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var seen []string
	var last int64
	err := pipeline.ImportFiles(context.Background(), d, files, pipeline.Options{Collection: "five"}, 3,
		func(file string, res *pipeline.Result, err error) error {
			if err != nil {
				return err
			}
			if res.Import.ID <= last {
				t.Errorf("%s: import %d after %d", file, res.Import.ID, last)
			}
			last = res.Import.ID
			seen = append(seen, filepath.Base(file))
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seen, " "); got != "a.txt b.txt c.txt d.txt e.txt" {
		t.Errorf("done saw %s", got)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM collection_puzzles"); n != 5 {
		t.Errorf("%d puzzles stored, want 5", n)
	}

	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("12x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var failed error
	err = pipeline.ImportFiles(context.Background(), d, []string{bad, files[0]}, pipeline.Options{Collection: "bad"}, 2,
		func(file string, res *pipeline.Result, err error) error {
			if err != nil && failed == nil {
				failed = err
			}
			return err
		})
	if err == nil || !errors.Is(err, failed) || !strings.Contains(err.Error(), "bad.txt") {
		t.Errorf("a bad file: %v, want its error", err)
	}
}
