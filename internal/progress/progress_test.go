package progress_test

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/progress"
	"sudokulab/raters/ratepool"
	"sudokulab/runner"
)

// clock is a fake time that the tests move on by hand.
type clock struct{ t time.Time }

func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// newClock makes the package tell the time by a new clock until t ends.
func newClock(t *testing.T) *clock {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	progress.SetNow(t.Cleanup, func() time.Time { return c.t })
	return c
}

func outcome(status sudokulab.RunStatus) runner.Outcome {
	return runner.Outcome{Run: &sudokulab.Run{Status: status}}
}

// TestRunsLines holds the run report off a terminal to a line every
// LineEvery and one at the end, with the time left estimated from the
// pace so far, and to a count without a total when the workers take more
// than the plan.
func TestRunsLines(t *testing.T) {
	c := newClock(t)
	var b bytes.Buffer
	p := progress.NewRuns(&b)
	p.Start(4, 2)
	steps := []struct {
		after  time.Duration
		status sudokulab.RunStatus
		want   string
	}{
		{time.Second, sudokulab.StatusSolved, ""},
		{5 * time.Second, sudokulab.StatusUnsolved, "runs 2/4, solved 1, elapsed 6s, remaining ~6s\n"},
		{time.Second, sudokulab.StatusSolved, ""},
		{time.Second, sudokulab.StatusSolved, "runs 4/4, solved 3, elapsed 8s, remaining ~0s\n"},
		{5 * time.Second, sudokulab.StatusSolved, "runs 5 (4 planned, the rest left in the experiment before), solved 4, elapsed 13s\n"},
	}
	want := "2 runs already recorded, 4 to do\n"
	if b.String() != want {
		t.Fatalf("start: %q, want %q", b.String(), want)
	}
	for i, s := range steps {
		b.Reset()
		c.advance(s.after)
		p.Recorded(outcome(s.status))
		if b.String() != s.want {
			t.Errorf("run %d: %q, want %q", i+1, b.String(), s.want)
		}
	}
}

// TestWorkLines holds a command's work report off a terminal to a line
// every LineEvery while work is left, with its detail, and none at the
// end (the command's summary follows).
func TestWorkLines(t *testing.T) {
	c := newClock(t)
	var b bytes.Buffer
	p := progress.NewWork(&b, "rate", 10)
	steps := []struct {
		after  time.Duration
		n      int
		detail string
		want   string
	}{
		{time.Second, 2, "2 written", ""},
		{progress.LineEvery, 3, "5 written", "rate 5/10: 5 written, elapsed 6s\n"},
		{time.Second, 1, "", ""},
		{progress.LineEvery, 1, "", "rate 7/10, elapsed 12s\n"},
		{progress.LineEvery, 3, "done", ""},
	}
	for i, s := range steps {
		b.Reset()
		c.advance(s.after)
		p.Add(s.n, s.detail)
		if b.String() != s.want {
			t.Errorf("step %d: %q, want %q", i+1, b.String(), s.want)
		}
	}
	p.Finish()
}

// TestNoBarOffTerminal gives no bar on a buffer, a file or for no work.
func TestNoBarOffTerminal(t *testing.T) {
	f, err := os.Create(t.TempDir() + "/log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, w := range []io.Writer{&bytes.Buffer{}, f} {
		if progress.IsTerminal(w) {
			t.Errorf("%T is a terminal", w)
		}
	}
	if progress.NewBar(f, "x", 10, false) != nil || progress.NewBar(os.Stderr, "x", 0, true) != nil {
		t.Error("a bar off a terminal, or for no work")
	}
}

// TestRatingsLines reports a rating's work as Work does, with the
// ratings written, and finishes without a start.
func TestRatingsLines(t *testing.T) {
	c := newClock(t)
	var b bytes.Buffer
	progress.NewRatings(&b).Finish()
	p := progress.NewRatings(&b)
	p.Start(3)
	c.advance(progress.LineEvery)
	p.Rated(ratepool.Outcome{}, 0)
	c.advance(progress.LineEvery)
	p.Rated(ratepool.Outcome{CutShort: true}, 1)
	c.advance(progress.LineEvery)
	p.Rated(ratepool.Outcome{}, 2)
	p.Finish()
	if want := "rate 1/3: 0 written, elapsed 5s\nrate 2/3: 1 written, elapsed 10s\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

// TestImportsLines holds an import's report off a terminal to a line
// every LineEvery, counted from each file's start.
func TestImportsLines(t *testing.T) {
	c := newClock(t)
	var b bytes.Buffer
	p := progress.NewImports(&b)
	p.Start("a.txt", 1000)
	c.advance(time.Second)
	p.Update(100, 10)
	c.advance(progress.LineEvery)
	p.Update(600, 60)
	p.Finish()
	c.advance(time.Minute)
	p.Start("b.txt", 50)
	p.Update(50, 5)
	c.advance(progress.LineEvery)
	p.Update(50, 5)
	p.Finish()
	want := "a.txt: 60 puzzles, 600 of 1000 bytes, elapsed 6s\nb.txt: 5 puzzles, 50 of 50 bytes, elapsed 5s\n"
	if b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
