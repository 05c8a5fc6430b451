package plots

// The tick markers of linear and log-scaled axes, for the tests of their
// labels.
var (
	LinearTicks = linearTicks{}
	LogTicks    = logTicks{}
)
