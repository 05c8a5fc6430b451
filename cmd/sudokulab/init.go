package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"sudokulab/db"
)

type initOptions struct {
	*options
	from  string
	force bool
}

func newInitCmd(opts *options) *cobra.Command {
	o := &initOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the database, optionally as a copy of lab.db.example",
		Long: `init creates the database named by --db and migrates it to the newest schema;
it is the only command that creates one (the others fail, exit status 3,
when the database does not exist).
With --from it starts from a copy of another database file, such as the
lab.db.example shipped with sudokulab (the papers' puzzles). An existing
database is kept and only migrated up, so init is safe to repeat; --force
with --from replaces it.`,
		Example: `  sudokulab init --from lab.db.example
  sudokulab --db experiments.db init`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInit(cmd.Context(), cmd, o)
		},
	}
	cmd.Flags().StringVar(&o.from, "from", "", "copy this database file first (for example lab.db.example)")
	cmd.Flags().BoolVar(&o.force, "force", false, "with --from, replace an existing database")
	return cmd
}

func runInit(ctx context.Context, cmd *cobra.Command, o *initOptions) error {
	exists, copied, err := db.SeedFile(o.dbPath, o.from, o.force)
	if err != nil {
		return err
	}
	d, err := o.openCreate(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	v, err := d.Version(ctx)
	if err != nil {
		return err
	}
	puzzles, err := db.CountPuzzles(ctx, d)
	if err != nil {
		return err
	}
	verb := "created"
	switch {
	case copied:
		verb = "created from " + o.from
	case exists && o.from != "":
		verb = "exists (kept; --force replaces it with " + o.from + ")"
	case exists:
		verb = "exists (kept)"
	}
	w := cmd.OutOrStdout()
	var from any
	if copied {
		from = o.from
	}
	return writeRecord(w, o.format, func() error {
		_, err := fmt.Fprintf(w, "%s %s: schema version %d, %d puzzles\n", d.Path(), verb, v, puzzles)
		return err
	}, object{{"database", db.Redact(o.dbPath)}, {"created", !exists}, {"copied_from", from},
		{"schema_version", v}, {"puzzles", puzzles}})
}
