package main

import (
	"math"

	"sudokulab/db"
)

// toInt reads an integer cell of a db.Table; NULL is 0.
func toInt(v any) int64 {
	f := db.Number(v)
	if math.IsNaN(f) {
		return 0
	}
	return int64(math.Round(f))
}
