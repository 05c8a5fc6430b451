package ratepool

import (
	"fmt"
	"slices"
	"strings"

	"sudokulab/internal/tabular"
)

// Histogram counts ratings per label. As text it is short: every label
// with its count when there are at most HistogramShown, else how many
// labels and the most common (se labels nearly every puzzle differently);
// as JSON it is the whole histogram, an object.
type Histogram map[string]int

// HistogramShown is the most labels a Histogram's text lists in full.
const HistogramShown = 6

// Sorted returns the labels, most common first, then by name.
func (h Histogram) Sorted() []string {
	labels := make([]string, 0, len(h))
	for l := range h {
		labels = append(labels, l)
	}
	slices.SortFunc(labels, func(a, b string) int {
		if h[a] != h[b] {
			return h[b] - h[a]
		}
		return strings.Compare(a, b)
	})
	return labels
}

// String implements fmt.Stringer, which a table or CSV cell uses.
func (h Histogram) String() string {
	labels := h.Sorted()
	head := ""
	if len(labels) > HistogramShown {
		head = fmt.Sprintf("%d labels, most common: ", len(labels))
		labels = labels[:HistogramShown/2]
	}
	parts := make([]string, len(labels))
	for i, l := range labels {
		parts[i] = fmt.Sprintf("%s:%d", l, h[l])
	}
	return head + strings.Join(parts, " ")
}

// MarshalJSON writes every label and its count, most common first.
func (h Histogram) MarshalJSON() ([]byte, error) {
	o := tabular.Object{}
	for _, l := range h.Sorted() {
		o = append(o, tabular.Field{Key: l, Value: h[l]})
	}
	return o.MarshalJSON()
}
