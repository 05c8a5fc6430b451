package web

import (
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strings"

	"sudokulab"
)

// gridSVG draws g as an SVG picture of any shape up to 32x32: thin lines
// between cells, thick ones between boxes, the cells that are givens (set
// in givens, which may be the zero Grid) shaded and bold, and the cells
// in conflicts marked (a given in conflict stays shaded as a given).
// Styles come from the stylesheet (the
// Content-Security-Policy forbids inline ones), classes only here.
func gridSVG(g, givens sudokulab.Grid, conflicts []sudokulab.Conflict, label string) template.HTML {
	n := g.N()
	if n == 0 {
		return ""
	}
	cell := 40
	if n > 9 {
		cell = 28
	}
	side := n * cell
	bad := map[int]bool{}
	for _, c := range conflicts {
		bad[c.A], bad[c.B] = true, true
	}
	var b strings.Builder
	size := "grid"
	if n > 9 {
		size = "grid large"
	}
	fmt.Fprintf(&b, `<svg class="%s" xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 %d %d" role="img" aria-label="%s">`,
		size, side+4, side+4, template.HTMLEscapeString(label))
	for i, v := range g.Cells {
		x, y := i%n*cell, i/n*cell
		class := "cell"
		if givens.Cells != nil && givens.Cells[i] != 0 {
			class += " given"
		}
		if bad[i] {
			class += " conflict"
		}
		fmt.Fprintf(&b, `<rect class="%s" x="%d" y="%d" width="%d" height="%d"/>`, class, x, y, cell, cell)
		if v != 0 {
			fmt.Fprintf(&b, `<text class="%s" x="%d" y="%d">%c</text>`, class, x+cell/2, y+cell/2, sudokulab.Symbols[v-1])
		}
	}
	gridLines(&b, g.Shape, n, cell)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// writeGridSVG writes a picture of gridSVG as a document of its own, with
// the grid's stylesheet inside it, under a policy that allows only that.
func writeGridSVG(w http.ResponseWriter, svg template.HTML) {
	css, _ := staticFS.ReadFile("static/grid.css")
	doc := strings.Replace(string(svg), ">", "><style>"+string(css)+"</style>", 1)
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("Content-Type", "image/svg+xml")
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+doc)
}

// gridLines draws the lines of an n x n grid of cells of side cell: thin
// between cells, thick between boxes.
func gridLines(b *strings.Builder, shape sudokulab.Shape, n, cell int) {
	side := n * cell
	for k := 0; k <= n; k++ {
		rowLine, colLine := "thin", "thin"
		if k%shape.BoxRows == 0 {
			rowLine = "thick"
		}
		if k%shape.BoxCols == 0 {
			colLine = "thick"
		}
		fmt.Fprintf(b, `<line class="%s" x1="0" y1="%d" x2="%d" y2="%d"/>`, rowLine, k*cell, side, k*cell)
		fmt.Fprintf(b, `<line class="%s" x1="%d" y1="0" x2="%d" y2="%d"/>`, colLine, k*cell, k*cell, side)
	}
}
