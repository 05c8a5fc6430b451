package web_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// envChromium set to "skip" switches the browser test off (as for the
// report's test): without Chromium it fails, saying how to install it.
const envChromium = "SUDOKULAB_TEST_CHROMIUM"

// browser starts a headless Chromium and returns a context for its tab
// and the problems it reported (console warnings and errors, exceptions,
// Content-Security-Policy violations, requests to another origin than
// origin), read after the pages are done.
func browser(t *testing.T, origin string) (context.Context, func() []string) {
	t.Helper()
	if os.Getenv(envChromium) == "skip" {
		t.Skipf("%s=skip: the pages are not checked in Chromium", envChromium)
	}
	found := false
	for _, name := range []string{"headless-shell", "chromium", "chromium-browser", "google-chrome"} {
		if _, err := exec.LookPath(name); err == nil {
			found = true
		}
	}
	if !found {
		t.Fatalf("no Chromium to check the pages in: run scripts/ensure-chromium, or set %s=skip", envChromium)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.DisableGPU, chromedp.WindowSize(1366, 768),
		chromedp.UserDataDir(t.TempDir()))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	var (
		mu       sync.Mutex
		problems []string
	)
	listen := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, fmt.Sprintf("console.%s: %v", e.Type, e.Args))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			if !strings.HasPrefix(e.Request.URL, origin+"/") && !strings.HasPrefix(e.Request.URL, "data:") {
				problems = append(problems, "a request elsewhere: "+e.Request.URL)
			}
		}
	}
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(listen))
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), problems...)
	}
}

// rendered is what a page shows in the browser.
type rendered struct {
	Tables, Rows, Pictures, Empty int
	Width                         float64
}

const measurePage = `(() => {
  const box = e => e.getBoundingClientRect();
  const pics = [...document.querySelectorAll("svg, img")].filter(e => !e.parentElement.closest("svg"));
  return {
    Tables: document.querySelectorAll("table").length,
    Rows: document.querySelectorAll("tbody tr").length,
    Pictures: pics.length,
    Empty: pics.filter(e => box(e).width <= 0 || box(e).height <= 0 || (e.tagName == "IMG" && !e.naturalWidth)).length,
    Width: document.documentElement.scrollWidth,
  };
})()`

// TestPagesInChromium loads every page kind in a headless Chromium: each
// renders its tables and pictures (an <img> only when its picture loaded),
// with no console error, no script error, no violation of the
// Content-Security-Policy and no request to another origin; the
// experiment page shows a change of its progress without a reload.
func TestPagesInChromium(t *testing.T) {
	l := newLab(t)
	ctx, problems := browser(t, l.srv.URL)
	run := l.count(t, `SELECT MIN(run_id) FROM trajectory_points`)
	pages := []struct {
		path             string
		tables, pictures int
	}{
		{"/", 2, 0},
		{"/puzzles", 1, 0},
		{"/puzzles?collection=sato-inoue-2010&sort=rating:se&desc=1", 1, 0},
		{"/puzzles/10", 3, 2},
		{"/puzzles/10/path?step=5", 0, 1},
		{"/collections", 1, 0},
		{"/collections/paper-puzzles", 1, 0},
		{"/experiments", 1, 0},
		{"/experiments/example-samples", 4, 1},
		{"/experiments/example-samples/compare?a=acs-eq1&b=franco-table3", 1, 0},
		{fmt.Sprintf("/runs/%d", run), 0, 2},
		{"/sql?sql=SELECT+*+FROM+puzzle_catalog", 1, 0},
		{"/sql?query=collection-summary", 1, 0},
	}
	for _, p := range pages {
		tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := chromedp.Do(tctx, chromedp.Navigate(l.srv.URL+p.path))
		var got rendered
		if err == nil {
			got, err = chromedp.Run(tctx, chromedp.Evaluate[rendered](measurePage))
		}
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", p.path, err)
		}
		if got.Tables < p.tables || p.tables > 0 && got.Rows == 0 || got.Pictures < p.pictures || got.Empty > 0 {
			t.Errorf("%s: %+v, want at least %d tables with rows and %d pictures, none empty", p.path, got, p.tables, p.pictures)
		}
		if got.Width > 1366 {
			t.Errorf("%s: the page is %.0f px wide in a 1366 px window", p.path, got.Width)
		}
	}
	// On the experiment page, open, a worker claims two items.
	if err := chromedp.Do(ctx, chromedp.Navigate(l.srv.URL+"/experiments/example-samples")); err != nil {
		t.Fatal(err)
	}
	l.exec(t, `UPDATE work SET state = 'running', worker = 'h:1:x', lease_until = '2999-01-01T00:00:00.000Z', run_id = NULL
		WHERE id IN (SELECT id FROM work ORDER BY id LIMIT 2)`)
	start := time.Now()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	running, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const e = document.querySelector('[data-total="running"]'); return e && e.textContent === "2" ? e.textContent : null; })()`,
		chromedp.WithPollingInterval(100*time.Millisecond)))
	if err != nil || running != "2" {
		t.Errorf("the open experiment page did not show the two running items: %q %v", running, err)
	}
	t.Logf("the open page showed the change after %s", time.Since(start).Round(10*time.Millisecond))
	for _, p := range problems() {
		t.Errorf("Chromium: %s", p)
	}
}
