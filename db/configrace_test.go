package db_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestEnsureConfigRaced stores a configuration that another process
// stores between EnsureConfig's lookup and its insert, as two irace
// target runners running the same new configuration at once do: a
// trigger stores the same row just before the insert. EnsureConfig
// returns the row stored, not a conflict.
func TestEnsureConfigRaced(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	if _, err := d.ExecContext(ctx, `CREATE TRIGGER other_process BEFORE INSERT ON configs
		WHEN NEW.name = 'raced' AND NOT EXISTS (SELECT 1 FROM configs WHERE name = 'raced')
		BEGIN
			INSERT INTO configs (name, solver, params, params_hash, description, preset, created_at)
			VALUES (NEW.name, NEW.solver, NEW.params, NEW.params_hash, 'stored by the other', 0, NEW.created_at);
		END`); err != nil {
		t.Fatal(err)
	}
	c := &sudokulab.Config{Name: "raced", Solver: "lewis-sa", Params: `{"alpha":0.92}`}
	id, created, err := db.EnsureConfig(ctx, d, c)
	if err != nil || created || c.ID != id {
		t.Fatalf("EnsureConfig = %d, %v, %v; want the other's row, not created", id, created, err)
	}
	got, err := db.GetConfig(ctx, d, "raced")
	if err != nil || got.ID != id || got.Description != "stored by the other" {
		t.Fatalf("GetConfig = %+v, %v; want the row the other stored, id %d", got, err, id)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM configs WHERE name = 'raced'"); n != 1 {
		t.Errorf("%d rows named raced, want 1", n)
	}
}
