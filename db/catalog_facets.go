package db

// The facets of puzzle_catalog. Counting each facet's values under each
// filter would read the whole catalog once per facet per page (some
// 100-250 ms each for 62,000 puzzles with SQLite here). Instead the rows
// are counted once per combination of every facet's value (a small cube:
// collection x box shape x givens x count class x each rater's level, a
// few thousand cells at most for real labs), from the catalog index
// (catalog_index.go), and any filter's facets and total are sums over its
// cells, computed in memory. The cube can be kept while the database has
// not changed.

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// Facet is the count of each value of one facet under a filter that
// leaves the facet itself out, so that each value shows what choosing it
// instead would give.
type Facet struct {
	// Name is "collection", "shape", "givens", "count" or "level:RATER".
	Name   string       `json:"name"`
	Values []FacetValue `json:"values"`
}

// FacetValue is one value of a facet and the rows having it; Null marks
// the value NULL (a puzzle in no collection; for a level, no rating).
type FacetValue struct {
	Value string `json:"value"`
	Null  bool   `json:"null,omitempty"`
	Count int64  `json:"count"`
}

// FacetValueLimit bounds the values a facet lists, the most frequent first
// (or in the facet's own order).
const FacetValueLimit = 50

// CatalogCube counts the rows of puzzle_catalog per combination of facet
// values.
type CatalogCube struct {
	// Raters are the raters that grade by level (rating_levels), in the
	// order of CubeCell.Levels; levels orders each one's labels.
	Raters []string
	levels map[string]map[string]int
	Cells  []CubeCell
}

// CubeCell is one combination of facet values and its number of rows. A
// nil Collection is a puzzle in no collection, a nil level no rating.
type CubeCell struct {
	Collection *string
	Shape      string
	Givens     int
	Count      string
	Levels     []*string
	Rows       int64
}

// Cube counts the catalog's rows per combination of facet values, from
// the catalog index (see Index).
func (cat *Catalog) Cube(ctx context.Context) (CatalogCube, error) {
	ix, err := cat.Index(ctx)
	if err != nil {
		return CatalogCube{}, err
	}
	return ix.cube, nil
}

// readLevels reads the raters that grade by level and their levels'
// order into cube.
func (cat *Catalog) readLevels(ctx context.Context, cube *CatalogCube) error {
	var levels []struct {
		Rater string `db:"rater"`
		Label string `db:"label"`
		Level int    `db:"level"`
	}
	if err := sqlx.SelectContext(ctx, cat.x, &levels, `SELECT rater, label, level FROM rating_levels ORDER BY rater, level`); err != nil {
		return dbError(err, "rating levels")
	}
	cube.levels = map[string]map[string]int{}
	for _, l := range levels {
		if cube.levels[l.Rater] == nil {
			cube.Raters = append(cube.Raters, l.Rater)
			cube.levels[l.Rater] = map[string]int{}
		}
		cube.levels[l.Rater][l.Label] = l.Level
	}
	return nil
}

// matches tells whether cell c is under f, leaving out the facet skip.
func (cube CatalogCube) matches(c CubeCell, f CatalogFilter, skip string) bool {
	if skip != "collection" {
		switch {
		case f.NoCollection && c.Collection != nil:
			return false
		case !f.NoCollection && f.Collection != "" && (c.Collection == nil || *c.Collection != f.Collection):
			return false
		}
	}
	if skip != "shape" && f.Shape != "" && c.Shape != f.Shape ||
		skip != "givens" && f.Givens != nil && c.Givens != *f.Givens ||
		skip != "count" && f.Count != "" && c.Count != f.Count {
		return false
	}
	for i, r := range cube.Raters {
		if want, ok := f.Levels[r]; ok && skip != "level:"+r && (c.Levels[i] == nil || *c.Levels[i] != want) {
			return false
		}
	}
	return true
}

// Total counts the rows under f.
func (cube CatalogCube) Total(f CatalogFilter) int64 {
	var n int64
	for _, c := range cube.Cells {
		if cube.matches(c, f, "") {
			n += c.Rows
		}
	}
	return n
}

// Facets counts, for each facet, the rows under f without the facet's own
// value, per value of the facet: collection (most rows first), box shape,
// givens (in order), count class (in CountClasses' order) and each
// rater's level (from easiest); at most FacetValueLimit values each.
func (cube CatalogCube) Facets(f CatalogFilter) []Facet {
	type key struct {
		v    string
		null bool
	}
	names := []string{"collection", "shape", "givens", "count"}
	for _, r := range cube.Raters {
		names = append(names, "level:"+r)
	}
	out := make([]Facet, len(names))
	for fi, name := range names {
		counts := map[key]int64{}
		for _, c := range cube.Cells {
			if !cube.matches(c, f, name) {
				continue
			}
			var k key
			switch name {
			case "collection":
				k = key{null: c.Collection == nil}
				if c.Collection != nil {
					k.v = *c.Collection
				}
			case "shape":
				k.v = c.Shape
			case "givens":
				k.v = strconv.Itoa(c.Givens)
			case "count":
				k.v = c.Count
			default:
				l := c.Levels[fi-4]
				if l == nil {
					continue // not rated by this rater
				}
				k.v = *l
			}
			counts[k] += c.Rows
		}
		fc := Facet{Name: name, Values: []FacetValue{}}
		for k, n := range counts {
			fc.Values = append(fc.Values, FacetValue{Value: k.v, Null: k.null, Count: n})
		}
		slices.SortFunc(fc.Values, cube.order(name))
		fc.Values = fc.Values[:min(len(fc.Values), FacetValueLimit)]
		out[fi] = fc
	}
	return out
}

// order is how facet name sorts its values.
func (cube CatalogCube) order(name string) func(a, b FacetValue) int {
	byCount := func(a, b FacetValue) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Value, b.Value))
	}
	switch name {
	case "givens":
		return func(a, b FacetValue) int {
			x, _ := strconv.Atoi(a.Value)
			y, _ := strconv.Atoi(b.Value)
			return cmp.Compare(x, y)
		}
	case "count":
		return func(a, b FacetValue) int {
			return cmp.Compare(slices.Index(CountClasses, a.Value), slices.Index(CountClasses, b.Value))
		}
	case "collection", "shape":
		return byCount
	}
	levels := cube.levels[strings.TrimPrefix(name, "level:")]
	return func(a, b FacetValue) int {
		return cmp.Or(cmp.Compare(levels[a.Value], levels[b.Value]), cmp.Compare(a.Value, b.Value))
	}
}

// CheckLevels refuses a filter on the level of a rater that grades by no
// level (rating_levels), which the facets cannot count.
func (cube CatalogCube) CheckLevels(f CatalogFilter) error {
	for r := range f.Levels {
		if !slices.Contains(cube.Raters, r) {
			return sudokulab.Errorf(sudokulab.EINVALID, "level.%s: rater %q grades by no level (rating_levels lists %s)", r, r, strings.Join(cube.Raters, ", "))
		}
	}
	return nil
}

// Members counts the rows of each collection (its puzzles), by name.
func (cube CatalogCube) Members() map[string]int64 {
	out := map[string]int64{}
	for _, c := range cube.Cells {
		if c.Collection != nil {
			out[*c.Collection] += c.Rows
		}
	}
	return out
}
