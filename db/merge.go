package db

// Merging laboratories: Merge copies what one database holds into another,
// matching every row by its identity, never by its id, so that the files
// the tasks of a cluster job array wrote (sudokulab run --shard K/N, each
// task on its own copy of one lab.db) join into one database, and merging
// the same file again adds nothing. The source is only read, in id order
// and in pages; the destination is written in one short transaction per
// page, so a merge holds the write lock briefly, can be interrupted, and
// resumes when run again.

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// The kinds of rows Merge counts, in the order it merges them.
const (
	MergeCollections      = "collections"
	MergeImports          = "imports"
	MergePuzzles          = "puzzles"
	MergeMemberships      = "memberships"
	MergeConfigs          = "configs"
	MergeExperiments      = "experiments"
	MergeRatings          = "ratings"
	MergeTags             = "tags"
	MergeRuns             = "runs"
	MergeTrajectoryPoints = "trajectory_points"
	MergeExperimentRuns   = "experiment_runs"
	MergeWork             = "work"
)

// MergeKinds lists the kinds in the order Merge takes them.
var MergeKinds = []string{
	MergeCollections, MergeImports, MergePuzzles, MergeMemberships, MergeConfigs, MergeExperiments,
	MergeRatings, MergeTags, MergeRuns, MergeTrajectoryPoints, MergeExperimentRuns, MergeWork,
}

// MergeOptions tune Merge. Zero values mean the documented defaults.
type MergeOptions struct {
	// Batch is the number of source rows read per page and written per
	// destination transaction: runs with their trajectory points and
	// experiment links, or rows of any other kind. 0 means 500; more than
	// MaxMergeBatch means MaxMergeBatch (a page's rows are bound to one
	// statement's parameters).
	Batch int
	// MaxPoints bounds the trajectory points written per transaction: a
	// page of runs ends early when its runs' points would exceed it (a
	// run's points are never split). 0 means 200,000.
	MaxPoints int
	// MaxConflicts bounds the conflicts listed in the report; all of them
	// are counted. 0 means 1,000; a negative number lists every one.
	MaxConflicts int
	// Progress, if not nil, is called after each committed page with the
	// kind and the number of source rows of that kind read so far.
	Progress func(kind string, done int64)
	// SameSettings, if not nil, decides whether a configuration of the
	// source whose name the destination gives other stored parameters has
	// the same settings after all: parameters stored by code of different
	// versions differ in the parameters added since, which take their
	// defaults (sudokulab.SolverInfo.ParseParams). Nil compares the stored
	// parameters as text.
	SameSettings func(solver, a, b string) bool
	// Solvers, if not nil, knows the solvers this program runs: a
	// configuration of another solver, or with parameters its solver does
	// not declare, is invalid. Nil leaves solver names unchecked.
	Solvers SolverLookup
	// SkipInvalid merges a source that holds invalid rows without them
	// (and the rows that depend on them), listing each in the report. By
	// default such a source is refused whole, before anything is written.
	SkipInvalid bool
}

// SolverLookup finds a solver's description by name, as
// solvers.Registry does.
type SolverLookup interface {
	Lookup(name string) (sudokulab.SolverInfo, error)
}

// MaxMergeBatch bounds MergeOptions.Batch: 2,000 rows of 13 columns
// stay under SQLite's and PostgreSQL's limits on a statement's
// parameters.
const MaxMergeBatch = 2000

// MergeReport says what Merge did with one source.
type MergeReport struct {
	// Source is the source database (a path, or a URL without password).
	Source string
	// Counts has one entry per kind, in the order of MergeKinds.
	Counts []MergeCount
	// Conflicts lists rows whose identity is stored in the destination
	// with other content: the destination keeps its own. At most
	// MergeOptions.MaxConflicts are listed; ConflictsNotListed counts the
	// others.
	Conflicts          []MergeConflict
	ConflictsNotListed int64
	// Invalid lists the source rows that fail the checks (see Merge), in
	// the order of MergeKinds and by id; with MergeOptions.SkipInvalid
	// they were left out. At most MergeOptions.MaxConflicts are listed;
	// InvalidNotListed counts the others.
	Invalid          []MergeInvalid
	InvalidNotListed int64
	// Unreadable is set when the source was refused for values of the
	// wrong type (text in a SQLite INTEGER column), which not even
	// SkipInvalid can leave out, since the rows cannot be read.
	Unreadable bool
	// Notes are remarks that are no conflict, such as a configuration
	// stored under another name in the destination, or rows of an import
	// still loading in the source that were left out.
	Notes []string
}

// MergeCount counts the source rows of one kind.
type MergeCount struct {
	Kind string
	// Added rows were new to the destination. Existing ones were there
	// with the same content. Updated ones were there and gained what the
	// source knew and they lacked: a puzzle's solution, solution count or
	// symmetry form, a missing label or description, work the source has
	// done. Conflicts were there with other content (kept). Skipped rows
	// were left out: those of an import still loading in the source, and
	// those that depend on a row left out or in conflict (the runs of a
	// configuration whose name the destination gives other settings).
	// Invalid rows failed the checks and were left out (SkipInvalid).
	Added, Existing, Updated, Conflicts, Skipped, Invalid int64
}

// MergeConflict is one row whose identity the destination holds with
// other content.
type MergeConflict struct {
	// Kind is one of the Merge kinds; Identity names the row in the
	// destination's terms (its ids and names); Differs says what differs,
	// the destination's value first.
	Kind, Identity, Differs string
}

// Count returns the counts of kind.
func (r *MergeReport) Count(kind string) MergeCount {
	for _, c := range r.Counts {
		if c.Kind == kind {
			return c
		}
	}
	return MergeCount{Kind: kind}
}

// ConflictCount returns the number of conflicts of every kind.
func (r *MergeReport) ConflictCount() int64 {
	var n int64
	for _, c := range r.Counts {
		n += c.Conflicts
	}
	return n
}

// Merge copies the laboratory src into dst, row by row matched by
// identity: puzzles by box shape and givens, collections and experiments
// by name, memberships by collection and puzzle, imports by file checksum,
// collection and start time, configurations by solver and settings,
// ratings by puzzle and rater, tags by puzzle and tag, runs by puzzle,
// configuration, seed and budget (with their trajectory points and the
// experiments they belong to), work by experiment and run identity. What
// dst lacks is added; what it holds with the same content is left alone;
// what it holds with other content is a conflict, listed in the report
// and never overwritten. A stored puzzle gains the solution, solution
// count or symmetry form it lacks, and a work item pending in dst and
// done in src becomes done.
//
// Before it writes anything, Merge checks every source row as the
// commands that write such rows would (import, run, rate, configs): the
// grids, solutions and final grids of solved runs against the rules and
// the givens, solver names and parameters (with MergeOptions.Solvers),
// the JSON columns, tags as the web interface checks them (CheckTag), and
// the size of text (sudokulab.MaxNameBytes and the other bounds). A
// source with invalid rows is an EINVALID error naming the first few
// (table, row and reason) and nothing is written; with
// MergeOptions.SkipInvalid it is merged without them, each listed in the
// report.
//
// src is only read (open it ReadOnly), in id order and in pages; dst is
// written in one transaction per page, so Merge can be interrupted
// (cancel ctx) and run again: what committed is found there. Both must
// have this program's schema. A src that is dst itself is an EINVALID
// error.
func Merge(ctx context.Context, dst, src *DB, opts MergeOptions) (MergeReport, error) {
	m := &merger{
		dst: dst, src: src, opts: opts,
		counts:      map[string]*MergeCount{},
		collections: map[int64]int64{}, imports: map[int64]int64{}, puzzles: map[int64]int64{},
		configs: map[int64]int64{}, experiments: map[int64]int64{},
		configNames: map[int64]string{}, created: map[int64]bool{},
	}
	m.rep.Source = src.Path()
	for _, k := range MergeKinds {
		m.counts[k] = &MergeCount{Kind: k}
	}
	if m.opts.Batch <= 0 {
		m.opts.Batch = 500
	}
	m.opts.Batch = min(m.opts.Batch, MaxMergeBatch)
	if m.opts.MaxPoints <= 0 {
		m.opts.MaxPoints = 200_000
	}
	if m.opts.MaxConflicts == 0 {
		m.opts.MaxConflicts = 1000
	}
	if dst == src || SameDatabase(dst.path, src.path) {
		return m.report(), sudokulab.Errorf(sudokulab.EINVALID, "merge %s: the source is the destination itself", src.path)
	}
	if dst.IsReadOnly() {
		return m.report(), sudokulab.Errorf(sudokulab.EINVALID, "merge into %s: the destination is open read-only", dst.path)
	}
	for _, d := range []*DB{src, dst} {
		if err := d.CheckVersion(ctx); err != nil {
			return m.report(), err
		}
	}
	if err := m.check(ctx); err != nil {
		if ctx.Err() != nil {
			return m.report(), ctx.Err()
		}
		return m.report(), err
	}
	steps := []func(context.Context) error{
		m.mergeCollections, m.mergeImports, m.mergePuzzles, m.mergeMemberships, m.mergeConfigs,
		m.mergeExperiments, m.mergeRatings, m.mergeTags, m.mergeRuns, m.mergeWork,
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			if ctx.Err() != nil {
				return m.report(), ctx.Err()
			}
			return m.report(), fmt.Errorf("merge %s into %s: %w", src.path, dst.path, err)
		}
	}
	return m.report(), nil
}

// SameDatabase reports whether the database targets a and b (file paths
// or postgres:// URLs) name the same database: the same file, however
// named, or the same server, port and database.
func SameDatabase(a, b string) bool {
	if IsPostgres(a) != IsPostgres(b) {
		return false
	}
	if IsPostgres(a) {
		ua, errA := url.Parse(a)
		ub, errB := url.Parse(b)
		if errA != nil || errB != nil {
			return a == b
		}
		port := func(u *url.URL) string {
			if p := u.Port(); p != "" {
				return p
			}
			return "5432"
		}
		return strings.EqualFold(ua.Hostname(), ub.Hostname()) && port(ua) == port(ub) &&
			strings.Trim(ua.Path, "/") == strings.Trim(ub.Path, "/")
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// merger is the state of one Merge: the maps from source ids to
// destination ids of the kinds later kinds refer to, and the report.
type merger struct {
	dst, src *DB
	opts     MergeOptions
	rep      MergeReport
	counts   map[string]*MergeCount

	collections, imports, puzzles, configs, experiments map[int64]int64
	// configNames names the destination's configurations, by id, that
	// source configurations map to.
	configNames map[int64]string
	// bad holds the reason each invalid source row fails the checks.
	bad map[badKey]string
	// created holds the destination collections this merge added, which
	// take the source's memberships even when frozen.
	created map[int64]bool
}

// report returns the report with the counts in MergeKinds order.
func (m *merger) report() MergeReport {
	r := m.rep
	r.Counts = make([]MergeCount, len(MergeKinds))
	for i, k := range MergeKinds {
		r.Counts[i] = *m.counts[k]
	}
	return r
}

// delta is what one page's transaction did: applied to the report and the
// id maps only once it committed, since WithTx may run it twice.
type delta struct {
	counts    map[string]*MergeCount
	conflicts []MergeConflict
	notes     []string
	ids       map[int64]int64
	names     map[int64]string // configuration names, for configNames
	created   []int64          // destination collections added
}

func (d *delta) c(kind string) *MergeCount {
	c, ok := d.counts[kind]
	if !ok {
		c = &MergeCount{Kind: kind}
		d.counts[kind] = c
	}
	return c
}

func (d *delta) conflict(kind, identity, differs string) {
	d.c(kind).Conflicts++
	d.conflicts = append(d.conflicts, MergeConflict{Kind: kind, Identity: identity, Differs: differs})
}

// note adds a remark to the report.
func (m *merger) note(format string, args ...any) {
	m.rep.Notes = append(m.rep.Notes, fmt.Sprintf(format, args...))
}

// commit runs fn in one destination transaction and, once it committed,
// adds what it did to the report and its new ids to ids (nil: none).
func (m *merger) commit(ctx context.Context, ids map[int64]int64, fn func(tx *sqlx.Tx, d *delta) error) error {
	var d *delta
	err := m.dst.WithTx(ctx, func(tx *sqlx.Tx) error {
		d = &delta{counts: map[string]*MergeCount{}, ids: map[int64]int64{}, names: map[int64]string{}}
		return fn(tx, d)
	})
	if err != nil {
		return err
	}
	for k, c := range d.counts {
		t := m.counts[k]
		t.Added += c.Added
		t.Existing += c.Existing
		t.Updated += c.Updated
		t.Conflicts += c.Conflicts
		t.Skipped += c.Skipped
		t.Invalid += c.Invalid
	}
	for _, c := range d.conflicts {
		if m.opts.MaxConflicts < 0 || len(m.rep.Conflicts) < m.opts.MaxConflicts {
			m.rep.Conflicts = append(m.rep.Conflicts, c)
		} else {
			m.rep.ConflictsNotListed++
		}
	}
	m.rep.Notes = append(m.rep.Notes, d.notes...)
	for k, v := range d.ids {
		ids[k] = v
	}
	for k, v := range d.names {
		m.configNames[k] = v
	}
	for _, id := range d.created {
		m.created[id] = true
	}
	return nil
}

// addRows runs query, an insert of n rows that skips those stored (ON
// CONFLICT DO NOTHING), in tx, and counts the rows it added as added
// rows of kind and the others as existing; what names it in errors.
func addRows(ctx context.Context, tx *sqlx.Tx, d *delta, kind, what string, n int, query string, args ...any) error {
	res, err := tx.ExecContext(ctx, tx.Rebind(query), args...)
	if err != nil {
		return dbError(err, what)
	}
	k, err := affected(res, what)
	if err != nil {
		return err
	}
	d.c(kind).Added += k
	d.c(kind).Existing += int64(n) - k
	return nil
}

// mergePages reads the source in pages, each after the cursor the previous
// one ended at, and writes each page in one destination transaction,
// adding the ids it maps to ids. The rows whose key (nil: none) the
// checks found invalid are left out.
func mergePages[T, K any](ctx context.Context, m *merger, kind string, ids map[int64]int64,
	read func(ctx context.Context, after K, n int) (rows []T, next K, err error),
	write func(tx *sqlx.Tx, d *delta, rows []T) error, key func(T) badKey) error {
	return sourcePages(ctx, m, kind, read, func(rows []T) error {
		n := len(rows)
		if key != nil && len(m.bad) > 0 {
			rows = slices.DeleteFunc(rows, func(r T) bool { return m.bad[key(r)] != "" })
			m.counts[kind].Invalid += int64(n - len(rows))
		}
		if len(rows) == 0 {
			return nil
		}
		return m.commit(ctx, ids, func(tx *sqlx.Tx, d *delta) error { return write(tx, d, rows) })
	})
}

// sourcePages reads the source in pages of MergeOptions.Batch rows, each
// after the cursor the previous one ended at, calls fn with each, and
// reports the progress under the name kind.
func sourcePages[T, K any](ctx context.Context, m *merger, kind string, read func(ctx context.Context, after K, n int) (rows []T, next K, err error), fn func([]T) error) error {
	var (
		after K
		done  int64
	)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rows, next, err := read(ctx, after, m.opts.Batch)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return nil
		}
		n := len(rows)
		if err := fn(rows); err != nil {
			return err
		}
		after = next
		done += int64(n)
		if m.opts.Progress != nil {
			m.opts.Progress(kind, done)
		}
	}
}

// selectAll runs a query on x and scans every row with scan.
func selectAll(ctx context.Context, x sqlx.QueryerContext, what, query string, args []any, scan func(*sqlx.Rows) error) error {
	rows, err := x.QueryxContext(ctx, query, args...)
	if err != nil {
		return dbError(err, what)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return dbError(err, what)
		}
	}
	return dbError(rows.Err(), what)
}

// keyTable returns a common table expression "name(cols) AS (VALUES ...)"
// with one row per entry of rows, each value cast to its column's type
// (BIGINT or TEXT), and its arguments. Both engines read it; PostgreSQL
// needs the casts to know the parameters' types. Join it to a table as
// "FROM k CROSS JOIN t WHERE ...": SQLite keeps the key table as the
// outer loop then, searching t by its index for each key (with an
// inner join it would rather scan all of t once it holds a few hundred
// keys), and PostgreSQL plans it as any inner join.
func keyTable(name string, cols, types []string, rows [][]any) (string, []any) {
	var b strings.Builder
	b.WriteString(name + "(" + strings.Join(cols, ", ") + ") AS (VALUES ")
	group := make([]string, len(types))
	for i, t := range types {
		group[i] = "CAST(? AS " + t + ")"
	}
	g := "(" + strings.Join(group, ", ") + ")"
	args := make([]any, 0, len(rows)*len(cols))
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(g)
		args = append(args, r...)
	}
	b.WriteString(")")
	return b.String(), args
}

// inList returns "(?, ?, ...)" for the ids and its arguments.
func inList(ids []int64) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return "(" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")", args
}

// nullText shows a nullable text value in a conflict.
func nullText(s sql.NullString) string {
	if !s.Valid {
		return "NULL"
	}
	return strconv.Quote(s.String)
}

func nullInt(n sql.NullInt64) string {
	if !n.Valid {
		return "NULL"
	}
	return strconv.FormatInt(n.Int64, 10)
}

func nullFloat(f sql.NullFloat64) string {
	if !f.Valid {
		return "NULL"
	}
	return strconv.FormatFloat(f.Float64, 'g', -1, 64)
}

// differ collects "what: destination's value here, source's in the
// source" parts of a conflict.
type differ []string

func (d *differ) add(what, here, there string) {
	*d = append(*d, fmt.Sprintf("%s %s here, %s in the source", what, here, there))
}

func (d differ) String() string { return strings.Join(d, "; ") }
