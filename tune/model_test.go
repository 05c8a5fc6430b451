package tune_test

import (
	"math"
	"slices"
	"testing"

	"sudokulab/tune"
)

// TestUpdatedModelCapsChoices checks irace's elitist update of a
// categorical (updateModel): from equal thirds, before iteration 3 of 3
// the elite's choice gets 1/9 + 2/3 = 0.7778, which the cap 0.2^(1/3) =
// 0.58480 brings down before normalising again: 0.58480 / (0.58480 + 2/9)
// = 0.72464 for it, 0.13769 for each other choice. The deviation of x
// (range 0..10, half range 5) shrinks by (1/4)^(1/3) for 4 new ones.
func TestUpdatedModelCapsChoices(t *testing.T) {
	s := syntheticSpace(t) // x, n (log), mode: three parameters
	sd, probs := tune.UpdatedModel(s, []float64{7, 20, 1}, 3, 3, 4)
	cap3 := math.Pow(0.2, 1.0/3)
	want := []float64{(1.0 / 9) / (cap3 + 2.0/9), cap3 / (cap3 + 2.0/9), (1.0 / 9) / (cap3 + 2.0/9)}
	for j := range want {
		if math.Abs(probs[2][j]-want[j]) > 1e-12 {
			t.Errorf("mode probabilities %v, want %v (capped)", probs[2], want)
			break
		}
	}
	if math.Abs(want[1]-0.724640) > 1e-6 {
		t.Errorf("worked value %v, want 0.724640", want[1])
	}
	if w := 5 * math.Pow(0.25, 1.0/3); math.Abs(sd[0]-w) > 1e-12 {
		t.Errorf("sd of x %v, want %v", sd[0], w)
	}
	// Before iteration 2 of 3 the choice gets 2/9 + 1/3 = 0.5556, under
	// the cap: unchanged by it.
	_, probs = tune.UpdatedModel(s, []float64{7, 20, 1}, 2, 3, 4)
	if math.Abs(probs[2][1]-(2.0/9+1.0/3)) > 1e-12 {
		t.Errorf("iteration 2: mode probabilities %v, want %v for b", probs[2], 2.0/9+1.0/3)
	}
}

// TestSoftRestart checks irace's soft restart on a space of x (0..10), n
// (log 1..1000, an integer) and mode (a|b|c), three elites and three new
// candidates: the new one sampled around elite 2 equals elite 3 but for
// x by 0.0005 (5e-5 of the range, within 1e-4), so elites 2 and 3 are
// restarted; the one around elite 1 differs from it by 0.002 in x (2e-4
// of the range) and the third by its mode, so elite 1 is not. A
// restarted model's deviation of x, 5 (fresh), becomes min(5 * 4^(2/3),
// 5 * (1/4)^(1/3)) = 3.1498 for 4 new candidates; mode's equal thirds
// stay equal.
func TestSoftRestart(t *testing.T) {
	s := syntheticSpace(t)
	elites := [][]float64{{1, 5, 0}, {4, 30, 1}, {7.3, 20, 1}}
	vals := [][]float64{{1.002, 5, 0}, {7.3005, 20, 1}, {4, 30, 2}}
	ids, sd, probs := tune.SoftRestart(s, elites, vals, []int{1, 2, 3}, 4)
	slices.Sort(ids)
	if !slices.Equal(ids, []int{2, 3}) {
		t.Fatalf("restarted elites %v, want [2 3]", ids)
	}
	want := 5 * math.Pow(0.25, 1.0/3)
	for _, id := range ids {
		if math.Abs(sd[id][0]-want) > 1e-12 {
			t.Errorf("elite %d: sd of x %v, want %v", id, sd[id][0], want)
		}
		for _, p := range probs[id][2] {
			if math.Abs(p-1.0/3) > 1e-12 {
				t.Errorf("elite %d: mode probabilities %v, want equal thirds", id, probs[id][2])
				break
			}
		}
	}
	// No two alike: no restart.
	if ids, _, _ := tune.SoftRestart(s, elites, vals[:1], []int{1}, 4); len(ids) != 0 {
		t.Errorf("restarted %v with no similar candidates", ids)
	}
}
