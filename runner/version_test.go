package runner_test

import (
	"os"
	"os/exec"
	"regexp"
	"testing"

	"sudokulab/runner"
)

// TestCodeVersionInCheckout checks the code version of a binary without a
// VCS stamp (go test builds are such, like go run ones): in a git
// checkout it is the checkout's revision, never "devel".
func TestCodeVersionInCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if err := exec.Command("git", "rev-parse", "HEAD").Run(); err != nil {
		t.Skip("not a git checkout")
	}
	if v := os.Getenv("SUDOKULAB_CODE_VERSION"); v != "" {
		t.Skipf("SUDOKULAB_CODE_VERSION=%s overrides it", v)
	}
	got := runner.CodeVersion()
	if !regexp.MustCompile(`^[0-9a-f]{12}(\+dirty)?$`).MatchString(got) {
		t.Errorf("CodeVersion() = %q in a git checkout, want a revision", got)
	}
}
