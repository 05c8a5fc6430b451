package tune_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"sudokulab/tune"
)

// TestMinBudget: a budget below MinBudget is refused before any run (it
// would race nothing and leave no elite), and MinBudget itself races and
// ends with an elite. The synthetic space has 3 tuned parameters: 3
// iterations, 3 survivors, first test after 5 instances, so 3 x 4 x 6.
func TestMinBudget(t *testing.T) {
	s := syntheticSpace(t)
	least := tune.MinBudget(len(s.Params), tune.Options{})
	if least != 72 {
		t.Errorf("MinBudget over 3 parameters = %d, want 72", least)
	}
	ev := &synthetic{space: s, calls: map[string]int{}}
	_, err := tune.Tune(context.Background(), s, 40, ev, tune.Options{Budget: least - 1, Rand: rand.New(rand.NewPCG(1, 1))})
	if err == nil {
		t.Fatalf("a budget of %d runs was taken", least-1)
	}
	if len(ev.log) != 0 {
		t.Errorf("a refused budget did %d runs", len(ev.log))
	}
	res, err := tune.Tune(context.Background(), s, 40, ev, tune.Options{Budget: least, Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Elites) == 0 || res.Runs > least {
		t.Errorf("MinBudget's tuning: %d elites in %d runs, want at least one within %d", len(res.Elites), res.Runs, least)
	}
}
