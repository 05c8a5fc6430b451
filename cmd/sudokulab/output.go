package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/spf13/cobra"

	"sudokulab/db"
)

// printReport opens the database read-only, runs one of the store's
// reports and prints it in the chosen format.
func (o *options) printReport(cmd *cobra.Command, report func(context.Context, sqlx.ExtContext) (db.Table, error)) error {
	ctx := cmd.Context()
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	t, err := report(ctx, d)
	if err != nil {
		return err
	}
	return writeRows(cmd.OutOrStdout(), o.format, t.Columns, t.Rows)
}

// writeRows writes a result set as an aligned table, CSV with a header, or
// a JSON array of objects whose keys keep the column order.
func writeRows(w io.Writer, format string, cols []string, rows [][]any) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(cols); err != nil {
			return err
		}
		rec := make([]string, len(cols))
		for _, r := range rows {
			for i, v := range r {
				rec[i] = cell(v, "")
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	case "json":
		var b strings.Builder
		b.WriteString("[")
		for ri, r := range rows {
			if ri > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n  {")
			for i, v := range r {
				if i > 0 {
					b.WriteString(", ")
				}
				k, _ := json.Marshal(cols[i])
				val, err := json.Marshal(jsonValue(v))
				if err != nil {
					return err
				}
				b.Write(k)
				b.WriteString(": ")
				b.Write(val)
			}
			b.WriteString("}")
		}
		if len(rows) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("]\n")
		_, err := io.WriteString(w, b.String())
		return err
	default:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
		for _, r := range rows {
			parts := make([]string, len(r))
			for i, v := range r {
				parts[i] = cell(v, "NULL")
			}
			fmt.Fprintln(tw, strings.Join(parts, "\t"))
		}
		return tw.Flush()
	}
}

// cell formats one value for text output; null is how NULL is shown.
func cell(v any, null string) string {
	switch x := v.(type) {
	case nil:
		return null
	case []byte:
		return string(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func jsonValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	}
	return v
}
