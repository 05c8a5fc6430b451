package generator

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sudokulab"
	"sudokulab/raters"
)

// ParseRatingFilter returns the filter of rater r over the range bounds,
// "LOW..HIGH", "LOW..", "..HIGH" or one bound: levels of levels (a label
// or its number; levels maps labels to levels, as the table rating_levels
// does) when levels is not empty, else values. spec is recorded in the
// filter. A bound that is neither, a missing range and a low end above
// the high end are EINVALID errors.
func ParseRatingFilter(r raters.Rater, spec, bounds string, levels map[string]int) (*RatingFilter, error) {
	f := &RatingFilter{Rater: r, Spec: spec, Min: -1e308, Max: 1e308}
	if len(levels) > 0 {
		f.Levels = levels
	}
	lo, hi, dots := strings.Cut(bounds, "..")
	if !dots {
		hi = lo
	}
	for _, b := range []struct {
		text string
		v    *float64
	}{{lo, &f.Min}, {hi, &f.Max}} {
		t := strings.TrimSpace(b.text)
		if t == "" {
			continue
		}
		if l, ok := levels[strings.ToLower(t)]; ok {
			*b.v = float64(l)
			continue
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			if len(levels) > 0 {
				return nil, sudokulab.Errorf(sudokulab.EINVALID, "%q is not a level of %s (%s) nor a number", t, r.Name(), strings.Join(byLevel(levels), ", "))
			}
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "%q is not a number (rater %s has no levels in rating_levels; bound its value)", t, r.Name())
		}
		*b.v = v
	}
	if strings.TrimSpace(lo) == "" && strings.TrimSpace(hi) == "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "give a range LOW..HIGH")
	}
	if f.Min > f.Max {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "the low end is above the high end")
	}
	return f, nil
}

// byLevel returns the labels of levels in the order of their levels.
func byLevel(levels map[string]int) []string {
	labels := make([]string, 0, len(levels))
	for l := range levels {
		labels = append(labels, l)
	}
	slices.SortStableFunc(labels, func(a, b string) int { return levels[a] - levels[b] })
	return labels
}

// NewRatingFilter reads generate's --rating RATER:LOW..HIGH: the rater,
// one of reg's that rates a new puzzle (not one that reads the runs of
// stored puzzles), and its range (ParseRatingFilter), in levels when
// levels(RATER) returns the rater's labels (the table rating_levels),
// else in values. A spec without both parts, or a rater that reads the
// database, is an EINVALID error; an unknown rater an ENOTFOUND one.
func NewRatingFilter(ctx context.Context, reg *raters.Registry, spec string, levels func(rater string) (map[string]int, error)) (*RatingFilter, error) {
	name, bounds, ok := strings.Cut(spec, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "--rating %q: want RATER:LOW..HIGH, such as human:hard..extreme", spec)
	}
	name = strings.TrimSpace(name)
	info, err := reg.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("--rating %q: %w", spec, err)
	}
	if info.NeedsDB {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "--rating %q: rater %s reads the runs of stored puzzles; it cannot rate new ones", spec, name)
	}
	r, err := info.New(ctx, raters.Env{})
	if err != nil {
		return nil, err
	}
	byLabel, err := levels(name)
	if err != nil {
		return nil, err
	}
	f, err := ParseRatingFilter(r, spec, bounds, byLabel)
	if err != nil {
		return nil, sudokulab.WrapError(sudokulab.EINVALID, err, "--rating %q", spec)
	}
	return f, nil
}
