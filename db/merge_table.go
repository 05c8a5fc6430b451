package db

// MergeTable is the reports of a merge as a table, one row per source and
// kind of row: source, kind, added, already (existing), updated,
// conflicts, skipped and invalid. A report without counts (a source that
// could not be opened) has no row.
func MergeTable(reps []MergeReport) Table {
	var rows [][]any
	for _, rep := range reps {
		for _, c := range rep.Counts {
			rows = append(rows, []any{rep.Source, c.Kind, c.Added, c.Existing, c.Updated, c.Conflicts, c.Skipped, c.Invalid})
		}
	}
	return Table{Columns: []string{"source", "kind", "added", "already", "updated", "conflicts", "skipped", "invalid"}, Rows: rows}
}
