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
	"strconv"
	"strings"
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

// Latest returns the version of the newest migration: the schema version
// this program writes and reads. Both dialects have the same versions.
func Latest() int64 {
	names, err := fs.Glob(FS, "*.sql")
	if err != nil {
		panic(err)
	}
	var latest int64
	for _, n := range names {
		v, err := strconv.ParseInt(strings.SplitN(n, "_", 2)[0], 10, 64)
		if err != nil {
			panic("migrations: " + n + " is not named NNNNN_description.sql")
		}
		latest = max(latest, v)
	}
	return latest
}
