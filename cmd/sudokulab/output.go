package main

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"sudokulab/db"
	"sudokulab/internal/tabular"
)

// What commands print goes through package tabular; these are its short
// names in the command files.
var (
	writeRows    = tabular.Write
	writeJSON    = tabular.WriteJSON
	writeRecord  = tabular.WriteRecord
	rowObjects   = tabular.RowObjects
	newRowStream = tabular.NewStream
)

type (
	object    = tabular.Object
	field     = tabular.Field
	rowStream = tabular.Stream
)

// printReport opens the database read-only, runs one of the store's
// reports and prints it in the chosen format.
func (o *options) printReport(cmd *cobra.Command, report db.Report) error {
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

// fixed is a number shown with Places decimals in a table or CSV (a mean
// of counts: 1234.5) and with all its digits in JSON.
type fixed struct {
	V      float64
	Places int
}

// String implements fmt.Stringer, which tables and CSV use.
func (f fixed) String() string { return strconv.FormatFloat(f.V, 'f', f.Places, 64) }

// MarshalJSON writes the full value (null for NaN or an infinity).
func (f fixed) MarshalJSON() ([]byte, error) { return marshalFloat(f.V) }

// percent is a percentage shown as "87.5%" with Places decimals in a table
// or CSV, and as the full number (87.5) in JSON.
type percent fixed

// String implements fmt.Stringer.
func (p percent) String() string { return fixed(p).String() + "%" }

// MarshalJSON writes the full value.
func (p percent) MarshalJSON() ([]byte, error) { return marshalFloat(p.V) }

func marshalFloat(x float64) ([]byte, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(x)
}
