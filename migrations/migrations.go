// Package migrations holds the SQL migrations of the laboratory database,
// embedded in the binary. Package db applies them with goose. Each file is
// named NNNNN_description.sql and has a "-- +goose Up" and a
// "-- +goose Down" section; docs/schema.md explains the resulting schema.
//
// There is one migration history in two dialects: the files at the root
// are SQLite's, those in postgres/ PostgreSQL's, with the same version
// numbers and the same tables, columns, indexes and views (a test compares
// the two schemas).
package migrations

import (
	"embed"
	"io/fs"
)

// FS holds the SQLite migration files at its root.
//
//go:embed *.sql
var FS embed.FS

//go:embed postgres/*.sql
var postgresFS embed.FS

// PostgresFS holds the PostgreSQL migration files at its root.
var PostgresFS = func() fs.FS {
	sub, err := fs.Sub(postgresFS, "postgres")
	if err != nil {
		panic(err)
	}
	return sub
}()
