package generator_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/generator"
	"sudokulab/raters"
)

// TestNewRatingFilter reads --rating with the rater's levels when it has
// some, and refuses what generate cannot rate by.
func TestNewRatingFilter(t *testing.T) {
	ctx := context.Background()
	reg := raters.Default()
	human := func(string) (map[string]int, error) { return generator.HumanLevels(), nil }
	none := func(string) (map[string]int, error) { return nil, nil }

	f, err := generator.NewRatingFilter(ctx, reg, " human :hard..extreme", human)
	if err != nil || f.Rater.Name() != "human" || f.Min != 3 || f.Max != 5 || f.Levels == nil || f.Spec != " human :hard..extreme" {
		t.Errorf("human:hard..extreme = %+v, %v; want levels 3 to 5", f, err)
	}
	if f, err := generator.NewRatingFilter(ctx, reg, "givens:20..30", none); err != nil || f.Levels != nil || f.Min != 20 || f.Max != 30 {
		t.Errorf("givens:20..30 = %+v, %v; want values 20 to 30", f, err)
	}
	failing := errors.New("no levels table")
	if _, err := generator.NewRatingFilter(ctx, reg, "human:hard", func(string) (map[string]int, error) { return nil, failing }); !errors.Is(err, failing) {
		t.Errorf("a failing read of the levels: %v", err)
	}
	for _, tt := range []struct {
		spec string
		code string
		want string
	}{
		{"hard", sudokulab.EINVALID, "want RATER:LOW..HIGH"},
		{":hard", sudokulab.EINVALID, "want RATER:LOW..HIGH"},
		{"nosuch:1..2", sudokulab.ENOTFOUND, `--rating "nosuch:1..2"`},
		{"empirical:1..2", sudokulab.EINVALID, "reads the runs of stored puzzles"},
		{"human:hard..easy", sudokulab.EINVALID, `--rating "human:hard..easy"`},
	} {
		_, err := generator.NewRatingFilter(ctx, reg, tt.spec, human)
		if sudokulab.ErrorCode(err) != tt.code || err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %v with %q", tt.spec, err, tt.code, tt.want)
		}
	}
}
