package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/queries"
)

// The SQL console: one statement typed (sql=...) or a canned query with its
// parameters (query=NAME&p.PARAM=VALUE), run through db.DB.ConsoleQuery, the
// `sql` command's read-only path and checks, within a time limit
// (timelimit=MS lowers the server's). The URL holds the statement, so a
// result can be shared; /sql.json and /sql.csv download it.
//
// A canned query's result is kept (keeper, exact) by its statement and
// parameters while the database is unchanged: many of them read every
// puzzle or run, seconds to minutes at a million, and the same few are
// asked again and again. One that takes longer than the page's time limit
// goes on in the background, within Options.CannedTimeout, one at a time,
// and the page says so and reloads itself. Typed SQL is run in every
// request and never kept: it may read what is not in the tables (the
// time, random(), the engine's settings), and it stays within the time
// limit whoever types it.

// consoleData is the console's page.
type consoleData struct {
	SQL         string      `json:"sql"`
	Query       string      `json:"query,omitempty"`
	Description string      `json:"description,omitempty"`
	Params      []paramView `json:"params,omitempty"`
	TimeLimitMS int64       `json:"time_limit_ms"`
	Result      *table      `json:"result,omitempty"`
	Truncated   bool        `json:"truncated,omitempty"`
	ElapsedMS   float64     `json:"elapsed_ms,omitempty"`
	// Computing is true while a canned query's result is computed in
	// the background; ComputedAt says when the result kept was.
	Computing       bool      `json:"computing,omitempty"`
	CannedTimeoutMS int64     `json:"canned_time_limit_ms,omitempty"`
	ComputedAt      time.Time `json:"computed_at,omitzero"`
	// ResultHTML is Result drawn, when kept so.
	ResultHTML template.HTML `json:"-"`
	Error      string        `json:"error,omitempty"`
	MaxRows    int           `json:"max_rows"`
	Canned     []cannedView  `json:"-"`
	CSVURL     string        `json:"-"`
	JSONURL    string        `json:"-"`
}

// paramView is a canned query's parameter with the value in the URL.
type paramView struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Default string `json:"default"`
	Doc     string `json:"doc"`
}

type cannedView struct {
	Name, Description, URL string
}

// consoleStatement reads the statement of the request: the SQL and its
// arguments, and the page's data so far.
func (s *Server) consoleStatement(r *http.Request) (consoleData, string, []any, error) {
	q := r.URL.Query()
	d := consoleData{SQL: q.Get("sql"), Query: q.Get("query"), TimeLimitMS: s.o.ConsoleTimeout.Milliseconds(), MaxRows: consoleMaxRows}
	if v := q.Get("timelimit"); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms < 1 {
			return d, "", nil, sudokulab.Errorf(sudokulab.EINVALID, "timelimit %q: want milliseconds, at least 1", v)
		}
		d.TimeLimitMS = min(ms, d.TimeLimitMS)
	}
	for _, c := range s.queries {
		d.Canned = append(d.Canned, cannedView{Name: c.Name, Description: c.Description,
			URL: "/sql?" + url.Values{"query": {c.Name}}.Encode()})
	}
	if d.Query == "" {
		return d, d.SQL, nil, nil
	}
	c, ok := queries.Find(s.queries, d.Query)
	if !ok {
		return d, "", nil, notFound("no canned query called %q", d.Query)
	}
	d.Description = c.Description
	values := map[string]string{}
	for _, p := range c.Params {
		pv := paramView{Name: p.Name, Default: p.DefaultString(), Doc: p.Doc, Value: p.DefaultString()}
		if v, ok := q["p."+p.Name]; ok {
			pv.Value = v[0]
			values[p.Name] = v[0]
		}
		d.Params = append(d.Params, pv)
	}
	text, args, err := c.Bind(values)
	if err != nil {
		return d, "", nil, sudokulab.WrapError(sudokulab.EINVALID, err, "")
	}
	d.SQL = c.SQL
	return d, text, args, nil
}

// consoleOutcome is what a statement gave: its result or the error the
// console shows (a refusal, a time limit, an SQL error), and how long it
// took.
type consoleOutcome struct {
	res     db.ConsoleResult
	err     error
	elapsed time.Duration
	// html is the result's table drawn once, for a kept result: a
	// thousand rows take html/template tens of milliseconds.
	html template.HTML
}

// consoleKeep keeps a canned query's outcome exactly, its size counted.
var consoleKeep = keep{exact: true, size: func(v any) int64 {
	o := v.(consoleOutcome)
	n := int64(256 + len(o.html))
	for _, c := range o.res.Columns {
		n += int64(len(c)) + 16
	}
	for _, row := range o.res.Rows {
		n += 24
		for _, c := range row {
			n += 16
			if s, ok := c.(string); ok {
				n += int64(len(s))
			}
		}
	}
	return n
}}

// consoleRun runs the statement of d: typed SQL in the request, within its
// time limit; a canned query's through the keeper, the request waiting
// for it at most that time limit (computing is then true and the outcome
// empty). at is when the outcome kept was computed (zero when not kept).
func (s *Server) consoleRun(ctx context.Context, d *consoleData, text string, args []any) (o consoleOutcome, at time.Time, computing bool, err error) {
	limit := time.Duration(d.TimeLimitMS) * time.Millisecond
	run := func(ctx context.Context, limit time.Duration) consoleOutcome {
		start := time.Now()
		res, err := s.db.ConsoleQuery(ctx, text, limit, consoleMaxRows, args...)
		if errors.Is(err, db.ErrStatementTimeout) {
			// The console's limits, not the sql command's flag.
			how := "serve --console-timeout sets it, timelimit=MS lowers it"
			if d.Query != "" {
				how = "serve --canned-timeout sets it in the background, as sudokulab query's --statement-timeout does"
			}
			err = sudokulab.WrapError(sudokulab.EINVALID, db.ErrStatementTimeout, "sql: the console's time limit is %s (%s)", limit, how)
		}
		return consoleOutcome{res: res, err: err, elapsed: time.Since(start)}
	}
	if d.Query == "" {
		return run(ctx, limit), at, false, nil
	}
	_, known, err := s.watch.Version(ctx)
	if err != nil {
		return o, at, false, err
	}
	if !known {
		// The engine cannot tell changes (PostgreSQL before 13): a
		// result cannot be known to be current, so it is computed in
		// the request, and not kept (at zero).
		return run(ctx, limit), at, false, nil
	}
	key, err := json.Marshal(append([]any{"console", text}, args...))
	if err != nil {
		return o, at, false, err
	}
	k := consoleKeep
	k.wait = limit
	d.CannedTimeoutMS = s.o.CannedTimeout.Milliseconds()
	v, at, ok, err := s.kept.get(ctx, string(key), k, func(ctx context.Context) (any, error) {
		// One canned query at a time in the background: each may take a
		// core for CannedTimeout.
		select {
		case s.cannedSlot <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-s.cannedSlot }()
		o := run(ctx, s.o.CannedTimeout)
		if sudokulab.ErrorCode(o.err) == sudokulab.EINTERNAL {
			return nil, o.err // not kept: the next request tries again
		}
		if o.err == nil {
			var b strings.Builder
			if err := s.pages["console"].ExecuteTemplate(&b, "table", tableOf(o.res.Table)); err != nil {
				return nil, err
			}
			o.html = template.HTML(b.String()) // drawn by html/template: escaped
		}
		return o, nil
	})
	if err != nil || !ok {
		return o, at, !ok && err == nil, err
	}
	return v.(consoleOutcome), at, false, nil
}

func (s *Server) console(r *http.Request) (view, error) {
	d, text, args, err := s.consoleStatement(r)
	if err != nil {
		return view{}, err
	}
	v := view{Template: "console", Title: "SQL", Data: &d}
	if strings.TrimSpace(text) == "" {
		return v, nil
	}
	o, at, computing, err := s.consoleRun(r.Context(), &d, text, args)
	if err != nil {
		return view{}, err
	}
	if computing {
		d.Computing, v.Refresh = true, 2
		return v, nil
	}
	res, err := o.res, o.err
	d.ElapsedMS = float64(o.elapsed.Microseconds()) / 1000
	d.ComputedAt = at
	if err != nil {
		if sudokulab.ErrorCode(err) == sudokulab.EINTERNAL || wantsJSON(r) {
			return view{}, err
		}
		d.Error = err.Error() // shown beside the statement, to be edited
		return v, nil
	}
	t := tableOf(res.Table)
	d.Result, d.Truncated, d.ResultHTML = &t, res.Truncated, o.html
	raw := r.URL.Query().Encode()
	d.CSVURL, d.JSONURL = "/sql.csv?"+raw, "/sql.json?"+raw
	return v, nil
}

// consoleCSV downloads the console's result as CSV.
func (s *Server) consoleCSV(w http.ResponseWriter, r *http.Request) {
	d, text, args, err := s.consoleStatement(r)
	if err == nil && strings.TrimSpace(text) == "" {
		err = sudokulab.Errorf(sudokulab.EINVALID, "no statement: give sql=... or query=NAME")
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	o, _, computing, err := s.consoleRun(r.Context(), &d, text, args)
	if err == nil && computing {
		w.Header().Set("Retry-After", "2")
		http.Error(w, "the result of "+d.Query+" is being computed: try again in a moment", http.StatusServiceUnavailable)
		return
	}
	if err == nil {
		err = o.err
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res := o.res
	name := "result.csv"
	if d.Query != "" {
		name = d.Query + ".csv"
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	cw := csv.NewWriter(w)
	cw.Write(res.Columns)
	rec := make([]string, len(res.Columns))
	for _, row := range res.Rows {
		for i, v := range row {
			rec[i] = cellText(v)
		}
		cw.Write(rec)
	}
	cw.Flush()
}
