// Package migrations holds the SQL migrations of the laboratory database,
// embedded in the binary. Package db applies them with goose. Each file is
// named NNNNN_description.sql and has a "-- +goose Up" and a
// "-- +goose Down" section; docs/schema.md explains the resulting schema.
package migrations

import "embed"

// FS holds the migration files at its root.
//
//go:embed *.sql
var FS embed.FS
