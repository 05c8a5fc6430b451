package generator

// SetMixSteps sets the moves of the mixing chain per cell, for the
// measurements of the tests.
func SetMixSteps(m int) { mixSteps = m }
