package tuning

// CPUCost is cpuCost: the par10 cost of a solved run of cpu CPU seconds.
func CPUCost(cpu float64) float64 { return cpuCost(cpu) }

// CostSQL is the SQL expression over run_results r that the irace target
// runner prints as a run's cost by objective.
func CostSQL(objective string) string { return costSQL[objective] }
