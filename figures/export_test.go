package figures

// SuccessGroups orders the groups of success counts, for its table test.
var SuccessGroups = successGroups
