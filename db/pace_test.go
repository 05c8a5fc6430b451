package db_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab/db"
)

// TestPacerGivesWay runs a job that writes back to back, each transaction
// holding the lock for 10 ms, and meanwhile a writer on a pool of its own
// (as another process would): the writer announces that it waits and the
// job lets it in at once, long before the job's fallback pause for
// writers of other programs (after 2 s of writing). "At once" is counted
// in the job's transactions, not in wall time, which a loaded machine
// stretches: a few while the writer waits, where the fallback would let
// 2 s of them pass (some 150, and no fewer than 40 with every transaction
// taking five times as long).
func TestPacerGivesWay(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock: the pacer keeps to its schedule")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	job, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	other, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	stop := make(chan struct{})
	done := make(chan error, 1)
	var committed atomic.Int64
	go func() {
		p := db.NewPacer(job)
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if err := p.Before(ctx); err != nil {
				done <- err
				return
			}
			err := job.WithTx(ctx, func(tx *sqlx.Tx) error {
				_, err := tx.ExecContext(ctx, `INSERT INTO collections (name) VALUES (?)`, fmt.Sprintf("job-%d", i))
				time.Sleep(10 * time.Millisecond)
				return err
			})
			p.After()
			if err != nil {
				done <- err
				return
			}
			committed.Add(1)
		}
	}()
	time.Sleep(300 * time.Millisecond) // the job is writing back to back
	for i := range 3 {
		start, before := time.Now(), committed.Load()
		err := other.WithTx(ctx, func(tx *sqlx.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO collections (name) VALUES (?)`, fmt.Sprintf("other-%d", i))
			return err
		})
		waited, passed := time.Since(start), committed.Load()-before
		if err != nil {
			t.Fatal(err)
		}
		// Given way to: the transaction under way, and one more for each
		// gap the writer's busy handler sleeps through.
		if passed > 20 {
			t.Errorf("writer %d waited %v while the pacing job committed %d transactions", i, waited, passed)
		}
		time.Sleep(100 * time.Millisecond)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
