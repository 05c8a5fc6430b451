package importers

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sudokulab"
)

// StoredRecord is a stored puzzle as a Record for an encoder: its givens
// and solution, its label, collection and source line in m, its metadata
// (a JSON object: string values as they are, others as JSON text), its
// ratings with a number or a label (a value NULL as NaN, a label alone
// as the se rater's "partial" kept), and its tags (sorted).
func StoredRecord(p sudokulab.Puzzle, m sudokulab.Membership, ratings []sudokulab.Rating, tags []string) (Record, error) {
	r := Record{Grid: p.Givens, Solution: p.Solution, Label: m.Label, Collection: m.Collection, Line: m.SourceLine,
		Tags: slices.Sorted(slices.Values(tags))}
	if len(tags) == 0 {
		r.Tags = nil
	}
	if m.Metadata != "" {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(m.Metadata), &raw); err != nil {
			return r, fmt.Errorf("puzzle %d: metadata: %w", p.ID, err)
		}
		r.Metadata = make(map[string]string, len(raw))
		for k, v := range raw {
			var s string
			if json.Unmarshal(v, &s) != nil {
				s = string(v)
			}
			r.Metadata[k] = s
		}
	}
	for _, x := range ratings {
		v := math.NaN()
		if x.Value != nil {
			v = *x.Value
		} else if x.Label == "" {
			continue // neither number nor label: nothing a file's rating holds
		}
		r.Ratings = append(r.Ratings, Rating{Rater: x.Rater, Value: v, Label: x.Label})
	}
	return r, nil
}

// EncodeFiles writes each record to a file of its own in dir (created if
// needed), for formats of one puzzle per file: named after the record's
// label made safe, or puzzle-ID (ids[i] is record i's puzzle id) when the
// label gives no name or one already used, with the format's first
// extension. It returns how many files it wrote; an error is EINVALID.
func (f *Format) EncodeFiles(dir string, recs []Record, ids []int64) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, sudokulab.WrapError(sudokulab.EINVALID, err, "export")
	}
	ext := ".txt"
	if len(f.Extensions) > 0 {
		ext = f.Extensions[0]
	}
	used := map[string]bool{}
	for i, r := range recs {
		name := fileName(r.Label)
		if name == "" || used[name] {
			name = fmt.Sprintf("puzzle-%d", ids[i])
		}
		used[name] = true
		out, err := os.Create(filepath.Join(dir, name+ext))
		if err != nil {
			return i, sudokulab.WrapError(sudokulab.EINVALID, err, "export")
		}
		err = f.Encode(out, []Record{r})
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return i, sudokulab.WrapError(sudokulab.EINVALID, err, "export puzzle %d", ids[i])
		}
	}
	return len(recs), nil
}

// fileName returns a label as a safe file name, or "".
func fileName(label string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		case r == ' ':
			return '_'
		}
		return -1
	}, label)
	s = strings.Trim(s, ".")
	if len(s) > 100 {
		s = s[:100]
	}
	return s
}

// EncodeFile writes the records in the format to the file path (created
// or truncated), or to w when path is "" or "-", through a buffer. An
// error creating the file or encoding is EINVALID.
func (f *Format) EncodeFile(w io.Writer, path string, recs []Record) error {
	var out *os.File
	if path != "" && path != "-" {
		var err error
		if out, err = os.Create(path); err != nil {
			return sudokulab.WrapError(sudokulab.EINVALID, err, "export")
		}
		defer out.Close()
		w = out
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	if err := f.Encode(bw, recs); err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "export %s", f.Name)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if out != nil {
		if err := out.Close(); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	return nil
}
