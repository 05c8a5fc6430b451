package db_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"sudokulab/db"
	"sudokulab/internal/pgtest"
)

// startingProxy stands between the client and the test server: its first
// refuse connections are answered as a server that is starting up answers
// (FATAL 57P03), later ones are passed through.
type startingProxy struct {
	ln      net.Listener
	target  string
	refuse  int64
	refused atomic.Int64
	wg      sync.WaitGroup
}

func newStartingProxy(t *testing.T, target string, refuse int64) *startingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &startingProxy{ln: ln, target: target, refuse: refuse}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

func (p *startingProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if p.refused.Load() < p.refuse {
			p.refused.Add(1)
			p.answerStarting(c)
			continue
		}
		p.wg.Add(1)
		go func() { defer p.wg.Done(); p.pass(c) }()
	}
}

// answerStarting reads the startup message and answers it with the error a
// PostgreSQL server sends while it is starting.
func (p *startingProxy) answerStarting(c net.Conn) {
	defer c.Close()
	be := pgproto3.NewBackend(c, c)
	if _, err := be.ReceiveStartupMessage(); err != nil {
		return
	}
	be.Send(&pgproto3.ErrorResponse{Severity: "FATAL", SeverityUnlocalized: "FATAL", Code: "57P03",
		Message: "the database system is starting up"})
	be.Flush()
}

func (p *startingProxy) pass(c net.Conn) {
	defer c.Close()
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer s.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(s, c); s.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	go func() { io.Copy(c, s); c.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	<-done
	<-done
}

// proxied returns dsn with its host replaced by the proxy's.
func (p *startingProxy) proxied(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.ln.Addr().String()
	return u.String()
}

// TestPostgresOpenWaitsForStartingServer: a server that answers "starting
// up" to the first connections is waited for, not reported as an error.
func TestPostgresOpenWaitsForStartingServer(t *testing.T) {
	dsn := pgtest.DSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p := newStartingProxy(t, u.Host, 3)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := db.Open(ctx, p.proxied(t, dsn))
	if err != nil {
		t.Fatalf("open through a starting server: %v", err)
	}
	defer d.Close()
	if got := p.refused.Load(); got != 3 {
		t.Errorf("the proxy refused %d connections, want 3", got)
	}
	if _, err := d.Version(ctx); err != nil {
		t.Errorf("after the wait: %v", err)
	}
}

// TestPostgresOpenStartingGivesUpWithContext: a server that never finishes
// starting is waited for only as long as the context allows.
func TestPostgresOpenStartingGivesUpWithContext(t *testing.T) {
	dsn := pgtest.DSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p := newStartingProxy(t, u.Host, 1<<40)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err = db.Open(ctx, p.proxied(t, dsn))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("open against a server that stays starting: %v, want the context's deadline", err)
	}
	if p.refused.Load() < 2 {
		t.Errorf("the proxy refused %d connections, want a retry", p.refused.Load())
	}
}
