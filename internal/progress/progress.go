// Package progress shows the progress of a command's work on standard
// error: a progress bar when it is a terminal, else a plain line every few
// seconds, so that a log shows the work goes on.
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"sudokulab"
	"sudokulab/raters/ratepool"
	"sudokulab/runner"
)

// LineEvery is the least time between two lines off a terminal.
const LineEvery = 5 * time.Second

// now tells the time; the tests replace it.
var now = time.Now

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// NewBar returns a progress bar of todo steps on w, described by what,
// or nil when w is no terminal or there is nothing to do. When done it is
// removed, or with keep left on its line.
func NewBar(w io.Writer, what string, todo int, keep bool) *progressbar.ProgressBar {
	if todo <= 0 || !IsTerminal(w) {
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

// Runs reports the run engine's work (sudokulab run and worker): a bar
// that stays when done, since the lines the command prints next follow
// it, or a line every LineEvery with the runs done, solved, and the time
// elapsed and left.
type Runs struct {
	w                  io.Writer
	bar                *progressbar.ProgressBar
	todo, done, solved int
	start, lastLine    time.Time
}

var _ runner.Progress = (*Runs)(nil)

// NewRuns returns a report of runs on w.
func NewRuns(w io.Writer) *Runs { return &Runs{w: w} }

// Start implements runner.Progress.
func (p *Runs) Start(todo, recorded int) {
	p.todo, p.start, p.lastLine = todo, now(), now()
	if recorded > 0 {
		fmt.Fprintf(p.w, "%d runs already recorded, %d to do\n", recorded, todo)
	}
	p.bar = NewBar(p.w, "runs", todo, true)
}

// Recorded implements runner.Progress.
func (p *Runs) Recorded(o runner.Outcome) {
	p.done++
	if o.Run.Status == sudokulab.StatusSolved {
		p.solved++
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("runs (solved %d)", p.solved))
		_ = p.bar.Add(1)
		return
	}
	if t := now(); t.Sub(p.lastLine) >= LineEvery || p.done == p.todo {
		p.lastLine = t
		elapsed := t.Sub(p.start)
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

// Work shows the progress of a command's work (rate, count, dedupe,
// generate): a bar removed when done, or a line every LineEvery.
type Work struct {
	w               io.Writer
	what            string
	bar             *progressbar.ProgressBar
	todo, done      int
	start, lastLine time.Time
}

// NewWork starts showing the progress of todo steps of work on w,
// described by what.
func NewWork(w io.Writer, what string, todo int) *Work {
	return &Work{w: w, what: what, bar: NewBar(w, what, todo, false), todo: todo, start: now(), lastLine: now()}
}

// Add counts n steps done; detail, if not empty, says more about the work
// so far ("12 written").
func (p *Work) Add(n int, detail string) {
	p.done += n
	if p.bar != nil {
		if detail != "" {
			p.bar.Describe(p.what + " (" + detail + ")")
		}
		_ = p.bar.Add(n)
		return
	}
	if t := now(); t.Sub(p.lastLine) >= LineEvery && p.done < p.todo {
		p.lastLine = t
		if detail != "" {
			detail = ": " + detail
		}
		fmt.Fprintf(p.w, "%s %d/%d%s, elapsed %v\n", p.what, p.done, p.todo, detail, t.Sub(p.start).Round(time.Second))
	}
}

// Finish removes the bar.
func (p *Work) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// Ratings reports a rating's work (sudokulab rate) as Work does, with the
// ratings written so far.
type Ratings struct {
	w   io.Writer
	bar *Work
}

var _ ratepool.Progress = (*Ratings)(nil)

// NewRatings returns a report of ratings on w.
func NewRatings(w io.Writer) *Ratings { return &Ratings{w: w} }

// Start implements ratepool.Progress.
func (p *Ratings) Start(todo int) { p.bar = NewWork(p.w, "rate", todo) }

// Rated implements ratepool.Progress.
func (p *Ratings) Rated(_ ratepool.Outcome, written int) {
	p.bar.Add(1, fmt.Sprintf("%d written", written))
}

// Finish removes the bar, if the rating started.
func (p *Ratings) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
