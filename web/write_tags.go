package web

// The tag pages: every tag with its number of puzzles, and the puzzles of
// one tag. They read, so every server has them; tags are made on a server
// that writes (serve --write) or with SQL (table puzzle_tags).

import (
	"net/http"
	"net/url"
	"strings"

	"sudokulab/db"
)

// maxTagged bounds the puzzles a tag's page lists.
const maxTagged = 1000

func (s *Server) tags(r *http.Request) (view, error) {
	ts, err := db.ListTags(r.Context(), s.db)
	if err != nil {
		return view{}, err
	}
	t := table{Columns: []string{"tag", "puzzles", "last_added"}, Rows: [][]any{}, Links: map[string]string{"tag": "/tags/"}}
	for _, c := range ts {
		t.Rows = append(t.Rows, []any{c.Tag, c.Puzzles, db.FormatTime(c.LastAdded)})
	}
	return view{Template: "tags", Title: "Tags", Data: t}, nil
}

// tagData is a tag's page.
type tagData struct {
	Tag     string         `json:"tag"`
	Puzzles []db.PuzzleTag `json:"puzzles"`
	// More is true when the tag has more than the puzzles listed.
	More bool `json:"more"`
	// SQL is a console URL selecting the tag's rows of puzzle_catalog;
	// PuzzlesURL the puzzle table filtered by the tag.
	SQL        string `json:"sql_url"`
	PuzzlesURL string `json:"puzzles_url"`
}

func (s *Server) tag(r *http.Request) (view, error) {
	tag := r.PathValue("tag")
	ps, err := db.TaggedPuzzles(r.Context(), s.db, tag, maxTagged+1)
	if err != nil {
		return view{}, err
	}
	if len(ps) == 0 {
		return view{}, notFound("no puzzle has the tag %q (the tags are at /tags)", tag)
	}
	d := tagData{Tag: tag, Puzzles: ps}
	if len(ps) > maxTagged {
		d.Puzzles, d.More = ps[:maxTagged], true
	}
	q := "SELECT * FROM puzzle_catalog WHERE id IN (SELECT puzzle_id FROM puzzle_tags WHERE tag = '" +
		strings.ReplaceAll(tag, "'", "''") + "') ORDER BY id"
	d.SQL = "/sql?" + url.Values{"sql": {q}}.Encode()
	d.PuzzlesURL = with(url.Values{}, "tag", tag)
	return view{Template: "tag", Title: "Tag " + tag, Data: d}, nil
}
