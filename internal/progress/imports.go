package progress

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"sudokulab/importers/pipeline"
)

// Imports reports an import's work (sudokulab import), file by file: a
// bar of the bytes read on a terminal, removed when the file is done,
// else a line every LineEvery.
type Imports struct {
	w        io.Writer
	bar      *progressbar.ProgressBar
	file     string
	size     int64
	start    time.Time
	lastLine time.Time
}

var _ pipeline.Progress = (*Imports)(nil)

// NewImports returns a report of imports on w.
func NewImports(w io.Writer) *Imports { return &Imports{w: w} }

// Start implements pipeline.Progress.
func (p *Imports) Start(file string, size int64) {
	p.file, p.size, p.start, p.lastLine = file, size, now(), now()
	p.bar = nil
	if IsTerminal(p.w) {
		p.bar = progressbar.NewOptions64(size,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(file),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
}

// Update implements pipeline.Progress.
func (p *Imports) Update(bytes int64, puzzles int) {
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("%s: %d puzzles", p.file, puzzles))
		_ = p.bar.Set64(bytes)
		return
	}
	if t := now(); t.Sub(p.lastLine) >= LineEvery {
		p.lastLine = t
		fmt.Fprintf(p.w, "%s: %d puzzles, %d of %d bytes, elapsed %v\n", p.file, puzzles, bytes, p.size,
			t.Sub(p.start).Round(time.Second))
	}
}

// Finish implements pipeline.Progress.
func (p *Imports) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
