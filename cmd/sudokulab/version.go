package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"sudokulab/migrations"
	"sudokulab/runner"
	"sudokulab/solvers/exact"
)

func newVersionCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the code version, Go version, schema version and the exact solver's engines",
		Long: `version prints what a result depends on: the code version (the same that
every run records in runs.code_version), the Go version and platform it was
built for, the schema version it reads and writes (docs/schema.md), and the
engines the exact solver uses in this binary on this processor (solving,
and counting solutions on sparse 9x9 puzzles: the triad engine's vector
build runs only in binaries built with GOEXPERIMENT=simd on a processor with
AVX2). sudokulab --version prints the same. No database is opened.`,
		Example: `  sudokulab version
  sudokulab --version
  sudokulab -O json version`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVersion(cmd, opts)
		},
	}
}

// runVersion prints the version record in the output format.
func runVersion(cmd *cobra.Command, opts *options) error {
	fields := object{
		{"version", runner.CodeVersion()},
		{"go", runtime.Version()},
		{"platform", runtime.GOOS + "/" + runtime.GOARCH},
		{"schema_version", migrations.Latest()},
		{"exact_engines", exact.Engines()},
	}
	w := cmd.OutOrStdout()
	return writeRecord(w, opts.format, func() error {
		_, err := fmt.Fprintf(w, "sudokulab %s\ngo: %s %s\nschema version: %d\nexact solver: %s\n",
			fields[0].Value, fields[1].Value, fields[2].Value, fields[3].Value, fields[4].Value)
		return err
	}, fields)
}
