package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"sudokulab"
)

// Provenance is what a generation records of itself: with Index and
// Attempt, the JSON object of each generated puzzle's metadata; without
// them, the options of the generation as a whole.
type Provenance struct {
	Generator string `json:"generator"`
	Version   string `json:"generator_version"`
	Seed      int64  `json:"seed"`
	Index     *int   `json:"index,omitempty"`
	Attempt   *int   `json:"attempt,omitempty"`
	Count     int    `json:"count,omitempty"`
	Shape     string `json:"shape"`
	Box       string `json:"box"`
	Symmetry  string `json:"symmetry"`
	Minimal   bool   `json:"minimal"`
	Givens    string `json:"givens,omitempty"`
	Rating    string `json:"rating,omitempty"`
}

// NewProvenance returns the provenance of a generation of count puzzles by
// the generator named name with opts. The seed is the one the user gave
// (signed, as typed) and rating the rating filter's specification as
// given, empty for none.
func NewProvenance(name string, opts Options, seed int64, count int, rating string) Provenance {
	p := Provenance{Generator: name, Version: Version, Seed: seed, Count: count,
		Shape: fmt.Sprintf("%dx%d", opts.Shape.N(), opts.Shape.N()), Box: fmt.Sprintf("%dx%d", opts.Shape.BoxRows, opts.Shape.BoxCols),
		Symmetry: opts.Symmetry.String(), Minimal: opts.Minimal, Rating: rating}
	if !opts.Givens.IsZero() {
		p.Givens = opts.Givens.String()
	}
	return p
}

// JSON returns the provenance as a JSON object.
func (p Provenance) JSON() string {
	b, err := json.Marshal(p)
	if err != nil {
		// Strings, numbers and booleans always marshal.
		panic(err)
	}
	return string(b)
}

// SHA256 returns the hex SHA-256 of the provenance's JSON, which stands
// for a generation's file checksum.
func (p Provenance) SHA256() string {
	sum := sha256.Sum256([]byte(p.JSON()))
	return hex.EncodeToString(sum[:])
}

// Of returns the provenance of one generated puzzle: the generation's,
// without its count, with the puzzle's index and attempt.
func (p Provenance) Of(pz Puzzle) Provenance {
	p.Count = 0
	p.Index, p.Attempt = &pz.Index, &pz.Attempt
	return p
}

// Label returns the label of the puzzle of the given index: gen-SEED-INDEX.
func (p Provenance) Label(index int) string {
	return fmt.Sprintf("gen-%d-%d", p.Seed, index)
}

// Args returns the options of a generation as command-line flags.
func (p Provenance) Args() string {
	s := fmt.Sprintf("--count %d --shape %s --box %s --seed %d --symmetry %s", p.Count, p.Shape, p.Box, p.Seed, p.Symmetry)
	if p.Minimal {
		s += " --minimal"
	}
	if p.Givens != "" {
		s += " --givens " + p.Givens
	}
	if p.Rating != "" {
		s += " --rating " + p.Rating
	}
	return s
}

// Membership returns the membership of a generated puzzle in its
// collection: labelled gen-SEED-INDEX, with its provenance as metadata.
func (p Provenance) Membership(pz Puzzle) sudokulab.Membership {
	return sudokulab.Membership{Label: p.Label(pz.Index), Metadata: p.Of(pz).JSON()}
}
