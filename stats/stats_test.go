package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"sudokulab/stats"
)

// near reports whether got is within tol of want, relative to want when
// relative is true.
func near(got, want, tol float64, relative bool) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if math.IsInf(want, 0) {
		return got == want
	}
	d := math.Abs(got - want)
	if relative {
		return d <= tol*math.Abs(want)
	}
	return d <= tol
}

func TestFisherExact(t *testing.T) {
	tests := []struct {
		name       string
		a, b, c, d int
		// The published value and how many of its digits to trust.
		twoSided, tol float64
		relative      bool
	}{
		// Fisher (1935), The Design of Experiments, §2: the lady tasting
		// tea, 3 of 4 milk-first cups right. R's ?fisher.test example
		// (Agresti 1990, p. 61f) prints the one-sided p = 0.2429 (checked
		// below); fisher.test(TeaTasting) prints p-value = 0.4857.
		{"tea tasting", 3, 1, 1, 3, 0.4857, 5e-5, false},
		// R fisher.test(table, alternative = "t") with options(digits = 16),
		// as recorded in SciPy's test suite (scipy/stats/tests/test_stats.py,
		// TestFisherExact.test_precise and test_gh4130).
		{"R 100 2 1000 5", 100, 2, 1000, 5, 0.1300759363430016, 1e-11, false},
		{"R 2 7 8 2", 2, 7, 8, 2, 0.02301413756522114, 1e-11, false},
		{"R 5 1 10 10", 5, 1, 10, 10, 0.197324414715719, 1e-11, false},
		{"R 5 15 20 20", 5, 15, 20, 20, 0.09580440012477637, 1e-11, false},
		{"R 5 16 20 25", 5, 16, 20, 25, 0.1725864953812994, 1e-11, false},
		{"R 10 5 10 1", 10, 5, 10, 1, 0.197324414715719, 1e-11, false},
		{"R 10 5 10 0", 10, 5, 10, 0, 0.06126482213438734, 1e-11, false},
		{"R 5 0 1 4", 5, 0, 1, 4, 0.04761904761904762, 1e-11, false},
		{"R 0 5 1 4", 0, 5, 1, 4, 1, 1e-11, false},
		{"R 0 1 3 2", 0, 1, 3, 2, 1, 1e-11, false},
		{"R 6 37 108 200", 6, 37, 108, 200, 0.005092697748126, 1e-9, true},
		{"R 22 0 0 102", 22, 0, 0, 102, 7.175066786244549e-25, 1e-9, true},
		{"R 94 48 3577 16988", 94, 48, 3577, 16988, 2.069356340993818e-37, 1e-7, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stats.FisherExact(tt.a, tt.b, tt.c, tt.d)
			if !near(got.TwoSided, tt.twoSided, tt.tol, tt.relative) {
				t.Errorf("two-sided p = %.16g, want %.16g", got.TwoSided, tt.twoSided)
			}
			// The test does not depend on which configuration is first.
			swapped := stats.FisherExact(tt.c, tt.d, tt.a, tt.b)
			if !near(swapped.TwoSided, got.TwoSided, 1e-12, true) {
				t.Errorf("rows swapped: two-sided p = %.16g, want %.16g", swapped.TwoSided, got.TwoSided)
			}
			if !near(swapped.Less, got.Greater, 1e-12, true) {
				t.Errorf("rows swapped: less = %.16g, want greater %.16g", swapped.Less, got.Greater)
			}
		})
	}
	tea := stats.FisherExact(3, 1, 1, 3)
	// R: fisher.test(TeaTasting, alternative = "greater") "## => p =
	// 0.2429"; exactly 17/70: the tables with 3 or 4 right of C(8, 4) = 70.
	if !near(tea.Greater, 0.2429, 5e-5, false) || !near(tea.Greater, 17.0/70, 1e-14, false) {
		t.Errorf("tea tasting greater = %.16g, want 0.2429 (17/70)", tea.Greater)
	}
	if !near(tea.Less, 69.0/70, 1e-14, false) {
		t.Errorf("tea tasting less = %.16g, want 69/70", tea.Less)
	}
	for _, bad := range [][4]int{{0, 0, 0, 0}, {-1, 2, 3, 4}} {
		if got := stats.FisherExact(bad[0], bad[1], bad[2], bad[3]); !math.IsNaN(got.TwoSided) {
			t.Errorf("FisherExact%v = %v, want NaN", bad, got)
		}
	}
}

// obs builds observations from times, a trailing '+' meaning censored in
// the usual notation: "13+" is censored at 13.
func obs(t *testing.T, times ...any) []stats.Observation {
	t.Helper()
	var out []stats.Observation
	for _, v := range times {
		switch x := v.(type) {
		case int:
			out = append(out, stats.Observation{Time: float64(x), Event: true})
		case string:
			var n float64
			for _, c := range x[:len(x)-1] {
				n = n*10 + float64(c-'0')
			}
			if x[len(x)-1] != '+' {
				t.Fatalf("bad censored time %q", x)
			}
			out = append(out, stats.Observation{Time: n})
		}
	}
	return out
}

func TestLogRank(t *testing.T) {
	tests := []struct {
		name                   string
		a, b                   []stats.Observation
		obsA, obsB, expA, expB float64
		expTol                 float64
		oeeA, oeeB, oeeTol     float64 // (O-E)^2/E per group, as survdiff prints it
		chisq, chiTol, p, pTol float64
	}{
		{
			// Acute myelogenous leukaemia, maintained vs non-maintained
			// chemotherapy (Miller 1981, Survival Analysis; R's
			// survival::aml, Nonmaintained 30 an event). survdiff(Surv(time, status) ~ x, data = aml)
			// prints Observed 7 and 11, Expected 10.69 and 7.31, (O-E)^2/E
			// 1.27 and 1.86, "Chisq= 3.4 on 1 degrees of freedom, p= 0.0653".
			name: "aml",
			a:    obs(t, 9, 13, "13+", 18, 23, "28+", 31, 34, "45+", 48, "161+"),
			b:    obs(t, 5, 5, 8, 8, 12, "16+", 23, 27, 30, 33, 43, 45),
			obsA: 7, obsB: 11,
			expA: 10.69, expB: 7.31, expTol: 0.005,
			oeeA: 1.27, oeeB: 1.86, oeeTol: 0.005,
			chisq: 3.4, chiTol: 0.05, p: 0.0653, pTol: 0.00005,
		},
		{
			// Remission times of leukaemia patients on 6-mercaptopurine vs
			// placebo (Freireich et al. 1963, Blood 21:699). Kleinbaum &
			// Klein, Survival Analysis: A Self-Learning Text (3rd ed. 2012),
			// ch. 2: O1 = 9, E1 = 19.25, E2 = 10.75, log-rank statistic
			// 16.79; R's survdiff prints Expected 19.3 and 10.7, (O-E)^2/E
			// 5.46 and 9.77, "Chisq= 16.8 ... p= 4.17e-05".
			name: "6-MP",
			a: obs(t, 6, 6, 6, "6+", 7, "9+", 10, "10+", "11+", 13, 16, "17+", "19+", "20+", 22, 23,
				"25+", "32+", "32+", "34+", "35+"),
			b:    obs(t, 1, 1, 2, 2, 3, 4, 4, 5, 5, 8, 8, 8, 8, 11, 11, 12, 12, 15, 17, 22, 23),
			obsA: 9, obsB: 21,
			expA: 19.25, expB: 10.75, expTol: 0.005,
			oeeA: 5.46, oeeB: 9.77, oeeTol: 0.005,
			chisq: 16.79, chiTol: 0.005, p: 4.17e-5, pTol: 0.005e-5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stats.LogRank(tt.a, tt.b)
			if got.Observed != [2]float64{tt.obsA, tt.obsB} {
				t.Errorf("observed = %v, want %v and %v", got.Observed, tt.obsA, tt.obsB)
			}
			if !near(got.Expected[0], tt.expA, tt.expTol, false) || !near(got.Expected[1], tt.expB, tt.expTol, false) {
				t.Errorf("expected = %v, want %v and %v", got.Expected, tt.expA, tt.expB)
			}
			for g, want := range []float64{tt.oeeA, tt.oeeB} {
				d := got.Observed[g] - got.Expected[g]
				if oee := d * d / got.Expected[g]; !near(oee, want, tt.oeeTol, false) {
					t.Errorf("(O-E)^2/E of group %d = %.4f, want %v", g, oee, want)
				}
			}
			if !near(got.ChiSquare, tt.chisq, tt.chiTol, false) {
				t.Errorf("chi-square = %.5f, want %v", got.ChiSquare, tt.chisq)
			}
			if !near(got.P, tt.p, tt.pTol, false) {
				t.Errorf("p = %.6g, want %v", got.P, tt.p)
			}
			// Swapping the groups changes nothing but the order.
			sw := stats.LogRank(tt.b, tt.a)
			if !near(sw.ChiSquare, got.ChiSquare, 1e-12, true) || sw.Observed[0] != got.Observed[1] {
				t.Errorf("swapped: %+v, want the mirror of %+v", sw, got)
			}
		})
	}
}

func TestStratifiedLogRank(t *testing.T) {
	a1 := obs(t, 9, 13, "13+", 18, 23, "28+")
	b1 := obs(t, 5, 5, 8, 8, 12, "16+")
	a2 := obs(t, 31, 34, "45+", 48, "161+")
	b2 := obs(t, 23, 27, "30+", 33, 43, 45)
	s1, s2 := stats.LogRank(a1, b1), stats.LogRank(a2, b2)
	got := stats.StratifiedLogRank([]stats.Stratum{{A: a1, B: b1}, {A: a2, B: b2}, {}})
	// The stratified test sums O - E and the variances of the strata
	// (Kalbfleisch & Prentice 2002, §7.3; survdiff with strata()).
	d := s1.Observed[0] - s1.Expected[0] + s2.Observed[0] - s2.Expected[0]
	v := s1.Variance + s2.Variance
	if !near(got.ChiSquare, d*d/v, 1e-12, true) || !near(got.Variance, v, 1e-12, true) {
		t.Errorf("stratified chi-square %v (variance %v), want %v (%v)", got.ChiSquare, got.Variance, d*d/v, v)
	}
	if got.Observed[0] != s1.Observed[0]+s2.Observed[0] {
		t.Errorf("stratified observed %v", got.Observed)
	}
	// No events: no test.
	if r := stats.LogRank(obs(t, "5+"), obs(t, "7+")); !math.IsNaN(r.P) {
		t.Errorf("no events: p = %v, want NaN", r.P)
	}
	// One group empty: no test either.
	if r := stats.LogRank(nil, obs(t, 3, 4)); !math.IsNaN(r.P) {
		t.Errorf("empty group: p = %v, want NaN", r.P)
	}
}

// TestStratifiedLogRankSurvdiff holds StratifiedLogRank to R's survdiff
// with a strata() term on three strata, the third with an event and a
// censoring at one time and events of both groups at one time:
//
//	Rscript -e 'library(survival); options(digits = 16)
//	  d <- data.frame(
//	    time = c(9,13,13,18,23,28, 5,5,8,8,12,16, 31,34,45,48,161, 23,27,30,33,43,45, 2,2,3,3,4,6,6),
//	    status = c(1,1,0,1,1,0, 1,1,1,1,1,0, 1,1,0,1,0, 1,1,0,1,1,1, 1,0,1,1,0,1,1),
//	    g = c(rep("A",6), rep("B",6), rep("A",5), rep("B",6), "A","B","A","B","A","A","B"),
//	    s = c(rep(1,12), rep(2,11), rep(3,7)))
//	  f <- survdiff(Surv(time, status) ~ g + strata(s), data = d)
//	  print(f$obs); print(f$exp); print(f$var); print(f$chisq)
//	  print(pchisq(f$chisq, 1, lower.tail = FALSE))'
func TestStratifiedLogRankSurvdiff(t *testing.T) {
	strata := []stats.Stratum{
		{A: obs(t, 9, 13, "13+", 18, 23, "28+"), B: obs(t, 5, 5, 8, 8, 12, "16+")},
		{A: obs(t, 31, 34, "45+", 48, "161+"), B: obs(t, 23, 27, "30+", 33, 43, 45)},
		{A: obs(t, 2, 3, "4+", 6), B: obs(t, "2+", 3, 6)},
	}
	// f$obs and f$exp, one column per stratum.
	wantObs := [][2]float64{{4, 5}, {3, 5}, {3, 2}}
	wantExp := [][2]float64{
		{6.497619047619048, 2.502380952380952},
		{5.167640692640692, 2.832359307359308},
		{2.771428571428571, 2.228571428571429},
	}
	for i, s := range strata {
		got := stats.LogRank(s.A, s.B)
		if got.Observed != wantObs[i] {
			t.Errorf("stratum %d: observed %v, want %v", i+1, got.Observed, wantObs[i])
		}
		for g := range 2 {
			if !near(got.Expected[g], wantExp[i][g], 1e-12, true) {
				t.Errorf("stratum %d: expected %v, want %v", i+1, got.Expected, wantExp[i])
			}
		}
	}
	got := stats.StratifiedLogRank(strata)
	if got.Observed != [2]float64{10, 12} {
		t.Errorf("observed %v, want [10 12]", got.Observed)
	}
	if !near(got.Expected[0], 14.43668831169, 1e-10, true) || !near(got.Expected[1], 7.56331168831, 1e-10, true) {
		t.Errorf("expected %v, want [14.43668831169 7.56331168831]", got.Expected)
	}
	if !near(got.Variance, 3.643509667641161, 1e-12, true) {
		t.Errorf("variance %.16g, want 3.643509667641161", got.Variance)
	}
	if !near(got.ChiSquare, 5.40253902710663, 1e-12, true) {
		t.Errorf("chi-square %.16g, want 5.40253902710663", got.ChiSquare)
	}
	if !near(got.P, 0.02010747912213912, 1e-12, true) {
		t.Errorf("p %.16g, want 0.02010747912213912", got.P)
	}
}

var (
	// Hollander & Wolfe (1973), p. 69f: permeability constants of the
	// human chorioamnion at term (x) and at 12 to 26 weeks (y), the
	// example of R's ?wilcox.test.
	permX = []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46}
	permY = []float64{1.15, 0.88, 0.90, 0.74, 1.21}
)

func TestMannWhitney(t *testing.T) {
	tests := []struct {
		name  string
		x, y  []float64
		alt   stats.Alternative
		exact bool
		u, p  float64
		tol   float64
	}{
		// R wilcox.test(x, y, alternative, exact = TRUE) with
		// options(digits = 16), recorded in SciPy's test suite
		// (test_mannwhitneyu.py, test_gh_9184); R prints "W = 35, p-value =
		// 0.1272" for alternative = "greater".
		{"permeability greater", permX, permY, stats.Greater, true, 35, 0.1272061272061, 1e-12},
		{"permeability less", permX, permY, stats.Less, true, 35, 0.8967698967699, 1e-12},
		{"permeability two-sided", permX, permY, stats.TwoSided, true, 35, 0.2544122544123, 1e-12},
		// R's sleep data (Cushny & Peebles 1905): wilcox.test(extra ~
		// group, data = sleep) prints "W = 25.5, p-value = 0.06933" with
		// the warning that ties rule out the exact p-value.
		{"sleep (ties)",
			[]float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0},
			[]float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4},
			stats.TwoSided, false, 25.5, 0.06933, 5e-6},
		// R wilcox.test output shown at endmemo.com/r/wilcoxon.php:
		// "W = 51.5, p-value = 0.5966" and "W = 0, p-value = 0.001364",
		// both with continuity correction because of ties.
		{"endmemo 1",
			[]float64{1, 5, 9, 24, 56, 21, 3, 7, 21, 4},
			[]float64{12, 15, 5, 9, 9, 14, 56, 22, 3, 7, 32, 5},
			stats.TwoSided, false, 51.5, 0.5966, 5e-5},
		{"endmemo 2",
			[]float64{1, 5, 9, 24, 56, 21, 3, 7, 21, 4},
			[]float64{1233, 4356, 987, 39999, 1111, 200000},
			stats.TwoSided, false, 0, 0.001364, 5e-7},
		// R wilcox.test(c(1, 2, 3), 2, alternative = ..., exact = FALSE)
		// with options(digits = 16), from SciPy's test_gh_2118.
		{"ties 1 2 3 vs 2 greater", []float64{1, 2, 3}, []float64{2}, stats.Greater, false, 1.5, 0.681324055883, 1e-12},
		{"ties 1 2 3 vs 2 two-sided", []float64{1, 2, 3}, []float64{2}, stats.TwoSided, false, 1.5, 1, 1e-12},
		{"ties 1 2 vs 1 2 greater", []float64{1, 2}, []float64{1, 2}, stats.Greater, false, 2, 0.667497228949, 1e-12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stats.MannWhitney(tt.x, tt.y, tt.alt)
			if got.U != tt.u || got.Exact != tt.exact || !near(got.P, tt.p, tt.tol, false) {
				t.Errorf("got U = %v, p = %.16g, exact %v; want U = %v, p = %.16g, exact %v",
					got.U, got.P, got.Exact, tt.u, tt.p, tt.exact)
			}
		})
	}
}

// TestMannWhitneyDegenerate covers samples R's wilcox.test cannot test:
//
//	Rscript -e 'options(digits = 16)
//	  for (a in c("two.sided", "greater", "less")) for (k in c(TRUE, FALSE)) {
//	    r <- suppressWarnings(wilcox.test(c(3,3,3), c(3,3), alternative = a, correct = k))
//	    print(c(a, k, r$statistic, r$p.value)) }
//	  print(tryCatch(wilcox.test(numeric(0), c(1,2)), error = conditionMessage))
//	  print(tryCatch(wilcox.test(c(1,2), numeric(0)), error = conditionMessage))'
//
// With every value tied R gives W = 3 = nx*ny/2, and p NaN (zero variance)
// except for a one-sided alternative with the continuity correction,
// where it divides the correction by zero and prints p = 1; this package
// gives NaN there too, as its doc says (no made-up 1). An empty sample is
// an error in R ("not enough (non-missing) 'x' observations", "not enough
// 'y' observations") and a NaN statistic and p-value here.
func TestMannWhitneyDegenerate(t *testing.T) {
	tied := []struct{ x, y []float64 }{{[]float64{3, 3, 3}, []float64{3, 3}}, {[]float64{3, 3}, []float64{3, 3, 3}}}
	for _, tt := range tied {
		for _, alt := range []stats.Alternative{stats.TwoSided, stats.Greater, stats.Less} {
			for _, got := range []stats.MannWhitneyResult{
				stats.MannWhitney(tt.x, tt.y, alt),
				stats.MannWhitneyNormal(tt.x, tt.y, alt, true),
				stats.MannWhitneyNormal(tt.x, tt.y, alt, false),
			} {
				if got.U != 3 || !math.IsNaN(got.P) || got.Exact {
					t.Errorf("all tied %v %v, alternative %d: %+v, want U = 3, p NaN, not exact", tt.x, tt.y, alt, got)
				}
			}
		}
	}
	for _, tt := range []struct{ x, y []float64 }{{nil, []float64{1, 2}}, {[]float64{1, 2}, nil}, {nil, nil}} {
		for _, got := range []stats.MannWhitneyResult{
			stats.MannWhitney(tt.x, tt.y, stats.TwoSided),
			stats.MannWhitneyNormal(tt.x, tt.y, stats.Greater, true),
		} {
			if !math.IsNaN(got.U) || !math.IsNaN(got.P) {
				t.Errorf("empty sample %v %v: %+v, want U and p NaN", tt.x, tt.y, got)
			}
		}
	}
}

func TestMannWhitneyNormal(t *testing.T) {
	// R wilcox.test(x, y, alternative, exact = FALSE, correct = ...) on
	// the permeability data, options(digits = 16), from SciPy's
	// test_gh_9184; correct = FALSE is Hollander & Wolfe's large-sample
	// approximation.
	tests := []struct {
		alt     stats.Alternative
		correct bool
		p       float64
	}{
		{stats.Less, true, 0.900775348204},
		{stats.Greater, true, 0.1223118025635},
		{stats.TwoSided, true, 0.244623605127},
		{stats.Less, false, 0.8896643190401},
		{stats.Greater, false, 0.1103356809599},
		{stats.TwoSided, false, 0.2206713619198},
	}
	for _, tt := range tests {
		got := stats.MannWhitneyNormal(permX, permY, tt.alt, tt.correct)
		if got.U != 35 || got.Exact || !near(got.P, tt.p, 1e-12, false) {
			t.Errorf("alternative %d, correct %v: U = %v, p = %.16g; want 35, %.16g", tt.alt, tt.correct, got.U, got.P, tt.p)
		}
	}
	// R (SciPy test_gh_2118): wilcox.test(c(1, 2, 3), c(1.5, 2.5),
	// "greater", exact = FALSE) gives W = 3, p = 0.6135850036578.
	if got := stats.MannWhitneyNormal([]float64{1, 2, 3}, []float64{1.5, 2.5}, stats.Greater, true); got.U != 3 || !near(got.P, 0.6135850036578, 1e-12, false) {
		t.Errorf("1 2 3 vs 1.5 2.5: %+v", got)
	}
}

// TestMannWhitneyExactByEnumeration checks the exact distribution against
// brute force: every way of choosing which of the m+n ranks belong to x.
func TestMannWhitneyExactByEnumeration(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {2, 3}, {4, 4}, {5, 7}, {7, 5}, {3, 10}, {10, 3}} {
		m, n := size[0], size[1]
		total := 0
		counts := make(map[int]int)
		for mask := 0; mask < 1<<(m+n); mask++ {
			if popcount(mask) != m {
				continue
			}
			total++
			u, ys := 0, 0
			for i := 0; i < m+n; i++ { // rank i+1, from the smallest
				if mask&(1<<i) != 0 {
					u += ys
				} else {
					ys++
				}
			}
			counts[u]++
		}
		for u := 0; u <= m*n; u++ {
			// Data with U = u: x values placed to give exactly u pairs.
			x, y := arrangement(m, n, u)
			got := stats.MannWhitney(x, y, stats.Less)
			var want int
			for k := 0; k <= u; k++ {
				want += counts[k]
			}
			if got.U != float64(u) || !got.Exact || !near(got.P, float64(want)/float64(total), 1e-12, false) {
				t.Errorf("m=%d n=%d U=%d: got %+v, want P(U <= u) = %d/%d", m, n, u, got, want, total)
			}
		}
	}
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// arrangement returns samples of sizes m and n without ties whose U is u.
func arrangement(m, n, u int) (x, y []float64) {
	for j := range n {
		y = append(y, float64(10*j+5))
	}
	// Give each x value the number of y values below it, in turn, so that
	// the counts sum to u.
	left := u
	for range m {
		k := min(left, n)
		left -= k
		x = append(x, float64(10*k)+float64(len(x)+1)/float64(m+1))
	}
	return x, y
}

func TestHolm(t *testing.T) {
	// R multtest::mt.rawp2adjp(p, "Holm"), recorded in statsmodels'
	// test suite (statsmodels/stats/tests/test_multi.py, res_multtest1:
	// raw p-values and their Holm adjustment, sorted).
	raw := []float64{5.23656777208e-05, 2.8140506198e-04, 1.49877310796e-02, 2.02732688798e-02,
		0.177096952723, 0.642193923795, 0.680845947633, 0.71626938238, 0.838541367553, 0.967833824309}
	holm := []float64{5.2365677720800005e-04, 2.5326455578199999e-03, 1.1990184863680001e-01,
		1.4191288215860001e-01, 1, 1, 1, 1, 1, 1}
	// In another order, with NaNs that p.adjust leaves NA and does not
	// count.
	order := []int{8, 0, 5, 2, 9, 1, 7, 4, 6, 3}
	in := []float64{math.NaN()}
	want := []float64{math.NaN()}
	for _, i := range order {
		in = append(in, raw[i])
		want = append(want, holm[i])
	}
	in = append(in, math.NaN())
	want = append(want, math.NaN())
	got := stats.Holm(in)
	for i := range want {
		if !near(got[i], want[i], 1e-15, false) {
			t.Errorf("Holm[%d] of %v = %.17g, want %.17g", i, in[i], got[i], want[i])
		}
	}
	// Holm (1979) by hand: 0.01, 0.04, 0.03, 0.005 of m = 4 become
	// 4*0.005, 3*0.01, max(2*0.03, .) and max(1*0.04, 0.06).
	got = stats.Holm([]float64{0.01, 0.04, 0.03, 0.005})
	for i, w := range []float64{0.03, 0.06, 0.06, 0.02} {
		if !near(got[i], w, 1e-15, false) {
			t.Errorf("Holm small [%d] = %v, want %v", i, got[i], w)
		}
	}
	if len(stats.Holm(nil)) != 0 {
		t.Error("Holm(nil) not empty")
	}
}

func TestERT(t *testing.T) {
	tests := []struct {
		name string
		runs []stats.Run
		want float64
	}{
		{"none", nil, math.NaN()},
		{"no success", []stats.Run{{Effort: 100}, {Effort: 100}}, math.Inf(1)},
		{"all solved", []stats.Run{{10, true}, {30, true}}, 20},
		// Two of four solve: (10 + 30 + 100 + 100) / 2.
		{"half", []stats.Run{{10, true}, {100, false}, {30, true}, {100, false}}, 120},
	}
	for _, tt := range tests {
		if got := stats.ERT(tt.runs); !near(got, tt.want, 1e-12, false) {
			t.Errorf("%s: ERT = %v, want %v", tt.name, got, tt.want)
		}
	}
	// ERT equals Price's (1997) formula for restarts: mean effort of the
	// successes plus (1-p)/p times the mean effort of the failures.
	rng := rand.New(rand.NewPCG(1, 2))
	var runs []stats.Run
	var succ, fail []float64
	for range 200 {
		r := stats.Run{Effort: 1 + rng.Float64()*1000, Solved: rng.IntN(3) == 0}
		runs = append(runs, r)
		if r.Solved {
			succ = append(succ, r.Effort)
		} else {
			fail = append(fail, r.Effort)
		}
	}
	p := float64(len(succ)) / float64(len(runs))
	price := mean(succ) + (1-p)/p*mean(fail)
	if got := stats.ERT(runs); !near(got, price, 1e-12, true) {
		t.Errorf("ERT %v, Price's formula %v", got, price)
	}
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func TestBootstrapERT(t *testing.T) {
	var easy, hard []stats.Run
	for i := range 20 {
		easy = append(easy, stats.Run{Effort: float64(100 + i), Solved: true})
		hard = append(hard, stats.Run{Effort: 1000, Solved: i%4 == 0})
	}
	strata := [][]stats.Run{easy, hard}
	a := stats.BootstrapERT(strata, 2000, 0.95, rand.New(rand.NewPCG(7, 7)))
	b := stats.BootstrapERT(strata, 2000, 0.95, rand.New(rand.NewPCG(7, 7)))
	if a != b {
		t.Errorf("same seed, different intervals: %+v and %+v", a, b)
	}
	c := stats.BootstrapERT(strata, 2000, 0.95, rand.New(rand.NewPCG(8, 8)))
	if a == c {
		t.Errorf("another seed gave the very same interval %+v", a)
	}
	// (sum of 100..119 + 20*1000) / (20 + 5).
	if want := (2190.0 + 20000) / 25; !near(a.Estimate, want, 1e-12, false) {
		t.Errorf("estimate %v, want %v", a.Estimate, want)
	}
	if !(a.Low < a.Estimate && a.Estimate < a.High) || math.IsInf(a.High, 0) {
		t.Errorf("interval %+v does not bracket its estimate", a)
	}
	// Stratified: every resample keeps 20 easy successes, so none is
	// infinite and none exceeds (at most 20*119 + 20*1000) / 20.
	if a.High > (20*119.0+20000)/20+1e-9 {
		t.Errorf("high %v above the ERT with no hard success", a.High)
	}
	// One success in 20: most resamples have none or one; the upper bound
	// is infinite.
	var rare []stats.Run
	for i := range 20 {
		rare = append(rare, stats.Run{Effort: 50, Solved: i == 0})
	}
	r := stats.BootstrapERT([][]stats.Run{rare}, 1000, 0.95, rand.New(rand.NewPCG(1, 1)))
	if r.Estimate != 1000 || !math.IsInf(r.High, 1) || math.IsInf(r.Low, 0) {
		t.Errorf("rare successes: %+v, want estimate 1000, finite low, infinite high", r)
	}
	none := stats.BootstrapERT([][]stats.Run{{{Effort: 5}}}, 100, 0.95, rand.New(rand.NewPCG(1, 1)))
	if !math.IsInf(none.Estimate, 1) || !math.IsInf(none.Low, 1) {
		t.Errorf("no success: %+v", none)
	}
	empty := stats.BootstrapERT(nil, 100, 0.95, rand.New(rand.NewPCG(1, 1)))
	if !math.IsNaN(empty.Estimate) || !math.IsNaN(empty.Low) {
		t.Errorf("no runs: %+v", empty)
	}
}

func TestQuantile(t *testing.T) {
	// R: quantile(c(1, 2, 3, 4), c(0, 0.25, 0.5, 0.9, 1)) gives 1, 1.75,
	// 2.5, 3.7, 4 (type 7).
	s := []float64{1, 2, 3, 4}
	for q, want := range map[float64]float64{0: 1, 0.25: 1.75, 0.5: 2.5, 0.9: 3.7, 1: 4} {
		if got := stats.Quantile(s, q); !near(got, want, 1e-12, false) {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
	}
	if got := stats.Quantile([]float64{1, math.Inf(1)}, 0.5); !math.IsInf(got, 1) {
		t.Errorf("quantile next to +Inf = %v", got)
	}
	if got := stats.Median([]float64{5, 1, 3}); got != 3 {
		t.Errorf("median %v", got)
	}
}

// TestQuantileFew covers no values and one value:
//
//	Rscript -e 'print(quantile(numeric(0), c(0, 0.5, 1)));
//	  print(quantile(7.5, c(0, 0.25, 0.5, 1))); print(quantile(c(2, 9), c(0, 0.3, 1)))'
//
// prints NA NA NA (NaN here), 7.5 7.5 7.5 7.5, and 2.0 4.1 9.0.
func TestQuantileFew(t *testing.T) {
	for _, q := range []float64{0, 0.5, 1} {
		if got := stats.Quantile(nil, q); !math.IsNaN(got) {
			t.Errorf("Quantile(none, %v) = %v, want NaN", q, got)
		}
	}
	if got := stats.Median(nil); !math.IsNaN(got) {
		t.Errorf("Median(none) = %v, want NaN", got)
	}
	for _, q := range []float64{0, 0.25, 0.5, 1} {
		if got := stats.Quantile([]float64{7.5}, q); got != 7.5 {
			t.Errorf("Quantile([7.5], %v) = %v, want 7.5", q, got)
		}
	}
	if got := stats.Median([]float64{7.5}); got != 7.5 {
		t.Errorf("Median([7.5]) = %v, want 7.5", got)
	}
	if got := stats.Quantile([]float64{math.Inf(1)}, 0.5); !math.IsInf(got, 1) {
		t.Errorf("Quantile([+Inf], 0.5) = %v, want +Inf", got)
	}
	for q, want := range map[float64]float64{0: 2, 0.3: 4.1, 1: 9} {
		if got := stats.Quantile([]float64{2, 9}, q); !near(got, want, 1e-12, false) {
			t.Errorf("Quantile([2 9], %v) = %v, want %v", q, got, want)
		}
	}
	// Outside [0, 1] there is no quantile (R: "'probs' outside [0,1]").
	for _, q := range []float64{-0.1, 1.1, math.NaN()} {
		if got := stats.Quantile([]float64{7.5}, q); !math.IsNaN(got) {
			t.Errorf("Quantile([7.5], %v) = %v, want NaN", q, got)
		}
	}
}

func TestChiSquare1Upper(t *testing.T) {
	// The 5 % and 1 % critical values of chi-square with 1 df, 3.841459
	// and 6.634897 (any table, e.g. Abramowitz & Stegun 26.4).
	for x, want := range map[float64]float64{3.841459: 0.05, 6.634897: 0.01, 0: 1} {
		if got := stats.ChiSquare1Upper(x); !near(got, want, 1e-6, false) {
			t.Errorf("ChiSquare1Upper(%v) = %v, want %v", x, got, want)
		}
	}
}

func TestChiSquareUpper(t *testing.T) {
	// Rscript -e 'x <- c(0.5, 3.841459, 19.0, 49.189394, 108.9, 384.762436, 1226, 7, 25.744832, 0.01);
	//   df <- c(1, 1, 18, 18, 18, 287, 287, 3, 5, 2);
	//   print(data.frame(x, df, p=sprintf("%.10e", pchisq(x, df, lower.tail=FALSE))))'
	tests := []struct {
		x    float64
		df   int
		want float64
	}{
		{0.5, 1, 4.7950012219e-01},
		{3.841459, 1, 4.9999994653e-02},
		{19.0, 18, 3.9182348254e-01},
		{49.189394, 18, 1.0000001632e-04},
		{108.9, 18, 5.0420575918e-15},
		{384.762436, 287, 1.0000000415e-04},
		{1226, 287, 3.9565556737e-116},
		{7, 3, 7.1897772496e-02},
		{25.744832, 5, 9.9999998174e-05},
		{0.01, 2, 9.9501247919e-01},
		{0, 4, 1},
		{math.Inf(1), 4, 0},
		{-1, 4, math.NaN()},
		{1, 0, math.NaN()},
	}
	for _, tt := range tests {
		if got := stats.ChiSquareUpper(tt.x, tt.df); !near(got, tt.want, 1e-8, true) {
			t.Errorf("ChiSquareUpper(%v, %d) = %.10e, want %.10e", tt.x, tt.df, got, tt.want)
		}
	}
	// With one degree of freedom it agrees with ChiSquare1Upper.
	for _, x := range []float64{0.1, 1, 2.5, 10, 40} {
		if got, want := stats.ChiSquareUpper(x, 1), stats.ChiSquare1Upper(x); !near(got, want, 1e-10, true) {
			t.Errorf("ChiSquareUpper(%v, 1) = %v, ChiSquare1Upper %v", x, got, want)
		}
	}
}

// FuzzMannWhitney checks that any samples give a statistic in [0, mn] and
// p-values in [0, 1], and that swapping the samples mirrors the statistic.
func FuzzMannWhitney(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5}, []byte{3, 3, 9})
	f.Add([]byte{7}, []byte{7})
	f.Add([]byte{0, 0, 0, 1}, []byte{200, 100})
	f.Fuzz(func(t *testing.T, xb, yb []byte) {
		if len(xb) == 0 || len(yb) == 0 || len(xb) > 60 || len(yb) > 60 {
			return
		}
		x, y := bytesToFloats(xb), bytesToFloats(yb)
		mn := float64(len(x) * len(y))
		for _, alt := range []stats.Alternative{stats.TwoSided, stats.Greater, stats.Less} {
			r := stats.MannWhitney(x, y, alt)
			if r.U < 0 || r.U > mn {
				t.Fatalf("U = %v outside [0, %v]", r.U, mn)
			}
			if !math.IsNaN(r.P) && (r.P < 0 || r.P > 1+1e-12) {
				t.Fatalf("p = %v outside [0, 1]", r.P)
			}
		}
		r, s := stats.MannWhitney(x, y, stats.TwoSided), stats.MannWhitney(y, x, stats.TwoSided)
		if r.U+s.U != mn || !near(r.P, s.P, 1e-9, false) {
			t.Fatalf("swapped: %+v and %+v", r, s)
		}
	})
}

func bytesToFloats(b []byte) []float64 {
	out := make([]float64, len(b))
	for i, v := range b {
		out[i] = float64(v % 16)
	}
	return out
}

// TestMannWhitneyExactLarge checks the exact distribution at the largest
// sizes it is used for against the normal approximation, which is close
// there (the exact p-values come from counts near 1e28, summed in float64).
func TestMannWhitneyExactLarge(t *testing.T) {
	x := make([]float64, 49)
	y := make([]float64, 49)
	for i := range x {
		x[i] = float64(2*i) + 6 // shifted up: U above mn/2
		y[i] = float64(2*i + 1)
	}
	e := stats.MannWhitney(x, y, stats.TwoSided)
	n := stats.MannWhitneyNormal(x, y, stats.TwoSided, true)
	if !e.Exact || e.U != n.U || math.Abs(e.P-n.P) > 0.005 || e.P <= 0 || e.P >= 1 {
		t.Errorf("49 vs 49: exact %+v, normal %+v", e, n)
	}
}
