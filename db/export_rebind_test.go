package db

// RebindDollar exposes rebindDollar to the external tests.
var RebindDollar = rebindDollar

// PostgresTokens returns the tokens PostgreSQL reads in q, leaving out
// literals and comments as the predicate check does, each with its kind
// ("punct ?", "name x"), or why it cannot read q to its end.
func PostgresTokens(q string) (tokens []string, reason string) {
	reason = predicateReader{engine: "PostgreSQL", pg: true}.scan(q, func(t token, _ int) string {
		kind := map[int]string{tokName: "name ", tokUnicodeName: "unicode ", tokPunct: "punct "}[t.kind]
		tokens = append(tokens, kind+t.text)
		return ""
	})
	return tokens, reason
}
