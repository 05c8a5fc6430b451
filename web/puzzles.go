package web

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

// The puzzle table: puzzle_catalog filtered by facet values, sorted by any
// column, a page at a time. Its query string is the whole state:
//
//	collection=NAME | nocollection=1, shape=3x3, givens=17, count=unique,
//	level.RATER=LABEL, tag=TAG, sort=COLUMN | rating:RATER, desc=1, next=TOKEN, size=N

// puzzlesData is the puzzle table's page.
type puzzlesData struct {
	Filter map[string]string `json:"filter"`
	Sort   string            `json:"sort"`
	Desc   bool              `json:"desc"`
	// Total counts the rows under the filter, null while the facets are
	// counted for the first time (the page then has no facets yet).
	Total *int64 `json:"total"`
	// CountedAt is when the facets and total were counted (they are kept
	// while the database is unchanged).
	CountedAt string          `json:"counted_at,omitempty"`
	Rows      []db.CatalogRow `json:"rows"`
	Next      string          `json:"next,omitempty"`
	NextURL   string          `json:"next_url,omitempty"`
	// FirstURL is the first page under the same filter and sort, when
	// this one is not.
	FirstURL string      `json:"first_url,omitempty"`
	Facets   []facetView `json:"facets"`
	Raters   []string    `json:"raters"`
	Headers  []header    `json:"-"`
	ClearURL string      `json:"-"`
}

// facetView is a facet with, for each value, the URL that chooses it.
type facetView struct {
	Name     string           `json:"name"`
	Title    string           `json:"-"`
	ClearURL string           `json:"clear_url,omitempty"`
	Values   []facetValueView `json:"values"`
}

type facetValueView struct {
	db.FacetValue
	URL      string `json:"url"`
	Selected bool   `json:"selected,omitempty"`
}

// header is a column head of the table: its name and the URL sorting by
// it (the other way round when the table is sorted by it already).
type header struct {
	Title, URL, Arrow string
}

// filterOf reads the filter from the query string.
func filterOf(q url.Values) (db.CatalogFilter, error) {
	f := db.CatalogFilter{Collection: q.Get("collection"), NoCollection: q.Get("nocollection") == "1",
		Shape: q.Get("shape"), Count: q.Get("count"), Tag: q.Get("tag")}
	if g := q.Get("givens"); g != "" {
		n, err := strconv.Atoi(g)
		if err != nil {
			return f, sudokulab.Errorf(sudokulab.EINVALID, "givens %q: want a number", g)
		}
		f.Givens = &n
	}
	for k, v := range q {
		if rater, ok := strings.CutPrefix(k, "level."); ok && rater != "" && v[0] != "" {
			if f.Levels == nil {
				f.Levels = map[string]string{}
			}
			f.Levels[rater] = v[0]
		}
	}
	return f, nil
}

// facetParam is the query parameter of a facet.
func facetParam(name string) string {
	if rater, ok := strings.CutPrefix(name, "level:"); ok {
		return "level." + rater
	}
	return name
}

// with returns /puzzles with q changed: each pair sets a key (an empty
// value deletes it); a change of filter or sort starts at the first page.
func with(q url.Values, kv ...string) string {
	v := url.Values{}
	for k, vs := range q {
		v[k] = slices.Clone(vs)
	}
	v.Del("next")
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			v.Del(kv[i])
		} else {
			v.Set(kv[i], kv[i+1])
		}
	}
	if len(v) == 0 {
		return "/puzzles"
	}
	return "/puzzles?" + v.Encode()
}

func (s *Server) puzzles(r *http.Request) (view, error) {
	ctx := r.Context()
	q := r.URL.Query()
	f, err := filterOf(q)
	if err != nil {
		return view{}, err
	}
	size := 0
	if v := q.Get("size"); v != "" {
		if size, err = strconv.Atoi(v); err != nil || size < 1 {
			return view{}, sudokulab.Errorf(sudokulab.EINVALID, "size %q: want a number of rows, 1 to 1000", v)
		}
	}
	cq := db.CatalogQuery{Filter: f, Sort: q.Get("sort"), Desc: q.Get("desc") == "1", After: q.Get("next"), Limit: size}
	ix, counted, counts, err := s.facetIndex(ctx)
	if err != nil {
		return view{}, err
	}
	var page db.CatalogPage
	var cube db.CatalogCube
	err = s.db.Snapshot(ctx, func(tx *sqlx.Tx) error {
		cat, err := db.NewCatalog(ctx, tx)
		if err != nil {
			return err
		}
		if counts {
			// The counts of a tag's puzzles are those of the index kept
			// (which may lag, as every count does), over the puzzles
			// having it now.
			cube = ix.Cube()
			if f.Tag != "" {
				if cube, err = cat.TagCube(ctx, ix, f.Tag); err != nil {
					return err
				}
			}
			if err := cube.CheckLevels(f); err != nil {
				return err
			}
			// A filter that keeps a tenth of the rows or more finds a
			// page's rows soonest by reading them in order, except one on
			// givens sorted by givens or id, which the index on givens
			// gives in that order.
			byGivens := cq.Sort == "givens" || (cq.Sort == "" || cq.Sort == "id") && f.Givens != nil
			cq.Filter.Broad = 10*cube.Total(f) >= ix.Cube().Total(db.CatalogFilter{}) && !byGivens
		}
		// The index narrows the rows read down to those the page shows,
		// when it holds this snapshot's rows.
		if cq.Index, err = s.currentIndex(ctx); err != nil {
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, s.o.PageTimeout)
		defer cancel()
		page, err = cat.Page(pctx, cq)
		if err != nil && ctx.Err() == nil && pctx.Err() != nil {
			return sudokulab.Errorf(sudokulab.EINVALID, "sorting by %s took longer than %s: choose fewer rows first (a collection, givens, a level), or sort by id, givens, a rating, or position within a collection, which have an index",
				cmp.Or(cq.Sort, "id"), s.o.PageTimeout)
		}
		return err
	})
	if err != nil {
		return view{}, err
	}
	var total *int64
	if counts {
		n := cube.Total(f)
		total = &n
	}
	d := puzzlesData{Filter: map[string]string{}, Sort: cq.Sort, Desc: cq.Desc, Rows: page.Rows, Next: page.Next, Total: total,
		Facets: []facetView{}}
	if counts {
		d.CountedAt = counted.UTC().Format(time.RFC3339)
	}
	if d.Sort == "" {
		d.Sort = "id"
	}
	if d.Rows == nil {
		d.Rows = []db.CatalogRow{}
	}
	for k := range q {
		if k != "sort" && k != "desc" && k != "next" && k != "size" {
			d.Filter[k] = q.Get(k)
		}
	}
	if page.Next != "" {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("next", page.Next)
		d.NextURL = "/puzzles?" + v.Encode()
	}
	if cq.After != "" {
		d.FirstURL = with(q)
	}
	if len(d.Filter) > 0 {
		keep := url.Values{}
		for _, k := range []string{"sort", "desc", "size"} {
			if q.Has(k) {
				keep.Set(k, q.Get(k))
			}
		}
		d.ClearURL = with(keep)
	}
	if counts {
		for _, fc := range cube.Facets(f) {
			d.Facets = append(d.Facets, facetOf(fc, q))
		}
	}
	raters := map[string]bool{}
	for _, row := range d.Rows {
		for r := range row.Ratings {
			raters[r] = true
		}
	}
	if r, ok := strings.CutPrefix(d.Sort, "rating:"); ok {
		raters[r] = true // the column sorted by, even when this page has none of its ratings
	}
	for r := range raters {
		d.Raters = append(d.Raters, r)
	}
	slices.Sort(d.Raters)
	d.Headers = headers(q, d.Sort, d.Desc, d.Raters)
	return view{Template: "puzzles", Title: "Puzzles", Data: d}, nil
}

// facetOf is the view of facet fc under the query q.
func facetOf(fc db.Facet, q url.Values) facetView {
	param := facetParam(fc.Name)
	fv := facetView{Name: fc.Name, Title: facetTitle(fc.Name)}
	cur := q.Get(param)
	if cur != "" || fc.Name == "collection" && q.Get("nocollection") == "1" {
		fv.ClearURL = with(q, param, "", "nocollection", "")
	}
	for _, v := range fc.Values {
		vv := facetValueView{FacetValue: v}
		switch {
		case v.Null:
			vv.URL = with(q, "collection", "", "nocollection", "1")
			vv.Selected = q.Get("nocollection") == "1"
		case fc.Name == "collection":
			vv.URL = with(q, "collection", v.Value, "nocollection", "")
			vv.Selected = cur == v.Value
		default:
			vv.URL = with(q, param, v.Value)
			vv.Selected = cur == v.Value
		}
		fv.Values = append(fv.Values, vv)
	}
	if fv.Values == nil {
		fv.Values = []facetValueView{}
	}
	return fv
}

func facetTitle(name string) string {
	switch name {
	case "count":
		return "solutions"
	case "shape":
		return "box shape"
	}
	if rater, ok := strings.CutPrefix(name, "level:"); ok {
		return rater + " level"
	}
	return name
}

// headers are the table's column heads with their sort links.
func headers(q url.Values, sort string, desc bool, raters []string) []header {
	cols := [][2]string{{"id", "id"}, {"collection", "collection"}, {"label", "label"}, {"position", "#"},
		{"givens", "givens"}, {"size", "size"}, {"solution_count", "solutions"}}
	for _, r := range raters {
		cols = append(cols, [2]string{"rating:" + r, r})
	}
	out := make([]header, len(cols))
	for i, c := range cols {
		h := header{Title: c[1], URL: with(q, "sort", c[0], "desc", "")}
		if c[0] == sort {
			h.Arrow = "▲"
			if desc {
				h.Arrow = "▼"
			} else {
				h.URL = with(q, "sort", c[0], "desc", "1")
			}
		}
		out[i] = h
	}
	return out
}
