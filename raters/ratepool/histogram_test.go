package ratepool_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"sudokulab/raters/ratepool"
)

// TestHistogram holds rate's label counts to a short form as text (one
// line, not a whole histogram of se's nearly unique labels) and to the
// whole histogram, most common first, in JSON.
func TestHistogram(t *testing.T) {
	many := ratepool.Histogram{}
	for i := range 40 {
		many[fmt.Sprintf("%d.%d/1.2/1.2", 1+i/10, i%10)] = 1 + i%3
	}
	tests := []struct {
		name       string
		h          ratepool.Histogram
		text, json string
	}{
		{"empty", ratepool.Histogram{}, "", "{}"},
		{"few", ratepool.Histogram{"easy": 8, "medium": 2, "beyond": 1}, "easy:8 medium:2 beyond:1", `{"easy":8,"medium":2,"beyond":1}`},
		{"ties by name", ratepool.Histogram{"b": 2, "a": 2, "c": 3}, "c:3 a:2 b:2", `{"c":3,"a":2,"b":2}`},
		{"all shown", ratepool.Histogram{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 1}, "a:1 b:1 c:1 d:1 e:1 f:1", ""},
		{"many", many, "40 labels, most common: 1.2/1.2/1.2:3 1.5/1.2/1.2:3 1.8/1.2/1.2:3", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.h.String(); got != tt.text {
				t.Errorf("text %q, want %q", got, tt.text)
			}
			js, err := json.Marshal(tt.h)
			if err != nil {
				t.Fatal(err)
			}
			var back map[string]int
			if err := json.Unmarshal(js, &back); err != nil || len(back) != len(tt.h) {
				t.Errorf("JSON %s: %v, want all %d labels", js, err, len(tt.h))
			}
			for l, n := range tt.h {
				if back[l] != n {
					t.Errorf("JSON %s: %s has %d, want %d", js, l, back[l], n)
				}
			}
			if tt.json != "" && string(js) != tt.json {
				t.Errorf("JSON %s, want %s", js, tt.json)
			}
		})
	}
}
