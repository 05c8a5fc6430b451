// Package web is the lab's web interface (`sudokulab serve`): pages over
// the database for curators and researchers, each also served as JSON, with
// the templates, stylesheet and script carried in the binary (go:embed), so
// a page makes no outside request.
//
// Every page is a GET whose URL holds all it shows (filters, sort, page
// token, query), so a URL can be shared and scripted; the same path with
// ".json" (or a request that accepts application/json before text/html)
// returns the page's data as JSON. The pages only read: the database is
// opened read-only by the caller, and the SQL console runs statements
// through db.DB.ConsoleQuery, the checks and read-only connection of the
// `sql` command. Given a writer as well (Options.Writer, serve --write),
// the server adds the curation forms of write.go, POSTs guarded against
// cross-site request forgery (csrf.go).
package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/url"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/queries"
	"sudokulab/raters"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options adjust a Server; the zero value serves with the defaults.
type Options struct {
	// Version is the code version the home page shows.
	Version string
	// ConsoleTimeout bounds each statement of the SQL console; 0 means
	// DefaultConsoleTimeout. A request may ask for less (timelimit).
	ConsoleTimeout time.Duration
	// PageTimeout bounds the reading of a page of the puzzle table; 0
	// means DefaultPageTimeout. A sort on a column without an index reads
	// every row of the filter (seconds for a million): past the limit the
	// page says to filter first or sort by another column.
	PageTimeout time.Duration
	// PathTimeout bounds the finding of a solution path for the path
	// page; 0 means DefaultPathTimeout. A path cut short shows the steps
	// found, and says so.
	PathTimeout time.Duration
	// FacetsLag is how long what pages compute from whole tables (the
	// puzzle table's facet counts, the lab's sizes, an experiment's
	// success table) may lag behind a database that changes; 0 means
	// DefaultFacetsLag, a negative value none (they are computed again
	// after every change).
	FacetsLag time.Duration
	// Solvers describe the registered solvers for the experiments'
	// success tables (report.Options.Solvers).
	Solvers []sudokulab.SolverInfo
	// ErrorLog receives the errors behind the 500 pages (the browser
	// sees no detail); nil discards them.
	ErrorLog io.Writer
	// Writer, when not nil, is the lab opened for writing (serve
	// --write): the pages then have the curation forms (write.go), which
	// write through it. Nil: the server only reads, and has no POST route.
	Writer *db.DB
	// Raters make the rates the curation forms start; nil means
	// raters.Default().
	Raters *raters.Registry
	// CannedTimeout bounds a canned query of the SQL console whose
	// result the page did not wait for, computed in the background; 0
	// means DefaultCannedTimeout, the limit `sudokulab query` has.
	CannedTimeout time.Duration
	// MaxSelection bounds the rows a curation form takes from the puzzle
	// table; 0 means DefaultMaxSelection.
	MaxSelection int
}

// DefaultConsoleTimeout is the time limit of a console statement when
// Options leave it zero, Datasette's default. DefaultCannedTimeout,
// DefaultFacetsLag, DefaultPageTimeout and DefaultPathTimeout are
// Options.CannedTimeout's, FacetsLag's, PageTimeout's and PathTimeout's.
const (
	DefaultConsoleTimeout = time.Second
	DefaultCannedTimeout  = db.DefaultStatementTimeout // as sudokulab query's
	DefaultFacetsLag      = 5 * time.Second
	DefaultPageTimeout    = 5 * time.Second
	DefaultPathTimeout    = 10 * time.Second
)

// DefaultMemoryLimit is the soft limit of the Go runtime's memory that
// `sudokulab serve` sets (runtime/debug.SetMemoryLimit) unless GOMEMLIMIT
// or its --memory-limit says otherwise: issue 33's goal keeps the server
// under 200 MB, and the catalog index's reading (some 120 MB allocated
// for a million puzzles, 35 MB kept) let the default GOGC grow the heap
// to twice what it holds. SQLite's page caches are outside it.
const DefaultMemoryLimit = 150 << 20

// consoleMaxRows bounds the rows the console reads of a result.
const consoleMaxRows = 1000

// Server serves the pages of one lab. It is an http.Handler.
type Server struct {
	db      *db.DB
	o       Options
	log     *log.Logger
	pages   map[string]*template.Template
	queries []queries.Query
	mux     *http.ServeMux
	paths   *pathCache
	// watch tells when the database changed; kept holds what pages
	// compute from whole tables while it did not.
	watch *db.ChangeWatch
	kept  *keeper
	// cannedSlot is held by the canned query computed in the
	// background.
	cannedSlot chan struct{}
	// cur is nil on a server that only reads.
	cur *curation
	// figureDrawn, when not nil, is told of each picture drawn (tests).
	figureDrawn func(figures.Request)
}

// New returns a Server over d, which the caller opened (read-only for a
// server that only reads) and closes after the server's Close.
func New(ctx context.Context, d *db.DB, o Options) (*Server, error) {
	if o.ConsoleTimeout <= 0 {
		o.ConsoleTimeout = DefaultConsoleTimeout
	}
	if o.CannedTimeout <= 0 {
		o.CannedTimeout = DefaultCannedTimeout
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = DefaultPageTimeout
	}
	if o.PathTimeout <= 0 {
		o.PathTimeout = DefaultPathTimeout
	}
	if o.FacetsLag == 0 {
		o.FacetsLag = DefaultFacetsLag
	}
	if o.ErrorLog == nil {
		o.ErrorLog = io.Discard
	}
	if o.MaxSelection <= 0 {
		o.MaxSelection = DefaultMaxSelection
	}
	qs, err := queries.All()
	if err != nil {
		return nil, err
	}
	s := &Server{db: d, o: o, log: log.New(o.ErrorLog, "serve: ", log.LstdFlags), queries: qs, mux: http.NewServeMux(),
		paths: newPathCache(), cannedSlot: make(chan struct{}, 1)}
	if s.pages, err = parsePages(); err != nil {
		return nil, err
	}
	if s.watch, err = d.WatchChanges(ctx); err != nil {
		return nil, err
	}
	s.kept = newKeeper(s.watch, o.FacetsLag)
	if o.Writer != nil {
		if s.cur, err = newCuration(o); err != nil {
			return nil, err
		}
	}
	s.routes()
	return s, nil
}

// Close ends the rates and the computations (facet counts, solution paths
// and the like) under way, if any, waits for them, and releases what the
// server holds of the database.
func (s *Server) Close() error {
	s.stopWrites()
	s.paths.close()
	s.kept.close()
	return s.watch.Close()
}

func (s *Server) routes() {
	static, _ := fs.Sub(staticFS, "static")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.Handle("GET /{$}", s.page(s.home))
	s.mux.Handle("GET /puzzles", s.page(s.puzzles))
	s.mux.Handle("GET /puzzles/{id}", s.page(s.puzzle))
	s.mux.HandleFunc("GET /puzzles/{id}/grid.svg", s.puzzleSVG)
	s.mux.Handle("GET /puzzles/{id}/path", s.page(s.path))
	s.mux.Handle("GET /collections", s.page(s.collections))
	s.mux.Handle("GET /collections/{name}", s.page(s.collection))
	s.mux.Handle("GET /experiments", s.page(s.experiments))
	s.mux.Handle("GET /experiments/{name}", s.page(s.experiment))
	s.mux.Handle("GET /experiments/{name}/progress", s.page(s.progress))
	s.mux.HandleFunc("GET /experiments/{name}/events", s.progressEvents)
	s.mux.Handle("GET /experiments/{name}/compare", s.page(s.compare))
	for _, f := range experimentFigures {
		s.mux.HandleFunc("GET /experiments/{name}/"+f.Kind+".svg", s.figureHandler(f))
	}
	s.mux.Handle("GET /runs/{id}", s.page(s.run))
	s.mux.HandleFunc("GET /runs/{id}/trajectory.svg", s.trajectorySVG)
	s.mux.Handle("GET /sql", s.page(s.console))
	s.mux.HandleFunc("GET /sql.csv", s.consoleCSV)
	s.curationRoutes()
}

// contentPolicy allows nothing from elsewhere: styles, scripts, pictures
// and fetches from the server itself, no inline script or style, no
// frames, forms posting only here.
const contentPolicy = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// ServeHTTP serves a request: the security headers on every answer, and a
// path ending in ".json" as the page without it, answered in JSON.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	// same-origin, not no-referrer: a browser sends "Origin: null" with
	// the POSTs of a no-referrer page, and the CSRF check reads Origin.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	if esc, ok := strings.CutSuffix(r.URL.EscapedPath(), ".json"); ok {
		if esc == "/index" {
			esc = "/"
		}
		// The escaped path keeps a name's escaped '/' in its segment.
		p, err := url.PathUnescape(esc)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		r2 := r.Clone(context.WithValue(r.Context(), jsonKey{}, true))
		r2.URL.Path, r2.URL.RawPath = p, esc
		r = r2
	}
	s.mux.ServeHTTP(w, r)
}

type jsonKey struct{}

// wantsJSON tells whether the request asks for JSON: a ".json" path, or an
// Accept header that names application/json and not text/html.
func wantsJSON(r *http.Request) bool {
	if v, _ := r.Context().Value(jsonKey{}).(bool); v {
		return true
	}
	a := r.Header.Get("Accept")
	return strings.Contains(a, "application/json") && !strings.Contains(a, "text/html")
}

// view is what a page handler returns: the template and title of its
// HTML, and its data, which is also its JSON.
type view struct {
	Template string
	Title    string
	Data     any
	// Refresh, when not zero, makes the browser load the page again
	// after that many seconds (a result being computed).
	Refresh int
	// Redirect, when not empty, is where the page is (a 302 there).
	Redirect string
}

// page turns a page handler into an http.Handler that writes its HTML or
// JSON, or the error page.
func (s *Server) page(fn func(r *http.Request) (view, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if v.Redirect != "" {
			http.Redirect(w, r, v.Redirect, http.StatusFound)
			return
		}
		if wantsJSON(r) {
			writeJSON(w, http.StatusOK, v.Data)
			return
		}
		s.render(w, r, http.StatusOK, v)
	})
}

func writeJSON(w http.ResponseWriter, status int, data any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(data)
}

// layoutData is what the layout template reads.
type layoutData struct {
	Title  string
	Path   string
	Data   any
	Writes bool
	// Panel is what the layout shows below the content (write.go).
	Panel *panel
	// Refresh is view.Refresh.
	Refresh int
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, v view) {
	t, ok := s.pages[v.Template]
	if !ok {
		s.fail(w, r, fmt.Errorf("web: no template %q", v.Template))
		return
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, "layout", layoutData{Title: v.Title, Path: r.URL.Path, Data: v.Data,
		Writes: s.cur != nil, Panel: s.panelOf(w, r, status), Refresh: v.Refresh}); err != nil {
		s.fail(w, r, fmt.Errorf("web: template %s: %w", v.Template, err))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, b.String())
}

// errorData is the error page's data and JSON.
type errorData struct {
	Status  int    `json:"status"`
	Message string `json:"error"`
}

// fail answers with the error: a *sudokulab.Error's message and the status
// of its code; for anything else a 500 with no detail (the detail goes to
// the error log).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := http.StatusInternalServerError, "internal error (the server's log says more)"
	var se *sudokulab.Error
	switch {
	case errors.As(err, &se) && se.Code == sudokulab.ENOTFOUND:
		status, msg = http.StatusNotFound, err.Error()
	case errors.As(err, &se) && se.Code != sudokulab.EINTERNAL:
		status, msg = http.StatusBadRequest, err.Error()
	case errors.Is(err, context.Canceled):
		return // the client went away
	default:
		s.log.Printf("%s %s: %v", r.Method, r.URL, err)
	}
	data := errorData{Status: status, Message: msg}
	if wantsJSON(r) {
		writeJSON(w, status, data)
		return
	}
	s.render(w, r, status, view{Template: "error", Title: http.StatusText(status), Data: data})
}

// notFound is the ENOTFOUND error for a path naming nothing.
func notFound(format string, args ...any) error {
	return sudokulab.Errorf(sudokulab.ENOTFOUND, format, args...)
}

// parsePages parses each page template with the layout.
func parsePages() (map[string]*template.Template, error) {
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/*partials.html")
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if name == "layout" || strings.HasSuffix(name, "partials") {
			continue
		}
		t, err := template.Must(layout.Clone()).ParseFS(templateFS, n)
		if err != nil {
			return nil, err
		}
		pages[name] = t
	}
	return pages, nil
}
