package runner

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// sourceVersion is the code version of a binary built without a VCS
// stamp (go run, go test, -buildvcs=false): the revision of the git
// checkout holding this source file, its first 12 hex digits with "+dirty"
// when the work tree has changes (untracked files too), as the stamp of
// go build reads; "devel" when the source is no git checkout (a module
// cache, -trimpath) or git is missing. It asks git once per process.
var sourceVersion = sync.OnceValue(func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "devel"
	}
	return gitVersion(filepath.Dir(file))
})

// gitVersion returns the revision of the git work tree holding dir, as
// sourceVersion describes it, or "devel".
func gitVersion(dir string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	git := func(args ...string) (string, bool) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err == nil
	}
	rev, ok := git("rev-parse", "--verify", "HEAD")
	if !ok || len(rev) < 12 {
		return "devel"
	}
	rev = rev[:12]
	if status, ok := git("status", "--porcelain"); ok && status != "" {
		rev += "+dirty"
	}
	return rev
}
