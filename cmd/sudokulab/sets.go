package main

import (
	"strings"

	"sudokulab"
)

// parseSets reads repeated --set name=value flags.
func parseSets(sets []string) (map[string]string, error) { return parseNamed("--set", sets) }

// parseNamed reads the repeated name=value values of a flag.
func parseNamed(flag string, sets []string) (map[string]string, error) {
	m := make(map[string]string, len(sets))
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "%s %q: want name=value", flag, s)
		}
		m[strings.TrimSpace(k)] = v
	}
	return m, nil
}
