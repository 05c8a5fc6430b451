package sudokulab

import (
	"errors"
	"fmt"
	"syscall"
)

// Error codes say what kind of failure an Error is; the command line maps
// them to exit codes in one place (cmd/sudokulab/main.go).
const (
	EINVALID  = "invalid"   // bad input: a flag, a grid, a file, a SQL predicate
	ENOTFOUND = "not_found" // a named puzzle, configuration or run does not exist
	ECONFLICT = "conflict"  // the request contradicts what is stored
	ENOSPACE  = "no_space"  // a disk, quota or database server ran out of space
	EINTERNAL = "internal"  // a bug or an environment failure
)

// Error is the one user-facing error type: Message is written for the person
// at the terminal, Code decides the exit status. Errors that are not *Error
// are internal.
type Error struct {
	Code    string
	Message string
	Err     error // optional cause, kept for errors.Is/As
}

func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Err.Error()
	}
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WrapError returns an *Error with the given code, message and cause.
func WrapError(code string, err error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: err}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL
// for any other non-nil error, and "" for nil; a full disk (ENOSPC) is
// ENOSPACE whatever wraps it, since it is never the input's fault.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.Is(err, syscall.ENOSPC):
		return ENOSPACE
	case errors.As(err, &e):
		return e.Code
	}
	return EINTERNAL
}
