package db

// Affected exposes affected to the external tests.
var Affected = affected
