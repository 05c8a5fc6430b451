package db_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"sudokulab/db"
)

// TestPack checks that a packed SQLite file stands alone: no log beside
// it, rollback-journal mode, its rows kept, and WAL again once reopened.
func TestPack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EnsureExperiment(ctx, d, "kept", ""); err != nil {
		t.Fatal(err)
	}
	if err := d.Pack(ctx); err != nil {
		t.Fatalf("Pack: %v", err)
	}
	var mode string
	if err := d.GetContext(ctx, &mode, "PRAGMA journal_mode"); err != nil || mode != "delete" {
		t.Errorf("journal mode after Pack: %q, %v; want delete", mode, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Errorf("%s-wal after Pack and Close: %v; want none", path, err)
	}
	d, err = db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := db.ExperimentID(ctx, d, "kept"); err != nil {
		t.Errorf("the packed file lost its rows: %v", err)
	}
	if err := d.GetContext(ctx, &mode, "PRAGMA journal_mode"); err != nil || mode != "wal" {
		t.Errorf("journal mode reopened: %q, %v; want wal", mode, err)
	}
}
