package figures_test

import (
	"testing"

	"sudokulab/figures"
)

// TestDefaultsCheck: the defaults of every kind are settings plot
// accepts.
func TestDefaultsCheck(t *testing.T) {
	for _, kind := range []string{figures.KindConvergence, figures.KindECDF, figures.KindSuccess, figures.KindERT,
		figures.KindScoreboard, figures.KindCD, figures.KindProfile, figures.KindAggECDF} {
		if err := figures.Defaults(kind).Check(); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	if err := figures.Defaults("nothing").Check(); err == nil {
		t.Error("an unknown kind passes Check")
	}
}
