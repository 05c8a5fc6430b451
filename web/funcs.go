package web

import (
	"html/template"
	"net/url"
	"strconv"
	"time"

	"sudokulab/report"
)

// funcs are the helpers the templates call.
var funcs = template.FuncMap{
	"cell":   cellText,
	"isNull": func(v any) bool { return v == nil },
	// seg escapes a name (of a collection, an experiment) for one segment
	// of a path: a '/', '?' or '#' in it stays in the name.
	"seg": func(s string) template.URL { return template.URL(url.PathEscape(s)) },
	// long tells a cell whose text should wrap (a description, a file
	// name) from the short ones, kept on one line.
	"long": func(v any) bool { return len(cellText(v)) > 40 },
	"num":  func(v float64) string { return report.Num(v) },
	"pctp": func(f *float64) string {
		if f == nil {
			return "–"
		}
		return strconv.FormatFloat(100**f, 'f', 0, 64) + " %"
	},
	"nump": func(f *float64) string {
		if f == nil {
			return "–"
		}
		return report.Num(*f)
	},
	"linkOf": func(t table, col int) string {
		if t.Links == nil || col >= len(t.Columns) {
			return ""
		}
		return t.Links[t.Columns[col]]
	},
}

// cellText writes a value scanned from the database for a table cell: NULL
// as the empty string, numbers briefly but exactly, times as stored.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', 6, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05Z")
	}
	return ""
}
