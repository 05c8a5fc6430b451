package main

import (
	"strings"

	"github.com/spf13/cobra"

	"sudokulab/importers"
)

func newFormatsCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "formats",
		Short: "List the puzzle file formats import reads and export writes",
		Long: `formats lists every file format, sorted by name, with its extensions, whether
import reads it and export writes it, and what its files look like. import
detects the format of a file by its extension, then by its content; its
--format flag names it instead.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var rows [][]any
			for _, f := range importers.Default().All() {
				exts := make([]string, len(f.Extensions))
				for i, e := range f.Extensions {
					exts[i] = e
					if e == "" {
						exts[i] = "(none)"
					}
				}
				write := "yes"
				switch {
				case f.Encode == nil:
					write = "no"
				case f.OnePerFile:
					write = "yes, a file per puzzle"
				}
				rows = append(rows, []any{f.Name, strings.Join(exts, " "), "yes", write, f.Description})
			}
			return writeRows(cmd.OutOrStdout(), opts.format, []string{"name", "extensions", "import", "export", "description"}, rows)
		},
	}
}
