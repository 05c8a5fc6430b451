package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeDrawsAsPlot fetches pictures of the experiment page, with
// their defaults and with settings in the query, and wants the very file
// `sudokulab plot KIND --experiment NAME FLAGS -o FILE.svg` writes, on the
// same lab, FLAGS the command line the page gives for it.
func TestServeDrawsAsPlot(t *testing.T) {
	url, _, stop := startServe(t, "--addr", "127.0.0.1:0")
	defer stop()
	dir := t.TempDir()
	lab := copyExample(t, dir)
	cases := []struct{ kind, query, flags string }{
		{"success", "", ""},
		{"ecdf", "", ""},
		{"convergence", "", ""},
		{"ert", "", ""},
		{"aggecdf", "", ""},
		{"success", "by=collection&level=0.9&top=3", "--top 3 --by=collection --level=0.9"},
		{"ecdf", "config=exact&config=acs-eq1&x=cpu&resamples=50", "--config exact --config acs-eq1 --x=cpu --resamples=50"},
		{"convergence", "config=acs-eq1&log-y=true&panels=none&quantiles=0.1,0.9&x=evaluations",
			"--config acs-eq1 --x=evaluations --log-y=true --panels=none --quantiles=0.1,0.9"},
		{"ert", "log-y=false&x=generations", "--x=generations --log-y=false"},
		{"cd", "config=exact&config=acs-eq1&config=lewis-sa-2007&measure=par&par-k=2&time=cpu&alpha=0.1",
			"--config exact --config acs-eq1 --config lewis-sa-2007 --measure=par --time=cpu --par-k=2 --alpha=0.1"},
		{"profile", "config=exact&config=acs-eq1&measure=ert", "--config exact --config acs-eq1 --measure=ert"},
		{"aggecdf", "top=4&x=seconds", "--top 4 --x=seconds"},
	}
	for i, c := range cases {
		out := filepath.Join(dir, fmt.Sprintf("%d-%s.svg", i, c.kind))
		args := append([]string{"--db", lab, "plot", c.kind, "--experiment", "example-samples"}, strings.Fields(c.flags)...)
		if _, errOut, code := run(t, append(args, "-o", out)...); code != 0 {
			t.Fatalf("plot %s %s: exit %d: %s", c.kind, c.flags, code, errOut)
		}
		want, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		path := "experiments/example-samples/" + c.kind + ".svg"
		if c.query != "" {
			path += "?" + c.query
		}
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" {
			t.Errorf("%s: %d %s: %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), got)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not the picture of plot %s %s (%d bytes, plot's %d)", path, c.kind, c.flags, len(got), len(want))
		}
	}
}
