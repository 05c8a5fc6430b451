package tune_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"sudokulab/tune"
)

// prefetching is the synthetic solver that also hears of the runs a race
// will ask for up to its first test.
type prefetching struct {
	synthetic
	ahead []string
	// races counts the Prefetch calls.
	races int
}

func (p *prefetching) Prefetch(ctx context.Context, ahead []tune.Ahead) error {
	p.races++
	for _, a := range ahead {
		for _, c := range a.Candidates {
			p.ahead = append(p.ahead, fmt.Sprint(c.ID, "@", a.Instance.Index))
		}
	}
	return nil
}

// marks keeps, after each race step, how many runs the evaluator has
// done.
type marks struct {
	p     *prefetching
	steps []tune.Step
	done  []int
}

func (m *marks) Step(ctx context.Context, s tune.Step) error {
	m.steps = append(m.steps, s)
	m.done = append(m.done, len(m.p.log))
	return nil
}

// TestPrefetch races the synthetic solver with an evaluator that hears of
// the runs up to each race's first test before they are asked for: the
// tuning is the one without (the same runs in the same order, the same
// elites), and the runs heard of in advance are exactly those done in the
// first five steps of the races, each asked for once, more than half of
// all.
func TestPrefetch(t *testing.T) {
	plain, ev, _ := tuneSynthetic(t, 5, 1000)
	s := syntheticSpace(t)
	p := &prefetching{synthetic: synthetic{space: s, calls: map[string]int{}}}
	m := &marks{p: p}
	res, err := tune.Tune(context.Background(), s, 40, p, tune.Options{Budget: 1000, Rand: rand.New(rand.NewPCG(5, 1)), Recorder: m})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.log, ev.log) || res.Elites[0].ID != plain.Elites[0].ID || res.Runs != plain.Runs {
		t.Fatalf("prefetching changed the tuning: %d runs (elite %d), without %d (elite %d)", len(p.log), res.Elites[0].ID, len(ev.log), plain.Elites[0].ID)
	}
	if p.races != res.Iterations {
		t.Errorf("%d races told in advance, %d raced", p.races, res.Iterations)
	}
	var early []string
	for i, st := range m.steps {
		from := 0
		if i > 0 {
			from = m.done[i-1]
		}
		if st.Number <= 5 {
			early = append(early, p.log[from:m.done[i]]...)
		}
	}
	if !slices.Equal(p.ahead, early) {
		t.Errorf("told in advance: %v\ndone in the first five steps of each race: %v", p.ahead, early)
	}
	for _, k := range p.ahead {
		if p.calls[k] != 1 {
			t.Errorf("run %s told in advance was asked for %d times, want once", k, p.calls[k])
		}
	}
	if 2*len(p.ahead) < len(p.log) {
		t.Errorf("%d of %d runs told in advance, want more than half", len(p.ahead), len(p.log))
	}
}
