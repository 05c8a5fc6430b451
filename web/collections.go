package web

import (
	"net/http"
	"net/url"

	"sudokulab/db"
)

func (s *Server) collections(r *http.Request) (view, error) {
	cs, err := db.ListCollections(r.Context(), s.db)
	if err != nil {
		return view{}, err
	}
	t := table{Columns: []string{"name", "puzzles", "frozen", "created_at", "description"}, Rows: [][]any{},
		Links: map[string]string{"name": "/collections/"}}
	for _, c := range cs {
		t.Rows = append(t.Rows, []any{c.Name, int64(c.Puzzles), c.Frozen, db.FormatTime(c.CreatedAt), c.Description})
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
	Puzzles     int    `json:"puzzles"`
	Imports     table  `json:"imports"`
	PuzzlesURL  string `json:"puzzles_url"`
}

func (s *Server) collection(r *http.Request) (view, error) {
	ctx := r.Context()
	c, err := db.GetCollection(ctx, s.db, r.PathValue("name"))
	if err != nil {
		return view{}, err
	}
	imports, err := db.ImportTable(ctx, s.db, c.Name)
	if err != nil {
		return view{}, err
	}
	d := collectionData{Name: c.Name, Description: c.Description, Frozen: c.Frozen, CreatedAt: db.FormatTime(c.CreatedAt),
		Puzzles: c.Puzzles, Imports: tableOf(imports),
		PuzzlesURL: "/puzzles?" + url.Values{"collection": {c.Name}, "sort": {"position"}}.Encode()}
	return view{Template: "collection", Title: "Collection " + c.Name, Data: d}, nil
}
