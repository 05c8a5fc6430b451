package db

import (
	"context"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// RunSelection chooses runs: the runs of an experiment, of some
// configurations, on the puzzles a predicate over puzzle_catalog
// matches, and matching a predicate over run_results. Every field
// narrows the selection; the zero value selects every run. plot, report,
// compare, export-runs and runs list choose their runs with one.
type RunSelection struct {
	// Experiment keeps the runs that belong to the experiment of that name
	// (through experiment_runs: the runs it recorded and those it linked).
	Experiment string
	// Configs keeps the runs of these configurations, by name.
	Configs []string
	// Where keeps the runs on puzzles having a row of the view
	// puzzle_catalog that matches this SQL predicate.
	Where string
	// RunsWhere keeps the runs whose row of the view run_results matches
	// this SQL predicate.
	RunsWhere string
}

// InExperiment is the condition on the run_results row r that holds for
// the runs of one experiment, named by its one '?' argument: the runs it
// recorded and those it linked (experiment_runs).
const InExperiment = `r.id IN (SELECT id FROM experiment_run_results WHERE experiment = ?)`

// Check refuses a predicate of s that could leave the parentheses it is
// pasted into (see CheckPredicate).
func (s RunSelection) Check() error {
	for _, p := range []string{s.Where, s.RunsWhere} {
		if err := checkPredicate(p); err != nil {
			return err
		}
	}
	return nil
}

// Condition returns the SQL condition on the run_results row r that
// holds for the runs s selects ("1 = 1" for every run), and the
// arguments of its '?' placeholders, in order. The predicates are pasted
// in as they are: Check them first, and run the statement on a read-only
// connection (ReadQuery), whose Rebind leaves a '?' in a predicate's
// strings alone.
func (s RunSelection) Condition() (string, []any) {
	conds := []string{"1 = 1"}
	var args []any
	if len(s.Configs) > 0 {
		conds = append(conds, "r.config IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(s.Configs)), ", ")+")")
		for _, c := range s.Configs {
			args = append(args, c)
		}
	}
	if s.Experiment != "" {
		conds = append(conds, InExperiment)
		args = append(args, s.Experiment)
	}
	// The newline ends a trailing "--" comment in a predicate.
	if strings.TrimSpace(s.RunsWhere) != "" {
		conds = append(conds, "r.id IN (SELECT id FROM run_results WHERE ("+s.RunsWhere+"\n))")
	}
	if strings.TrimSpace(s.Where) != "" {
		conds = append(conds, "r.puzzle_id IN (SELECT id FROM puzzle_catalog WHERE ("+s.Where+"\n))")
	}
	return strings.Join(conds, "\n  AND "), args
}

// RequireSelected returns an ENOTFOUND error unless the experiment and
// configurations s names exist (MustExist): a typo would otherwise
// select nothing, silently.
func RequireSelected(ctx context.Context, x sqlx.ExtContext, s RunSelection) error {
	if s.Experiment != "" {
		if err := MustExist(ctx, x, "experiments", "experiment", s.Experiment); err != nil {
			return err
		}
	}
	for _, c := range s.Configs {
		if err := MustExist(ctx, x, "configs", "configuration", c); err != nil {
			return err
		}
	}
	return nil
}

// rebind turns the '?' placeholders of query into the dialect's, as
// sqlx's Rebind does, but only those outside strings, quoted names and
// comments as PostgreSQL reads them, so that a '?' a person wrote in a
// predicate's string or a canned query's comment stays text. SQLite
// takes '?' itself.
func (d *DB) rebind(query string) string { return rebindOutside(d, query) }

// rebindOutside is DB.rebind for x, a pool, connection or transaction.
func rebindOutside(x sqlx.ExtContext, query string) string {
	if sqlx.BindType(x.DriverName()) != sqlx.DOLLAR {
		return x.Rebind(query)
	}
	return rebindDollar(query)
}

// rebindDollar numbers the '?' of query that PostgreSQL reads as
// punctuation ($1, $2, ...), leaving those in strings, quoted names and
// comments. A query it cannot read to its end (a string that does not
// end) is rebound as sqlx does, for the database to say what is wrong.
func rebindDollar(query string) string {
	var at []int
	reason := predicateReader{engine: "PostgreSQL", pg: true}.scan(query, func(t token, i int) string {
		if t.kind == tokPunct && t.text == "?" {
			at = append(at, i)
		}
		return ""
	})
	if reason != "" {
		return sqlx.Rebind(sqlx.DOLLAR, query)
	}
	var b strings.Builder
	last := 0
	for n, i := range at {
		b.WriteString(query[last:i])
		// Spaces keep "a?" from reading as the name a$1, "0.?" as a
		// number, and "?5" as $15.
		if i > 0 && (identChar(query[i-1]) || query[i-1] == '.') {
			b.WriteByte(' ')
		}
		b.WriteString("$" + strconv.Itoa(n+1))
		if i+1 < len(query) && isDigit(query[i+1]) {
			b.WriteByte(' ')
		}
		last = i + 1
	}
	b.WriteString(query[last:])
	return b.String()
}

// RunList is the report of `runs list`: the runs sel selects, newest
// first, at most limit of them (0: all), with the columns RunTable has.
// The experiment and configurations it names must exist (ENOTFOUND).
func RunList(sel RunSelection, limit int) Report {
	return func(ctx context.Context, x sqlx.ExtContext) (Table, error) {
		if err := sel.Check(); err != nil {
			return Table{}, err
		}
		if err := RequireSelected(ctx, x, sel); err != nil {
			return Table{}, err
		}
		cond, args := sel.Condition()
		q := `SELECT r.id, r.experiment, r.config, r.puzzle_id, r.seed, r.status, r.generations, r.effort, r.effort_unit,
		        r.restarts, r.best_cost, r.wall_seconds, r.cpu_seconds, r.finished_at
		FROM run_results r
		WHERE ` + cond + `
		ORDER BY r.id DESC`
		if limit > 0 {
			q += " LIMIT " + strconv.Itoa(limit)
		}
		x, ctx, release, err := readOnlyExt(ctx, x)
		if err != nil {
			return Table{}, err
		}
		defer release()
		rows, err := x.QueryxContext(ctx, rebindOutside(x, q), args...)
		if err != nil {
			return Table{}, userSQLError(ctx, err)
		}
		defer rows.Close()
		t, err := scanTable(rows)
		if err != nil {
			return t, userSQLError(ctx, err)
		}
		return t, nil
	}
}
