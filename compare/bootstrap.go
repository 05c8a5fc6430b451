package compare

import (
	"math"

	"sudokulab"
)

// MaxResamples bounds the bootstrap resamples a command may ask for.
const MaxResamples = 1_000_000

// CheckBootstrap refuses a number of bootstrap resamples outside 1 to
// MaxResamples, or a confidence level outside (0, 1), in the words of
// --resamples and --level (compare and report).
func CheckBootstrap(resamples int, level float64) error {
	if resamples < 1 || resamples > MaxResamples {
		return sudokulab.Errorf(sudokulab.EINVALID, "--resamples %d: want 1 to %d", resamples, MaxResamples)
	}
	if !(level > 0 && level < 1) || math.IsNaN(level) {
		return sudokulab.Errorf(sudokulab.EINVALID, "--level %v: want a number between 0 and 1, such as 0.95", level)
	}
	return nil
}
