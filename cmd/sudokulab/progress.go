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
	// The bar stays when done: the lines run prints next follow it.
	p.bar = newBar(p.w, "runs", todo, true)
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

// newBar returns a progress bar of todo steps on w, described by what,
// or nil when w is no terminal or there is nothing to do. When done it is
// removed, or with keep left on its line.
func newBar(w io.Writer, what string, todo int, keep bool) *progressbar.ProgressBar {
	if todo <= 0 || !isTerminal(w) {
		return nil
	}
	end := progressbar.OptionClearOnFinish()
	if keep {
		end = progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) })
	}
	return progressbar.NewOptions(todo,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		end,
	)
}

// workBar shows the progress of a command's work (rate, count, dedupe,
// generate) on standard error: a bar when it is a terminal, else a line
// every few seconds, so that a log shows the work goes on.
type workBar struct {
	w               io.Writer
	what            string
	bar             *progressbar.ProgressBar
	todo, done      int
	start, lastLine time.Time
}

// newWorkBar starts showing the progress of todo steps of work.
func newWorkBar(w io.Writer, what string, todo int) *workBar {
	return &workBar{w: w, what: what, bar: newBar(w, what, todo, false), todo: todo, start: time.Now(), lastLine: time.Now()}
}

// add counts n steps done; detail, if not empty, says more about the work
// so far ("12 written").
func (p *workBar) add(n int, detail string) {
	p.done += n
	if p.bar != nil {
		if detail != "" {
			p.bar.Describe(p.what + " (" + detail + ")")
		}
		_ = p.bar.Add(n)
		return
	}
	if now := time.Now(); now.Sub(p.lastLine) >= 5*time.Second && p.done < p.todo {
		p.lastLine = now
		if detail != "" {
			detail = ": " + detail
		}
		fmt.Fprintf(p.w, "%s %d/%d%s, elapsed %v\n", p.what, p.done, p.todo, detail, now.Sub(p.start).Round(time.Second))
	}
}

// finish removes the bar.
func (p *workBar) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
