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
	"errors"
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
	MergeRuns             = "runs"
	MergeTrajectoryPoints = "trajectory_points"
	MergeExperimentRuns   = "experiment_runs"
	MergeWork             = "work"
)

// MergeKinds lists the kinds in the order Merge takes them.
var MergeKinds = []string{
	MergeCollections, MergeImports, MergePuzzles, MergeMemberships, MergeConfigs, MergeExperiments,
	MergeRatings, MergeRuns, MergeTrajectoryPoints, MergeExperimentRuns, MergeWork,
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
// ratings by puzzle and rater, runs by puzzle, configuration, seed and
// budget (with their trajectory points and the experiments they belong
// to), work by experiment and run identity. What dst lacks is added; what
// it holds with the same content is left alone; what it holds with other
// content is a conflict, listed in the report and never overwritten. A
// stored puzzle gains the solution, solution count or symmetry form it
// lacks, and a work item pending in dst and done in src becomes done.
//
// Before it writes anything, Merge checks every source row as the
// commands that write such rows would (import, run, rate, configs): the
// grids, solutions and final grids of solved runs against the rules and
// the givens, solver names and parameters (with MergeOptions.Solvers),
// the JSON columns, and the size of text (sudokulab.MaxNameBytes and the
// other bounds). A source with invalid rows is an EINVALID error naming
// the first few (table, row and reason) and nothing is written; with
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
		ctx: ctx, dst: dst, src: src, opts: opts,
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
	if err := m.check(); err != nil {
		if ctx.Err() != nil {
			return m.report(), ctx.Err()
		}
		return m.report(), err
	}
	steps := []func() error{
		m.mergeCollections, m.mergeImports, m.mergePuzzles, m.mergeMemberships, m.mergeConfigs,
		m.mergeExperiments, m.mergeRatings, m.mergeRuns, m.mergeWork,
	}
	for _, step := range steps {
		if err := step(); err != nil {
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
	ctx      context.Context
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
func (m *merger) commit(ids map[int64]int64, fn func(tx *sqlx.Tx, d *delta) error) error {
	var d *delta
	err := m.dst.WithTx(m.ctx, func(tx *sqlx.Tx) error {
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

// mergePages reads the source in pages, each after the cursor the previous
// one ended at, and writes each page in one destination transaction,
// adding the ids it maps to ids. The rows whose key (nil: none) the
// checks found invalid are left out.
func mergePages[T, K any](m *merger, kind string, ids map[int64]int64,
	read func(after K, n int) (rows []T, next K, err error),
	write func(tx *sqlx.Tx, d *delta, rows []T) error, key func(T) badKey) error {
	return sourcePages(m, kind, read, func(rows []T) error {
		n := len(rows)
		if key != nil && len(m.bad) > 0 {
			rows = slices.DeleteFunc(rows, func(r T) bool { return m.bad[key(r)] != "" })
			m.counts[kind].Invalid += int64(n - len(rows))
		}
		if len(rows) == 0 {
			return nil
		}
		return m.commit(ids, func(tx *sqlx.Tx, d *delta) error { return write(tx, d, rows) })
	})
}

// sourcePages reads the source in pages of MergeOptions.Batch rows, each
// after the cursor the previous one ended at, calls fn with each, and
// reports the progress under the name kind.
func sourcePages[T, K any](m *merger, kind string, read func(after K, n int) (rows []T, next K, err error), fn func([]T) error) error {
	var (
		after K
		done  int64
	)
	for {
		if err := m.ctx.Err(); err != nil {
			return err
		}
		rows, next, err := read(after, m.opts.Batch)
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

// ---- collections and experiments ----

// namedRow is a row of collections or experiments.
type namedRow struct {
	id                         int64
	name, description, created string
	frozen                     int64 // collections only
}

// mergeCollections merges collections by name. Those an import still
// loading in the source created are left out, as the source's readers do.
func (m *merger) mergeCollections() error {
	var loading int64
	if err := m.src.GetContext(m.ctx, &loading, `SELECT COUNT(*) FROM collections c WHERE NOT `+notLoading("c.import_id")); err != nil {
		return dbError(err, "count collections of loading imports")
	}
	if loading > 0 {
		m.counts[MergeCollections].Skipped += loading
		m.note("%d collections created by imports still loading in the source were left out", loading)
	}
	return m.mergeNamed(MergeCollections, "collection", collectionsQuery, m.collections)
}

// collectionsQuery and experimentsQuery read a page of the source's
// collections and experiments.
var (
	collectionsQuery = `SELECT id, name, description, created_at, frozen FROM collections c
		WHERE id > ? AND ` + notLoading("c.import_id") + ` ORDER BY id LIMIT ?`
	experimentsQuery = `SELECT id, name, description, created_at, 0 FROM experiments WHERE id > ? ORDER BY id LIMIT ?`
)

// mergeExperiments merges experiments by name.
func (m *merger) mergeExperiments() error {
	return m.mergeNamed(MergeExperiments, "experiment", experimentsQuery, m.experiments)
}

// mergeNamed merges the rows of collections or experiments (kind) read by
// query: a row is its name; a missing description is filled in.
func (m *merger) mergeNamed(kind, what, query string, ids map[int64]int64) error {
	read := m.readNamed(kind, query)
	write := func(tx *sqlx.Tx, d *delta, rows []namedRow) error {
		for _, r := range rows {
			var id int64
			cols, params, args := "name, description, created_at", "?, ?, ?", []any{r.name, r.description, r.created}
			if kind == MergeCollections {
				cols, params, args = cols+", frozen", params+", ?", append(args, r.frozen)
			}
			err := tx.QueryRowxContext(m.ctx, tx.Rebind(`INSERT INTO `+kind+` (`+cols+`)
				VALUES (`+params+`) ON CONFLICT (name) DO NOTHING RETURNING id`), args...).Scan(&id)
			if err == nil {
				d.c(kind).Added++
				d.ids[r.id] = id
				d.created = append(d.created, id)
				continue
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return dbError(err, "add "+what+" "+r.name)
			}
			var desc string
			if err := tx.QueryRowxContext(m.ctx, tx.Rebind(`SELECT id, description FROM `+kind+` WHERE name = ?`), r.name).Scan(&id, &desc); err != nil {
				return dbError(err, "find "+what+" "+r.name)
			}
			d.ids[r.id] = id
			if desc == "" && r.description != "" {
				if _, err := tx.ExecContext(m.ctx, tx.Rebind(`UPDATE `+kind+` SET description = ? WHERE id = ?`), r.description, id); err != nil {
					return dbError(err, "describe "+what+" "+r.name)
				}
				d.c(kind).Updated++
				continue
			}
			d.c(kind).Existing++
		}
		return nil
	}
	return mergePages(m, kind, ids, read, write, func(r namedRow) badKey { return badKey{kind, r.id, 0} })
}

// readNamed returns the reader of the pages of collections or experiments
// (kind) that query selects.
func (m *merger) readNamed(kind, query string) func(after int64, n int) ([]namedRow, int64, error) {
	return func(after int64, n int) ([]namedRow, int64, error) {
		var out []namedRow
		err := selectAll(m.ctx, m.src, "read "+kind, m.src.Rebind(query), []any{after, n}, func(rs *sqlx.Rows) error {
			var r namedRow
			err := rs.Scan(&r.id, &r.name, &r.description, &r.created, &r.frozen)
			out = append(out, r)
			return err
		})
		if len(out) == 0 {
			return nil, after, err
		}
		return out, out[len(out)-1].id, err
	}
}

// dstImport is the destination's id of the source import id, or nil
// (NULL) for none or one not merged.
func (m *merger) dstImport(id sql.NullInt64) any {
	if d, ok := m.imports[id.Int64]; ok && id.Valid {
		return d
	}
	return nil
}

// ---- imports ----

type importRow struct {
	id                             int64
	fileName, sha, format, started string
	collection                     sql.NullInt64
	finished                       sql.NullString
	read, added, duplicate, reject int64
	notes                          string
	records                        int64
}

// mergeImports copies the provenance of the source's finished imports:
// an import is its file checksum, collection and start time. Imports
// still loading in the source are left out, with what they wrote.
func (m *merger) mergeImports() error {
	var loading int64
	if err := m.src.GetContext(m.ctx, &loading, `SELECT COUNT(*) FROM imports WHERE state <> 'done'`); err != nil {
		return dbError(err, "count loading imports")
	}
	if loading > 0 {
		m.counts[MergeImports].Skipped += loading
		m.note("%d imports still loading in the source were left out, with the puzzles and memberships only they wrote", loading)
	}
	read := m.readImports
	write := func(tx *sqlx.Tx, d *delta, rows []importRow) error {
		for _, r := range rows {
			var coll sql.NullInt64
			if r.collection.Valid {
				if id, ok := m.collections[r.collection.Int64]; ok {
					coll = sql.NullInt64{Int64: id, Valid: true}
				}
			}
			var found int64
			err := selectAll(m.ctx, tx, "find import", tx.Rebind(`SELECT id, collection_id FROM imports
				WHERE file_sha256 = ? AND started_at = ?`), []any{r.sha, r.started}, func(rs *sqlx.Rows) error {
				var (
					id int64
					c  sql.NullInt64
				)
				if err := rs.Scan(&id, &c); err != nil {
					return err
				}
				if c == coll && found == 0 {
					found = id
				}
				return nil
			})
			if err != nil {
				return err
			}
			if found != 0 {
				d.ids[r.id] = found
				d.c(MergeImports).Existing++
				continue
			}
			err = tx.QueryRowxContext(m.ctx, tx.Rebind(`
				INSERT INTO imports (file_name, file_sha256, format, collection_id, started_at, finished_at, puzzles_read,
					puzzles_new, puzzles_duplicate, puzzles_rejected, notes, state, records_done)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'done', ?)
				RETURNING id`), r.fileName, r.sha, r.format, coll, r.started, r.finished, r.read, r.added,
				r.duplicate, r.reject, r.notes, r.records).Scan(&found)
			if err != nil {
				return dbError(err, "add import of "+r.fileName)
			}
			d.ids[r.id] = found
			d.c(MergeImports).Added++
		}
		return nil
	}
	return mergePages(m, MergeImports, m.imports, read, write, func(r importRow) badKey { return badKey{"imports", r.id, 0} })
}

// readImports reads a page of the source's finished imports.
func (m *merger) readImports(after int64, n int) ([]importRow, int64, error) {
	var out []importRow
	err := selectAll(m.ctx, m.src, "read imports", m.src.Rebind(`
		SELECT id, file_name, file_sha256, format, collection_id, started_at, finished_at, puzzles_read,
			puzzles_new, puzzles_duplicate, puzzles_rejected, notes, records_done
		FROM imports WHERE id > ? AND state = 'done' ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r importRow
		err := rs.Scan(&r.id, &r.fileName, &r.sha, &r.format, &r.collection, &r.started, &r.finished, &r.read,
			&r.added, &r.duplicate, &r.reject, &r.notes, &r.records)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}

// ---- puzzles ----

type puzzleRow struct {
	id                       int64
	grid                     string
	size, rows, cols, givens int64
	solution, form           sql.NullString
	count                    sql.NullInt64
	status                   sql.NullString
	seconds                  sql.NullFloat64
	created                  string
	importID                 sql.NullInt64
	dstSolution, dstForm     sql.NullString
	dstStatus                sql.NullString
	dstCount                 sql.NullInt64
	dstID                    int64
	hasDst                   bool
}

// published selects the puzzles p the source's readers see, and those
// runs refer to (which clearing an import keeps too).
var published = "(" + notLoading("p.import_id") + " OR EXISTS (SELECT 1 FROM runs r WHERE r.puzzle_id = p.id))"

// mergePuzzles merges puzzles by box shape and givens. A stored puzzle
// gains the solution, solution count and symmetry form it lacks; other
// values than the stored ones are a conflict (but for the solution of a
// puzzle with several, which may be any of them).
func (m *merger) mergePuzzles() error {
	var loading int64
	if err := m.src.GetContext(m.ctx, &loading, `SELECT COUNT(*) FROM puzzles p WHERE NOT `+published); err != nil {
		return dbError(err, "count puzzles of loading imports")
	}
	m.counts[MergePuzzles].Skipped += loading
	read := m.readPuzzles
	write := func(tx *sqlx.Tx, d *delta, page []puzzleRow) error {
		rows := make([]puzzleRow, len(page)) // written to: fresh on each attempt
		copy(rows, page)
		if err := m.findPuzzles(tx, rows); err != nil {
			return err
		}
		var missing []puzzleRow
		for _, r := range rows {
			if !r.hasDst {
				missing = append(missing, r)
				continue
			}
			d.ids[r.id] = r.dstID
			if err := m.comparePuzzle(tx, d, r); err != nil {
				return err
			}
		}
		if len(missing) == 0 {
			return nil
		}
		args := make([]any, 0, 12*len(missing))
		for _, r := range missing {
			imp := m.dstImport(r.importID)
			args = append(args, r.grid, r.size, r.rows, r.cols, r.givens, r.solution, r.count, r.form, r.created, imp,
				r.status, r.seconds)
		}
		type key struct {
			rows, cols int64
			grid       string
		}
		added := map[key]int64{}
		err := selectAll(m.ctx, tx, "add puzzles", tx.Rebind(`
			INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form,
				created_at, import_id, count_status, count_seconds)
			VALUES `+values(len(missing), 12)+`
			ON CONFLICT (box_rows, box_cols, grid) DO NOTHING
			RETURNING id, box_rows, box_cols, grid`), args, func(rs *sqlx.Rows) error {
			var (
				id int64
				k  key
			)
			err := rs.Scan(&id, &k.rows, &k.cols, &k.grid)
			added[k] = id
			return err
		})
		if err != nil {
			return err
		}
		var raced []puzzleRow
		for _, r := range missing {
			if id, ok := added[key{r.rows, r.cols, r.grid}]; ok {
				d.ids[r.id] = id
				d.c(MergePuzzles).Added++
			} else {
				raced = append(raced, r)
			}
		}
		if len(raced) == 0 {
			return nil
		}
		// Stored by another writer since the lookup: compare as stored.
		if err := m.findPuzzles(tx, raced); err != nil {
			return err
		}
		for _, r := range raced {
			if !r.hasDst {
				return fmt.Errorf("db: merge puzzle %s: neither added nor found", r.grid)
			}
			d.ids[r.id] = r.dstID
			if err := m.comparePuzzle(tx, d, r); err != nil {
				return err
			}
		}
		return nil
	}
	return mergePages(m, MergePuzzles, m.puzzles, read, write, func(r puzzleRow) badKey { return badKey{"puzzles", r.id, 0} })
}

// readPuzzles reads a page of the puzzles the source publishes.
func (m *merger) readPuzzles(after int64, n int) ([]puzzleRow, int64, error) {
	var out []puzzleRow
	err := selectAll(m.ctx, m.src, "read puzzles", m.src.Rebind(`
		SELECT id, grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form, created_at, import_id,
			count_status, count_seconds
		FROM puzzles p WHERE id > ? AND `+published+` ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r puzzleRow
		err := rs.Scan(&r.id, &r.grid, &r.size, &r.rows, &r.cols, &r.givens, &r.solution, &r.count, &r.form,
			&r.created, &r.importID, &r.status, &r.seconds)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}

// findPuzzles looks the rows up in the destination by identity and sets
// their dst fields.
func (m *merger) findPuzzles(tx *sqlx.Tx, rows []puzzleRow) error {
	keys := make([][]any, len(rows))
	for i, r := range rows {
		keys[i] = []any{int64(i), r.rows, r.cols, r.grid}
	}
	cte, args := keyTable("k", []string{"i", "r", "c", "g"}, []string{"BIGINT", "BIGINT", "BIGINT", "TEXT"}, keys)
	return selectAll(m.ctx, tx, "find puzzles", tx.Rebind(`WITH `+cte+`
		SELECT k.i, p.id, p.solution, p.solution_count, p.symmetry_form, p.count_status
		FROM k CROSS JOIN puzzles p WHERE p.box_rows = k.r AND p.box_cols = k.c AND p.grid = k.g`), args, func(rs *sqlx.Rows) error {
		var i int64
		var r puzzleRow
		if err := rs.Scan(&i, &r.dstID, &r.dstSolution, &r.dstCount, &r.dstForm, &r.dstStatus); err != nil {
			return err
		}
		p := &rows[i]
		p.dstID, p.dstSolution, p.dstCount, p.dstForm, p.dstStatus, p.hasDst = r.dstID, r.dstSolution, r.dstCount, r.dstForm, r.dstStatus, true
		return nil
	})
}

// comparePuzzle counts a puzzle found in the destination: the same,
// filled in, or in conflict.
func (m *merger) comparePuzzle(tx *sqlx.Tx, d *delta, r puzzleRow) error {
	var diff differ
	several := (r.count.Valid && r.count.Int64 == 2) || (r.dstCount.Valid && r.dstCount.Int64 == 2)
	if r.solution.Valid && r.dstSolution.Valid && r.solution.String != r.dstSolution.String && !several {
		diff.add("solution", r.dstSolution.String, r.solution.String)
	}
	if r.count.Valid && r.dstCount.Valid && r.count.Int64 != r.dstCount.Int64 {
		diff.add("solution count", nullInt(r.dstCount), nullInt(r.count))
	}
	if r.form.Valid && r.dstForm.Valid && r.form.String != r.dstForm.String {
		diff.add("symmetry form", r.dstForm.String, r.form.String)
	}
	// A count, or an undetermined one where none was tried, comes with
	// its status and effort.
	fill := (r.solution.Valid && !r.dstSolution.Valid) || (r.count.Valid && !r.dstCount.Valid) || (r.form.Valid && !r.dstForm.Valid) ||
		(!r.dstCount.Valid && !r.dstStatus.Valid && r.status.Valid)
	if fill {
		_, err := tx.ExecContext(m.ctx, tx.Rebind(`
			UPDATE puzzles SET solution = COALESCE(solution, ?), solution_count = COALESCE(solution_count, ?),
				symmetry_form = COALESCE(symmetry_form, ?),
				count_status = CASE WHEN solution_count IS NULL THEN COALESCE(?, count_status) ELSE count_status END,
				count_seconds = CASE WHEN solution_count IS NULL THEN COALESCE(?, count_seconds) ELSE count_seconds END
			WHERE id = ?`), r.solution, r.count, r.form, r.status, r.seconds, r.dstID)
		if err != nil {
			return dbError(err, fmt.Sprintf("fill in puzzle %d", r.dstID))
		}
	}
	switch {
	case len(diff) > 0:
		d.conflict(MergePuzzles, fmt.Sprintf("puzzle %d (%dx%d boxes) %s", r.dstID, r.rows, r.cols, r.grid), diff.String())
	case fill:
		d.c(MergePuzzles).Updated++
	default:
		d.c(MergePuzzles).Existing++
	}
	return nil
}

// ---- memberships ----

type memberCursor struct{ collection, position, puzzle int64 }

type memberRow struct {
	collection, puzzle, position int64
	label                        string
	importID, line               sql.NullInt64
	metadata                     sql.NullString
	added                        string
}

// mergeMemberships merges the memberships of puzzles in collections: a
// missing one is appended to the destination's collection, in the
// source's order; a stored one keeps its place, and gains a label if it
// has none; another label is a conflict.
func (m *merger) mergeMemberships() error {
	var loading int64
	if err := m.src.GetContext(m.ctx, &loading, `SELECT COUNT(*) FROM collection_puzzles cp WHERE NOT `+notLoading("cp.import_id")); err != nil {
		return dbError(err, "count memberships of loading imports")
	}
	m.counts[MergeMemberships].Skipped += loading
	read := m.readMemberships
	write := func(tx *sqlx.Tx, d *delta, page []memberRow) error {
		type mapped struct {
			memberRow
			dstColl, dstPuzzle int64
		}
		var rows []mapped
		for _, r := range page {
			c, okC := m.collections[r.collection]
			p, okP := m.puzzles[r.puzzle]
			if !okC || !okP {
				d.c(MergeMemberships).Skipped++
				continue
			}
			rows = append(rows, mapped{r, c, p})
		}
		if len(rows) == 0 {
			return nil
		}
		keys := make([][]any, len(rows))
		for i, r := range rows {
			keys[i] = []any{int64(i), r.dstColl, r.dstPuzzle}
		}
		cte, args := keyTable("k", []string{"i", "c", "p"}, []string{"BIGINT", "BIGINT", "BIGINT"}, keys)
		found := map[int64]string{}
		err := selectAll(m.ctx, tx, "find memberships", tx.Rebind(`WITH `+cte+`
			SELECT k.i, cp.label FROM k CROSS JOIN collection_puzzles cp WHERE cp.collection_id = k.c AND cp.puzzle_id = k.p`),
			args, func(rs *sqlx.Rows) error {
				var (
					i     int64
					label string
				)
				err := rs.Scan(&i, &label)
				found[i] = label
				return err
			})
		if err != nil {
			return err
		}
		next := map[int64]int64{}  // next position per destination collection
		frozen := map[int64]bool{} // whether it is frozen and not added by this merge
		var add []any
		n := 0
		for i, r := range rows {
			label, ok := found[int64(i)]
			switch {
			case ok && (label == r.label || r.label == ""):
				d.c(MergeMemberships).Existing++
			case ok && label == "":
				if _, err := tx.ExecContext(m.ctx, tx.Rebind(`UPDATE collection_puzzles SET label = ?
					WHERE collection_id = ? AND puzzle_id = ?`), r.label, r.dstColl, r.dstPuzzle); err != nil {
					return dbError(err, "label membership")
				}
				d.c(MergeMemberships).Updated++
			case ok:
				d.conflict(MergeMemberships, fmt.Sprintf("puzzle %d in collection %d", r.dstPuzzle, r.dstColl),
					fmt.Sprintf("label %q here, %q in the source", label, r.label))
			default:
				pos, seen := next[r.dstColl]
				if !seen {
					var f int64
					if err := tx.QueryRowxContext(m.ctx, tx.Rebind(`SELECT
						(SELECT COALESCE(MAX(position), 0) + 1 FROM collection_puzzles WHERE collection_id = ?),
						(SELECT frozen FROM collections WHERE id = ?)`), r.dstColl, r.dstColl).Scan(&pos, &f); err != nil {
						return dbError(err, "next position")
					}
					frozen[r.dstColl] = f == 1 && !m.created[r.dstColl]
				}
				next[r.dstColl] = pos
				if frozen[r.dstColl] { // changed only when asked (collections add)
					d.conflict(MergeMemberships, fmt.Sprintf("puzzle %d in collection %d", r.dstPuzzle, r.dstColl),
						"the collection is frozen here and does not hold the puzzle; not added")
					continue
				}
				next[r.dstColl] = pos + 1
				imp := m.dstImport(r.importID)
				add = append(add, r.dstColl, r.dstPuzzle, pos, r.label, imp, r.line, r.metadata, r.added)
				n++
			}
		}
		if n > 0 {
			res, err := tx.ExecContext(m.ctx, tx.Rebind(`INSERT INTO collection_puzzles
				(collection_id, puzzle_id, position, label, import_id, source_line, metadata, added_at)
				VALUES `+values(n, 8)+` ON CONFLICT DO NOTHING`), add...)
			if err != nil {
				return dbError(err, "add memberships")
			}
			k, _ := res.RowsAffected()
			d.c(MergeMemberships).Added += k
			d.c(MergeMemberships).Existing += int64(n) - k
		}
		return nil
	}
	return mergePages(m, MergeMemberships, nil, read, write, func(r memberRow) badKey { return badKey{"collection_puzzles", r.collection, r.puzzle} })
}

// readMemberships reads a page of the source's memberships, but for those of imports still loading.
func (m *merger) readMemberships(after memberCursor, n int) ([]memberRow, memberCursor, error) {
	var out []memberRow
	err := selectAll(m.ctx, m.src, "read memberships", m.src.Rebind(`
		SELECT collection_id, puzzle_id, position, label, import_id, source_line, metadata, added_at
		FROM collection_puzzles cp
		WHERE (collection_id, position, puzzle_id) > (?, ?, ?) AND `+notLoading("cp.import_id")+`
		ORDER BY collection_id, position, puzzle_id LIMIT ?`),
		[]any{after.collection, after.position, after.puzzle, n}, func(rs *sqlx.Rows) error {
			var r memberRow
			err := rs.Scan(&r.collection, &r.puzzle, &r.position, &r.label, &r.importID, &r.line, &r.metadata, &r.added)
			out = append(out, r)
			return err
		})
	if len(out) == 0 {
		return nil, after, err
	}
	last := out[len(out)-1]
	return out, memberCursor{last.collection, last.position, last.puzzle}, err
}

// ---- configurations ----

type configRow struct {
	id                                               int64
	name, solver, params, hash, description, created string
	preset                                           int64
}

// mergeConfigs merges configurations by solver and settings (params_hash).
// The same settings under another name map to the stored configuration; a
// name the destination gives other settings is a conflict, and the runs
// and work of that configuration are skipped.
func (m *merger) mergeConfigs() error {
	read := m.readConfigs
	write := func(tx *sqlx.Tx, d *delta, rows []configRow) error {
		for _, r := range rows {
			var same, clash *configRow
			err := selectAll(m.ctx, tx, "find configuration "+r.name, tx.Rebind(`
				SELECT id, name, solver, params, params_hash FROM configs
				WHERE name = ? OR (solver = ? AND params_hash = ?)`), []any{r.name, r.solver, r.hash}, func(rs *sqlx.Rows) error {
				var s configRow
				if err := rs.Scan(&s.id, &s.name, &s.solver, &s.params, &s.hash); err != nil {
					return err
				}
				if s.solver == r.solver && s.hash == r.hash {
					same = &s
				} else {
					clash = &s
				}
				return nil
			})
			if err != nil {
				return err
			}
			if same == nil && clash != nil && clash.name == r.name && clash.solver == r.solver &&
				m.opts.SameSettings != nil && m.opts.SameSettings(r.solver, clash.params, r.params) {
				same, clash = clash, nil // the same settings, stored by another version
			}
			switch {
			case same != nil:
				d.ids[r.id] = same.id
				d.names[same.id] = same.name
				d.c(MergeConfigs).Existing++
				if same.name != r.name {
					d.notes = append(d.notes, fmt.Sprintf("configuration %s of the source has the settings of configuration %s here: its runs are merged under %s",
						r.name, same.name, same.name))
				}
			case clash != nil:
				d.conflict(MergeConfigs, "configuration "+r.name,
					fmt.Sprintf("settings %s %s here, %s %s in the source; its runs and work are not merged", clash.solver, clash.params, r.solver, r.params))
			default:
				var id int64
				err := tx.QueryRowxContext(m.ctx, tx.Rebind(`
					INSERT INTO configs (name, solver, params, params_hash, description, preset, created_at)
					VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`),
					r.name, r.solver, r.params, r.hash, r.description, r.preset, r.created).Scan(&id)
				if err != nil {
					return dbError(err, "add configuration "+r.name)
				}
				d.ids[r.id] = id
				d.names[id] = r.name
				d.c(MergeConfigs).Added++
			}
		}
		return nil
	}
	return mergePages(m, MergeConfigs, m.configs, read, write, func(r configRow) badKey { return badKey{"configs", r.id, 0} })
}

// readConfigs reads a page of the source's configurations.
func (m *merger) readConfigs(after int64, n int) ([]configRow, int64, error) {
	var out []configRow
	err := selectAll(m.ctx, m.src, "read configurations", m.src.Rebind(`
		SELECT id, name, solver, params, params_hash, description, preset, created_at
		FROM configs WHERE id > ? ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r configRow
		err := rs.Scan(&r.id, &r.name, &r.solver, &r.params, &r.hash, &r.description, &r.preset, &r.created)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}

// ---- ratings ----

type ratingRow struct {
	id, puzzle                     int64
	rater, version, options, rated string
	value                          sql.NullFloat64
	label, details                 sql.NullString
	importID                       sql.NullInt64
	dstPuzzle                      int64
}

// mergeRatings merges ratings by puzzle and rater; the same rater giving
// another version, options, value or label is a conflict.
func (m *merger) mergeRatings() error {
	read := m.readRatings
	write := func(tx *sqlx.Tx, d *delta, page []ratingRow) error {
		var rows []ratingRow
		for _, r := range page {
			p, ok := m.puzzles[r.puzzle]
			if !ok {
				d.c(MergeRatings).Skipped++
				continue
			}
			r.dstPuzzle = p
			rows = append(rows, r)
		}
		if len(rows) == 0 {
			return nil
		}
		keys := make([][]any, len(rows))
		for i, r := range rows {
			keys[i] = []any{int64(i), r.dstPuzzle, r.rater}
		}
		cte, args := keyTable("k", []string{"i", "p", "r"}, []string{"BIGINT", "BIGINT", "TEXT"}, keys)
		found := map[int64]bool{}
		err := selectAll(m.ctx, tx, "find ratings", tx.Rebind(`WITH `+cte+`
			SELECT k.i, r.rater_version, r.options, r.value, r.label
			FROM k CROSS JOIN ratings r WHERE r.puzzle_id = k.p AND r.rater = k.r`), args, func(rs *sqlx.Rows) error {
			var (
				i                int64
				version, options string
				value            sql.NullFloat64
				label            sql.NullString
			)
			if err := rs.Scan(&i, &version, &options, &value, &label); err != nil {
				return err
			}
			found[i] = true
			s := rows[i]
			var diff differ
			if version != s.version {
				diff.add("rater version", strconv.Quote(version), strconv.Quote(s.version))
			}
			if options != s.options {
				diff.add("options", options, s.options)
			}
			if value != s.value {
				diff.add("value", nullFloat(value), nullFloat(s.value))
			}
			if label != s.label {
				diff.add("label", nullText(label), nullText(s.label))
			}
			if len(diff) > 0 {
				d.conflict(MergeRatings, fmt.Sprintf("rating of puzzle %d by %s", s.dstPuzzle, s.rater), diff.String())
			} else {
				d.c(MergeRatings).Existing++
			}
			return nil
		})
		if err != nil {
			return err
		}
		var add []any
		n := 0
		for i, r := range rows {
			if !found[int64(i)] {
				imp := m.dstImport(r.importID)
				add = append(add, r.dstPuzzle, r.rater, r.version, r.options, r.value, r.label, r.details, r.rated, imp)
				n++
			}
		}
		if n > 0 {
			res, err := tx.ExecContext(m.ctx, tx.Rebind(`INSERT INTO ratings
				(puzzle_id, rater, rater_version, options, value, label, details, rated_at, import_id)
				VALUES `+values(n, 9)+` ON CONFLICT (puzzle_id, rater) DO NOTHING`), add...)
			if err != nil {
				return dbError(err, "add ratings")
			}
			k, _ := res.RowsAffected()
			d.c(MergeRatings).Added += k
			d.c(MergeRatings).Existing += int64(n) - k
		}
		return nil
	}
	return mergePages(m, MergeRatings, nil, read, write, func(r ratingRow) badKey { return badKey{"ratings", r.id, 0} })
}

// readRatings reads a page of the source's ratings.
func (m *merger) readRatings(after int64, n int) ([]ratingRow, int64, error) {
	var out []ratingRow
	err := selectAll(m.ctx, m.src, "read ratings", m.src.Rebind(`
		SELECT id, puzzle_id, rater, rater_version, options, value, label, details, rated_at, import_id
		FROM ratings WHERE id > ? ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r ratingRow
		err := rs.Scan(&r.id, &r.puzzle, &r.rater, &r.version, &r.options, &r.value, &r.label, &r.details, &r.rated,
			&r.importID)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}

// ---- runs ----

// mergeRuns merges runs by identity (puzzle, configuration, seed and
// budget), each new one with its trajectory, and links every run to the
// experiments it belongs to in the source. A stored run with another
// status, counters, best cost, final grid or error is a conflict; it is
// still linked, since a run is its identity.
func (m *merger) mergeRuns() error {
	var points map[int64]int64 // trajectory points per source run of the page
	read := func(after int64, n int) ([]sudokulab.Run, int64, error) {
		page, _, err := m.readRuns(after, n)
		if err != nil || len(page) == 0 {
			return nil, after, err
		}
		runs := make([]sudokulab.Run, len(page))
		for i, r := range page {
			runs[i] = r.run
		}
		ids := make([]int64, len(runs))
		for i, r := range runs {
			ids[i] = r.ID
		}
		in, args := inList(ids)
		points = map[int64]int64{}
		err = selectAll(m.ctx, m.src, "count trajectory points", m.src.Rebind(`
			SELECT run_id, COUNT(*) FROM trajectory_points WHERE run_id IN `+in+` GROUP BY run_id`), args,
			func(rs *sqlx.Rows) error {
				var id, k int64
				err := rs.Scan(&id, &k)
				points[id] = k
				return err
			})
		if err != nil {
			return nil, after, err
		}
		// End the page before the run whose points would pass MaxPoints.
		var sum int64
		for i, r := range runs {
			sum += points[r.ID]
			if i > 0 && sum > int64(m.opts.MaxPoints) {
				runs = runs[:i]
				break
			}
		}
		return runs, runs[len(runs)-1].ID, nil
	}
	write := func(tx *sqlx.Tx, d *delta, runs []sudokulab.Run) error {
		return m.writeRuns(tx, d, runs, points)
	}
	return mergePages(m, MergeRuns, nil, read, write, nil) // invalid runs: see writeRuns
}

// writeRuns writes one page of runs in the transaction tx.
func (m *merger) writeRuns(tx *sqlx.Tx, d *delta, runs []sudokulab.Run, points map[int64]int64) error {
	type mapped struct {
		src   sudokulab.Run
		dstID int64
		new   bool
	}
	var rows []mapped
	for _, r := range runs {
		if m.bad[badKey{"runs", r.ID, 0}] != "" {
			d.c(MergeRuns).Invalid++
			d.c(MergeTrajectoryPoints).Skipped += points[r.ID]
			continue
		}
		p, okP := m.puzzles[r.PuzzleID]
		c, okC := m.configs[r.ConfigID]
		if !okP || !okC {
			d.c(MergeRuns).Skipped++
			d.c(MergeTrajectoryPoints).Skipped += points[r.ID]
			continue
		}
		rows = append(rows, mapped{src: r})
		dst := &rows[len(rows)-1].src
		dst.PuzzleID, dst.ConfigID = p, c
		dst.ExperimentID = m.experiments[r.ExperimentID] // 0 (NULL) when none
	}
	if len(rows) == 0 {
		return nil
	}
	keys := make([][]any, len(rows))
	for i, r := range rows {
		s := r.src
		keys[i] = []any{int64(i), s.PuzzleID, s.ConfigID, s.Seed, s.MaxEvaluations, s.MaxGenerations, s.TimeoutMS}
	}
	big := "BIGINT"
	cte, args := keyTable("k", []string{"i", "p", "c", "s", "me", "mg", "t"}, []string{big, big, big, big, big, big, big}, keys)
	err := selectAll(m.ctx, tx, "find runs", tx.Rebind(`WITH `+cte+`
		SELECT k.i, r.id, r.status, r.evaluations, r.generations, r.restarts, r.best_cost, r.final_grid, r.error
		FROM k CROSS JOIN runs r WHERE r.puzzle_id = k.p AND r.config_id = k.c AND r.seed = k.s
			AND r.max_evaluations = k.me AND r.max_generations = k.mg AND r.timeout_ms = k.t`), args,
		func(rs *sqlx.Rows) error {
			var (
				i, id                 int64
				status                string
				evals, gens, restarts int64
				best                  sql.NullInt64
				final, msg            sql.NullString
			)
			if err := rs.Scan(&i, &id, &status, &evals, &gens, &restarts, &best, &final, &msg); err != nil {
				return err
			}
			r := &rows[i]
			r.dstID = id
			s := r.src
			var diff differ
			if status != string(s.Status) {
				diff.add("status", status, string(s.Status))
			}
			if evals != s.Evaluations {
				diff.add("evaluations", strconv.FormatInt(evals, 10), strconv.FormatInt(s.Evaluations, 10))
			}
			if gens != s.Generations {
				diff.add("generations", strconv.FormatInt(gens, 10), strconv.FormatInt(s.Generations, 10))
			}
			if restarts != s.Restarts {
				diff.add("restarts", strconv.FormatInt(restarts, 10), strconv.FormatInt(s.Restarts, 10))
			}
			srcBest := sql.NullInt64{}
			if s.BestCost != nil {
				srcBest = sql.NullInt64{Int64: int64(*s.BestCost), Valid: true}
			}
			if best != srcBest {
				diff.add("best cost", nullInt(best), nullInt(srcBest))
			}
			srcFinal := sql.NullString{}
			if len(s.FinalGrid.Cells) > 0 {
				srcFinal = sql.NullString{String: s.FinalGrid.String(), Valid: true}
			}
			if final != srcFinal {
				diff.add("final grid", nullText(final), nullText(srcFinal))
			}
			srcMsg := sql.NullString{String: s.Error, Valid: s.Error != ""}
			if msg != srcMsg {
				diff.add("error", nullText(msg), nullText(srcMsg))
			}
			if len(diff) > 0 {
				d.conflict(MergeRuns, m.runIdentity(id, s), diff.String())
			} else {
				d.c(MergeRuns).Existing++
			}
			d.c(MergeTrajectoryPoints).Existing += points[s.ID]
			return nil
		})
	if err != nil {
		return err
	}
	var newIDs []int64 // source ids of the runs added
	dstOf := map[int64]int64{}
	for i := range rows {
		r := &rows[i]
		if r.dstID == 0 {
			run := r.src // InsertRunIfNew sets its ID
			id, inserted, err := InsertRunIfNew(m.ctx, tx, &run, nil)
			if err != nil {
				return err
			}
			if !inserted { // recorded by another writer since the lookup
				if id, _, err = FindRunID(m.ctx, tx, run); err != nil {
					return err
				}
				d.c(MergeRuns).Existing++
				d.c(MergeTrajectoryPoints).Existing += points[r.src.ID]
			} else {
				r.new = true
				newIDs = append(newIDs, r.src.ID)
				d.c(MergeRuns).Added++
			}
			r.dstID = id
		}
		dstOf[r.src.ID] = r.dstID
	}
	// The trajectories of the runs added, read from the source now.
	if len(newIDs) > 0 {
		in, args := inList(newIDs)
		var points []sudokulab.TrajectoryPoint
		err := selectAll(m.ctx, m.src, "read trajectories", m.src.Rebind(`
			SELECT run_id, seq, generation, evaluations, elapsed_seconds, best_cost, current_cost, restarts, convergence
			FROM trajectory_points WHERE run_id IN `+in+` ORDER BY run_id, seq`), args, func(rs *sqlx.Rows) error {
			var p sudokulab.TrajectoryPoint
			err := rs.Scan(&p.RunID, &p.Seq, &p.Generation, &p.Evaluations, &p.ElapsedSeconds, &p.BestCost,
				&p.CurrentCost, &p.Restarts, &p.Convergence)
			p.RunID = dstOf[p.RunID]
			points = append(points, p)
			return err
		})
		if err != nil {
			return err
		}
		if err := InsertPoints(m.ctx, tx, points); err != nil {
			return err
		}
		d.c(MergeTrajectoryPoints).Added += int64(len(points))
	}
	// The experiments each run belongs to in the source.
	srcIDs := make([]int64, len(rows))
	for i, r := range rows {
		srcIDs[i] = r.src.ID
	}
	in, args := inList(srcIDs)
	var links []any
	n := 0
	err = selectAll(m.ctx, m.src, "read experiment runs", m.src.Rebind(`
		SELECT experiment_id, run_id FROM experiment_runs WHERE run_id IN `+in+` ORDER BY run_id, experiment_id`), args,
		func(rs *sqlx.Rows) error {
			var e, r int64
			if err := rs.Scan(&e, &r); err != nil {
				return err
			}
			if de, ok := m.experiments[e]; ok {
				links = append(links, de, dstOf[r])
				n++
			}
			return nil
		})
	if err != nil {
		return err
	}
	if n > 0 {
		res, err := tx.ExecContext(m.ctx, tx.Rebind(`INSERT INTO experiment_runs (experiment_id, run_id)
			VALUES `+values(n, 2)+` ON CONFLICT DO NOTHING`), links...)
		if err != nil {
			return dbError(err, "link runs to experiments")
		}
		k, _ := res.RowsAffected()
		d.c(MergeExperimentRuns).Added += k
		d.c(MergeExperimentRuns).Existing += int64(n) - k
	}
	return nil
}

// runIdentity names a destination run in a conflict.
func (m *merger) runIdentity(id int64, r sudokulab.Run) string {
	budget := "no budget"
	var parts []string
	if r.MaxEvaluations > 0 {
		parts = append(parts, fmt.Sprintf("%d evaluations", r.MaxEvaluations))
	}
	if r.MaxGenerations > 0 {
		parts = append(parts, fmt.Sprintf("%d generations", r.MaxGenerations))
	}
	if r.TimeoutMS > 0 {
		parts = append(parts, fmt.Sprintf("%d ms", r.TimeoutMS))
	}
	if len(parts) > 0 {
		budget = "budget " + strings.Join(parts, ", ")
	}
	config := m.configNames[r.ConfigID]
	if config == "" {
		config = strconv.FormatInt(r.ConfigID, 10)
	}
	return fmt.Sprintf("run %d (configuration %s, puzzle %d, seed %d, %s)", id, config, r.PuzzleID, r.Seed, budget)
}

// ---- work ----

type workRow struct {
	id, experiment, puzzle, config, seed, maxEvals, maxGens, timeout int64
	trace, state                                                     string
	worker, finished                                                 sql.NullString
	attempts                                                         int64
	enqueued                                                         string
}

// runOfWork is the id of the destination's run with the identity of the
// work row k (a key table with columns p, c, s, me, mg, t).
const runOfWork = `(SELECT r.id FROM runs r WHERE r.puzzle_id = k.p AND r.config_id = k.c AND r.seed = k.s
	AND r.max_evaluations = k.me AND r.max_generations = k.mg AND r.timeout_ms = k.t)`

// mergeWork merges the work queue by experiment and run identity. A
// missing item is added (one running in the source as pending: that claim
// means nothing here); an item pending or running here and done in the
// source becomes done, with the run of its identity.
func (m *merger) mergeWork() error {
	read := m.readWork
	write := func(tx *sqlx.Tx, d *delta, page []workRow) error {
		var rows []workRow
		for _, r := range page {
			e, okE := m.experiments[r.experiment]
			p, okP := m.puzzles[r.puzzle]
			c, okC := m.configs[r.config]
			if !okE || !okP || !okC {
				d.c(MergeWork).Skipped++
				continue
			}
			r.experiment, r.puzzle, r.config = e, p, c
			if r.state == "running" { // a claim on the source, not here
				r.state, r.worker, r.attempts = "pending", sql.NullString{}, max(0, r.attempts-1)
			}
			rows = append(rows, r)
		}
		if len(rows) == 0 {
			return nil
		}
		cols := []string{"i", "e", "p", "c", "s", "me", "mg", "t"}
		big := "BIGINT"
		types := []string{big, big, big, big, big, big, big, big}
		keys := make([][]any, len(rows))
		for i, r := range rows {
			keys[i] = []any{int64(i), r.experiment, r.puzzle, r.config, r.seed, r.maxEvals, r.maxGens, r.timeout}
		}
		cte, args := keyTable("k", cols, types, keys)
		found := map[int64]bool{}
		var progress []workRow
		err := selectAll(m.ctx, tx, "find work", tx.Rebind(`WITH `+cte+`
			SELECT k.i, w.id, w.state FROM k CROSS JOIN work w WHERE w.experiment_id = k.e AND w.puzzle_id = k.p
				AND w.config_id = k.c AND w.seed = k.s AND w.max_evaluations = k.me
				AND w.max_generations = k.mg AND w.timeout_ms = k.t`), args, func(rs *sqlx.Rows) error {
			var (
				i, id int64
				state string
			)
			if err := rs.Scan(&i, &id, &state); err != nil {
				return err
			}
			found[i] = true
			if r := rows[i]; state != "done" && r.state == "done" {
				r.id = id // the destination's item
				progress = append(progress, r)
			} else {
				d.c(MergeWork).Existing++
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, r := range progress {
			res, err := tx.ExecContext(m.ctx, tx.Rebind(`
				WITH k(p, c, s, me, mg, t) AS (VALUES (CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT),
					CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT)))
				UPDATE work SET state = 'done', run_id = (SELECT `+runOfWork+` FROM k), worker = ?, lease_until = NULL,
					finished_at = ?
				WHERE id = ? AND state <> 'done'`),
				r.puzzle, r.config, r.seed, r.maxEvals, r.maxGens, r.timeout, r.worker, r.finished, r.id)
			if err != nil {
				return dbError(err, fmt.Sprintf("finish work %d", r.id))
			}
			if k, _ := res.RowsAffected(); k > 0 {
				d.c(MergeWork).Updated++
			} else {
				d.c(MergeWork).Existing++
			}
		}
		var add [][]any
		for i, r := range rows {
			if !found[int64(i)] {
				add = append(add, []any{r.experiment, r.puzzle, r.config, r.seed, r.maxEvals, r.maxGens, r.timeout,
					r.trace, r.state, r.worker, r.attempts, r.enqueued, r.finished})
			}
		}
		if len(add) > 0 {
			t := "TEXT"
			cte, args := keyTable("k", []string{"e", "p", "c", "s", "me", "mg", "t", "trace", "state", "worker", "attempts", "enq", "fin"},
				[]string{big, big, big, big, big, big, big, t, t, t, big, t, t}, add)
			res, err := tx.ExecContext(m.ctx, tx.Rebind(`WITH `+cte+`
				INSERT INTO work (experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms,
					trace, state, worker, attempts, run_id, enqueued_at, finished_at)
				SELECT k.e, k.p, k.c, k.s, k.me, k.mg, k.t, k.trace, k.state, k.worker, k.attempts,
					CASE WHEN k.state = 'done' THEN `+runOfWork+` END, k.enq, k.fin
				FROM k WHERE true
				ON CONFLICT DO NOTHING`), args...)
			if err != nil {
				return dbError(err, "add work")
			}
			k, _ := res.RowsAffected()
			d.c(MergeWork).Added += k
			d.c(MergeWork).Existing += int64(len(add)) - k
		}
		return nil
	}
	return mergePages(m, MergeWork, nil, read, write, func(r workRow) badKey { return badKey{"work", r.id, 0} })
}

// readWork reads a page of the source's work queue.
func (m *merger) readWork(after int64, n int) ([]workRow, int64, error) {
	var out []workRow
	err := selectAll(m.ctx, m.src, "read work", m.src.Rebind(`
		SELECT id, experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms,
			trace, state, worker, attempts, enqueued_at, finished_at
		FROM work WHERE id > ? ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r workRow
		err := rs.Scan(&r.id, &r.experiment, &r.puzzle, &r.config, &r.seed, &r.maxEvals, &r.maxGens, &r.timeout,
			&r.trace, &r.state, &r.worker, &r.attempts, &r.enqueued, &r.finished)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}
