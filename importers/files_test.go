package importers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/importers"
)

// TestFileReader reads the entries of files in order, a bad line as an
// entry with its error, and refuses an empty file and a directory naming
// them.
func TestFileReader(t *testing.T) {
	dir := t.TempDir()
	good := strings.Repeat(".", 80) + "1"
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	empty := filepath.Join(dir, "empty.txt")
	for name, text := range map[string]string{a: good + "\n" + "12x\n", b: good + "\n", empty: ""} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	fr := &importers.FileReader{Format: "line"}
	err := fr.Entries(context.Background(), []string{a, b}, func(e importers.Entry) error {
		got = append(got, fmt.Sprintf("%s:%d:%v", filepath.Base(e.File), e.Record.Line, e.Err != nil))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a.txt:1:false a.txt:2:true b.txt:1:false"; strings.Join(got, " ") != want {
		t.Errorf("entries %q, want %q", strings.Join(got, " "), want)
	}
	for file, want := range map[string]string{empty: "the file is empty", dir: "a directory"} {
		err := (&importers.FileReader{}).Entries(context.Background(), []string{file}, func(importers.Entry) error { return nil })
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), file) {
			t.Errorf("%s: %v, want an error naming it and %q", file, err, want)
		}
	}
}
