package workpool

import (
	"context"
	"runtime"
	"sync"
)

// Ordered works on a stream of jobs and hands on the results in the order
// of the jobs, as soon as those before them are handed on, so that the
// output streams (rate FILE..., check FILE...). produce sends the jobs in
// order to send; do works on each on workers goroutines (0: one per CPU);
// take gets each job with its result, in order, on the calling goroutine.
// At most a few jobs per goroutine wait at a time. The first error (of
// produce, do or take) stops it all and is returned; when ctx ends, the
// cause of its end is.
func Ordered[J, R any](ctx context.Context, workers int, produce func(ctx context.Context, send func(J) error) error,
	do func(context.Context, J) (R, error), take func(J, R) error) error {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type job struct {
		seq int
		j   J
	}
	type result struct {
		job
		r R
	}
	tokens := make(chan struct{}, 4*workers)
	jobs := make(chan job)
	results := make(chan result, workers)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(jobs)
		seq := 0
		err := produce(ctx, func(j J) error {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
			select {
			case jobs <- job{seq, j}:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
			seq++
			return nil
		})
		if err != nil {
			cancel(err)
		}
	})
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				r, err := do(ctx, j.j)
				if err != nil {
					cancel(err)
					return
				}
				select {
				case results <- result{j, r}:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	waiting := map[int]result{}
	next := 0
	for res := range results {
		if ctx.Err() != nil {
			continue // drain
		}
		waiting[res.seq] = res
		for {
			r, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			<-tokens
			if err := take(r.j, r.r); err != nil {
				cancel(err)
				break
			}
		}
	}
	return context.Cause(ctx)
}
