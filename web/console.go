package web

import (
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/queries"
)

// The SQL console: one statement typed (sql=...) or a canned query with its
// parameters (query=NAME&p.PARAM=VALUE), run through db.DB.ConsoleQuery, the
// `sql` command's read-only path and checks, within a time limit
// (timelimit=MS lowers the server's). The URL holds the statement, so a
// result can be shared; /sql.json and /sql.csv download it.

// consoleData is the console's page.
type consoleData struct {
	SQL         string       `json:"sql"`
	Query       string       `json:"query,omitempty"`
	Description string       `json:"description,omitempty"`
	Params      []paramView  `json:"params,omitempty"`
	TimeLimitMS int64        `json:"time_limit_ms"`
	Result      *table       `json:"result,omitempty"`
	Truncated   bool         `json:"truncated,omitempty"`
	ElapsedMS   float64      `json:"elapsed_ms,omitempty"`
	Error       string       `json:"error,omitempty"`
	MaxRows     int          `json:"max_rows"`
	Canned      []cannedView `json:"-"`
	CSVURL      string       `json:"-"`
	JSONURL     string       `json:"-"`
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

func (s *Server) console(r *http.Request) (view, error) {
	d, text, args, err := s.consoleStatement(r)
	if err != nil {
		return view{}, err
	}
	v := view{Template: "console", Title: "SQL", Data: &d}
	if strings.TrimSpace(text) == "" {
		return v, nil
	}
	start := time.Now()
	res, err := s.db.ConsoleQuery(r.Context(), text, time.Duration(d.TimeLimitMS)*time.Millisecond, consoleMaxRows, args...)
	d.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		if sudokulab.ErrorCode(err) == sudokulab.EINTERNAL || wantsJSON(r) {
			return view{}, err
		}
		d.Error = err.Error() // shown beside the statement, to be edited
		return v, nil
	}
	t := tableOf(res.Table)
	d.Result, d.Truncated = &t, res.Truncated
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
	res, err := s.db.ConsoleQuery(r.Context(), text, time.Duration(d.TimeLimitMS)*time.Millisecond, consoleMaxRows, args...)
	if err != nil {
		s.fail(w, r, err)
		return
	}
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
