package compare_test

import (
	"math"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/compare"
)

func TestCheckBootstrap(t *testing.T) {
	tests := []struct {
		resamples int
		level     float64
		want      string // "" for no error
	}{
		{1000, 0.95, ""},
		{1, 0.5, ""},
		{compare.MaxResamples, 0.99, ""},
		{0, 0.95, "--resamples 0: want 1 to 1000000"},
		{compare.MaxResamples + 1, 0.95, "--resamples 1000001"},
		{1000, 1, "--level 1: want a number between 0 and 1"},
		{1000, 0, "--level 0"},
		{1000, math.NaN(), "--level NaN"},
	}
	for _, tt := range tests {
		err := compare.CheckBootstrap(tt.resamples, tt.level)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CheckBootstrap(%d, %v) = %v, want nil", tt.resamples, tt.level, err)
		case tt.want != "" && (sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("CheckBootstrap(%d, %v) = %v, want EINVALID with %q", tt.resamples, tt.level, err, tt.want)
		}
	}
}
