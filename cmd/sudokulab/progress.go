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
		if p.done > p.todo {
			// The workers also take the experiment's work left by other
			// commands, which the plan's count does not know of.
			fmt.Fprintf(p.w, "runs %d (%d planned, the rest left in the experiment before), solved %d, elapsed %v\n",
				p.done, p.todo, p.solved, elapsed.Round(time.Second))
			return
		}
		remaining := time.Duration(float64(elapsed) / float64(p.done) * float64(p.todo-p.done))
		fmt.Fprintf(p.w, "runs %d/%d, solved %d, elapsed %v, remaining ~%v\n",
			p.done, p.todo, p.solved, elapsed.Round(time.Second), remaining.Round(time.Second))
	}
}

// workBar shows the progress of a command's work (rate, dedupe) on
// standard error: a bar when it is a terminal, else a line every few
// seconds, so that a log shows the work goes on.
type workBar struct {
	w               io.Writer
	what            string
	bar             *progressbar.ProgressBar
	todo, done      int
	start, lastLine time.Time
}

// newWorkBar starts showing the progress of todo steps of work.
func newWorkBar(w io.Writer, what string, todo int) *workBar {
	p := &workBar{w: w, what: what, todo: todo, start: time.Now(), lastLine: time.Now()}
	if todo > 0 && isTerminal(w) {
		p.bar = progressbar.NewOptions(todo,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

// add counts n steps done; desc, if not empty, describes the work so far.
func (p *workBar) add(n int, desc string) {
	p.done += n
	if p.bar != nil {
		if desc != "" {
			p.bar.Describe(desc)
		}
		_ = p.bar.Add(n)
		return
	}
	if now := time.Now(); now.Sub(p.lastLine) >= 5*time.Second && p.done < p.todo {
		p.lastLine = now
		fmt.Fprintf(p.w, "%s %d/%d, elapsed %v\n", p.what, p.done, p.todo, now.Sub(p.start).Round(time.Second))
	}
}

// finish removes the bar.
func (p *workBar) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
