package main

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/runner"
	"sudokulab/web"
)

type serveOptions struct {
	*options
	addr           string
	open           bool
	consoleTimeout time.Duration
	cannedTimeout  time.Duration
	write          bool
	memoryLimitMiB int64
}

// defaultServeAddr is where serve listens unless --addr says otherwise:
// this machine only.
const defaultServeAddr = "127.0.0.1:8080"

func newServeCmd(opts *options) *cobra.Command {
	o := &serveOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--open] [--write]",
		Short: "Serve the lab as web pages (and JSON) to a browser",
		Long: `serve opens the database read-only and serves the lab in a browser: the
lab's size and recent imports and experiments; the puzzles of puzzle_catalog
with facets (collection, box shape, givens, solution count, each rater's
level) and counts per value, sorted by any column or rating, a page at a
time; each puzzle drawn with its solution, its ratings side by side, its
collections, the puzzles equal to it up to symmetry, its runs, and its
solution path step by step (candidates, placements, eliminations); the
experiments with their progress per configuration (pending, running,
lapsed, done, hosts), updated every second without reloading, and
their success and ERT with intervals; each run with its configuration,
budget, seed, outcome, trajectory plot and final grid; and a SQL console
with the canned queries as forms.

Every page's URL holds what it shows (filters, sort, page, statement), and
the same path with .json added returns its data as JSON. The console runs
statements as sql without --write does (the same read-only connection and
checks), each within --console-timeout; CSV and JSON downloads keep the
first 1000 rows. A canned query's result is kept while the lab is
unchanged; one that takes longer than --console-timeout is computed in the
background, within --canned-timeout, and its page reloads itself until it
is there. Everything the pages need is in the binary: no request
leaves the machine.

serve listens on 127.0.0.1 (this machine only) unless --addr names another
address, which prints a warning: the pages show everything the lab holds,
to anyone who can reach the port. Ctrl-C stops it.

--write adds curation (docs/web.md): forms on the puzzle table freeze its
selection, in its order, as a collection (as collections add does), tag its
puzzles, or start a rate of them in the background (as rate does); a
puzzle's page adds or removes its tags. Every write is a POST carrying the
page's token; the pages and the console still read through a read-only
connection.

The server asks the Go runtime to keep its memory under --memory-limit
(150 MiB by default; GOMEMLIMIT, when set, replaces the default), collecting
garbage more often near it rather than growing past it.`,
		Example: `  sudokulab serve
  sudokulab --db lab.db serve --addr 127.0.0.1:9000 --open
  curl -s 'http://127.0.0.1:8080/puzzles.json?collection=paper-puzzles&sort=givens'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", defaultServeAddr, "address to listen on, HOST:PORT (port 0 picks a free one)")
	f.BoolVar(&o.open, "open", false, "open the home page in the browser (xdg-open)")
	f.BoolVar(&o.write, "write", false, "allow curation: freeze a selection as a collection, tag puzzles, start a rate")
	f.DurationVar(&o.consoleTimeout, "console-timeout", web.DefaultConsoleTimeout, "time limit of each statement of the SQL console")
	f.DurationVar(&o.cannedTimeout, "canned-timeout", web.DefaultCannedTimeout, "time limit of a canned query of the console computed in the background")
	f.Int64Var(&o.memoryLimitMiB, "memory-limit", web.DefaultMemoryLimit>>20, "soft limit of the server's Go memory in MiB (runtime/debug.SetMemoryLimit; GOMEMLIMIT, when set, wins over the default); 0: none")
	return cmd
}

func runServe(ctx context.Context, cmd *cobra.Command, o *serveOptions) error {
	if o.memoryLimitMiB < 0 {
		return sudokulab.Errorf(sudokulab.EINVALID, "serve: --memory-limit %d: must be 0 (none) or more", o.memoryLimitMiB)
	}
	if os.Getenv("GOMEMLIMIT") == "" || cmd.Flags().Changed("memory-limit") {
		limit := int64(math.MaxInt64)
		if o.memoryLimitMiB > 0 {
			limit = o.memoryLimitMiB << 20
		}
		// Put back when serve returns, for a caller in the same process.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	wo := web.Options{Version: runner.CodeVersion(), ConsoleTimeout: o.consoleTimeout, CannedTimeout: o.cannedTimeout, Solvers: o.registry.All(), ErrorLog: cmd.ErrOrStderr()}
	mode := "read-only"
	if o.write {
		// Opened first: it migrates the schema the reader then reads.
		w, err := o.openWrite(ctx)
		if err != nil {
			return err
		}
		defer w.Close()
		wo.Writer, mode = w, "curation on"
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	srv, err := web.New(ctx, d, wo)
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "serve: --addr %s", o.addr)
	}
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: serving on %s, which other machines may reach: the pages show everything the lab holds\n", addr)
	}
	url := "http://" + addr.String() + "/"
	fmt.Fprintf(cmd.OutOrStdout(), "serving %s at %s (%s; Ctrl-C stops)\n", d.Path(), url, mode)
	if o.open {
		if err := exec.Command("xdg-open", url).Start(); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "serve: could not open a browser (%v); open %s\n", err, url)
		}
	}
	return srv.Serve(ctx, ln)
}
