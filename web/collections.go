package web

import (
	"net/http"
	"net/url"
	"slices"

	"sudokulab"

	"sudokulab/db"
)

func (s *Server) collections(r *http.Request) (view, error) {
	cs, err := db.CollectionList(r.Context(), s.db)
	if err != nil {
		return view{}, err
	}
	cube, _, counted, err := s.facetCube(r.Context())
	if err != nil {
		return view{}, err
	}
	members := cube.Members()
	t := table{Columns: []string{"name", "puzzles", "frozen", "created_at", "description"}, Rows: [][]any{},
		Links: map[string]string{"name": "/collections/"}}
	for _, c := range cs {
		var n any // NULL while the first count is under way
		if counted {
			n = members[c.Name]
		}
		t.Rows = append(t.Rows, []any{c.Name, n, c.Frozen, db.FormatTime(c.CreatedAt), c.Description})
	}
	return view{Template: "collections", Title: "Collections", Data: t}, nil
}

// collectionData is a collection's page: where its puzzles come from (its
// description and the imports that filled it).
type collectionData struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Frozen      bool   `json:"frozen"`
	CreatedAt   string `json:"created_at"`
	Puzzles     *int64 `json:"puzzles"` // null while first counted
	Imports     table  `json:"imports"`
	PuzzlesURL  string `json:"puzzles_url"`
}

func (s *Server) collection(r *http.Request) (view, error) {
	ctx := r.Context()
	name := r.PathValue("name")
	cs, err := db.CollectionList(ctx, s.db)
	if err != nil {
		return view{}, err
	}
	i := slices.IndexFunc(cs, func(c sudokulab.Collection) bool { return c.Name == name })
	if i < 0 {
		return view{}, notFound("no collection %q", name)
	}
	c := cs[i]
	cube, _, counted, err := s.facetCube(ctx)
	if err != nil {
		return view{}, err
	}
	imports, err := db.ImportTable(ctx, s.db, c.Name)
	if err != nil {
		return view{}, err
	}
	d := collectionData{Name: c.Name, Description: c.Description, Frozen: c.Frozen, CreatedAt: db.FormatTime(c.CreatedAt),
		Imports:    tableOf(imports),
		PuzzlesURL: "/puzzles?" + url.Values{"collection": {c.Name}, "sort": {"position"}}.Encode()}
	if counted {
		n := cube.Members()[c.Name]
		d.Puzzles = &n
	}
	return view{Template: "collection", Title: "Collection " + c.Name, Data: d}, nil
}
