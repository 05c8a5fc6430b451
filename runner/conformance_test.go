package runner_test

import (
	"testing"

	"sudokulab/solvers/solvertest"
)

// TestLocalSearchConformance checks that the test solver the engine tests
// rely on is an honest sudokulab.Solver: it passes the conformance suite
// every registered solver passes.
func TestLocalSearchConformance(t *testing.T) {
	solvertest.Run(t, localSearchInfo(), solvertest.Options{})
}
