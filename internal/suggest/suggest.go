// Package suggest finds the names nearest to a mistyped one and phrases
// them for an error message: "unknown command "lsit" (did you mean
// list?)".
package suggest

import "strings"

// Names returns the names within an edit distance of 2 of name, by case,
// or starting with it (when it has two characters or more).
func Names(name string, names []string) []string {
	var out []string
	for _, n := range names {
		if Distance(strings.ToLower(name), strings.ToLower(n)) <= 2 || (len(name) >= 2 && strings.HasPrefix(n, name)) {
			out = append(out, n)
		}
	}
	return out
}

// DidYouMean phrases suggestions: "" for none, else " (did you mean A or
// B?)", with commas between the first ones.
func DidYouMean(suggestions []string) string {
	switch len(suggestions) {
	case 0:
		return ""
	case 1:
		return " (did you mean " + suggestions[0] + "?)"
	}
	return " (did you mean " + strings.Join(suggestions[:len(suggestions)-1], ", ") + " or " + suggestions[len(suggestions)-1] + "?)"
}

// Distance is the Levenshtein distance between a and b, by bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
