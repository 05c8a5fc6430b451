package workpool_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"sudokulab/internal/workpool"
)

// TestRun squares 1..100 on four goroutines, two results per piece: every
// result is taken once, on the calling goroutine (take needs no lock).
func TestRun(t *testing.T) {
	work := make([]int, 100)
	for i := range work {
		work[i] = i + 1
	}
	var got []int
	err := workpool.Run(context.Background(), work, workpool.Options{Workers: 4},
		func(ctx context.Context, n int, emit func(int) error) error {
			if err := emit(n * n); err != nil {
				return err
			}
			return emit(-n)
		}, func(r int) error {
			got = append(got, r)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, n := range work {
		want = append(want, n*n, -n)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("took %v, want %v", got, want)
	}
}

// TestRunTicks has each piece of work wait until Tick has been called:
// Tick runs on the calling goroutine while the work goes on.
func TestRunTicks(t *testing.T) {
	ticked := make(chan struct{})
	ticks := 0
	err := workpool.Run(context.Background(), []int{1, 2}, workpool.Options{Workers: 2, Every: time.Millisecond,
		Tick: func() error {
			if ticks++; ticks == 1 {
				close(ticked)
			}
			return nil
		}},
		func(ctx context.Context, n int, emit func(int) error) error {
			<-ticked
			return emit(n)
		}, func(int) error { return nil })
	if err != nil || ticks == 0 {
		t.Errorf("Run: %v after %d ticks", err, ticks)
	}
}

// TestRunErrors stops at the first error of do, take or Tick and returns
// it; after a failed take or Tick nothing more is taken, while the results
// emitted before do failed are taken all the same.
func TestRunErrors(t *testing.T) {
	bad := errors.New("bad")
	tests := []struct {
		name  string
		do    func(ctx context.Context, n int, emit func(int) error) error
		take  func(n int) error
		tick  func() error
		taken []int // with do's error
	}{
		{"do", func(ctx context.Context, n int, emit func(int) error) error {
			if n == 3 {
				return bad
			}
			return emit(n)
		}, nil, nil, []int{1, 2}},
		{"take", nil, func(n int) error {
			if n == 3 {
				return bad
			}
			return nil
		}, nil, nil},
		{"tick", func(ctx context.Context, n int, emit func(int) error) error {
			<-ctx.Done() // only the failing tick ends the work
			return ctx.Err()
		}, nil, func() error { return bad }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			do, take := tt.do, tt.take
			if do == nil {
				do = func(ctx context.Context, n int, emit func(int) error) error { return emit(n) }
			}
			after := 0
			failed := false
			var taken []int
			if take == nil {
				take = func(int) error { return nil }
			}
			err := workpool.Run(context.Background(), []int{1, 2, 3, 4, 5, 6}, workpool.Options{Workers: 1, Every: time.Millisecond, Tick: tt.tick},
				func(ctx context.Context, n int, emit func(int) error) error { return do(ctx, n, emit) },
				func(n int) error {
					if failed {
						after++
					}
					taken = append(taken, n)
					err := take(n)
					failed = failed || err != nil
					return err
				})
			if !errors.Is(err, bad) || after != 0 {
				t.Errorf("Run: %v, %d results taken after the error; want %v and none", err, after, bad)
			}
			if tt.taken != nil && !slices.Equal(taken, tt.taken) {
				t.Errorf("took %v, want %v: those emitted before do failed", taken, tt.taken)
			}
		})
	}
}

// TestRunCanceled ends ctx after the first result: Run returns the cause
// of the end, takes nothing more, and the work stops (do honours ctx).
func TestRunCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	taken := 0
	err := workpool.Run(ctx, make([]int, 1000), workpool.Options{Workers: 2},
		func(ctx context.Context, _ int, emit func(int) error) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return emit(1)
		}, func(int) error {
			taken++
			cancel()
			return nil
		})
	if !errors.Is(err, context.Canceled) || taken != 1 {
		t.Errorf("Run: %v after %d results; want context.Canceled after 1", err, taken)
	}
}
