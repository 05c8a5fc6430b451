package report_test

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/report"
)

// TestInlineSVG reads testdata/svg: every *.svg is a picture InlineSVG
// takes, every *.bad.svg one it refuses, with the reason in the file's
// first line (<!-- want: reason -->).
func TestInlineSVG(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "svg", "*.svg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/svg: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			doc, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := report.InlineSVG(doc)
			if strings.HasSuffix(f, ".bad.svg") {
				first, _, _ := strings.Cut(string(doc), "\n")
				want := strings.TrimSuffix(strings.TrimPrefix(first, "<!-- want: "), " -->")
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error %v, want %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(got), "<svg") || !strings.HasSuffix(string(got), "</svg>") {
				t.Errorf("inline svg starts %.40q, ends %q", got, string(got)[max(0, len(got)-10):])
			}
		})
	}
}

// FuzzInlineSVG checks that whatever InlineSVG accepts is one <svg>
// element without a script, which it accepts again unchanged.
func FuzzInlineSVG(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "svg", "*.svg"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`<svg><a xlink:href="javascript:alert(1)"/></svg>`))
	f.Add([]byte(`<svg><style>rect { fill: url( "http://x/y") }</style></svg>`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, err := report.InlineSVG(doc)
		if err != nil {
			return
		}
		s := string(got)
		if !strings.HasPrefix(s, "<svg") {
			t.Fatalf("accepted %q as %q", doc, s)
		}
		d := xml.NewDecoder(strings.NewReader(s))
		for {
			tok, err := d.Token()
			if err != nil {
				break
			}
			if e, ok := tok.(xml.StartElement); ok {
				if strings.EqualFold(e.Name.Local, "script") {
					t.Fatalf("accepted a script: %q", doc)
				}
				for _, a := range e.Attr {
					if strings.Contains(strings.ToLower(a.Value), "javascript:") {
						t.Fatalf("accepted %s=%q: %q", a.Name.Local, a.Value, doc)
					}
				}
			}
		}
		again, err := report.InlineSVG([]byte(got))
		if err != nil || again != got {
			t.Fatalf("accepted %q, then not its own output %q: %v", doc, got, err)
		}
	})
}
