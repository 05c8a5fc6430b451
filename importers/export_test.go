package importers

// ParseSudokuHeader and SudokuHeader export the #!sudoku header parser to
// the tests.
var ParseSudokuHeader = parseSudokuHeader

type SudokuHeader = sudokuHeader
