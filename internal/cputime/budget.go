package cputime

import (
	"context"
	"sync"
	"time"
)

// Process returns the CPU time the whole process has used, all its threads
// together, and false where the platform cannot measure it.
func Process() (time.Duration, bool) { return process() }

// budgetPoll is how often, in wall time, WithBudget reads the clock.
const budgetPoll = time.Millisecond

// WithBudget returns a context that ends with context.DeadlineExceeded
// once the process has used budget more CPU time than when it was called,
// or when parent ends. It is a deadline that a loaded machine cannot make
// work miss: a process that waits for a core uses none of its budget.
// Tests use it where a wall-clock deadline would race the scheduler. The
// process's clock is read every millisecond, so the context ends up to
// that much wall time late. Where Process cannot measure, it is
// context.WithTimeout(parent, budget).
func WithBudget(parent context.Context, budget time.Duration) (context.Context, context.CancelFunc) {
	start, ok := Process()
	if !ok {
		return context.WithTimeout(parent, budget)
	}
	c := &budgetCtx{Context: parent, done: make(chan struct{})}
	stop := make(chan struct{})
	var once sync.Once
	go func() {
		tick := time.NewTicker(budgetPoll)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				c.end(context.Canceled)
				return
			case <-parent.Done():
				c.end(parent.Err())
				return
			case <-tick.C:
				if now, _ := Process(); now-start >= budget {
					c.end(context.DeadlineExceeded)
					return
				}
			}
		}
	}()
	return c, func() {
		once.Do(func() { close(stop) })
		// Wait for the watcher, so that after cancel the context has ended
		// as a context.WithTimeout's has.
		<-c.done
	}
}

// budgetCtx is the context WithBudget returns: its parent's values and
// deadline, its own end.
type budgetCtx struct {
	context.Context
	done chan struct{}
	mu   sync.Mutex
	err  error
}

func (c *budgetCtx) Done() <-chan struct{} { return c.done }

func (c *budgetCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *budgetCtx) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
		close(c.done)
	}
}
