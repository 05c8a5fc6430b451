package suggest_test

import (
	"slices"
	"testing"

	"sudokulab/internal/suggest"
)

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"list", "lsit", 2}, {"same", "same", 0}} {
		if got := suggest.Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNamesAndPhrase(t *testing.T) {
	names := []string{"list", "show", "add", "collections", "configs"}
	for _, tt := range []struct {
		name   string
		want   []string
		phrase string
	}{
		{"lsit", []string{"list"}, " (did you mean list?)"},
		{"co", []string{"collections", "configs"}, " (did you mean collections or configs?)"},
		{"ADD", []string{"add"}, " (did you mean add?)"},
		{"zzzzzz", nil, ""},
	} {
		got := suggest.Names(tt.name, names)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Names(%q) = %v, want %v", tt.name, got, tt.want)
		}
		if p := suggest.DidYouMean(got); p != tt.phrase {
			t.Errorf("DidYouMean(%v) = %q, want %q", got, p, tt.phrase)
		}
	}
	if p := suggest.DidYouMean([]string{"a", "b", "c"}); p != " (did you mean a, b or c?)" {
		t.Errorf("three: %q", p)
	}
}
