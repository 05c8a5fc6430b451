package pipeline

import (
	"context"
	"sync"

	"sudokulab/db"
)

// ImportFiles imports files with o, up to jobs of them at once, splitting
// the jobs cores between them: many small files (one puzzle each, as in
// the large-grid benchmark sets) then use every core. A single file, or
// jobs 1, is imported with o as given (its Workers and Progress); files
// imported at once get jobs/files workers each and no Progress (one bar
// per file would interleave), in a Sequence so that their import ids and
// positions follow the order of the files.
//
// done is called for each file in the order of the files, as soon as it
// and those before it end, with the file's result and error; the first
// error it returns stops the imports still running, which a rerun
// resumes, and is returned. done sees the error of each file's import and
// decides whether it stops the rest.
func ImportFiles(ctx context.Context, d *db.DB, files []string, o Options, jobs int, done func(file string, res *Result, err error) error) error {
	if len(files) == 1 || jobs == 1 {
		for _, file := range files {
			res, err := ImportFile(ctx, d, file, o)
			if err := done(file, res, err); err != nil {
				return err
			}
		}
		return nil
	}
	slots := min(jobs, len(files))
	o.Workers = max(1, jobs/slots)
	o.Progress = nil
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type outcome struct {
		res  *Result
		err  error
		done chan struct{}
	}
	outs := make([]outcome, len(files))
	for i := range outs {
		outs[i].done = make(chan struct{})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	seq := NewSequence(len(files))
	for range slots {
		wg.Go(func() {
			for i := range next {
				fo := o
				fo.Slot = seq.Slot(i)
				outs[i].res, outs[i].err = ImportFile(ctx, d, files[i], fo)
				if outs[i].err != nil {
					cancel(outs[i].err)
				}
				close(outs[i].done)
			}
		})
	}
	go func() {
		defer close(next)
		for i := range files {
			select {
			case next <- i:
			case <-ctx.Done():
				// Files never started end with the reason.
				for j := i; j < len(files); j++ {
					outs[j].err = context.Cause(ctx)
					seq.Slot(j).Done()
					close(outs[j].done)
				}
				return
			}
		}
	}()
	defer wg.Wait()
	for i := range outs {
		<-outs[i].done
		if err := done(files[i], outs[i].res, outs[i].err); err != nil {
			return err
		}
	}
	return nil
}
