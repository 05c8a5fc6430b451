package compare

import (
	"math"
	"strconv"
)

// Sig rounds x to n significant digits for a table cell: NaN (no value)
// becomes nil (NULL), +Inf the string "inf" and -Inf "-inf". compare's
// and the ranking's tables print their numbers with it.
func Sig(x float64, n int) any {
	switch {
	case math.IsNaN(x):
		return nil
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', n, 64), 64)
	return v
}

func sig(x float64, n int) any { return Sig(x, n) }
