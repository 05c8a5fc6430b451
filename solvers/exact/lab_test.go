package exact_test

import (
	"testing"

	"sudokulab/solvers/exact"
	"sudokulab/solvers/solvertest"
)

func TestConformance(t *testing.T) {
	solvertest.Run(t, exact.Info(), solvertest.Options{})
}
