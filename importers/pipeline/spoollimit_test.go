package pipeline_test

import (
	"math"
	"testing"

	"sudokulab"
	"sudokulab/importers/pipeline"
)

func TestSpoolLimitMiB(t *testing.T) {
	tests := []struct {
		mib, want int64
	}{
		{1, 1 << 20},
		{2048, pipeline.DefaultSpoolLimit},
		{-1, -1 << 20},
		{math.MaxInt64 >> 20, (math.MaxInt64 >> 20) << 20},
		{math.MaxInt64>>20 + 1, -1},
	}
	for _, tt := range tests {
		if got, err := pipeline.SpoolLimitMiB(tt.mib); err != nil || got != tt.want {
			t.Errorf("SpoolLimitMiB(%d) = %d, %v; want %d", tt.mib, got, err, tt.want)
		}
	}
	if _, err := pipeline.SpoolLimitMiB(0); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("SpoolLimitMiB(0): %v, want EINVALID", err)
	}
}
