package runner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"sudokulab"
)

// Trace decides which of a solver's steps become stored trajectory points.
// Its parts combine: a step is stored when any part asks for it. The zero
// Trace stores nothing; DefaultTrace is what `sudokulab run` uses.
type Trace struct {
	// Improve stores the first step and every step whose best cost is
	// lower than the last stored best cost.
	Improve bool
	// Every stores every step whose generation is a multiple of Every.
	Every int64
	// Log stores log-spaced checkpoints: the first step at or after
	// generation 1, 2, 5, 10, 20, 50, 100 ...
	Log bool
	// Final stores the last step of the run.
	Final bool
}

// DefaultTrace stores improvements, log-spaced checkpoints and the final
// step.
var DefaultTrace = Trace{Improve: true, Log: true, Final: true}

// ParseTrace reads a trace policy: "none", or a comma-separated list of
// "improve", "log", "every=N" and "final". An empty string is DefaultTrace.
func ParseTrace(s string) (Trace, error) {
	if strings.TrimSpace(s) == "" {
		return DefaultTrace, nil
	}
	var t Trace
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		switch {
		case part == "none":
			if strings.TrimSpace(s) != "none" {
				return Trace{}, sudokulab.Errorf(sudokulab.EINVALID, "--trace %q: none cannot be combined", s)
			}
		case part == "improve":
			t.Improve = true
		case part == "log":
			t.Log = true
		case part == "final":
			t.Final = true
		case strings.HasPrefix(part, "every="):
			n, err := strconv.ParseInt(strings.TrimPrefix(part, "every="), 10, 64)
			if err != nil || n < 1 {
				return Trace{}, sudokulab.Errorf(sudokulab.EINVALID, "--trace %q: every=N wants a whole number of generations, at least 1", s)
			}
			t.Every = n
		default:
			return Trace{}, sudokulab.Errorf(sudokulab.EINVALID, "--trace %q: unknown part %q (want none, or improve, log, every=N, final)", s, part)
		}
	}
	return t, nil
}

// String returns the policy in the form ParseTrace reads.
func (t Trace) String() string {
	var parts []string
	if t.Improve {
		parts = append(parts, "improve")
	}
	if t.Log {
		parts = append(parts, "log")
	}
	if t.Every > 0 {
		parts = append(parts, fmt.Sprintf("every=%d", t.Every))
	}
	if t.Final {
		parts = append(parts, "final")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// Recorder is the Observer of one run at a time: it applies a Trace to the
// solver's steps and keeps the stored points, stamped with the time since
// Reset. A worker reuses one Recorder for all its runs, so recording does
// not allocate once its buffer has grown.
type Recorder struct {
	trace  Trace
	start  time.Time
	points []sudokulab.TrajectoryPoint
	// cur and conv hold each point's CurrentCost and Convergence (0 for
	// none); Finish points the points at them.
	cur, conv  []float64
	last       sudokulab.Step
	steps      int64
	lastStored bool
	bestStored int
	nextLog    int64
}

var _ sudokulab.Observer = (*Recorder)(nil)

// NewRecorder returns a Recorder for the trace policy.
func NewRecorder(t Trace) *Recorder {
	r := &Recorder{trace: t}
	r.Reset()
	return r
}

// Reset starts a new run: it forgets the points and restarts the clock.
func (r *Recorder) Reset() {
	r.start = time.Now()
	r.points = r.points[:0]
	r.cur, r.conv = r.cur[:0], r.conv[:0]
	r.steps = 0
	r.lastStored = false
	r.nextLog = 1
}

// Observe applies the policy to one step.
func (r *Recorder) Observe(s sudokulab.Step) {
	t := &r.trace
	store := false
	if t.Improve && (len(r.points) == 0 || s.BestCost < r.bestStored) {
		store = true
	}
	if t.Every > 0 && s.Generation%t.Every == 0 {
		store = true
	}
	if t.Log && s.Generation >= r.nextLog {
		store = true
		for r.nextLog <= s.Generation {
			r.nextLog = nextCheckpoint(r.nextLog)
		}
	}
	r.last = s
	r.steps++
	r.lastStored = store
	if store {
		r.add(s)
	}
}

// nextCheckpoint steps through 1, 2, 5, 10, 20, 50 ...
func nextCheckpoint(c int64) int64 {
	m := c
	for m >= 10 {
		m /= 10
	}
	if m == 2 {
		return c / 2 * 5
	}
	return c * 2
}

func (r *Recorder) add(s sudokulab.Step) {
	r.cur = append(r.cur, s.CurrentCost)
	r.conv = append(r.conv, s.Convergence)
	p := sudokulab.TrajectoryPoint{
		Seq:            len(r.points),
		Generation:     s.Generation,
		Evaluations:    s.Evaluations,
		ElapsedSeconds: time.Since(r.start).Seconds(),
		BestCost:       s.BestCost,
		Restarts:       s.Restarts,
	}
	r.points = append(r.points, p)
	r.bestStored = s.BestCost
}

// Finish ends the run: with Final, the last step is stored if it was not
// already. It returns the stored points, valid until the next Reset.
func (r *Recorder) Finish() []sudokulab.TrajectoryPoint {
	if r.trace.Final && r.steps > 0 && !r.lastStored {
		r.add(r.last)
		r.lastStored = true
	}
	for i := range r.points {
		// A measure that is no finite number is none (NULL): what a
		// reader of the lab (merge, export) takes as a number.
		r.points[i].CurrentCost, r.points[i].Convergence = nil, nil
		if finite(r.cur[i]) {
			r.points[i].CurrentCost = &r.cur[i]
		}
		if r.conv[i] != 0 && finite(r.conv[i]) {
			r.points[i].Convergence = &r.conv[i]
		}
	}
	return r.points
}

// finite reports whether f is neither NaN nor infinite.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// Points finishes the run like Finish and returns a copy of the points
// that the caller owns (two allocations, whatever their number).
func (r *Recorder) Points() []sudokulab.TrajectoryPoint {
	pts := r.Finish()
	out := make([]sudokulab.TrajectoryPoint, len(pts))
	vals := make([]float64, 2*len(pts))
	for i, p := range pts {
		out[i] = p
		if p.CurrentCost != nil {
			vals[2*i] = *p.CurrentCost
			out[i].CurrentCost = &vals[2*i]
		}
		if p.Convergence != nil {
			vals[2*i+1] = *p.Convergence
			out[i].Convergence = &vals[2*i+1]
		}
	}
	return out
}
