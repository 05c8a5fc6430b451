package show

import (
	"fmt"
	"io"

	"sudokulab/db"
)

// MergeNotes writes what merge says of one source on standard error
// besides its table: each conflict, with invalid each row left out as
// invalid (merge --skip-invalid), and the notes.
func MergeNotes(w io.Writer, rep db.MergeReport, invalid bool) {
	for _, c := range rep.Conflicts {
		fmt.Fprintf(w, "conflict: %s: %s: %s\n", c.Kind, c.Identity, c.Differs)
	}
	if rep.ConflictsNotListed > 0 {
		fmt.Fprintf(w, "conflict: %d more not listed\n", rep.ConflictsNotListed)
	}
	if invalid {
		for _, v := range rep.Invalid {
			fmt.Fprintf(w, "invalid, left out: %s\n", v)
		}
		if rep.InvalidNotListed > 0 {
			fmt.Fprintf(w, "invalid, left out: %d more not listed\n", rep.InvalidNotListed)
		}
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}
