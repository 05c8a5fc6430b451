package report

// BudgetCaption describes a picture's budget lines, for its table test.
var BudgetCaption = budgetCaption
