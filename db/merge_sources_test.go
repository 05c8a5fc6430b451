package db_test

import (
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

func TestCheckMergeSources(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "lab.db")
	if err := db.CheckMergeSources(dst, []string{filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")}); err != nil {
		t.Fatalf("distinct sources: %v", err)
	}
	err := db.CheckMergeSources(dst, []string{filepath.Join(dir, "a.db"), filepath.Join(dir, ".", "lab.db")})
	if sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), "is the destination (--db "+dst+") itself") {
		t.Fatalf("the destination as a source: %v", err)
	}
}
