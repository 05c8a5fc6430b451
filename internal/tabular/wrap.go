package tabular

import "strings"

// WrapList joins words with ", " into lines of at most width characters
// (a longer word has a line of its own), each starting with indent, and
// ends every line with a newline: a list of names in a command's help.
func WrapList(words []string, width int, indent string) string {
	var b, line strings.Builder
	for i, w := range words {
		if i < len(words)-1 {
			w += ","
		}
		if line.Len() > 0 && line.Len()+1+len(w) > width {
			b.WriteString(line.String() + "\n")
			line.Reset()
		}
		if line.Len() == 0 {
			line.WriteString(indent + w)
		} else {
			line.WriteString(" " + w)
		}
	}
	if line.Len() > 0 {
		b.WriteString(line.String() + "\n")
	}
	return b.String()
}
