package runner_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/runner"
)

func TestParseTrace(t *testing.T) {
	tests := []struct {
		in      string
		want    runner.Trace
		wantErr string // a fragment of the error; "" for no error
	}{
		{in: "", want: runner.DefaultTrace},
		{in: "   ", want: runner.DefaultTrace},
		{in: "none", want: runner.Trace{}},
		{in: "improve,log,final", want: runner.Trace{Improve: true, Log: true, Final: true}},
		{in: "final,log,improve", want: runner.Trace{Improve: true, Log: true, Final: true}},
		{in: " improve , final ", want: runner.Trace{Improve: true, Final: true}},
		{in: "improve", want: runner.Trace{Improve: true}},
		{in: "log", want: runner.Trace{Log: true}},
		{in: "final", want: runner.Trace{Final: true}},
		{in: "every=10", want: runner.Trace{Every: 10}},
		{in: "every=1", want: runner.Trace{Every: 1}},
		{in: "improve,every=250,final", want: runner.Trace{Improve: true, Every: 250, Final: true}},
		{in: "every=0", wantErr: "every=N wants a whole number"},
		{in: "every=-5", wantErr: "every=N wants a whole number"},
		{in: "every=x", wantErr: "every=N wants a whole number"},
		{in: "every=", wantErr: "every=N wants a whole number"},
		{in: "every=1.5", wantErr: "every=N wants a whole number"},
		{in: "none,improve", wantErr: "none cannot be combined"},
		{in: "improve,none", wantErr: "none cannot be combined"},
		{in: "none,none", wantErr: "none cannot be combined"},
		{in: "bogus", wantErr: `unknown part "bogus"`},
		{in: "improve,Log", wantErr: `unknown part "Log"`},
		{in: "improve,", wantErr: `unknown part ""`},
		{in: "every 10", wantErr: `unknown part "every 10"`},
		// Every part is trimmed, "none" included.
		{in: " none ", want: runner.Trace{}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q", tc.in), func(t *testing.T) {
			got, err := runner.ParseTrace(tc.in)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("ParseTrace(%q) = %+v, want an error containing %q", tc.in, got, tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %q, want it to contain %q", err, tc.wantErr)
				}
				if code := sudokulab.ErrorCode(err); code != sudokulab.EINVALID {
					t.Errorf("error code %q, want %q", code, sudokulab.EINVALID)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTrace(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("ParseTrace(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

func TestTraceString(t *testing.T) {
	tests := []struct {
		trace runner.Trace
		want  string
	}{
		{runner.Trace{}, "none"},
		{runner.DefaultTrace, "improve,log,final"},
		{runner.Trace{Every: 10}, "every=10"},
		{runner.Trace{Improve: true, Log: true, Every: 3, Final: true}, "improve,log,every=3,final"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.trace.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
	// Every policy survives a round trip through its text form.
	for mask := 0; mask < 8; mask++ {
		for _, every := range []int64{0, 1, 10, 1 << 40} {
			tr := runner.Trace{Improve: mask&1 != 0, Log: mask&2 != 0, Final: mask&4 != 0, Every: every}
			t.Run("roundtrip/"+tr.String(), func(t *testing.T) {
				back, err := runner.ParseTrace(tr.String())
				if err != nil {
					t.Fatalf("ParseTrace(%q): %v", tr.String(), err)
				}
				if back != tr {
					t.Errorf("ParseTrace(%q) = %+v, want %+v", tr.String(), back, tr)
				}
			})
		}
	}
}

// st is a step at generation gen with best cost best; the other counters
// derive from them so that the stored points can be checked field by
// field. Every third step reports no convergence measure (0).
func st(gen int64, best int) sudokulab.Step {
	s := sudokulab.Step{Generation: gen, Evaluations: 10*gen + 1, Restarts: gen / 4, BestCost: best, CurrentCost: float64(best) + 0.5}
	if gen%3 != 0 {
		s.Convergence = 1 / float64(gen+1)
	}
	return s
}

// seq builds steps at generations 1..len(best).
func seq(best ...int) []sudokulab.Step {
	out := make([]sudokulab.Step, len(best))
	for i, b := range best {
		out[i] = st(int64(i+1), b)
	}
	return out
}

// gensOf returns steps at the given generations, all with best cost 5.
func gensOf(gens ...int64) []sudokulab.Step {
	out := make([]sudokulab.Step, len(gens))
	for i, g := range gens {
		out[i] = st(g, 5)
	}
	return out
}

// eachGen returns steps at generations 1..n with best cost 5.
func eachGen(n int64) []sudokulab.Step {
	out := make([]sudokulab.Step, n)
	for i := range out {
		out[i] = st(int64(i+1), 5)
	}
	return out
}

// record feeds steps to a fresh recorder and returns what it stores.
func record(r *runner.Recorder, steps []sudokulab.Step) []sudokulab.TrajectoryPoint {
	r.Reset()
	for _, s := range steps {
		r.Observe(s)
	}
	return r.Finish()
}

// checkPoints checks that pts are exactly the steps at generations want,
// in order, with Seq 0..k-1, the steps' counters and non-decreasing
// elapsed times.
func checkPoints(t *testing.T, steps []sudokulab.Step, pts []sudokulab.TrajectoryPoint, want []int64) {
	t.Helper()
	got := make([]int64, len(pts))
	for i, p := range pts {
		got[i] = p.Generation
	}
	if len(want) == 0 && len(got) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stored generations %v, want %v", got, want)
	}
	byGen := map[int64]sudokulab.Step{}
	for _, s := range steps {
		byGen[s.Generation] = s
	}
	prev := 0.0
	for i, p := range pts {
		s := byGen[p.Generation]
		if p.Seq != i {
			t.Errorf("point %d has Seq %d", i, p.Seq)
		}
		if p.Evaluations != s.Evaluations || p.BestCost != s.BestCost || p.Restarts != s.Restarts {
			t.Errorf("point %d: evaluations %d best %d restarts %d, step has %d, %d and %d", i, p.Evaluations, p.BestCost, p.Restarts, s.Evaluations, s.BestCost, s.Restarts)
		}
		switch {
		case s.Convergence == 0 && p.Convergence != nil:
			t.Errorf("point %d: convergence %v, want nil (NULL) for a step without one", i, *p.Convergence)
		case s.Convergence != 0 && (p.Convergence == nil || *p.Convergence != s.Convergence):
			t.Errorf("point %d: convergence %v, want %v", i, p.Convergence, s.Convergence)
		}
		if p.CurrentCost == nil || *p.CurrentCost != s.CurrentCost {
			t.Errorf("point %d: current cost %v, want %v", i, p.CurrentCost, s.CurrentCost)
		}
		if p.ElapsedSeconds < prev || p.ElapsedSeconds < 0 {
			t.Errorf("point %d: elapsed %v after %v", i, p.ElapsedSeconds, prev)
		}
		prev = p.ElapsedSeconds
		if p.RunID != 0 {
			t.Errorf("point %d: RunID %d before storing", i, p.RunID)
		}
	}
}

func TestRecorderPolicies(t *testing.T) {
	// Best costs along generations 1..12: improvements at 1 (first), 3, 6
	// and 11.
	walk := seq(10, 10, 9, 9, 9, 7, 7, 7, 7, 7, 3, 3)
	tests := []struct {
		name  string
		trace runner.Trace
		steps []sudokulab.Step
		want  []int64
	}{
		{"none", runner.Trace{}, walk, nil},
		{"improve", runner.Trace{Improve: true}, walk, []int64{1, 3, 6, 11}},
		{"improve/constant", runner.Trace{Improve: true}, seq(4, 4, 4, 4), []int64{1}},
		{"improve/every step", runner.Trace{Improve: true}, seq(9, 8, 7, 6), []int64{1, 2, 3, 4}},
		{"log", runner.Trace{Log: true}, walk, []int64{1, 2, 5, 10}},
		{"log/long", runner.Trace{Log: true}, eachGen(1_000_000),
			[]int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000}},
		// The first step at or after each checkpoint; a step past several
		// checkpoints counts once; generation 0 is before the first.
		{"log/sparse", runner.Trace{Log: true}, gensOf(0, 3, 4, 7, 12, 60, 61, 250, 260, 5000), []int64{3, 7, 12, 60, 250, 5000}},
		{"every=5", runner.Trace{Every: 5}, walk, []int64{5, 10}},
		{"every=1", runner.Trace{Every: 1}, walk, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{"every=2/from 0", runner.Trace{Every: 2}, gensOf(0, 1, 2, 3, 4), []int64{0, 2, 4}},
		{"every=100/sparse", runner.Trace{Every: 100}, gensOf(50, 99, 100, 150, 199, 300), []int64{100, 300}},
		{"final", runner.Trace{Final: true}, walk, []int64{12}},
		{"final/single step", runner.Trace{Final: true}, gensOf(7), []int64{7}},
		{"final/no steps", runner.Trace{Final: true}, nil, nil},
		{"default/no steps", runner.DefaultTrace, nil, nil},
		{"improve,final", runner.Trace{Improve: true, Final: true}, walk, []int64{1, 3, 6, 11, 12}},
		// Final does not duplicate a last step stored by another rule.
		{"improve,final/last improves", runner.Trace{Improve: true, Final: true}, seq(5, 5, 2), []int64{1, 3}},
		{"every=5,final/last on every", runner.Trace{Every: 5, Final: true}, seq(9, 9, 9, 9, 9, 9, 9, 9, 9, 9), []int64{5, 10}},
		{"log,final/last on checkpoint", runner.Trace{Log: true, Final: true}, seq(9, 9, 9, 9, 9, 9, 9, 9, 9, 9), []int64{1, 2, 5, 10}},
		{"log,final/last after checkpoint", runner.Trace{Log: true, Final: true}, seq(9, 9, 9, 9, 9, 9, 9), []int64{1, 2, 5, 7}},
		{"default", runner.DefaultTrace, walk, []int64{1, 2, 3, 5, 6, 10, 11, 12}},
		{"improve,log,every=4,final", runner.Trace{Improve: true, Log: true, Every: 4, Final: true}, walk, []int64{1, 2, 3, 4, 5, 6, 8, 10, 11, 12}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runner.NewRecorder(tc.trace)
			pts := record(r, tc.steps)
			checkPoints(t, tc.steps, pts, tc.want)
			// Finish again: nothing is added twice.
			again := r.Finish()
			if len(again) != len(pts) {
				t.Errorf("second Finish: %d points, first gave %d", len(again), len(pts))
			}
			// The same recorder, reset, records a run the same way.
			pts = append([]sudokulab.TrajectoryPoint(nil), record(r, tc.steps)...)
			checkPoints(t, tc.steps, pts, tc.want)
		})
	}
}

func TestRecorderReset(t *testing.T) {
	r := runner.NewRecorder(runner.DefaultTrace)
	first := record(r, seq(10, 8, 8, 3))
	if len(first) == 0 {
		t.Fatal("first run stored nothing")
	}
	// A second run, worse than the first one ended: its first step is
	// stored (Improve starts afresh) and nothing of the first run remains.
	second := seq(50, 50, 40)
	pts := record(r, second)
	checkPoints(t, second, pts, []int64{1, 2, 3})

	// Reset without Finish forgets the steps, so Final has nothing to add.
	r.Reset()
	r.Observe(st(3, 1))
	r.Reset()
	if pts := r.Finish(); len(pts) != 0 {
		t.Errorf("Finish after Reset: %d points, want none", len(pts))
	}

	// Reset restarts the clock.
	r.Reset()
	time.Sleep(100 * time.Millisecond)
	r.Observe(st(1, 5))
	if pts := r.Finish(); len(pts) != 1 || pts[0].ElapsedSeconds < 0.1 {
		t.Fatalf("after 100ms: %+v", pts)
	}
	// Right after Reset the elapsed time is no more than the wall time
	// since just before it (a bound no load can break), where a clock not
	// restarted would count the 100 ms before as well.
	before := time.Now()
	r.Reset()
	r.Observe(st(1, 5))
	pts = r.Finish()
	if since := time.Since(before).Seconds(); len(pts) != 1 || pts[0].ElapsedSeconds > since {
		t.Errorf("right after Reset: points %+v, want one within the %vs since Reset", pts, since)
	}
}

// TestRecorderWithoutReset uses a Recorder straight from NewRecorder, as
// the Observer of a solver, without calling Reset first.
func TestRecorderWithoutReset(t *testing.T) {
	t.Run("elapsed", func(t *testing.T) {
		r := runner.NewRecorder(runner.Trace{Improve: true})
		r.Observe(st(1, 5))
		pts := r.Finish()
		if len(pts) != 1 || pts[0].ElapsedSeconds > 60 {
			t.Errorf("points %+v: want one point with a small elapsed time", pts)
		}
	})
	t.Run("log", func(t *testing.T) {
		done := make(chan []sudokulab.TrajectoryPoint, 1)
		go func() {
			r := runner.NewRecorder(runner.DefaultTrace)
			for _, s := range seq(9, 8, 7) {
				r.Observe(s)
			}
			done <- r.Finish()
		}()
		select {
		case pts := <-done:
			checkPoints(t, seq(9, 8, 7), pts, []int64{1, 2, 3})
		case <-time.After(time.Minute):
			t.Fatal("Observe did not return within a minute: nextCheckpoint(0) loops forever")
		}
	})
}

// TestRecorderNoAllocs checks that steps that are not stored cost no
// allocation, whatever the policy, once the recorder has been used.
func TestRecorderNoAllocs(t *testing.T) {
	tests := []struct {
		name  string
		trace runner.Trace
	}{
		{"none", runner.Trace{}},
		{"default", runner.DefaultTrace},
		{"improve", runner.Trace{Improve: true}},
		{"log", runner.Trace{Log: true}},
		{"every", runner.Trace{Every: 1 << 40}},
		{"final", runner.Trace{Final: true}},
		{"all", runner.Trace{Improve: true, Log: true, Every: 1 << 40, Final: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runner.NewRecorder(tc.trace)
			r.Reset()
			for g := int64(1); g <= 20_000; g++ {
				r.Observe(st(g, 5))
			}
			// Generations 20,001 to 31,000 hold no checkpoint (the next is
			// 50,000), no multiple of Every and no improvement.
			gen := int64(20_000)
			allocs := testing.AllocsPerRun(10, func() {
				for range 1000 {
					gen++
					r.Observe(st(gen, 5))
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per 1,000 steps not stored, want 0", allocs)
			}
		})
	}
}

// TestRecorderReuseNoAllocs checks the documented promise that a reused
// Recorder does not allocate once its buffer has grown, for stored steps.
func TestRecorderReuseNoAllocs(t *testing.T) {
	r := runner.NewRecorder(runner.Trace{Every: 1, Final: true})
	steps := eachGen(100)
	record(r, steps)
	allocs := testing.AllocsPerRun(10, func() { record(r, steps) })
	if allocs != 0 {
		t.Errorf("%v allocations per run of 100 stored steps, want 0", allocs)
	}
}

// TestRecorderNonFiniteMeasures records steps whose current cost and
// convergence are no finite numbers: the points hold none (NULL), so
// that they pass the checks of what a lab stores.
func TestRecorderNonFiniteMeasures(t *testing.T) {
	r := runner.NewRecorder(runner.Trace{Every: 1})
	for i, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 2.5} {
		r.Observe(sudokulab.Step{Generation: int64(i + 1), Evaluations: int64(i + 1), BestCost: 3, CurrentCost: v, Convergence: v})
	}
	pts := r.Points()
	if len(pts) != 4 {
		t.Fatalf("%d points, want 4", len(pts))
	}
	for i, p := range pts {
		if err := p.Check(); err != nil {
			t.Errorf("point %d: %v", i, err)
		}
		if finite := i == 3; (p.CurrentCost != nil) != finite || (p.Convergence != nil) != finite {
			t.Errorf("point %d: current cost %v, convergence %v; want them only when finite", i, p.CurrentCost, p.Convergence)
		}
	}
	if *pts[3].CurrentCost != 2.5 || *pts[3].Convergence != 2.5 {
		t.Errorf("finite point: %v, %v, want 2.5", *pts[3].CurrentCost, *pts[3].Convergence)
	}
}
