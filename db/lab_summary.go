package db

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// LabSize counts what a lab holds, as its home page shows it.
type LabSize struct {
	Puzzles        int64 `json:"puzzles"`
	Collections    int64 `json:"collections"`
	Configurations int64 `json:"configurations"`
	Experiments    int64 `json:"experiments"`
	Runs           int64 `json:"runs"`
	Ratings        int64 `json:"ratings"`
	Imports        int64 `json:"imports"`
}

// CountLab counts the rows of the lab's main tables. Puzzles and
// collections that an import still loading wrote are left out, as every
// listing leaves them out; when no import is loading the tables are
// counted without that test, which looks up each row's import (1 s for a
// million puzzles). Run it in one transaction (DB.Snapshot) for the look
// to hold for the count.
func CountLab(ctx context.Context, x sqlx.ExtContext) (LabSize, error) {
	var s LabSize
	cat, err := NewCatalog(ctx, x)
	if err != nil {
		return s, err
	}
	puzzles, collections := "1 = 1", "1 = 1"
	if cat.loading {
		puzzles, collections = notLoading("p.import_id"), notLoading("c.import_id")
	}
	err = x.QueryRowxContext(ctx, `
		SELECT (SELECT COUNT(*) FROM puzzles p WHERE `+puzzles+`),
		       (SELECT COUNT(*) FROM collections c WHERE `+collections+`),
		       (SELECT COUNT(*) FROM configs),
		       (SELECT COUNT(*) FROM experiments),
		       (SELECT COUNT(*) FROM runs),
		       (SELECT COUNT(*) FROM ratings),
		       (SELECT COUNT(*) FROM imports WHERE state = 'done')`).
		Scan(&s.Puzzles, &s.Collections, &s.Configurations, &s.Experiments, &s.Runs, &s.Ratings, &s.Imports)
	return s, dbError(err, "count the lab")
}
