package web

// Curation (serve --write): forms on the puzzle pages that freeze the
// selection as a collection, put a tag on puzzles or take it off, and
// start a rate. Every write is a POST checked by the csrfGuard, made in
// one short transaction on Options.Writer, and answered by a redirect to
// what it made (303, so a reload does not send it again). A server without a Writer registers no
// POST route: the mux answers 405.

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/raters"
)

// DefaultMaxSelection is Options.MaxSelection's default.
const DefaultMaxSelection = 100_000

// maxFormBytes bounds the body of a POST.
const maxFormBytes = 1 << 20

// curation is what a server that writes holds besides the reader.
type curation struct {
	w      *db.DB
	guard  *csrfGuard
	raters *raters.Registry
	jobs   rateJobs
}

func newCuration(o Options) (*curation, error) {
	g, err := newCSRFGuard()
	if err != nil {
		return nil, err
	}
	return &curation{w: o.Writer, guard: g, raters: cmp.Or(o.Raters, raters.Default())}, nil
}

// curationRoutes adds the tag pages, which read, and, on a server that
// writes, the rate pages and the POST routes.
func (s *Server) curationRoutes() {
	s.mux.Handle("GET /tags", s.page(s.tags))
	s.mux.Handle("GET /tags/{tag}", s.page(s.tag))
	if s.cur == nil {
		return
	}
	s.mux.Handle("GET /rates", s.page(s.rates))
	s.mux.Handle("GET /rates/{id}", s.page(s.rate))
	s.mux.Handle("POST /puzzles/freeze", s.write(s.freezeSelection))
	s.mux.Handle("POST /puzzles/tag", s.write(s.tagSelection))
	s.mux.Handle("POST /puzzles/untag", s.write(s.untagSelection))
	s.mux.Handle("POST /puzzles/rate", s.write(s.rateSelection))
	s.mux.Handle("POST /puzzles/{id}/tags", s.write(s.tagPuzzle))
	s.mux.Handle("POST /puzzles/{id}/untag", s.write(s.untagPuzzle))
	s.mux.Handle("POST /rates/{id}/stop", s.write(s.stopRate))
}

// write turns a write handler, which returns where to go next, into an
// http.Handler that parses the form, refuses it with 403 without a good
// CSRF token, and answers with a redirect (or, asked for JSON, with
// {"location": ...}).
func (s *Server) write(fn func(r *http.Request) (string, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			s.fail(w, r, sudokulab.Errorf(sudokulab.EINVALID, "form: %v", err))
			return
		}
		if err := s.cur.guard.check(r); err != nil {
			s.refuse(w, r, http.StatusForbidden, err.Error())
			return
		}
		to, err := fn(r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if wantsJSON(r) {
			writeJSON(w, http.StatusOK, map[string]string{"location": to})
			return
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
	})
}

// refuse answers with status and msg, as the error page or JSON.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	data := errorData{Status: status, Message: msg}
	if wantsJSON(r) {
		writeJSON(w, status, data)
		return
	}
	s.render(w, r, status, view{Template: "error", Title: http.StatusText(status), Data: data})
}

// selectionQuery returns the query string of /puzzles a form names in its
// field "selection", and the catalog query it makes (every row, in its
// order: the page token and size are dropped).
func selectionQuery(r *http.Request) (url.Values, db.CatalogQuery, error) {
	q, err := url.ParseQuery(r.PostForm.Get("selection"))
	if err != nil {
		return nil, db.CatalogQuery{}, sudokulab.Errorf(sudokulab.EINVALID, "selection %q: %v", r.PostForm.Get("selection"), err)
	}
	q.Del("next")
	q.Del("size")
	f, err := filterOf(q)
	if err != nil {
		return nil, db.CatalogQuery{}, err
	}
	return q, db.CatalogQuery{Filter: f, Sort: q.Get("sort"), Desc: q.Get("desc") == "1"}, nil
}

// selection reads the puzzles of the form's selection, in its order, at
// most Options.MaxSelection rows, in one read transaction of the reader.
func (s *Server) selection(ctx context.Context, r *http.Request) (url.Values, []db.FrozenMember, error) {
	q, cq, err := selectionQuery(r)
	if err != nil {
		return nil, nil, err
	}
	var sel []db.FrozenMember
	err = s.db.Snapshot(ctx, func(tx *sqlx.Tx) error {
		cat, err := db.NewCatalog(ctx, tx)
		if err != nil {
			return err
		}
		sel, err = cat.Selection(ctx, cq, s.o.MaxSelection)
		return err
	})
	return q, sel, err
}

// memberIDs returns the puzzles of sel.
func memberIDs(sel []db.FrozenMember) []int64 {
	ids := make([]int64, len(sel))
	for i, m := range sel {
		ids[i] = m.PuzzleID
	}
	return ids
}

// freezeSelection makes the selection a frozen collection, as
// `sudokulab collections add` does, and goes to its page.
func (s *Server) freezeSelection(r *http.Request) (string, error) {
	ctx := r.Context()
	name := strings.TrimSpace(r.PostForm.Get("name"))
	if err := sudokulab.CheckName("collection name", name); err != nil {
		return "", sudokulab.WrapError(sudokulab.EINVALID, err, "freeze")
	}
	// Said here as the page would say it (the freeze refuses it too, in
	// its transaction, with the command line's words).
	if _, err := db.GetCollection(ctx, s.db, name); err == nil {
		return "", sudokulab.Errorf(sudokulab.ECONFLICT, "collection %s exists: choose another name", name)
	}
	q, sel, err := s.selection(ctx, r)
	if err != nil {
		return "", err
	}
	desc := strings.TrimSpace(r.PostForm.Get("description"))
	if desc == "" {
		desc = "frozen from " + with(q) + " by sudokulab serve"
	}
	if _, err := s.cur.w.FreezeSelection(ctx, name, desc, sel); err != nil {
		return "", err
	}
	return "/collections/" + url.PathEscape(name), nil
}

// formTag returns the form's tag, trimmed and checked.
func formTag(r *http.Request) (string, error) {
	tag := strings.TrimSpace(r.PostForm.Get("tag"))
	return tag, db.CheckTag(tag)
}

// selectedTag returns the form's tag (formTag) and the puzzles of its
// selection.
func (s *Server) selectedTag(r *http.Request) (string, []int64, error) {
	tag, err := formTag(r)
	if err != nil {
		return "", nil, err
	}
	_, sel, err := s.selection(r.Context(), r)
	return tag, memberIDs(sel), err
}

// tagSelection tags every puzzle of the selection and goes to the tag's
// page.
func (s *Server) tagSelection(r *http.Request) (string, error) {
	tag, ids, err := s.selectedTag(r)
	if err != nil {
		return "", err
	}
	if _, err := s.cur.w.Tag(r.Context(), tag, ids); err != nil {
		return "", err
	}
	return "/tags/" + url.PathEscape(tag), nil
}

// untagSelection takes the tag off every puzzle of the selection that has
// it, and goes to the tag's page, or to the tags when no puzzle has it
// any more. A selection none of whose puzzles has the tag is an
// ENOTFOUND error.
func (s *Server) untagSelection(r *http.Request) (string, error) {
	ctx := r.Context()
	tag, ids, err := s.selectedTag(r)
	if err != nil {
		return "", err
	}
	n, err := s.cur.w.Untag(ctx, tag, ids)
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", notFound("no puzzle of the selection has the tag %q", tag)
	}
	left, err := db.TaggedPuzzles(ctx, s.cur.w, tag, 1)
	if err != nil {
		return "", err
	}
	if len(left) == 0 {
		return "/tags", nil
	}
	return "/tags/" + url.PathEscape(tag), nil
}

// formPuzzle returns the puzzle the path names, which must exist.
func (s *Server) formPuzzle(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return 0, notFound("no puzzle %q", r.PathValue("id"))
	}
	if _, err := db.GetPuzzle(r.Context(), s.db, id); err != nil {
		return 0, err
	}
	return id, nil
}

// tagPuzzle tags the puzzle of the path and goes back to its page.
func (s *Server) tagPuzzle(r *http.Request) (string, error) {
	id, err := s.formPuzzle(r)
	if err != nil {
		return "", err
	}
	tag, err := formTag(r)
	if err != nil {
		return "", err
	}
	if _, err := s.cur.w.Tag(r.Context(), tag, []int64{id}); err != nil {
		return "", err
	}
	return "/puzzles/" + strconv.FormatInt(id, 10), nil
}

// untagPuzzle takes a tag off the puzzle of the path and goes back to its
// page.
func (s *Server) untagPuzzle(r *http.Request) (string, error) {
	id, err := s.formPuzzle(r)
	if err != nil {
		return "", err
	}
	if _, err := s.cur.w.Untag(r.Context(), r.PostForm.Get("tag"), []int64{id}); err != nil {
		return "", err
	}
	return "/puzzles/" + strconv.FormatInt(id, 10), nil
}

// panel is what the layout shows below a page's content: the curation
// forms of a server that writes.
type panel struct {
	// Writes is true on a server that writes; Token is then the CSRF
	// token of the forms.
	Writes bool
	Token  string
	// Table is true on the puzzle table, whose query string is
	// Selection.
	Table     bool
	Selection string
	Raters    []string
	// Puzzle is the puzzle of a puzzle page, with its tags (to take off).
	Puzzle int64
	Tags   []db.PuzzleTag
	// Rate is the rate of a rate page that is running.
	Rate int
}

// panelOf returns the panel of the page r answered with status, or nil
// when it has none.
func (s *Server) panelOf(w http.ResponseWriter, r *http.Request, status int) *panel {
	if status != http.StatusOK {
		return nil
	}
	p := &panel{Writes: s.cur != nil}
	if p.Writes {
		p.Token = s.cur.guard.token(w, r)
	}
	switch r.Pattern {
	case "GET /puzzles":
		if !p.Writes {
			return nil
		}
		q := r.URL.Query()
		q.Del("next")
		q.Del("size")
		p.Table, p.Selection = true, q.Encode()
		p.Raters = append([]string{"all"}, s.cur.raters.Names()...)
	case "GET /puzzles/{id}":
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if err != nil || !p.Writes {
			return nil
		}
		p.Puzzle = id
		if p.Tags, err = db.PuzzleTags(r.Context(), s.db, id); err != nil {
			s.log.Printf("%s %s: tags: %v", r.Method, r.URL, err)
		}
	case "GET /rates/{id}":
		j := s.cur.jobs.get(r.PathValue("id"))
		if j == nil || !j.view().Running {
			return nil
		}
		p.Rate = j.id
	default:
		return nil
	}
	return p
}
