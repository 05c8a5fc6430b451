package db

import (
	"context"
	"fmt"

	"sudokulab"
)

// Pack makes a SQLite database one self-contained file to copy or commit:
// the write-ahead log folded in, the file in rollback-journal mode, free
// pages vacuumed away. Connections opened later switch it back to WAL.
// Leaving WAL mode needs the only connection to the file, so Pack first
// closes the pool's others: call it last, before Close. A PostgreSQL
// database has no file to pack: that is an EINVALID error.
func (d *DB) Pack(ctx context.Context) error {
	if d.dialect != &sqliteDialect {
		return sudokulab.Errorf(sudokulab.EINVALID, "pack %s: only a SQLite file can be packed", d.path)
	}
	d.SetMaxIdleConns(1)
	d.SetMaxOpenConns(1)
	for _, stmt := range []string{"PRAGMA journal_mode = DELETE", "VACUUM"} {
		if _, err := d.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("pack %s: %s: %w", d.path, stmt, err)
		}
	}
	return nil
}
