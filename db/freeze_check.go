package db

// Check refuses a Freeze whose Where, OrderBy or Label would end the
// statement it is pasted into (see CheckPredicate), before a database is
// opened for writing.
func (f Freeze) Check() error {
	for _, e := range []string{f.Where, f.OrderBy, f.Label} {
		if err := CheckPredicate(e); err != nil {
			return err
		}
	}
	return nil
}
