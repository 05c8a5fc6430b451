package runner_test

// Benchmarks of the run engine. Run them with
//
//	go test ./runner/ -run '^$' -bench RecordingOverhead -benchtime 300x -count 10 > overhead.txt
//	benchstat -col /trace overhead.txt
//	go test ./runner/ -run '^$' -bench 'ExecuteJobs|StorePoints' -benchtime 3x -count 6 > execute.txt
//	benchstat -col /jobs -filter .name:ExecuteJobs execute.txt
//	benchstat -col /trace -filter .name:StorePoints execute.txt
//
// On a machine shared with other work, wall times (sec/op, ns/step, runs/s)
// depend on the others' load; the cpu-* metrics (process CPU time, from
// getrusage) much less so.

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/runner"
)

// BenchmarkRecordingOverhead measures what tracing costs a solver: the
// same local search (AI Escargot, seed 1, 20,000 iterations, never solved
// within them, so every iteration does the same work) observed by a
// Recorder with DefaultTrace, by a Recorder that stores nothing, by a
// Recorder that stores every step, and by no observer at all. The target
// is DefaultTrace at most 5% slower than trace=none.
func BenchmarkRecordingOverhead(b *testing.B) {
	const steps = 20_000
	puzzle := paperdata.MustGet("ai-escargot").Puzzle
	budget := sudokulab.Budget{MaxGenerations: steps}
	cases := []struct {
		name string
		rec  *runner.Recorder // nil: no observer
	}{
		{"trace=nil", nil},
		{"trace=none", runner.NewRecorder(runner.Trace{})},
		{"trace=default", runner.NewRecorder(runner.DefaultTrace)},
		{"trace=every1", runner.NewRecorder(runner.Trace{Every: 1})},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			s := &localSearch{restartAfter: 3000}
			var obs sudokulab.Observer // a nil interface, not a nil *Recorder
			if tc.rec != nil {
				obs = tc.rec
			}
			points := 0
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				if tc.rec != nil {
					tc.rec.Reset()
				}
				res, err := s.Solve(context.Background(), puzzle, budget, sudokulab.NewRand(1), obs)
				if err != nil || res.Generations != steps {
					b.Fatalf("solve: %v after %d generations", err, res.Generations)
				}
				if tc.rec != nil {
					points = len(tc.rec.Finish())
				}
			}
			cpu := processCPU() - cpu0
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
			if cpu > 0 {
				// CPU time grows less than wall time when other processes
				// share the cores.
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*steps), "cpu-ns/step")
			}
			b.ReportMetric(float64(points), "points/run")
		})
	}
}

// executeBench runs plans of runsPerOp runs (puzzle x one configuration x
// fresh seeds) through Execute into one database, and reports runs/s and
// stored points/s end to end, and the process CPU time per run and cores
// used (cpu-util), which tell engine overhead from machine load, and the
// share of the workers' time spent inside Solve (solver-busy).
func executeBench(b *testing.B, puzzle string, config map[string]string, budget sudokulab.Budget, runsPerOp int, opts runner.Options) {
	d := newDB(b)
	var solving atomic.Int64 // nanoseconds spent inside Solve, summed over workers
	cfg := lsConfig(b, d, "ls", config)
	cfg.Info = timedInfo(cfg.Info, &solving)
	plan := runner.Plan{
		Puzzles: addPuzzles(b, d, puzzle),
		Configs: []runner.Config{cfg},
		Budget:  budget,
	}
	ctx := context.Background()
	before := countPoints(b, d)
	cpu0 := processCPU()
	solving.Store(0)
	b.ResetTimer()
	for i := range b.N {
		plan.Seeds = seeds(int64(i*runsPerOp)+1, int64((i+1)*runsPerOp))
		sum, err := runner.Execute(ctx, d, plan, opts)
		if err != nil || sum.Recorded != runsPerOp {
			b.Fatalf("Execute: %+v, %v", sum, err)
		}
	}
	b.StopTimer()
	cpu := processCPU() - cpu0
	points := countPoints(b, d) - before
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N*runsPerOp)/sec, "runs/s")
	if cpu > 0 {
		// CPU per run does not depend on other processes' load; with perfect
		// scaling it is the same for 1 and 2 jobs, and cpu-util is 2 cores.
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*runsPerOp), "cpu-µs/run")
		b.ReportMetric(cpu.Seconds()/sec, "cpu-util")
	}
	// The share of the workers' time spent solving: what is left is engine
	// overhead and waiting for the writer.
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	b.ReportMetric(float64(solving.Load())/1e9/(sec*float64(jobs)), "solver-busy")
	if points > 0 {
		b.ReportMetric(float64(points)/sec, "points/s")
		b.ReportMetric(float64(points)/float64(b.N*runsPerOp), "points/run")
	}
}

func countPoints(b *testing.B, d *db.DB) int64 {
	var n int64
	if err := d.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM trajectory_points`); err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkExecuteJobs runs 200 local search runs per op with the default
// trace, on one worker and on two: on 2 cores the target is close to twice
// the runs/s. reseda-easy runs are short (most solve within ~3,000
// iterations, ~0.15 ms); ai-escargot runs spend their whole budget of
// 20,000 iterations (~0.8 ms), so the engine's own cost weighs less.
func BenchmarkExecuteJobs(b *testing.B) {
	cases := []struct {
		puzzle string
		budget sudokulab.Budget
	}{
		{"reseda-easy", sudokulab.Budget{MaxGenerations: 20_000}},
		{"ai-escargot", sudokulab.Budget{MaxGenerations: 20_000}},
	}
	for _, tc := range cases {
		for _, jobs := range []int{1, 2} {
			b.Run("puzzle="+tc.puzzle+"/jobs="+strconv.Itoa(jobs), func(b *testing.B) {
				executeBench(b, tc.puzzle, nil, tc.budget, 200, runner.Options{Jobs: jobs, Trace: runner.DefaultTrace})
			})
		}
	}
}

// BenchmarkStorePoints measures storing trajectories end to end: 20 runs
// per op of 5,000 iterations each on AI Escargot, every step stored
// (100,000 points per op), against the same runs storing no point.
func BenchmarkStorePoints(b *testing.B) {
	for _, tc := range []struct {
		name  string
		trace runner.Trace
	}{
		{"trace=every1", runner.Trace{Every: 1}},
		{"trace=none", runner.Trace{}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			executeBench(b, "ai-escargot", nil, sudokulab.Budget{MaxGenerations: 5_000}, 20, runner.Options{Jobs: 2, Trace: tc.trace})
		})
	}
}

// timedInfo wraps the solvers of info so that the time spent in Solve is
// added to total.
func timedInfo(info sudokulab.SolverInfo, total *atomic.Int64) sudokulab.SolverInfo {
	inner := info.New
	info.New = func(p sudokulab.Params) (sudokulab.Solver, error) {
		s, err := inner(p)
		return timedSolver{s, total}, err
	}
	return info
}

type timedSolver struct {
	inner sudokulab.Solver
	total *atomic.Int64
}

func (s timedSolver) Solve(ctx context.Context, g sudokulab.Grid, b sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	start := time.Now()
	defer func() { s.total.Add(int64(time.Since(start))) }()
	return s.inner.Solve(ctx, g, b, rng, obs)
}
