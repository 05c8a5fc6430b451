package web

// The settings of the experiment page's pictures: the main flags of
// `sudokulab plot KIND`, given in the query string so that a URL
// reproduces the page. A picture's own URL takes them by the flag's name
// (/experiments/NAME/ecdf.svg?x=cpu&config=A&config=B); the page takes
// each picture's prefixed with its kind (/experiments/NAME?ecdf.x=cpu),
// and the configurations (config, top) for all of them. Each is turned
// into the figures.Request the command makes of the same flags, so the
// picture is the very file `sudokulab plot KIND --experiment NAME
// --x cpu ... -o FILE.svg` writes.

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
)

// figureFlag is a flag of `sudokulab plot KIND` the page offers.
type figureFlag struct {
	name, help string
	// choices are a select's values; nil: a field for a number (or, for
	// rater, a name).
	choices []string
	// get reads the flag's value from a request (for its default), set
	// sets it as the flag would.
	get func(r figures.Request) string
	set func(r *figures.Request, v string) error
}

// number parses v, the value of the flag, as a float64.
func number(flag, v string) (float64, error) {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "--%s %q: want a number", flag, v)
	}
	return x, nil
}

func formatNumber(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// axisFlag is --x of a kind whose axes are choices: a value given sets
// AxisAsked, as the flag given on the command line does.
func axisFlag(choices ...string) figureFlag {
	return figureFlag{name: "x", help: "budget axis", choices: choices,
		get: func(r figures.Request) string { return r.X },
		set: func(r *figures.Request, v string) error { r.X, r.AxisAsked = v, true; return nil }}
}

var (
	logYFlag = figureFlag{name: "log-y", help: "log scale (0 kept)", choices: []string{"true", "false"},
		get: func(r figures.Request) string { return strconv.FormatBool(r.LogY) },
		set: func(r *figures.Request, v string) (err error) {
			if r.LogY, err = strconv.ParseBool(v); err != nil {
				return sudokulab.Errorf(sudokulab.EINVALID, "--log-y %q: want true or false", v)
			}
			return nil
		}}
	panelsFlag = figureFlag{name: "panels", help: "a panel per puzzle", choices: []string{"auto", "puzzle", "none"},
		get: func(r figures.Request) string { return r.Panels },
		set: func(r *figures.Request, v string) error { r.Panels = v; return nil }}
	levelFlag = figureFlag{name: "level", help: "confidence level",
		get: func(r figures.Request) string { return formatNumber(r.Level) },
		set: func(r *figures.Request, v string) (err error) { r.Level, err = number("level", v); return err }}
	timeFlag = figureFlag{name: "time", help: "ERT in", choices: []string{"evaluations", "seconds", "cpu"},
		get: func(r figures.Request) string { return r.Time },
		set: func(r *figures.Request, v string) error { r.Time, r.TimeAsked = v, true; return nil }}
	parKFlag = figureFlag{name: "par-k", help: "k of PAR-k",
		get: func(r figures.Request) string { return formatNumber(r.ParK) },
		set: func(r *figures.Request, v string) (err error) { r.ParK, err = number("par-k", v); return err }}
	measureFlag = func(choices ...string) figureFlag {
		return figureFlag{name: "measure", help: "rank by", choices: choices,
			get: func(r figures.Request) string { return r.Measure },
			set: func(r *figures.Request, v string) error { r.Measure = v; return nil }}
	}
)

// figureFlags are the flags the page offers for each kind, as plot.go
// defines them (same names, choices and defaults: figures.Defaults).
var figureFlags = map[string][]figureFlag{
	figures.KindSuccess: {
		{name: "by", help: "group by", choices: []string{"label", "collection", "all"},
			get: func(r figures.Request) string { return r.By },
			set: func(r *figures.Request, v string) error { r.By = v; return nil }},
		{name: "rater", help: "whose labels",
			get: func(r figures.Request) string { return r.Rater },
			set: func(r *figures.Request, v string) error { r.Rater = v; return nil }},
		levelFlag,
	},
	figures.KindECDF: {
		axisFlag("evaluations", "generations", "effort", "seconds", "cpu"),
		{name: "resamples", help: "bootstrap resamples (0: no band)",
			get: func(r figures.Request) string { return strconv.Itoa(r.Resamples) },
			set: func(r *figures.Request, v string) (err error) {
				if r.Resamples, err = strconv.Atoi(v); err != nil {
					return sudokulab.Errorf(sudokulab.EINVALID, "--resamples %q: want a whole number", v)
				}
				return nil
			}},
		levelFlag,
	},
	figures.KindConvergence: {
		axisFlag("generations", "evaluations", "seconds"),
		logYFlag,
		panelsFlag,
		{name: "quantiles", help: "the band's quantiles",
			get: func(r figures.Request) string {
				s := make([]string, len(r.Quantiles))
				for i, q := range r.Quantiles {
					s[i] = formatNumber(q)
				}
				return strings.Join(s, ",")
			},
			set: func(r *figures.Request, v string) error {
				r.Quantiles = nil
				for f := range strings.SplitSeq(v, ",") {
					q, err := number("quantiles", strings.TrimSpace(f))
					if err != nil {
						return err
					}
					r.Quantiles = append(r.Quantiles, q)
				}
				return nil
			}},
	},
	figures.KindERT: {axisFlag("evaluations", "generations", "seconds"), logYFlag, panelsFlag},
	figures.KindCD: {measureFlag("ert", "success", "par"), timeFlag, parKFlag,
		{name: "alpha", help: "significance level",
			get: func(r figures.Request) string { return formatNumber(r.Alpha) },
			set: func(r *figures.Request, v string) (err error) { r.Alpha, err = number("alpha", v); return err }}},
	figures.KindProfile: {measureFlag("ert", "par"), timeFlag, parKFlag},
	figures.KindAggECDF: {axisFlag("evaluations", "generations", "seconds")},
}

// figureRequest returns the request of the picture kind of the
// experiment called name that the query q asks for, with plot's flags by
// name (x=cpu), config and top; and the query that asks for it, in a
// canonical order, without the empty values (which leave a flag at its
// default). A setting plot KIND does not take is an EINVALID error, as is
// a bad value (figures.Request.Check).
func figureRequest(kind, name string, q url.Values) (figures.Request, url.Values, error) {
	r := figures.Defaults(kind)
	r.Selection = db.RunSelection{Experiment: name}
	canon := url.Values{}
	flags := figureFlags[kind]
	for key, vs := range q {
		vs = slices.DeleteFunc(slices.Clone(vs), func(v string) bool { return v == "" })
		if len(vs) == 0 {
			continue
		}
		switch key {
		case "config":
			r.Selection.Configs = vs
		case "top":
			n, err := strconv.Atoi(vs[0])
			if err != nil {
				return r, nil, sudokulab.Errorf(sudokulab.EINVALID, "--top %q: want a whole number", vs[0])
			}
			r.Top = n
		default:
			i := slices.IndexFunc(flags, func(f figureFlag) bool { return f.name == key })
			if i < 0 {
				return r, nil, sudokulab.Errorf(sudokulab.EINVALID, "plot %s takes no setting %q: it takes %s", kind, key, flagNames(flags))
			}
			if err := flags[i].set(&r, vs[0]); err != nil {
				return r, nil, err
			}
			vs = vs[:1]
		}
		canon[key] = vs
	}
	return r, canon, r.Check()
}

// flagNames lists the settings of a kind for a message.
func flagNames(flags []figureFlag) string {
	names := []string{"config", "top"}
	for _, f := range flags {
		names = append(names, f.name)
	}
	return strings.Join(names, ", ")
}

// figureQuery returns the query of the picture kind's URL from the page's
// query: the configurations, and the settings prefixed with the kind.
func figureQuery(kind string, page url.Values) url.Values {
	q := url.Values{}
	for key, vs := range page {
		if key == "config" || key == "top" {
			q[key] = vs
		} else if flag, ok := strings.CutPrefix(key, kind+"."); ok {
			q[flag] = vs
		}
	}
	return q
}

// figureCommand is the command line that draws the picture of the query
// canon (figureRequest's).
func figureCommand(kind, name string, canon url.Values) string {
	args := []string{"sudokulab", "plot", kind, "--experiment", shellWord(name)}
	for _, c := range canon["config"] {
		args = append(args, "--config", shellWord(c))
	}
	if v := canon.Get("top"); v != "" {
		args = append(args, "--top", shellWord(v))
	}
	for _, f := range figureFlags[kind] {
		if v := canon.Get(f.name); v != "" {
			args = append(args, "--"+f.name+"="+shellWord(v))
		}
	}
	return strings.Join(append(args, "-o", kind+".svg"), " ")
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// figureForm is the form of the pictures' settings on the experiment
// page: what the page's query holds, each field with its default.
type figureForm struct {
	// Open says some setting is given: the form is then shown open.
	Open    bool
	Top     string
	TopMax  int
	Configs []formChoice
	Kinds   []formKind
}

// formKind is the settings of one kind of picture.
type formKind struct {
	Kind  string
	Flags []formFlag
}

// formFlag is one setting: its field's name (KIND.FLAG), the flag and
// what it does, its default, the value given ("" for none) and, for a
// select, the choices.
type formFlag struct {
	Param, Flag, Help, Default, Value string
	Choices                           []formChoice
}

// formChoice is a choice of a select or a checkbox.
type formChoice struct {
	Value    string
	Selected bool
}

// newFigureForm returns the form of the page's query q for the pictures
// kinds, the experiment having the configurations configs.
func newFigureForm(q url.Values, kinds []string, configs []string) figureForm {
	f := figureForm{Top: q.Get("top"), TopMax: plots.MaxSeries}
	for _, c := range configs {
		f.Configs = append(f.Configs, formChoice{Value: c, Selected: slices.Contains(q["config"], c)})
	}
	for _, kind := range kinds {
		k := formKind{Kind: kind}
		def := figures.Defaults(kind)
		for _, fl := range figureFlags[kind] {
			ff := formFlag{Param: kind + "." + fl.name, Flag: fl.name, Help: fl.help, Default: fl.get(def)}
			ff.Value = q.Get(ff.Param)
			for _, c := range fl.choices {
				ff.Choices = append(ff.Choices, formChoice{Value: c, Selected: c == ff.Value})
			}
			k.Flags = append(k.Flags, ff)
		}
		f.Kinds = append(f.Kinds, k)
	}
	for key, vs := range q {
		if (key == "config" || key == "top" || strings.Contains(key, ".")) && slices.ContainsFunc(vs, func(v string) bool { return v != "" }) {
			f.Open = true
		}
	}
	return f
}
