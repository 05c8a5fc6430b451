package pipeline

import (
	"context"
	"sync"
)

// Sequence orders the imports of several files run at once (sudokulab
// import FILE... on several cores): each file begins its import, and so
// gets its import id, after the file before it has begun; it writes its
// first puzzle after the file before it has written its last; and a file
// whose content an earlier file of the sequence has waits until that one
// is done, to find it imported. Import ids and collection positions then
// follow the order of the files, as when they are imported one by one,
// while their puzzles are checked and counted side by side.
type Sequence struct {
	mu     sync.Mutex
	sums   []string
	begun  []chan struct{}
	stored []chan struct{}
	once   []sync.Once
}

// NewSequence returns a Sequence of n files.
func NewSequence(n int) *Sequence {
	s := &Sequence{sums: make([]string, n), begun: make([]chan struct{}, n), stored: make([]chan struct{}, n), once: make([]sync.Once, n)}
	for i := range n {
		s.begun[i], s.stored[i] = make(chan struct{}), make(chan struct{})
	}
	return s
}

// Slot returns file i's place in the sequence, for Options.Slot.
func (s *Sequence) Slot(i int) *Slot { return &Slot{s: s, i: i} }

// Slot is one file's place in a Sequence.
type Slot struct {
	s *Sequence
	i int
}

// Done marks the file as finished (imported, skipped or failed), so that
// the files after it go on. ImportFile calls it; a file never imported
// (the sequence stopped early) must be marked by its caller.
func (sl *Slot) Done() {
	s := sl.s
	s.once[sl.i].Do(func() {
		closeOnce(s.begun[sl.i])
		close(s.stored[sl.i])
	})
}

func closeOnce(c chan struct{}) {
	select {
	case <-c:
	default:
		close(c)
	}
}

func wait(ctx context.Context, c chan struct{}) error {
	select {
	case <-c:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// waitBegin records the file's checksum and waits until the file before
// it has begun, and every earlier file with the same checksum is done.
func (sl *Slot) waitBegin(ctx context.Context, sum string) error {
	s := sl.s
	if sl.i > 0 {
		if err := wait(ctx, s.begun[sl.i-1]); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.sums[sl.i] = sum
	var same []chan struct{}
	for j := range sl.i {
		if s.sums[j] == sum {
			same = append(same, s.stored[j])
		}
	}
	s.mu.Unlock()
	for _, c := range same {
		if err := wait(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// begun lets the next file begin.
func (sl *Slot) begun() { closeOnce(sl.s.begun[sl.i]) }

// waitStore waits until the file before has written its last puzzle.
func (sl *Slot) waitStore(ctx context.Context) error {
	if sl.i == 0 {
		return nil
	}
	return wait(ctx, sl.s.stored[sl.i-1])
}
