// Package shell writes command lines that a POSIX shell reads back as the
// words they were made of, for messages that tell the user what to type.
package shell

import "strings"

// Quote returns s as one word for a POSIX shell: as it is when it holds
// only characters no shell treats specially (letters, digits and
// -_./:@%+,), else in single quotes, each single quote in it closing
// the quotes, escaped, and opening them again (o'k becomes 'o' then \' then 'k').
// The empty string is a pair of single quotes.
func Quote(s string) string {
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// safe holds the characters a word may hold unquoted. '=' is not among
// them: a first word NAME=VALUE would be an assignment, not the command.
const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+,"

// Join quotes each word with Quote and joins them with spaces.
func Join(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}
