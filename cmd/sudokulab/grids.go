package main

import (
	"errors"
	"strconv"
	"strings"

	"sudokulab"
)

// parseGrid reads a grid given on the command line. box is "" for the
// default shape of the grid's size, or "RxC" (box rows x box columns). A
// grid that is not well formed or breaks a rule is an EINVALID error.
func parseGrid(s, box string) (sudokulab.Grid, error) {
	var (
		g   sudokulab.Grid
		err error
	)
	if box == "" {
		g, err = sudokulab.Parse(s)
	} else {
		var shape sudokulab.Shape
		if shape, err = parseShape(box); err != nil {
			return g, err
		}
		g, err = sudokulab.ParseShape(s, shape)
	}
	if err != nil {
		return g, sudokulab.WrapError(sudokulab.EINVALID, err, "grid")
	}
	if err := g.Validate(); err != nil {
		return g, sudokulab.WrapError(sudokulab.EINVALID, err, "grid")
	}
	return g, nil
}

// parseShape reads a box shape written "RxC", such as "2x3".
func parseShape(s string) (sudokulab.Shape, error) {
	r, c, ok := strings.Cut(strings.ToLower(s), "x")
	br, err1 := strconv.Atoi(r)
	bc, err2 := strconv.Atoi(c)
	shape := sudokulab.Shape{BoxRows: br, BoxCols: bc}
	if !ok || errors.Join(err1, err2) != nil {
		return shape, sudokulab.Errorf(sudokulab.EINVALID, "--box %q: want box rows x box columns, such as 2x3", s)
	}
	if err := shape.Validate(); err != nil {
		return shape, sudokulab.WrapError(sudokulab.EINVALID, err, "--box %q", s)
	}
	return shape, nil
}
