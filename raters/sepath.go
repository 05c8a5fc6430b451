package raters

import "encoding/json"

// SEPath is the solution path the se rater keeps in a rating's Details:
// the steps in order and the technique of the hardest step (ER), of the
// hardest before the first placement (EP) and of the first step (ED),
// each "" when not reached.
type SEPath struct {
	Steps       []string `json:"path"`
	ERTechnique string   `json:"er_technique"`
	EPTechnique string   `json:"ep_technique"`
	EDTechnique string   `json:"ed_technique"`
}

// ReadSEPath reads the path of a rating's details; ok is false when the
// details hold no path (another rater's, or none).
func ReadSEPath(details string) (p SEPath, ok bool) {
	if details == "" || json.Unmarshal([]byte(details), &p) != nil || len(p.Steps) == 0 {
		return SEPath{}, false
	}
	return p, true
}
