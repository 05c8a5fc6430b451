package runner_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/runner"
)

// TestExecuteRecordsPlan runs a plan of the exact solver and two local
// searches on three puzzles and checks every stored run against a re-run
// of its solver outside the engine, for several trace policies.
func TestExecuteRecordsPlan(t *testing.T) {
	traces := []struct {
		name  string
		trace runner.Trace
	}{
		{"default", runner.DefaultTrace},
		{"none", runner.Trace{}},
		{"every=500,final", runner.Trace{Every: 500, Final: true}},
		{"every=1", runner.Trace{Every: 1}},
	}
	for _, tc := range traces {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			d := newDB(t)
			exp, err := db.EnsureExperiment(ctx, d, "runner-test", "the runner tests")
			if err != nil {
				t.Fatal(err)
			}
			plan := runner.Plan{
				Puzzles: addPuzzles(t, d, "reseda-easy", "sato-no1", "ai-escargot"),
				Configs: []runner.Config{
					exactConfig(t, d),
					lsConfig(t, d, "ls", nil),
					lsConfig(t, d, "ls-norestart", map[string]string{"restart": "0"}),
				},
				Seeds:        seeds(1, 4),
				Budget:       sudokulab.Budget{MaxGenerations: 8000},
				ExperimentID: exp,
			}
			prog := &progress{}
			sum, err := runner.Execute(ctx, d, plan, runner.Options{Jobs: 2, Trace: tc.trace, Progress: prog})
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			total := plan.Total()
			if total != 36 {
				t.Fatalf("plan total %d, want 36", total)
			}
			if sum.Total != total || sum.Recorded != total || sum.Skipped != 0 || sum.Duplicates != 0 {
				t.Errorf("summary %+v, want %d recorded", sum, total)
			}
			if prog.starts != 1 || prog.todo != total || prog.already != 0 {
				t.Errorf("Start called %d times with (%d, %d), want once with (%d, 0)", prog.starts, prog.todo, prog.already, total)
			}
			if len(prog.outcomes) != total {
				t.Errorf("%d outcomes reported, want %d", len(prog.outcomes), total)
			}
			for _, o := range prog.outcomes {
				if o.Duplicate || o.Run == nil || o.Run.ID == 0 || o.Config == nil || o.Config.ID != o.Run.ConfigID {
					t.Errorf("outcome %+v: want a recorded run with its configuration", o)
				}
			}

			runs := loadRuns(t, d)
			checkExactlyPlan(t, runs, plan)
			puzzles, configs := puzzlesByID(plan.Puzzles), configsByID(plan.Configs)
			type counts struct {
				runs, solved, errors int
				evals, gens          int64
			}
			per := map[int64]*counts{}
			for _, s := range runs {
				checkRun(t, s, plan, puzzles)
				r := s.run
				c := per[r.ConfigID]
				if c == nil {
					c = &counts{}
					per[r.ConfigID] = c
				}
				c.runs++
				switch r.Status {
				case sudokulab.StatusSolved:
					c.solved++
					c.evals += r.Evaluations
					c.gens += r.Generations
				case sudokulab.StatusError:
					c.errors++
				}
				if r.Status == sudokulab.StatusError {
					t.Errorf("run %d: error %s", r.ID, r.Error)
				}
				if r.Generations > plan.Budget.MaxGenerations && configs[r.ConfigID].Info.Name != "exact" {
					t.Errorf("run %d: %d generations, budget %d", r.ID, r.Generations, plan.Budget.MaxGenerations)
				}
				want := expectedPoints(t, configs[r.ConfigID], puzzles[r.PuzzleID], plan, r.Seed, tc.trace)
				if !reflect.DeepEqual(keysOf(s.points), keysOf(want)) {
					t.Errorf("run %d (%s, seed %d): stored trajectory\n%+v\nwant\n%+v", r.ID, configs[r.ConfigID].Name, r.Seed, keysOf(s.points), keysOf(want))
				}
				if tc.trace.Final && len(s.points) > 0 {
					last := s.points[len(s.points)-1]
					if last.Generation != r.Generations || last.Evaluations != r.Evaluations {
						t.Errorf("run %d: last point at generation %d (%d evaluations), run ended at %d (%d)", r.ID, last.Generation, last.Evaluations, r.Generations, r.Evaluations)
					}
					if r.BestCost == nil || last.BestCost != *r.BestCost {
						t.Errorf("run %d: last point best cost %d, run %v", r.ID, last.BestCost, r.BestCost)
					}
				}
			}
			// With every step stored, the NULL and non-NULL convergence of the
			// local search's points both reach the database.
			if tc.trace.Every == 1 {
				with, without := 0, 0
				for _, s := range runs {
					for _, p := range s.points {
						if p.Convergence != nil {
							with++
						} else {
							without++
						}
					}
				}
				if with == 0 || without == 0 {
					t.Errorf("%d points with a convergence measure, %d without; want both", with, without)
				}
			}
			// The exact solver always solves; the local search solves the two
			// easy puzzles with every seed.
			for i, cs := range sum.Configs {
				c := plan.Configs[i]
				got := per[c.ID]
				if cs.Name != c.Name || cs.Runs != got.runs || cs.Solved != got.solved || cs.Errors != got.errors ||
					cs.SolvedEvaluations != got.evals || cs.SolvedGenerations != got.gens {
					t.Errorf("summary of %s: %+v, stored: %+v", c.Name, cs, *got)
				}
				if cs.Runs != 12 {
					t.Errorf("summary of %s: %d runs, want 12", c.Name, cs.Runs)
				}
			}
			if s := sum.Configs[0].Solved; s != 12 {
				t.Errorf("exact solved %d of 12", s)
			}
			if s := sum.Configs[1].Solved; s < 8 {
				t.Errorf("local search solved %d of 12, want at least the 8 easy runs", s)
			}
		})
	}
}

// TestExecuteEmptyPlan runs plans with nothing to do.
func TestExecuteEmptyPlan(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	full := runner.Plan{Puzzles: addPuzzles(t, d, "reseda-easy"), Configs: []runner.Config{exactConfig(t, d)}, Seeds: []int64{1}}
	for name, plan := range map[string]runner.Plan{
		"no seeds":   {Puzzles: full.Puzzles, Configs: full.Configs},
		"no puzzles": {Configs: full.Configs, Seeds: full.Seeds},
		"no configs": {Puzzles: full.Puzzles, Seeds: full.Seeds},
	} {
		t.Run(name, func(t *testing.T) {
			prog := &progress{}
			sum, err := runner.Execute(ctx, d, plan, runner.Options{Progress: prog})
			if err != nil || sum.Total != 0 || sum.Recorded != 0 || sum.Skipped != 0 {
				t.Errorf("Execute: %+v, %v; want nothing done", sum, err)
			}
			if prog.starts != 1 || prog.todo != 0 {
				t.Errorf("Start called %d times, todo %d", prog.starts, prog.todo)
			}
		})
	}
	if n := countRuns(t, d); n != 0 {
		t.Errorf("%d runs stored", n)
	}
}

// TestExecuteResumes runs a plan twice, then with more seeds, then with
// another budget: recorded work is skipped, new work is done once.
func TestExecuteResumes(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	plan := runner.Plan{
		Puzzles: addPuzzles(t, d, "reseda-easy", "sato-no11"),
		Configs: []runner.Config{exactConfig(t, d), lsConfig(t, d, "ls", nil)},
		Seeds:   seeds(1, 3),
		Budget:  sudokulab.Budget{MaxGenerations: 20_000},
	}
	opts := runner.Options{Jobs: 2, Trace: runner.DefaultTrace}
	steps := []struct {
		name                        string
		seeds                       []int64
		budget                      sudokulab.Budget
		recorded, skipped, rowsThen int
	}{
		{"first", seeds(1, 3), plan.Budget, 12, 0, 12},
		{"again", seeds(1, 3), plan.Budget, 0, 12, 12},
		{"more seeds", seeds(1, 5), plan.Budget, 8, 12, 20},
		{"fewer seeds", seeds(2, 4), plan.Budget, 0, 12, 20},
		{"other budget", seeds(1, 2), sudokulab.Budget{MaxGenerations: 20_001}, 8, 0, 28},
		{"other budget again", seeds(1, 2), sudokulab.Budget{MaxGenerations: 20_001}, 0, 8, 28},
	}
	var plans []runner.Plan
	for _, st := range steps {
		p := plan
		p.Seeds, p.Budget = st.seeds, st.budget
		plans = append(plans, p)
		prog := &progress{}
		o := opts
		o.Progress = prog
		sum, err := runner.Execute(ctx, d, p, o)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if sum.Total != p.Total() || sum.Recorded != st.recorded || sum.Skipped != st.skipped || sum.Duplicates != 0 {
			t.Errorf("%s: summary %+v, want %d recorded and %d skipped", st.name, sum, st.recorded, st.skipped)
		}
		if prog.todo != st.recorded || prog.already != st.skipped || len(prog.outcomes) != st.recorded {
			t.Errorf("%s: Start(%d, %d) and %d outcomes, want Start(%d, %d)", st.name, prog.todo, prog.already, len(prog.outcomes), st.recorded, st.skipped)
		}
		if n := countRuns(t, d); n != st.rowsThen {
			t.Errorf("%s: %d runs stored, want %d", st.name, n, st.rowsThen)
		}
	}
	checkExactlyPlan(t, loadRuns(t, d), plans...)
}

// TestExecuteInterrupt cancels Execute from its Progress after some runs
// are recorded, checks that only complete runs are stored, and resumes.
func TestExecuteInterrupt(t *testing.T) {
	tests := []struct {
		name        string
		cancelAfter int // 0: in Start, before any run
		batchRuns   int
	}{
		{"before any run", 0, 0},
		{"after 1 run, batches of 1", 1, 1},
		{"after 5 runs, batches of 2", 5, 2},
		{"after the first batch, default batching", 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDB(t)
			// Slow-ish runs: about 20 ms each (19 sleeps of 1ms), unsolved at
			// the budget; 40 runs on 2 workers take about 0.4 s.
			plan := runner.Plan{
				Puzzles: addPuzzles(t, d, "ai-escargot", "sato-no106"),
				Configs: []runner.Config{lsConfig(t, d, "ls-slow", map[string]string{"restart": "0", "delay_us": "1000"})},
				Seeds:   seeds(1, 20),
				Budget:  sudokulab.Budget{MaxGenerations: 20_000},
			}
			total := plan.Total()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			prog := &progress{cancelAfter: tc.cancelAfter, cancel: cancel}
			opts := runner.Options{Jobs: 2, Trace: runner.DefaultTrace, Progress: prog, BatchRuns: tc.batchRuns}
			start := time.Now()
			sum, err := runner.Execute(ctx, d, plan, opts)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Execute: %v, want context.Canceled", err)
			}
			t.Logf("interrupted after %v: %+v", time.Since(start), sum)
			rows := countRuns(t, d)
			if rows != sum.Recorded || rows != len(prog.outcomes) {
				t.Errorf("%d rows, summary says %d recorded, progress heard %d", rows, sum.Recorded, len(prog.outcomes))
			}
			if rows < tc.cancelAfter || rows >= total {
				t.Errorf("%d runs stored after cancelling at %d of %d", rows, tc.cancelAfter, total)
			}
			if tc.cancelAfter == 0 && rows != 0 {
				t.Errorf("%d runs stored, cancelled before any", rows)
			}
			puzzles, configs := puzzlesByID(plan.Puzzles), configsByID(plan.Configs)
			before := loadRuns(t, d)
			for _, s := range before {
				checkRun(t, s, plan, puzzles)
				if s.run.Status != sudokulab.StatusUnsolved || s.run.Generations != plan.Budget.MaxGenerations {
					t.Errorf("run %d: %s after %d generations; want a complete unsolved run", s.run.ID, s.run.Status, s.run.Generations)
				}
				want := expectedPoints(t, configs[s.run.ConfigID], puzzles[s.run.PuzzleID], plan, s.run.Seed, opts.Trace)
				if !reflect.DeepEqual(keysOf(s.points), keysOf(want)) {
					t.Errorf("run %d: %d points stored, want %d", s.run.ID, len(s.points), len(want))
				}
			}

			// Resume: the rest is done, once.
			opts.Progress = &progress{}
			sum2, err := runner.Execute(context.Background(), d, plan, opts)
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			if sum2.Skipped != rows || sum2.Recorded != total-rows || sum2.Duplicates != 0 {
				t.Errorf("resume: %+v, want %d skipped and %d recorded", sum2, rows, total-rows)
			}
			after := loadRuns(t, d)
			checkExactlyPlan(t, after, plan)
			for i, s := range before {
				if after[i].run.ID != s.run.ID || after[i].id() != s.id() {
					t.Errorf("run %d changed on resume", s.run.ID)
				}
			}
		})
	}
}

// TestExecuteTwoProcesses runs the same plan from two database handles on
// one file at once, as two processes would.
func TestExecuteTwoProcesses(t *testing.T) {
	tests := []struct {
		name      string
		batchRuns int
	}{
		{"batches of 1", 1},
		{"batches of 4", 4},
		{"default batching", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := t.TempDir() + "/lab.db"
			d1 := openDB(t, path)
			plan := runner.Plan{
				Puzzles: addPuzzles(t, d1, "ai-escargot", "reseda-hard"),
				Configs: []runner.Config{lsConfig(t, d1, "ls", nil), lsConfig(t, d1, "ls-norestart", map[string]string{"restart": "0"})},
				Seeds:   seeds(1, 20),
				Budget:  sudokulab.Budget{MaxGenerations: 15_000},
			}
			d2 := openDB(t, path)
			total := plan.Total()
			var (
				wg    sync.WaitGroup
				sums  [2]runner.Summary
				errs  [2]error
				progs [2]*progress
				ready = make(chan struct{})
			)
			for i, d := range []*db.DB{d1, d2} {
				progs[i] = &progress{}
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-ready
					sums[i], errs[i] = runner.Execute(context.Background(), d, plan,
						runner.Options{Jobs: 1, Trace: runner.DefaultTrace, Progress: progs[i], BatchRuns: tc.batchRuns, Host: []string{"one", "two"}[i]})
				}()
			}
			close(ready)
			wg.Wait()
			recorded := 0
			for i := range sums {
				if errs[i] != nil {
					t.Errorf("process %d: %v", i+1, errs[i])
				}
				s := sums[i]
				t.Logf("process %d: %+v", i+1, s)
				// The processes share the plan: each records its part,
				// and what the other recorded is counted as such.
				if s.Total != total || s.Recorded+s.Duplicates+s.Skipped+s.ByOthers != total {
					t.Errorf("process %d: %+v does not add up to %d", i+1, s, total)
				}
				runs, dups := 0, 0
				for _, o := range progs[i].outcomes {
					if o.Duplicate {
						dups++
					} else {
						runs++
					}
				}
				if runs != s.Recorded || dups != s.Duplicates {
					t.Errorf("process %d: progress heard %d recorded and %d duplicates, summary %+v", i+1, runs, dups, s)
				}
				recorded += s.Recorded
			}
			if recorded != total {
				t.Errorf("the processes recorded %d runs together, plan has %d", recorded, total)
			}
			if n := countRuns(t, d2); n != total {
				t.Errorf("%d rows, want %d", n, total)
			}
			runs := loadRuns(t, d1)
			checkExactlyPlan(t, runs, plan)
			hosts := map[string]int{}
			for _, s := range runs {
				checkRun(t, s, plan, puzzlesByID(plan.Puzzles))
				hosts[s.run.Host]++
			}
			if hosts["one"] != sums[0].Recorded || hosts["two"] != sums[1].Recorded {
				t.Errorf("runs by host %v, summaries say %d and %d", hosts, sums[0].Recorded, sums[1].Recorded)
			}
		})
	}
}

// TestExecuteSolverFailures runs broken solvers next to an honest one:
// each failure is recorded as an error run with a message saying what went
// wrong, and does not disturb the other runs.
func TestExecuteSolverFailures(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	easy := paperdata.MustGet("reseda-easy")
	firstGiven := ""
	for i, v := range easy.Puzzle.Cells {
		if v != 0 {
			firstGiven = easy.Puzzle.Geometry().CellName(i)
			break
		}
	}
	tests := []struct {
		info      sudokulab.SolverInfo
		status    sudokulab.RunStatus
		errParts  []string
		points    int  // stored points per run (DefaultTrace)
		finalGrid bool // a final grid and best cost are stored
	}{
		{localSearchInfo(), sudokulab.StatusSolved, nil, -1, true},
		{brokenInfo("wrong-solution"), sudokulab.StatusError, []string{"the final grid is no solution", "both hold"}, 1, true},
		{brokenInfo("changed-given"), sudokulab.StatusError, []string{"changes the given at " + firstGiven}, 1, true},
		{brokenInfo("bad-status"), sudokulab.StatusError, []string{`returned status "finished"`}, 1, true},
		{brokenInfo("short-grid"), sudokulab.StatusError, []string{"final grid has 10 cells, want 81"}, 1, false},
		{brokenInfo("panic"), sudokulab.StatusError, []string{"panicked", "boom"}, 0, false},
		{brokenInfo("error"), sudokulab.StatusError, []string{"cannot work on this puzzle"}, 0, false},
		{failingNewInfo(), sudokulab.StatusError, []string{"new test-broken-new", "test constructor refuses"}, 0, false},
	}
	plan := runner.Plan{
		Puzzles: addPuzzles(t, d, "reseda-easy", "sato-no1"),
		Seeds:   seeds(1, 3),
		Budget:  sudokulab.Budget{MaxGenerations: 50_000},
	}
	for _, tc := range tests {
		plan.Configs = append(plan.Configs, addConfig(t, d, tc.info, tc.info.Name, nil))
	}
	sum, err := runner.Execute(ctx, d, plan, runner.Options{Jobs: 2, Trace: runner.DefaultTrace})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if sum.Recorded != plan.Total() {
		t.Errorf("summary %+v, want all %d recorded", sum, plan.Total())
	}
	runs := loadRuns(t, d)
	checkExactlyPlan(t, runs, plan)
	puzzles := puzzlesByID(plan.Puzzles)
	for i, tc := range tests {
		c := plan.Configs[i]
		t.Run(tc.info.Name, func(t *testing.T) {
			cs := sum.Configs[i]
			wantErrors := 0
			if tc.status == sudokulab.StatusError {
				wantErrors = 6
			}
			if cs.Runs != 6 || cs.Errors != wantErrors {
				t.Errorf("summary %+v, want 6 runs and %d errors", cs, wantErrors)
			}
			for _, s := range runs {
				r := s.run
				if r.ConfigID != c.ID {
					continue
				}
				checkRun(t, s, plan, puzzles)
				if r.Status != tc.status {
					t.Errorf("run %d: status %s, want %s (error %q)", r.ID, r.Status, tc.status, r.Error)
				}
				if r.Seed == 1 && r.PuzzleID == plan.Puzzles[0].ID {
					t.Logf("%s: status %s, error %q", tc.info.Name, r.Status, r.Error)
				}
				for _, part := range tc.errParts {
					if !strings.Contains(r.Error, part) {
						t.Errorf("run %d: error %q, want it to mention %q", r.ID, r.Error, part)
					}
				}
				if tc.points >= 0 && len(s.points) != tc.points {
					t.Errorf("run %d: %d points, want %d", r.ID, len(s.points), tc.points)
				}
				if got := len(r.FinalGrid.Cells) > 0 && r.BestCost != nil; got != tc.finalGrid {
					t.Errorf("run %d: final grid %v best cost %v, want stored: %v", r.ID, r.FinalGrid, r.BestCost, tc.finalGrid)
				}
			}
		})
	}
}

// TestExecuteBudget checks the budget and timeout recorded on runs, and
// that a run that outlives its Timeout is a timeout run.
func TestExecuteBudget(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	hard := addPuzzles(t, d, "ai-escargot")
	ls := lsConfig(t, d, "ls", nil)
	ex := exactConfig(t, d)
	tests := []struct {
		name    string
		config  runner.Config
		budget  sudokulab.Budget
		timeout time.Duration
		status  sudokulab.RunStatus
		check   func(t *testing.T, r sudokulab.Run)
	}{
		{"generations", ls, sudokulab.Budget{MaxEvaluations: 50_000, MaxGenerations: 4_000}, 10 * time.Minute, sudokulab.StatusUnsolved,
			func(t *testing.T, r sudokulab.Run) {
				if r.Generations != 4_000 || r.Evaluations > 50_000 {
					t.Errorf("%d generations, %d evaluations; want the generation budget spent", r.Generations, r.Evaluations)
				}
			}},
		{"evaluations", ls, sudokulab.Budget{MaxEvaluations: 7_000}, 0, sudokulab.StatusUnsolved,
			func(t *testing.T, r sudokulab.Run) {
				if r.Evaluations != 7_000 {
					t.Errorf("%d evaluations, want the budget of 7,000", r.Evaluations)
				}
			}},
		{"timeout", ls, sudokulab.Budget{}, 40 * time.Millisecond, sudokulab.StatusTimeout,
			func(t *testing.T, r sudokulab.Run) {
				// At least the timeout of wall time; the CPU time bounds
				// the end from above, which a loaded machine cannot stretch.
				if *r.WallSeconds < 0.04 || r.CPUSeconds == nil || *r.CPUSeconds > 5 {
					t.Errorf("wall time %vs, CPU time %v for a 40ms timeout", *r.WallSeconds, r.CPUSeconds)
				}

			}},
		{"timeout with a budget", ls, sudokulab.Budget{MaxGenerations: 1 << 40}, 30 * time.Millisecond, sudokulab.StatusTimeout, nil},
		{"exact within timeout", ex, sudokulab.Budget{MaxGenerations: 1}, 10 * time.Minute, sudokulab.StatusSolved, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := runner.Plan{Puzzles: hard, Configs: []runner.Config{tc.config}, Seeds: seeds(1, 2), Budget: tc.budget, Timeout: tc.timeout}
			before := map[int64]bool{}
			for _, s := range loadRuns(t, d) {
				before[s.run.ID] = true
			}
			sum, err := runner.Execute(ctx, d, plan, runner.Options{Jobs: 2, Trace: runner.DefaultTrace})
			if err != nil || sum.Recorded != 2 {
				t.Fatalf("Execute: %+v, %v; want 2 runs recorded", sum, err)
			}
			n := 0
			for _, s := range loadRuns(t, d) {
				if before[s.run.ID] {
					continue
				}
				n++
				r := s.run
				checkRun(t, s, plan, puzzlesByID(hard))
				if r.Status != tc.status {
					t.Errorf("run %d: status %s, want %s", r.ID, r.Status, tc.status)
				}
				if r.TimeoutMS != tc.timeout.Milliseconds() || r.MaxEvaluations != tc.budget.MaxEvaluations || r.MaxGenerations != tc.budget.MaxGenerations {
					t.Errorf("run %d: budget (%d, %d, %dms), want %+v and %v", r.ID, r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS, tc.budget, tc.timeout)
				}
				// A run the deadline stops before its first step (on a loaded
				// machine) has no step to store.
				if r.Generations > 0 && (len(s.points) == 0 || s.points[len(s.points)-1].Generation != r.Generations) {
					t.Errorf("run %d: %d points, want the final step (generation %d) stored", r.ID, len(s.points), r.Generations)
				}
				if tc.check != nil {
					tc.check(t, r)
				}
			}
			if n != 2 {
				t.Errorf("%d new runs, want 2", n)
			}
			// The budget and timeout are part of the identity: the same plan
			// again does nothing.
			sum, err = runner.Execute(ctx, d, plan, runner.Options{Jobs: 2})
			if err != nil || sum.Recorded != 0 || sum.Skipped != 2 {
				t.Errorf("again: %+v, %v; want 2 skipped", sum, err)
			}
		})
	}
}

// TestExecuteDeterministic runs one plan into two fresh databases, with
// different parallelism: the runs and trajectories are the same but for
// times and ids.
func TestExecuteDeterministic(t *testing.T) {
	type result struct {
		status                         sudokulab.RunStatus
		evals, gens, restarts          int64
		bestCost                       *int
		final, err                     string
		points                         []pointKey
		puzzleIdx, configIdx, seed, id int64
	}
	execute := func(jobs int) []result {
		d := newDB(t)
		plan := runner.Plan{
			Puzzles: addPuzzles(t, d, "reseda-easy", "reseda-medium", "ai-escargot"),
			Configs: []runner.Config{
				exactConfig(t, d),
				lsConfig(t, d, "ls", nil),
				lsConfig(t, d, "ls-norestart", map[string]string{"restart": "0"}),
				addConfig(t, d, brokenInfo("wrong-solution"), "wrong", nil),
			},
			Seeds:  []int64{1, 2, 3, 1 << 40, -7},
			Budget: sudokulab.Budget{MaxGenerations: 6_000},
		}
		if _, err := runner.Execute(context.Background(), d, plan, runner.Options{Jobs: jobs, Trace: runner.DefaultTrace, BatchRuns: 3}); err != nil {
			t.Fatalf("Execute with %d jobs: %v", jobs, err)
		}
		pIdx, cIdx := map[int64]int64{}, map[int64]int64{}
		for i, p := range plan.Puzzles {
			pIdx[p.ID] = int64(i)
		}
		for i, c := range plan.Configs {
			cIdx[c.ID] = int64(i)
		}
		var out []result
		for _, s := range loadRuns(t, d) {
			r := s.run
			out = append(out, result{status: r.Status, evals: r.Evaluations, gens: r.Generations, restarts: r.Restarts,
				bestCost: r.BestCost, final: r.FinalGrid.String(), err: r.Error, points: keysOf(s.points),
				puzzleIdx: pIdx[r.PuzzleID], configIdx: cIdx[r.ConfigID], seed: r.Seed})
		}
		// Order by identity, not by id: the order of recording differs.
		byKey := map[[3]int64]result{}
		for _, r := range out {
			byKey[[3]int64{r.puzzleIdx, r.configIdx, r.seed}] = r
		}
		out = out[:0]
		for p := int64(0); p < 3; p++ {
			for c := int64(0); c < 4; c++ {
				for _, s := range plan.Seeds {
					r, ok := byKey[[3]int64{p, c, s}]
					if !ok {
						t.Fatalf("jobs %d: run (%d, %d, %d) missing", jobs, p, c, s)
					}
					out = append(out, r)
				}
			}
		}
		return out
	}
	a, b, c := execute(2), execute(2), execute(1)
	if len(a) != 60 {
		t.Fatalf("%d runs, want 60", len(a))
	}
	for name, other := range map[string][]result{"second database, 2 jobs": b, "third database, 1 job": c} {
		for i := range a {
			if !reflect.DeepEqual(a[i], other[i]) {
				t.Errorf("%s: run %d differs:\n%+v\n%+v", name, i, a[i], other[i])
			}
		}
	}
}

// TestExecuteProvenance checks the provenance of recorded runs, by default
// and when given.
func TestExecuteProvenance(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	puzzles := addPuzzles(t, d, "reseda-easy")
	plan := runner.Plan{Puzzles: puzzles, Configs: []runner.Config{exactConfig(t, d), lsConfig(t, d, "ls", nil)}, Seeds: seeds(1, 2)}
	if v := runner.CodeVersion(); v == "" {
		t.Error("CodeVersion() is empty")
	} else {
		t.Logf("CodeVersion() = %q", v)
	}
	for _, tc := range []struct {
		name             string
		version, host    string
		wantVer, wantHst string
	}{
		{"defaults", "", "", runner.CodeVersion(), ""},
		{"given", "v1.2.3-test", "lab-host-7", "v1.2.3-test", "lab-host-7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := plan
			p.Budget = sudokulab.Budget{MaxGenerations: int64(len(tc.name))} // a new identity per case
			before := time.Now().Add(-time.Millisecond)
			if _, err := runner.Execute(ctx, d, p, runner.Options{CodeVersion: tc.version, Host: tc.host}); err != nil {
				t.Fatal(err)
			}
			after := time.Now().Add(time.Millisecond)
			n := 0
			for _, s := range loadRuns(t, d) {
				r := s.run
				if r.MaxGenerations != p.Budget.MaxGenerations {
					continue
				}
				n++
				checkRun(t, s, p, puzzlesByID(puzzles))
				if r.CodeVersion != tc.wantVer {
					t.Errorf("run %d: code version %q, want %q", r.ID, r.CodeVersion, tc.wantVer)
				}
				if tc.wantHst != "" && r.Host != tc.wantHst {
					t.Errorf("run %d: host %q, want %q", r.ID, r.Host, tc.wantHst)
				}
				if r.StartedAt.Before(before) || r.FinishedAt.After(after) {
					t.Errorf("run %d: %v to %v, outside the call (%v to %v)", r.ID, r.StartedAt, r.FinishedAt, before, after)
				}
				if wall := *r.WallSeconds; wall > r.FinishedAt.Sub(r.StartedAt).Seconds()+0.002 {
					t.Errorf("run %d: wall %vs, longer than %v to %v", r.ID, wall, r.StartedAt, r.FinishedAt)
				}
			}
			if n != 4 {
				t.Errorf("%d runs, want 4", n)
			}
		})
	}
}

// countingInfo is a slow local search that counts its Solve calls.
func countingInfo(calls *atomic.Int64) sudokulab.SolverInfo {
	info := localSearchInfo()
	info.Name = "test-counting"
	inner := info.New
	info.New = func(p sudokulab.Params) (sudokulab.Solver, error) {
		s, err := inner(p)
		return countingSolver{s, calls}, err
	}
	return info
}

type countingSolver struct {
	inner sudokulab.Solver
	calls *atomic.Int64
}

func (c countingSolver) Solve(ctx context.Context, g sudokulab.Grid, b sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	c.calls.Add(1)
	return c.inner.Solve(ctx, g, b, rng, obs)
}

// TestExecuteWriteError makes the writer fail (a configuration that is not
// stored): Execute reports the error and records nothing of the batch.
func TestExecuteWriteError(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	bogus := lsConfig(t, d, "ls", nil)
	bogus.ID = 999 // not in the database: the insert breaks a foreign key
	plan := runner.Plan{Puzzles: addPuzzles(t, d, "reseda-easy"), Configs: []runner.Config{bogus}, Seeds: seeds(1, 4), Budget: sudokulab.Budget{MaxGenerations: 1000}}
	sum, err := runner.Execute(ctx, d, plan, runner.Options{Jobs: 2})
	if err == nil {
		t.Fatalf("Execute: %+v, %v; want an error", sum, err)
	}
	if code := sudokulab.ErrorCode(err); code != sudokulab.ENOTFOUND {
		t.Errorf("error code %q (%v), want %q", code, err, sudokulab.ENOTFOUND)
	}
	if sum.Recorded != 0 || countRuns(t, d) != 0 {
		t.Errorf("summary %+v, %d rows; want nothing recorded", sum, countRuns(t, d))
	}
}

// TestExecuteStopsOnWriteError checks that once the writer has failed,
// Execute stops running solvers: their results could not be recorded.
func TestExecuteStopsOnWriteError(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	var calls atomic.Int64
	bogus := addConfig(t, d, countingInfo(&calls), "counting", map[string]string{"restart": "0", "delay_us": "300"})
	bogus.ID = 999
	plan := runner.Plan{Puzzles: addPuzzles(t, d, "ai-escargot"), Configs: []runner.Config{bogus}, Seeds: seeds(1, 60), Budget: sudokulab.Budget{MaxGenerations: 40_000}}
	start := time.Now()
	_, err := runner.Execute(ctx, d, plan, runner.Options{Jobs: 2, BatchRuns: 1})
	if err == nil {
		t.Fatal("Execute succeeded; want a record error")
	}
	// At most the runs in flight when the first write failed: one per
	// worker plus the result buffer (2*Jobs) plus the one being written.
	if n := calls.Load(); n > 8 {
		t.Errorf("%d of %d runs solved in %v after the first write failed; want Execute to stop", n, plan.Total(), time.Since(start))
	}
}

// countedProgress notes how many runs had started when each outcome was
// heard.
type countedProgress struct {
	calls   *atomic.Int64
	started []int64
}

func (p *countedProgress) Start(int, int)            {}
func (p *countedProgress) Recorded(o runner.Outcome) { p.started = append(p.started, p.calls.Load()) }

// TestExecuteBatchDelay checks that finished runs are committed after
// BatchDelay even when the batch is not full, so progress is heard (and an
// interrupted experiment keeps its runs) while the plan is still running:
// the first outcome is heard before the last run starts. It counts runs,
// not wall time, so a loaded machine cannot make it pass or fail.
func TestExecuteBatchDelay(t *testing.T) {
	d := newDB(t)
	var calls atomic.Int64
	plan := runner.Plan{
		Puzzles: addPuzzles(t, d, "ai-escargot"),
		// About 20 ms per run: 10 runs on one worker take about 200 ms.
		Configs: []runner.Config{addConfig(t, d, countingInfo(&calls), "counting-slow", map[string]string{"restart": "0", "delay_us": "1000"})},
		Seeds:   seeds(1, 10),
		Budget:  sudokulab.Budget{MaxGenerations: 20_000},
	}
	prog := &countedProgress{calls: &calls}
	sum, err := runner.Execute(context.Background(), d, plan, runner.Options{Jobs: 1, Progress: prog, BatchRuns: 1000, BatchDelay: 30 * time.Millisecond})
	if err != nil || sum.Recorded != 10 {
		t.Fatalf("Execute: %+v, %v", sum, err)
	}
	if len(prog.started) != 10 {
		t.Fatalf("%d outcomes heard, want 10", len(prog.started))
	}
	if n := prog.started[0]; n >= int64(plan.Total()) {
		t.Errorf("first run committed when all %d runs had started: want it committed after BatchDelay, not at the end", n)
	}
}
