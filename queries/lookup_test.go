package queries_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/queries"
)

func TestLookup(t *testing.T) {
	q, err := queries.Lookup("hardest-puzzles")
	if err != nil || q.Name != "hardest-puzzles" {
		t.Fatalf("Lookup(hardest-puzzles) = %q, %v", q.Name, err)
	}
	_, err = queries.Lookup("hardest-puzzle")
	if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		t.Fatalf("Lookup(hardest-puzzle): code %q, want ENOTFOUND (%v)", sudokulab.ErrorCode(err), err)
	}
	for _, want := range []string{`no query called "hardest-puzzle"`, "hardest-puzzles", "known: "} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Lookup(hardest-puzzle) error %q lacks %q", err, want)
		}
	}
}

func TestParseParams(t *testing.T) {
	for _, tc := range []struct {
		in      []string
		want    map[string]string
		wantErr string
	}{
		{in: nil, want: map[string]string{}},
		{in: []string{"a=1", " b =x=y", "c="}, want: map[string]string{"a": "1", "b": "x=y", "c": ""}},
		{in: []string{"a"}, wantErr: `--param "a": want NAME=VALUE`},
		{in: []string{"=1"}, wantErr: `--param "=1": want NAME=VALUE`},
		{in: []string{"a=1", "a=2"}, wantErr: "--param a given twice"},
	} {
		got, err := queries.ParseParams(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Errorf("ParseParams(%q) error %v, want EINVALID %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseParams(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestCheckNamed(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := db.EnsureCollection(ctx, d, "mine", ""); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		values  map[string]string
		wantErr string
	}{
		{values: map[string]string{"collection": "mine", "config": "NULL", "other": "x"}},
		{values: map[string]string{"collection": "nope"}, wantErr: "--param collection: "},
		{values: map[string]string{"config": "nope"}, wantErr: "--param config: "},
		{values: map[string]string{"experiment": "nope"}, wantErr: "--param experiment: "},
	} {
		err := queries.CheckNamed(ctx, d, tc.values)
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)) {
			t.Errorf("CheckNamed(%v) = %v, want error starting %q", tc.values, err, tc.wantErr)
		}
	}
}

// TestNames lists the embedded queries All parses, by name, sorted.
func TestNames(t *testing.T) {
	names, err := queries.Names()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 || len(names) != len(qs) || !slices.IsSorted(names) {
		t.Fatalf("Names = %v, want the %d queries' names, sorted", names, len(qs))
	}
	for i, q := range qs {
		if names[i] != q.Name {
			t.Errorf("name %d is %q, want %q", i, names[i], q.Name)
		}
	}
}

func TestParamDefaults(t *testing.T) {
	q, err := queries.Parse("x.sql", "-- name: x\n-- description: d\n-- param: experiment NULL the experiment\n-- param: label 'two words' a label\nSELECT :experiment, :label\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := q.ParamDefaults(), "experiment=NULL label='two words'"; got != want {
		t.Errorf("ParamDefaults = %q, want %q", got, want)
	}
	if got := (queries.Query{}).ParamDefaults(); got != "" {
		t.Errorf("ParamDefaults of no parameters = %q, want empty", got)
	}
}
