package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// TestServeDrawsAsPlot fetches each picture of the experiment page and
// wants the very file `sudokulab plot KIND --experiment NAME -o FILE.svg`
// writes, on the same lab.
func TestServeDrawsAsPlot(t *testing.T) {
	url, _, stop := startServe(t, "--addr", "127.0.0.1:0")
	defer stop()
	dir := t.TempDir()
	lab := copyExample(t, dir)
	for _, kind := range []string{"success", "ecdf", "convergence", "ert"} {
		out := filepath.Join(dir, kind+".svg")
		if _, errOut, code := run(t, "--db", lab, "plot", kind, "--experiment", "example-samples", "-o", out); code != 0 {
			t.Fatalf("plot %s: exit %d: %s", kind, code, errOut)
		}
		want, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(url + "experiments/example-samples/" + kind + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" {
			t.Errorf("%s.svg: %d %s: %s", kind, resp.StatusCode, resp.Header.Get("Content-Type"), got)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.svg is not the picture of plot %s (%d bytes, plot's %d)", kind, kind, len(got), len(want))
		}
	}
}
