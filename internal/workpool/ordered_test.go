package workpool_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"sudokulab/internal/workpool"
)

// count sends 0..n-1.
func count(n int) func(context.Context, func(int) error) error {
	return func(ctx context.Context, send func(int) error) error {
		for i := range n {
			if err := send(i); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestOrdered hands on the results in the order of the jobs, although the
// later jobs finish first.
func TestOrdered(t *testing.T) {
	var got []int
	err := workpool.Ordered(context.Background(), 4, count(50), func(_ context.Context, j int) (int, error) {
		time.Sleep(time.Duration(50-j) * 20 * time.Microsecond)
		return j * j, nil
	}, func(j, r int) error {
		if r != j*j {
			t.Errorf("job %d: result %d", j, r)
		}
		got = append(got, j)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range got {
		if i != j {
			t.Fatalf("order %v", got)
		}
	}
	if len(got) != 50 {
		t.Errorf("%d results, want 50", len(got))
	}
}

// TestOrderedErrors stops at the first error of produce, do or take and
// returns it; take sees no result after the job that failed.
func TestOrderedErrors(t *testing.T) {
	boom := errors.New("boom")
	square := func(_ context.Context, j int) (int, error) { return j * j, nil }
	take := func(int, int) error { return nil }
	for name, run := range map[string]func() error{
		"produce": func() error {
			return workpool.Ordered(context.Background(), 2, func(ctx context.Context, send func(int) error) error {
				_ = send(0)
				return boom
			}, square, take)
		},
		"do": func() error {
			return workpool.Ordered(context.Background(), 2, count(100), func(_ context.Context, j int) (int, error) {
				if j == 10 {
					return 0, boom
				}
				return j, nil
			}, func(j, _ int) error {
				if j >= 10 {
					t.Errorf("do: took job %d after the failed one", j)
				}
				return nil
			})
		},
		"take": func() error {
			return workpool.Ordered(context.Background(), 2, count(100), square, func(j, _ int) error {
				if j == 5 {
					return boom
				}
				return nil
			})
		},
	} {
		if err := run(); !errors.Is(err, boom) {
			t.Errorf("%s: %v, want boom", name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := workpool.Ordered(ctx, 2, count(100), square, take); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
