package shell_test

import (
	"os/exec"
	"testing"

	"sudokulab/internal/shell"
)

// TestQuote: words a shell would split, expand or end early are quoted,
// a single quote inside closing and reopening them; plain words stay as
// they are.
func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"lab.db", "lab.db"},
		{"postgres://lab:xxxxx@db.example.org/lab", "postgres://lab:xxxxx@db.example.org/lab"},
		{"", "''"},
		{"my lab.db", "'my lab.db'"},
		{"o'brien", `'o'\''brien'`},
		{"'", `''\'''`},
		{"a'b'c", `'a'\''b'\''c'`},
		{"$HOME", "'$HOME'"},
		{"x;rm -rf y", "'x;rm -rf y'"},
		{"back`tick`", "'back`tick`'"},
		{"glob*", "'glob*'"},
		{"new\nline", "'new\nline'"},
		{`back\slash`, `'back\slash'`},
		{"~user", "'~user'"},
		{"CC=x", "'CC=x'"},
	} {
		if got := shell.Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestQuoteShellReadsBack has sh read the quoted words back: each is the
// word it was made of.
func TestQuoteShellReadsBack(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh to read the words back: %v", err)
	}
	words := []string{"o'brien's lab.db", "''", "$(echo no)", "a\"b", "tab\there", "new\nline", "", "x'", "'x", `\'`}
	out, err := exec.Command(sh, "-c", `for w in `+shell.Join(words...)+`; do printf '%s\0' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for start, i := 0, 0; i < len(out); i++ {
		if out[i] == 0 {
			got = append(got, string(out[start:i]))
			start = i + 1
		}
	}
	if len(got) != len(words) {
		t.Fatalf("sh read %d words %q, want %d %q", len(got), got, len(words), words)
	}
	for i := range words {
		if got[i] != words[i] {
			t.Errorf("word %d: sh read %q, want %q", i, got[i], words[i])
		}
	}
}
