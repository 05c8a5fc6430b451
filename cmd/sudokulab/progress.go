package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"sudokulab"
	"sudokulab/runner"
)

// progress reports the run engine's work on standard error: a progress
// bar on a terminal, a plain line every few seconds otherwise.
type progress struct {
	w                  io.Writer
	bar                *progressbar.ProgressBar
	todo, done, solved int
	start, lastLine    time.Time
	lineEvery          time.Duration
}

var _ runner.Progress = (*progress)(nil)

func newProgress(w io.Writer) *progress {
	return &progress{w: w, lineEvery: 5 * time.Second}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (p *progress) Start(todo, recorded int) {
	p.todo, p.start, p.lastLine = todo, time.Now(), time.Now()
	if recorded > 0 {
		fmt.Fprintf(p.w, "%d runs already recorded, %d to do\n", recorded, todo)
	}
	if todo > 0 && isTerminal(p.w) {
		p.bar = progressbar.NewOptions(todo,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("runs"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
		)
	}
}

func (p *progress) Recorded(o runner.Outcome) {
	p.done++
	if o.Run.Status == sudokulab.StatusSolved {
		p.solved++
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("runs (solved %d)", p.solved))
		_ = p.bar.Add(1)
		return
	}
	if now := time.Now(); now.Sub(p.lastLine) >= p.lineEvery || p.done == p.todo {
		p.lastLine = now
		elapsed := now.Sub(p.start)
		remaining := time.Duration(float64(elapsed) / float64(p.done) * float64(p.todo-p.done))
		fmt.Fprintf(p.w, "runs %d/%d, solved %d, elapsed %v, remaining ~%v\n",
			p.done, p.todo, p.solved, elapsed.Round(time.Second), remaining.Round(time.Second))
	}
}
