package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/figures"
)

// experimentLinks are the links of the experiment list's columns.
var experimentLinks = map[string]string{"name": "/experiments/"}

func (s *Server) experiments(r *http.Request) (view, error) {
	c, err := s.homeCounts(r.Context())
	if err != nil {
		return view{}, err
	}
	tv := tableOf(c.experiments)
	tv.Links = experimentLinks
	return view{Template: "experiments", Title: "Experiments", Data: tv}, nil
}

// progressData is an experiment's progress: per configuration its work
// pending, running (under a live lease), lapsed (its worker died),
// abandoned and done, with what its runs say so far; and who works on it.
// The experiment page fetches it again every few seconds.
type progressData struct {
	Experiment string `json:"experiment"`
	Configs    table  `json:"configs"`
	Hosts      table  `json:"hosts"`
	// Totals sums the work columns over the configurations.
	Totals map[string]int64 `json:"totals"`
	// Planned is the work planned: pending, running, lapsed, abandoned
	// and done.
	Planned int64 `json:"planned"`
}

// progressColumns are the work columns Totals sums.
var progressColumns = []string{"pending", "running", "lapsed", "abandoned", "done", "runs", "solved"}

func (s *Server) progressOf(r *http.Request, name string) (progressData, error) {
	ctx := r.Context()
	if _, err := db.ExperimentID(ctx, s.db, name); err != nil {
		return progressData{}, err
	}
	return s.keptProgress(ctx, name)
}

// keptProgress returns the progress of the experiment called name, kept
// (progressKeep).
func (s *Server) keptProgress(ctx context.Context, name string) (progressData, error) {
	d, _, err := keptValueOf(ctx, s.kept, "progress\x00"+name, progressKeep, func(ctx context.Context) (progressData, error) {
		return s.readProgress(ctx, name)
	})
	return d, err
}

// readProgress reads the progress of the experiment called name.
func (s *Server) readProgress(ctx context.Context, name string) (progressData, error) {
	configs, err := db.ExperimentDetail(ctx, s.db, name)
	if err != nil {
		return progressData{}, err
	}
	hosts, err := db.ExperimentHosts(ctx, s.db, name)
	if err != nil {
		return progressData{}, err
	}
	d := progressData{Experiment: name, Configs: tableOf(configs), Hosts: tableOf(hosts), Totals: map[string]int64{}}
	for _, c := range progressColumns {
		if i := d.Configs.column(c); i >= 0 {
			for _, row := range d.Configs.Rows {
				d.Totals[c] += int64(db.Number(row[i]))
			}
		}
	}
	for _, c := range []string{"pending", "running", "lapsed", "abandoned", "done"} {
		d.Planned += d.Totals[c]
	}
	return d, nil
}

func (s *Server) progress(r *http.Request) (view, error) {
	d, err := s.progressOf(r, r.PathValue("name"))
	if err != nil {
		return view{}, err
	}
	return view{Template: "progress", Title: "Progress of " + d.Experiment, Data: d}, nil
}

// experimentData is an experiment's page: its progress, and the success
// rates and expected running times of its configurations with their
// intervals, as its report computes them.
type experimentData struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Progress    progressData `json:"progress"`
	// Success has a row per configuration, best first; Notes are the
	// report's remarks. Both are empty while no run is recorded.
	Success  []successRow `json:"success"`
	Unit     string       `json:"unit,omitempty"`
	TimeUnit string       `json:"time_unit,omitempty"`
	Level    float64      `json:"level,omitempty"`
	Notes    []string     `json:"notes,omitempty"`
	// Runs lists the first runs (those that did not solve first); RunsSQL
	// is the console's URL for all of them.
	Runs    table  `json:"runs"`
	RunsSQL string `json:"runs_sql"`
	// CompareURL compares the two best configurations.
	CompareURL string `json:"compare_url,omitempty"`
	// Figures are the pictures of `plot` drawn from its runs (those
	// drawn from trajectory points only when some run has them), with
	// the settings the page's query gives them; FigureForm is the form
	// that chooses those.
	Figures    []experimentFigure `json:"figures"`
	FigureForm figureForm         `json:"-"`
}

// experimentRuns is how many runs the experiment page lists.
const experimentRuns = 100

// The progress events: how often the stream looks for a change
// (db.ChangeWatch: SQLite's PRAGMA data_version, PostgreSQL's
// pg_current_snapshot()), and how often it reads the progress anyway: a
// lease lapses with time, not with a write (eventsRefresh); where changes
// cannot be seen (PostgreSQL before 13) the progress is read every
// eventsPoll. It is sent only when it changed.
const (
	eventsCheck   = 200 * time.Millisecond
	eventsRefresh = time.Second
	eventsPoll    = 500 * time.Millisecond
)

// progressEvents streams an experiment's progress as server-sent events
// (text/event-stream): an event "progress" holding the progress JSON at
// once, then again each time it changes, until the client goes away or the
// server stops. A change is seen within eventsCheck of its commit, for
// the cost of a db.ChangeWatch look; the progress is read only then (or
// every eventsRefresh), and sent only when it differs. Where changes
// cannot be seen it is read every eventsPoll.
func (s *Server) progressEvents(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	name := r.PathValue("name")
	p, err := s.progressOf(r, name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	var last []byte
	send := func(p progressData) bool {
		b, err := json.Marshal(p)
		if err != nil {
			s.log.Printf("%s: %v", r.URL, err)
			return false
		}
		if bytes.Equal(b, last) {
			return true
		}
		last = b
		if _, err := fmt.Fprintf(w, "event: progress\ndata: %s\n\n", b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	version, _, err := s.watch.Version(ctx)
	if err != nil || !send(p) {
		return
	}
	read := time.Now()
	tick := time.NewTicker(eventsCheck)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		v, ok, err := s.watch.Version(ctx)
		if err != nil {
			return // the client went away, or the server stops
		}
		if ok && v == version && time.Since(read) < eventsRefresh || !ok && time.Since(read) < eventsPoll {
			continue
		}
		version, read = v, time.Now()
		if p, err = s.progressOf(r, name); err != nil {
			if ctx.Err() == nil {
				s.log.Printf("%s: %v", r.URL, err)
			}
			return
		}
		if !send(p) {
			return
		}
	}
}

// successRow is a report.SuccessRow with NaN (not computed) as null.
type successRow struct {
	Config      string   `json:"config"`
	Solver      string   `json:"solver"`
	Puzzles     int      `json:"puzzles"`
	Solved      int      `json:"solved"`
	Runs        int      `json:"runs"`
	Rate        *float64 `json:"success"`
	SuccessLow  *float64 `json:"success_low"`
	SuccessHigh *float64 `json:"success_high"`
	ERT         *float64 `json:"ert"`
	ERTLow      *float64 `json:"ert_low"`
	ERTHigh     *float64 `json:"ert_high"`
	Unit        string   `json:"unit"`
	Time        *float64 `json:"ert_seconds"`
	TimeLow     *float64 `json:"ert_seconds_low"`
	TimeHigh    *float64 `json:"ert_seconds_high"`
}

// finite is x, or nil for NaN and infinities (which JSON cannot hold).
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// reportResamples is the bootstrap resamples of the page's ERT intervals:
// fewer than the report's 1000, so that the page stays fast.
const reportResamples = 200

func (s *Server) experiment(r *http.Request) (view, error) {
	name := r.PathValue("name")
	if q, ok := withoutEmpty(r.URL.Query()); ok && !wantsJSON(r) {
		// The settings form sends its fields left at their default
		// empty: the page's URL is the one without them.
		u := *r.URL
		u.RawQuery = q.Encode()
		return view{Redirect: u.String()}, nil
	}
	p, err := s.progressOf(r, name)
	if err != nil {
		return view{}, err
	}
	d := experimentData{Name: name, Progress: p, Success: []successRow{},
		Figures: []experimentFigure{}, RunsSQL: "/sql?" + url.Values{"sql": {"SELECT * FROM experiment_run_results WHERE experiment = '" +
			strings.ReplaceAll(name, "'", "''") + "' ORDER BY solved, id DESC"}}.Encode()}
	runs, err := db.ExperimentRunTable(r.Context(), s.db, name, experimentRuns)
	if err != nil {
		return view{}, err
	}
	d.Runs = tableOf(runs)
	d.Runs.Links = runLinks
	if runs := p.Totals["runs"]; runs > webRunLimit {
		head, _, err := s.db.ExperimentHead(r.Context(), name)
		if err != nil {
			return view{}, err
		}
		if d.Success, err = s.successCounts(r.Context(), name); err != nil {
			return view{}, err
		}
		d.Description, d.Level, d.Notes = head.Description, successLevel, []string{bigExperimentNote(name, runs)}
	} else if runs > 0 {
		rep, err := s.experimentReport(r.Context(), name)
		if err != nil {
			return view{}, err
		}
		d.Description, d.Unit, d.TimeUnit, d.Level, d.Notes = rep.Experiment.Description, rep.Unit, rep.TimeUnit, rep.Level, rep.Notes
		for _, c := range rep.Configs {
			d.Success = append(d.Success, successRow{Config: c.Config, Solver: c.Solver, Puzzles: c.Puzzles,
				Solved: c.Success.Solved, Runs: c.Success.Runs, Rate: finite(c.Success.Value()), SuccessLow: finite(c.Success.Low), SuccessHigh: finite(c.Success.High),
				ERT: finite(c.ERT.Estimate), ERTLow: finite(c.ERT.Low), ERTHigh: finite(c.ERT.High), Unit: c.Unit,
				Time: finite(c.Time.Estimate), TimeLow: finite(c.Time.Low), TimeHigh: finite(c.Time.High)})
		}
	}
	if p.Totals["runs"] > 0 {
		if d.Figures, d.FigureForm, err = s.experimentFigures(r, name, p); err != nil {
			return view{}, err
		}
	}
	if len(d.Success) >= 2 {
		d.CompareURL = compareURL(name, d.Success[0].Config, d.Success[1].Config)
	}
	return view{Template: "experiment", Title: "Experiment " + name, Data: d}, nil
}

// withoutEmpty returns q without its empty values, and whether it had
// any.
func withoutEmpty(q url.Values) (url.Values, bool) {
	out, had := url.Values{}, false
	for k, vs := range q {
		for _, v := range vs {
			if v == "" {
				had = true
			} else {
				out[k] = append(out[k], v)
			}
		}
	}
	return out, had
}

// experimentFigure is a picture of `sudokulab plot` the experiment page
// shows, drawn with the command's defaults (figures.Defaults) but for the
// flags the page's query gives (figureopts.go), so that
// /experiments/NAME/KIND.svg?FLAGS is the file `sudokulab plot KIND
// --experiment NAME FLAGS -o KIND.svg` writes.
type experimentFigure struct {
	Kind string `json:"kind"`
	// Traced says the picture is drawn from trajectory points; Drawn
	// that the page draws it, to say why it cannot be drawn instead of
	// showing a broken picture: ranking many configurations needs
	// puzzles that all of them ran.
	Traced bool   `json:"-"`
	Drawn  bool   `json:"-"`
	Alt    string `json:"alt"`
	// URL is the picture's, on an experiment's page, and Command the
	// command that draws it; Error, when not empty, says why it cannot
	// be drawn (then URL is empty).
	URL     string `json:"url,omitempty"`
	Command string `json:"command,omitempty"`
	Error   string `json:"error,omitempty"`
}

// experimentFigures are the experiment page's pictures, in its order.
var experimentFigures = []experimentFigure{
	{Kind: figures.KindSuccess, Alt: "success rate of each configuration per group of puzzles (by default the difficulty labels of the human rater), with its Wilson interval"},
	{Kind: figures.KindECDF, Alt: "runtime ECDF: the fraction of each configuration's runs solved within each budget, with its bootstrap band"},
	{Kind: figures.KindConvergence, Traced: true,
		Alt: "median best cost of each configuration within each budget, with its quantile band, by default one panel per puzzle"},
	{Kind: figures.KindERT, Traced: true, Alt: "expected running time of each configuration to reach each target cost"},
	{Kind: figures.KindCD, Drawn: true, Alt: "critical-difference diagram: the configurations' mean ranks over the puzzles, joined where they do not differ significantly"},
	{Kind: figures.KindProfile, Drawn: true, Alt: "performance profiles: the share of puzzles on which each configuration is within a factor of the best"},
	{Kind: figures.KindAggECDF, Traced: true, Alt: "runtime ECDF over every puzzle and a range of cost targets, with the area under each curve"},
}

// experimentFigures returns the pictures of the experiment called name
// that its page shows, with the settings of the page's query, and the
// form that chooses them.
func (s *Server) experimentFigures(r *http.Request, name string, p progressData) ([]experimentFigure, figureForm, error) {
	ctx := r.Context()
	traced, err := s.hasTrajectories(ctx, name)
	if err != nil {
		return nil, figureForm{}, err
	}
	page := r.URL.Query()
	out := []experimentFigure{}
	var kinds []string
	for _, f := range experimentFigures {
		limit := int64(webRunLimit)
		if f.Traced {
			limit = webTracedRunLimit
		}
		if !(traced || !f.Traced) || f.Kind != figures.KindSuccess && p.Totals["runs"] > limit {
			continue
		}
		req, canon, err := figureRequest(f.Kind, name, figureQuery(f.Kind, page))
		if err != nil {
			return nil, figureForm{}, sudokulab.WrapError(sudokulab.EINVALID, err, "plot %s", f.Kind)
		}
		f.URL = "/experiments/" + url.PathEscape(name) + "/" + f.Kind + ".svg"
		if len(canon) > 0 {
			f.URL += "?" + canon.Encode()
		}
		f.Command = figureCommand(f.Kind, name, canon)
		if f.Drawn {
			if _, err := s.figure(ctx, req, canon); err != nil {
				var se *sudokulab.Error
				if !errors.As(err, &se) || se.Code == sudokulab.EINTERNAL {
					return nil, figureForm{}, err
				}
				f.URL, f.Error = "", err.Error()
			}
		}
		out = append(out, f)
		kinds = append(kinds, f.Kind)
	}
	var configs []string
	if i := p.Configs.column("config"); i >= 0 {
		for _, row := range p.Configs.Rows {
			configs = append(configs, fmt.Sprint(row[i]))
		}
	}
	return out, newFigureForm(page, kinds, configs), nil
}

// figureHandler serves the experiment's picture f as SVG, with the
// settings of its query (figureRequest).
func (s *Server) figureHandler(f experimentFigure) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, canon, err := figureRequest(f.Kind, r.PathValue("name"), r.URL.Query())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		fig, err := s.figure(r.Context(), req, canon)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeFigure(w, r, s, fig)
	}
}
