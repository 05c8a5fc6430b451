package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ShutdownGrace is how long Serve lets the requests under way answer
// once its context ends.
const ShutdownGrace = 5 * time.Second

// Serve answers requests on ln until ctx ends, then shuts down: requests
// under way end with ctx (their statements are interrupted) and get
// ShutdownGrace to answer, and the rates started by the curation forms
// stop (keeping what they rated). It returns ctx's error, or the error that
// stopped the serving first.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.stopWrites()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("serve: %w", err)
	}
	<-done
	return ctx.Err()
}
