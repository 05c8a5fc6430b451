package web

// Rates started from the puzzle table (serve --write): the selection's
// puzzles rated by ratepool.Rate, as the rate command does, in the
// background. The request that starts one returns at once; /rates/ID
// shows it running, then done. A server's rates end with it (Serve's
// context, or Close): what they rated is kept, as an interrupted rate
// keeps it.

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/raters/ratepool"
)

// rateJobs are the rates a server started, the newest last.
type rateJobs struct {
	mu   sync.Mutex
	list []*rateJob
	wg   sync.WaitGroup
	// stopped is set once the server stops: no rate starts after.
	stopped bool
}

// rateJob is one rate. Its fields after mu change while it runs.
type rateJob struct {
	id        int
	rater     string
	force     bool
	selection string
	puzzles   int
	started   time.Time
	cancel    context.CancelFunc

	mu       sync.Mutex
	todo     int
	made     int
	written  int
	finished time.Time
	err      error
	res      *ratepool.Result
}

// rateView is a rate as its page and JSON show it.
type rateView struct {
	ID           int       `json:"id"`
	Rater        string    `json:"rater"`
	Force        bool      `json:"force"`
	Selection    string    `json:"selection"`
	SelectionURL string    `json:"selection_url"`
	Puzzles      int       `json:"puzzles"`
	Started      time.Time `json:"started_at"`
	// State is running, done, stopped (by the stop button or the
	// server's end) or failed.
	State    string     `json:"state"`
	Running  bool       `json:"running"`
	Todo     int        `json:"todo"`
	Made     int        `json:"made"`
	Written  int        `json:"written"`
	Finished *time.Time `json:"finished_at,omitempty"`
	Error    string     `json:"error,omitempty"`
	// Raters holds, once done, what each rater did.
	Raters []rateSummary `json:"raters,omitempty"`
}

// rateSummary is one rater's part of a rate, as the rate command prints
// it.
type rateSummary struct {
	Rater    string             `json:"rater"`
	Rated    int                `json:"rated"`
	Skipped  int                `json:"skipped"`
	CutShort int                `json:"cut_short"`
	Mean     *float64           `json:"mean_value"`
	Labels   ratepool.Histogram `json:"labels"`
}

// Start and Rated follow the rate (ratepool.Progress).
func (j *rateJob) Start(todo int) {
	j.mu.Lock()
	j.todo = todo
	j.mu.Unlock()
}

func (j *rateJob) Rated(_ ratepool.Outcome, written int) {
	j.mu.Lock()
	j.made++
	j.written = written
	j.mu.Unlock()
}

func (j *rateJob) view() rateView {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := rateView{ID: j.id, Rater: j.rater, Force: j.force, Selection: j.selection, SelectionURL: "/puzzles?" + j.selection,
		Puzzles: j.puzzles, Started: j.started, Todo: j.todo, Made: j.made, Written: j.written}
	if j.selection == "" {
		v.SelectionURL = "/puzzles"
	}
	switch {
	case j.finished.IsZero():
		v.State, v.Running = "running", true
	case j.err == nil:
		v.State = "done"
	case errors.Is(j.err, context.Canceled):
		v.State = "stopped"
	default:
		v.State, v.Error = "failed", j.err.Error()
	}
	if !j.finished.IsZero() {
		f := j.finished
		v.Finished = &f
	}
	if j.res != nil {
		for name, s := range j.res.ByRater {
			rs := rateSummary{Rater: name, Rated: s.Rated, Skipped: s.Skipped, CutShort: s.CutShort, Labels: s.Labels}
			if m, ok := s.Mean(); ok {
				rs.Mean = &m
			}
			v.Raters = append(v.Raters, rs)
		}
		slices.SortFunc(v.Raters, func(a, b rateSummary) int { return strings.Compare(a.Rater, b.Rater) })
	}
	return v
}

func (js *rateJobs) get(id string) *rateJob {
	n, err := strconv.Atoi(id)
	js.mu.Lock()
	defer js.mu.Unlock()
	if err != nil || n < 1 || n > len(js.list) {
		return nil
	}
	return js.list[n-1]
}

// stop ends every rate and waits for them to write what they made.
func (js *rateJobs) stop() {
	js.mu.Lock()
	js.stopped = true
	for _, j := range js.list {
		j.cancel()
	}
	js.mu.Unlock()
	js.wg.Wait()
}

// rateSelection starts a rate of the selection by the form's rater
// ("all": every rater that does not read the database) and goes to its
// page. One rate runs at a time: the raters take every CPU.
func (s *Server) rateSelection(r *http.Request) (string, error) {
	ctx := r.Context()
	rater := r.PostForm.Get("rater")
	force := r.PostForm.Get("force") == "1"
	reg := s.cur.raters
	byRater, err := reg.ParseOptions(rater, nil)
	if err != nil {
		return "", sudokulab.WrapError(sudokulab.EINVALID, err, "rate")
	}
	rs, err := reg.Make(ctx, rater, byRater, s.cur.w)
	if err != nil {
		return "", sudokulab.WrapError(sudokulab.EINVALID, err, "rate")
	}
	limits, err := ratepool.DefaultLimits(reg, rs)
	if err != nil {
		return "", err
	}
	q, sel, err := s.selection(ctx, r)
	if err != nil {
		return "", err
	}
	puzzles, err := db.PuzzlesByID(ctx, s.db, memberIDs(sel))
	if err != nil {
		return "", err
	}
	js := &s.cur.jobs
	js.mu.Lock()
	defer js.mu.Unlock()
	if js.stopped {
		return "", sudokulab.Errorf(sudokulab.EINVALID, "the server is stopping")
	}
	for _, o := range js.list {
		if o.view().Running {
			return "", sudokulab.Errorf(sudokulab.ECONFLICT, "rate %d is running (/rates/%d): wait for it, or stop it, first", o.id, o.id)
		}
	}
	// The rate outlives the request, not the server: stop cancels it.
	jctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	j := &rateJob{id: len(js.list) + 1, rater: rater, force: force, selection: q.Encode(), puzzles: len(puzzles),
		started: time.Now().UTC(), cancel: cancel}
	js.list = append(js.list, j)
	js.wg.Add(1)
	go func() {
		defer js.wg.Done()
		defer cancel()
		res, err := ratepool.Rate(jctx, s.cur.w, puzzles, rs, ratepool.Options{Limits: limits, Force: force, Progress: j})
		if err != nil && !errors.Is(err, context.Canceled) {
			s.log.Printf("rate %d: %v", j.id, err)
		}
		j.mu.Lock()
		j.finished, j.err, j.res = time.Now().UTC(), err, res
		if res != nil {
			j.written = res.Written
		}
		j.mu.Unlock()
	}()
	return "/rates/" + strconv.Itoa(j.id), nil
}

// stopRate stops the rate of the path; what it rated is kept.
func (s *Server) stopRate(r *http.Request) (string, error) {
	j := s.cur.jobs.get(r.PathValue("id"))
	if j == nil {
		return "", notFound("no rate %q", r.PathValue("id"))
	}
	j.cancel()
	return "/rates/" + strconv.Itoa(j.id), nil
}

// ratesData is the page of the rates.
type ratesData struct {
	Rates []rateView `json:"rates"`
}

func (s *Server) rates(r *http.Request) (view, error) {
	js := &s.cur.jobs
	js.mu.Lock()
	list := append([]*rateJob(nil), js.list...)
	js.mu.Unlock()
	d := ratesData{Rates: []rateView{}}
	for i := len(list) - 1; i >= 0; i-- {
		d.Rates = append(d.Rates, list[i].view())
	}
	return view{Template: "rates", Title: "Rates", Data: d}, nil
}

func (s *Server) rate(r *http.Request) (view, error) {
	j := s.cur.jobs.get(r.PathValue("id"))
	if j == nil {
		return view{}, notFound("no rate %q (the rates of this server are at /rates)", r.PathValue("id"))
	}
	v := j.view()
	return view{Template: "rate", Title: "Rate " + strconv.Itoa(v.ID), Data: v}, nil
}

// stopWrites ends the rates of a server that writes.
func (s *Server) stopWrites() {
	if s.cur != nil {
		s.cur.jobs.stop()
	}
}
