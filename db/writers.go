package db

import (
	"os"
	"sync"
)

// writerSignal lets the writers of one SQLite file tell a long job that
// they wait for the write lock, so that the job leaves it to them at once
// instead of pausing on a schedule whether anybody waits or not (see
// Pacer). A writer holds a shared lock on the file's signal file, the
// database path with "-writers" appended, from the moment it asks for a
// write transaction until it has the write lock; a job between two of its
// transactions tries to take that lock exclusively, through a file
// description of its own, and fails exactly when some writer, in this
// process or another, is waiting. The locks are flock(2) locks, which the
// system drops with the process that held them. Where the file cannot be
// made (a read-only folder) or the system has no flock, the signal is off
// and the Pacer falls back to its schedule.
type writerSignal struct {
	path string
	once sync.Once
	ok   bool
	// shared is the description every writer of this process announces
	// through, holding the shared lock while n > 0; probe is the job's.
	shared, probe *os.File
	mu            sync.Mutex
	n             int
}

// newWriterSignal returns the signal of the SQLite file at path; the
// signal file is made when first used.
func newWriterSignal(path string) *writerSignal { return &writerSignal{path: path + "-writers"} }

// open opens both descriptions of the signal file once.
func (s *writerSignal) open() bool {
	s.once.Do(func() {
		if !flockWorks {
			return
		}
		// Read-only descriptions lock as well as any, so a lab shared by
		// users who may not write each other's files still signals; the
		// file is made as SQLite makes its own, with the umask's bits.
		a, err := os.OpenFile(s.path, os.O_RDONLY|os.O_CREATE, 0o666)
		if err != nil {
			return
		}
		b, err := os.Open(s.path)
		if err != nil {
			a.Close()
			return
		}
		s.shared, s.probe, s.ok = a, b, true
	})
	return s.ok
}

// on reports whether the signal works here.
func (s *writerSignal) on() bool { return s != nil && s.open() }

// announce marks a writer of this process as waiting for the write lock;
// call the function it returns once the writer has the lock (or gave up).
func (s *writerSignal) announce() (done func()) {
	if !s.on() {
		return func() {}
	}
	s.mu.Lock()
	if s.n == 0 && flockShared(s.shared) != nil {
		s.mu.Unlock()
		return func() {}
	}
	s.n++
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.n--; s.n == 0 {
			flockUnlock(s.shared)
		}
	}
}

// waiting reports whether a writer has announced that it waits.
func (s *writerSignal) waiting() bool {
	if !s.on() {
		return false
	}
	if !flockTryExclusive(s.probe) {
		return true
	}
	flockUnlock(s.probe)
	return false
}

// close releases the signal file's descriptions.
func (s *writerSignal) close() {
	if s == nil || !s.ok {
		return
	}
	s.shared.Close()
	s.probe.Close()
}
