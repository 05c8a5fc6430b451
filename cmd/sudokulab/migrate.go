package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"sudokulab/db"
)

func newMigrateCmd(opts *options) *cobra.Command {
	status := &cobra.Command{
		Use:   "status",
		Short: "Show which schema migrations the database has",
		Long: `status lists every migration embedded in this program and whether the
database has it, without changing the database.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMigrateStatus(cmd.Context(), cmd, opts)
		},
	}
	up := &cobra.Command{
		Use:   "up",
		Short: "Apply the migrations the database lacks",
		Long: `up migrates the database to the newest schema and stores the solvers'
presets it lacks. Every command that writes migrates on its own when it
opens a database; commands that only read leave the file as it is and ask
for migrate up when its schema is older than theirs. up does it explicitly
and says what it applied. The database must exist: sudokulab init creates
one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMigrateUp(cmd.Context(), cmd, opts)
		},
	}
	return groupCmd("migrate", "Show or apply schema migrations", status, up)
}

func runMigrateStatus(ctx context.Context, cmd *cobra.Command, opts *options) error {
	d, err := db.OpenOptions(ctx, opts.dbPath, db.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer d.Close()
	st, err := d.MigrateStatus(ctx)
	if err != nil {
		return err
	}
	v, err := d.Version(ctx)
	if err != nil {
		return err
	}
	rows := make([][]any, len(st))
	for i, s := range st {
		applied := any(nil)
		if s.Applied {
			applied = s.AppliedAt
		}
		rows[i] = []any{s.Version, s.Source, s.Applied, applied}
	}
	if err := writeRows(cmd.OutOrStdout(), opts.format, []string{"version", "source", "applied", "applied_at"}, rows); err != nil {
		return err
	}
	if opts.format == "table" {
		fmt.Fprintf(cmd.OutOrStdout(), "%s is at version %d of %d\n", d.Path(), v, d.LatestVersion())
	}
	return nil
}

func runMigrateUp(ctx context.Context, cmd *cobra.Command, opts *options) error {
	d, err := db.OpenOptions(ctx, opts.dbPath, db.Options{NoMigrate: true, MustExist: true})
	if err != nil {
		return openError(opts.dbPath, err)
	}
	defer d.Close()
	res, err := d.MigrateUp(ctx)
	if err != nil {
		return err
	}
	if err := d.CheckVersion(ctx); err != nil {
		return err
	}
	if err := opts.syncPresets(ctx, d); err != nil {
		return err
	}
	v, err := d.Version(ctx)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	applied := make([]string, len(res))
	for i, r := range res {
		applied[i] = r.Source
	}
	return writeRecord(w, opts.format, func() error {
		for _, r := range res {
			fmt.Fprintf(w, "applied %s (%v)\n", r.Source, r.Duration.Round(1e6))
		}
		fmt.Fprintf(w, "%s is at version %d\n", d.Path(), v)
		return nil
	}, object{{"database", d.Path()}, {"version", v}, {"applied", applied}})
}
