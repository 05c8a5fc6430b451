package stats_test

import (
	"math"
	"testing"

	"sudokulab/stats"
)

// demsarAUC is Table 6 of Demšar (2006), "Statistical comparisons of
// classifiers over multiple data sets", JMLR 7:1-30, section 3.2.2: the
// AUC of C4.5, C4.5+m, C4.5+cf and C4.5+m+cf on 14 UCI data sets (adult,
// breast cancer, breast cancer wisconsin, cmc, ionosphere, iris, liver
// disorders, lung cancer, lymphography, mushroom, primary tumor, rheum,
// voting, wine). The paper's text could not be fetched here; the numbers
// are those reproduced by several published test suites of the paper's
// example (for instance the Nemenyi tests of a Python package and the
// SCI2S tutorial's Java code), and they give the paper's ranks below.
var demsarAUC = [][]float64{
	{0.763, 0.768, 0.771, 0.798},
	{0.599, 0.591, 0.590, 0.569},
	{0.954, 0.971, 0.968, 0.967},
	{0.628, 0.661, 0.654, 0.657},
	{0.882, 0.888, 0.886, 0.898},
	{0.936, 0.931, 0.916, 0.931},
	{0.661, 0.668, 0.609, 0.685},
	{0.583, 0.583, 0.563, 0.625},
	{0.775, 0.838, 0.866, 0.875},
	{1.000, 1.000, 1.000, 1.000},
	{0.940, 0.962, 0.965, 0.962},
	{0.619, 0.666, 0.614, 0.669},
	{0.972, 0.981, 0.975, 0.975},
	{0.957, 0.978, 0.946, 0.970},
}

// negated turns "higher is better" into the ranks' "lower is better".
func negated(y [][]float64) [][]float64 {
	out := make([][]float64, len(y))
	for i, row := range y {
		out[i] = make([]float64, len(row))
		for j, v := range row {
			out[i][j] = -v
		}
	}
	return out
}

func TestFriedmanR(t *testing.T) {
	tests := []struct {
		name      string
		y         [][]float64
		stat, p   float64
		meanRanks []float64
	}{
		// Rscript -e 'options(digits = 16); y <- matrix(c(<demsarAUC>), ncol = 4, byrow = TRUE);
		//   f <- friedman.test(y); print(f$statistic); print(f$p.value);
		//   print(colMeans(t(apply(-y, 1, rank))))'
		// Friedman chi-squared 10.95238095238095, p 0.01198617632541782,
		// mean ranks 3.142857142857143 2 2.928571428571428 1.928571428571429
		// (R corrects for the ties; the ranks are of -AUC, best first).
		{"Demšar Table 6", negated(demsarAUC), 10.95238095238095, 0.01198617632541782,
			[]float64{3.142857142857143, 2, 2.928571428571428, 1.928571428571429}},
		// R's ?friedman.test example (Hollander & Wolfe 1973, p. 140):
		// friedman.test(RoundingTimes) with options(digits = 16) prints
		// 11.14285714285714, p 0.003805040775511363; colMeans of the
		// row ranks 2.409090909090909 2.136363636363636 1.454545454545455.
		{"RoundingTimes", roundingTimes, 11.14285714285714, 0.003805040775511363,
			[]float64{2.409090909090909, 2.136363636363636, 1.454545454545455}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stats.Friedman(tt.y)
			if !near(got.Statistic, tt.stat, 1e-9, true) || !near(got.P, tt.p, 1e-9, true) {
				t.Errorf("statistic %.16g p %.16g, want %.16g and %.16g", got.Statistic, got.P, tt.stat, tt.p)
			}
			if got.DF != len(tt.meanRanks)-1 || got.Blocks != len(tt.y) {
				t.Errorf("df %d blocks %d", got.DF, got.Blocks)
			}
			for j, want := range tt.meanRanks {
				if !near(got.MeanRanks[j], want, 1e-12, false) {
					t.Errorf("mean rank %d = %.16g, want %.16g", j, got.MeanRanks[j], want)
				}
			}
		})
	}
}

var roundingTimes = [][]float64{
	{5.40, 5.50, 5.55}, {5.85, 5.70, 5.75}, {5.20, 5.60, 5.50}, {5.55, 5.50, 5.40},
	{5.90, 5.85, 5.70}, {5.45, 5.55, 5.60}, {5.40, 5.40, 5.35}, {5.45, 5.50, 5.35},
	{5.25, 5.15, 5.00}, {5.85, 5.80, 5.70}, {5.25, 5.20, 5.10}, {5.65, 5.55, 5.45},
	{5.60, 5.35, 5.45}, {5.05, 5.00, 4.95}, {5.50, 5.50, 5.40}, {5.45, 5.55, 5.50},
	{5.55, 5.55, 5.35}, {5.45, 5.50, 5.55}, {5.50, 5.45, 5.25}, {5.65, 5.60, 5.40},
	{5.70, 5.65, 5.55}, {6.30, 6.30, 6.25},
}

// TestFriedmanDemsar checks the numbers section 3.2.2 of Demšar (2006)
// prints for its example. Its Table 6 ranks the voting row's tie of
// C4.5+cf and C4.5+m+cf (0.975 each) 2 and 3 rather than 2.5 each, which
// gives its mean ranks 3.143, 2.000, 2.893 and 1.964; from them it
// computes chi2_F = 9.28 without a correction for ties, Iman and
// Davenport's F_F = 3.69, and with q_0.05 = 2.569 and q_0.10 = 2.291 the
// critical differences CD = 1.25 and 1.12.
func TestFriedmanDemsar(t *testing.T) {
	y := negated(demsarAUC)
	y[12][2] -= 1e-9 // the paper's tie-break in the voting row: C4.5+cf second
	got := stats.Friedman(y)
	for j, want := range []float64{3.143, 2.000, 2.893, 1.964} {
		if !near(got.MeanRanks[j], want, 5e-4, false) {
			t.Errorf("mean rank %d = %.4f, want %.3f", j, got.MeanRanks[j], want)
		}
	}
	if !near(got.Uncorrected, 9.28, 5e-3, false) {
		t.Errorf("chi2_F = %.4f, want 9.28", got.Uncorrected)
	}
	f, p := stats.ImanDavenport(got.Uncorrected, got.Blocks, got.Treatments)
	if !near(f, 3.69, 5e-3, false) {
		t.Errorf("F_F = %.4f, want 3.69", f)
	}
	// Rscript -e 'options(digits = 16); chi <- 12*14/20*(sum(c(44, 28, 40.5, 27.5)^2/14^2) - 25);
	//   FF <- 13*chi/(14*3 - chi); print(pf(FF, 3, 39, lower.tail = FALSE))'
	// prints chi = 9.278571428571409, FF = 3.686313032089053 and p =
	// 0.01982300619224936 for the paper's rank sums 44, 28, 40.5 and 27.5.
	if !near(got.Uncorrected, 9.278571428571409, 1e-9, true) || !near(f, 3.686313032089053, 1e-9, true) ||
		!near(p, 0.01982300619224936, 1e-8, true) {
		t.Errorf("chi2_F %.16g F_F %.16g p %.16g, want R's", got.Uncorrected, f, p)
	}
	for _, c := range []struct{ alpha, cd float64 }{{0.05, 1.25}, {0.10, 1.12}} {
		if cd := stats.NemenyiCD(4, 14, c.alpha); !near(cd, c.cd, 5e-3, false) {
			t.Errorf("CD at %v = %.4f, want %v", c.alpha, cd, c.cd)
		}
	}
}

func TestFriedmanDegenerate(t *testing.T) {
	// All blocks tied: no test.
	if got := stats.Friedman([][]float64{{1, 1, 1}, {2, 2, 2}}); !math.IsNaN(got.P) || got.Blocks != 2 {
		t.Errorf("all tied: %+v, want NaN p over 2 blocks", got)
	}
	// Incomplete blocks are left out, as R's complete.cases does.
	got := stats.Friedman([][]float64{{1, 2, 3}, {1, math.NaN(), 3}, {2, 1, 3}, {1, 2}})
	if got.Blocks != 2 || got.MeanRanks[0] != 1.5 || got.MeanRanks[2] != 3 {
		t.Errorf("incomplete blocks: %+v", got)
	}
	if got := stats.Friedman(nil); !math.IsNaN(got.P) {
		t.Errorf("no blocks: %+v", got)
	}
	if got := stats.Friedman([][]float64{{1}, {2}}); !math.IsNaN(got.P) {
		t.Errorf("one treatment: %+v", got)
	}
}

func TestFUpper(t *testing.T) {
	// Rscript -e 'options(digits = 16); print(pf(c(0.5, 2, 7.3), 2, 10, lower.tail = FALSE));
	//   print(pf(3.69, 3, 39, lower.tail = FALSE))'
	for _, c := range []struct{ x, d1, d2, want float64 }{
		{0.5, 2, 10, 0.62092132305915526},
		{2, 2, 10, 0.18593443208187066},
		{7.3, 2, 10, 0.01110003797252661},
		{3.69, 3, 39, 0.01974409968948887},
	} {
		if got := stats.FUpper(c.x, c.d1, c.d2); !near(got, c.want, 1e-10, true) {
			t.Errorf("FUpper(%v, %v, %v) = %.16g, want %.16g", c.x, c.d1, c.d2, got, c.want)
		}
	}
}

// TestNemenyiTable checks q_alpha against Table 5(a) of Demšar (2006),
// "critical values for the two-tailed Nemenyi test", which prints three
// decimals (some rounded, some cut: 2.343 for 2.3437).
func TestNemenyiTable(t *testing.T) {
	table := map[float64][]float64{
		0.05: {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164},
		0.10: {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920},
	}
	// Rscript -e 'options(digits = 16); for (a in c(0.05, 0.10)) print(qtukey(1 - a, 2:10, Inf) / sqrt(2))'
	// (R's qtukey is accurate to about 1e-4, its documentation says).
	r := map[float64][]float64{
		0.05: {1.959963984766210, 2.343700587902142, 2.569031777420728, 2.727774382518554,
			2.849705443271294, 2.948320060722176, 3.030878522595204, 3.101730457508565, 3.163683753502790},
		0.10: {1.644853626982051, 2.052292730549199, 2.291341496996304, 2.459515764429517,
			2.588520602141444, 2.692732101259680, 2.779883608529912, 2.854606431672605, 2.919888840647095},
	}
	for alpha, want := range table {
		for i, w := range want {
			k := i + 2
			q := stats.NemenyiQ(k, alpha)
			if !near(q, w, 1e-3, false) {
				t.Errorf("q(%d, %v) = %.5f, want %.3f (Demšar Table 5)", k, alpha, q, w)
			}
			if !near(q, r[alpha][i], 1e-4, false) {
				t.Errorf("q(%d, %v) = %.8f, want R's %.8f", k, alpha, q, r[alpha][i])
			}
		}
	}
	// For k = 2 the range of two normals over sqrt(2) is |Z|: the normal
	// quantile 1.959963984540054 (qnorm(0.975)) to the bisection's limit.
	if q := stats.NemenyiQ(2, 0.05); !near(q, 1.959963984540054, 1e-9, false) {
		t.Errorf("q(2, 0.05) = %.12f, want qnorm(0.975)", q)
	}
}

func TestStudentizedRangeR(t *testing.T) {
	// Rscript -e 'options(digits = 16); print(ptukey(c(0.5, 1, 2.5, 3.3, 5), 4, Inf));
	//   print(ptukey(c(3, 4, 5.5), 80, Inf)); print(ptukey(3.5, 10, Inf, lower.tail = FALSE))'
	for _, c := range []struct {
		q    float64
		k    int
		want float64
	}{
		{0.5, 4, 0.01515008810476073}, {1, 4, 0.10567448787019165}, {2.5, 4, 0.71103706258108645},
		{3.3, 4, 0.90946250274814677}, {5, 4, 0.99769949706180161},
		{3, 80, 5.314194804215236e-05}, {4, 80, 6.900087813758110e-02}, {5.5, 80, 8.530389296675411e-01},
	} {
		if got := stats.StudentizedRangeCDF(c.q, c.k); !near(got, c.want, 1e-6, false) {
			t.Errorf("ptukey(%v, %d) = %.12g, want %.12g", c.q, c.k, got, c.want)
		}
	}
	if got := stats.StudentizedRangeUpper(3.5, 10); !near(got, 0.2820164376328022, 1e-6, false) {
		t.Errorf("upper(3.5, 10) = %.12g, want 0.2820164376328022", got)
	}
	// Rscript -e 'options(digits = 16); print(qtukey(0.95, c(20, 50, 80), Inf))'
	for i, k := range []int{20, 50, 80} {
		want := []float64{5.011688794686765, 5.646026181741052, 5.946701358907450}[i]
		if got := stats.StudentizedRangeQuantile(0.95, k); !near(got, want, 1e-4, false) {
			t.Errorf("qtukey(0.95, %d) = %.8f, want %.8f", k, got, want)
		}
	}
}

func TestNemenyiPAgreesWithCD(t *testing.T) {
	for _, c := range []struct{ k, n int }{{3, 30}, {10, 30}, {80, 300}} {
		for _, alpha := range []float64{0.05, 0.10} {
			cd := stats.NemenyiCD(c.k, c.n, alpha)
			if p := stats.NemenyiP(cd, c.k, c.n); !near(p, alpha, 1e-8, false) {
				t.Errorf("k %d n %d: p at the CD = %v, want alpha %v", c.k, c.n, p, alpha)
			}
			if p := stats.NemenyiP(cd*1.01, c.k, c.n); p >= alpha {
				t.Errorf("k %d n %d: p beyond the CD = %v, want below %v", c.k, c.n, p, alpha)
			}
		}
	}
}

func TestSignedRankR(t *testing.T) {
	// R's ?wilcox.test example (Hollander & Wolfe 1973, p. 29f: Hamilton
	// depression scale before and after a tranquilizer):
	// Rscript -e 'options(digits = 16); x <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30);
	//   y <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29);
	//   for (a in c("two.sided", "greater", "less")) print(wilcox.test(x, y, paired = TRUE, alternative = a)$p.value)'
	// V = 40; p 0.0390625, 0.01953125, 0.986328125 (exact).
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	// With ties and zero differences (5-5, 9-9, 6-6), normal approximation:
	// a <- c(3, 5, 5, 7, 9, 2, 4, 4, 8, 6, 1, 10); b <- c(1, 5, 3, 4, 9, 3, 1, 2, 5, 6, 4, 2)
	// suppressWarnings(wilcox.test(a, b, paired = TRUE, alternative = alt)): V = 37.5;
	// p 0.08198123074262048, 0.04099061537131024, 0.9685046013393852.
	a := []float64{3, 5, 5, 7, 9, 2, 4, 4, 8, 6, 1, 10}
	b := []float64{1, 5, 3, 4, 9, 3, 1, 2, 5, 6, 4, 2}
	// Exact with 15 pairs: p <- c(0.61, -0.22, 1.45, 0.07, 0.93, -0.41, 1.12, 0.35, 0.58, 1.71, -0.05,
	//   0.84, 0.29, 1.36, 0.49); wilcox.test(p, rep(0, 15), paired = TRUE): V = 110, p 0.002624511718750001.
	p := []float64{0.61, -0.22, 1.45, 0.07, 0.93, -0.41, 1.12, 0.35, 0.58, 1.71, -0.05, 0.84, 0.29, 1.36, 0.49}
	tests := []struct {
		name  string
		x, y  []float64
		alt   stats.Alternative
		v, p  float64
		n     int
		exact bool
	}{
		{"depression two-sided", x, y, stats.TwoSided, 40, 0.0390625, 9, true},
		{"depression greater", x, y, stats.Greater, 40, 0.01953125, 9, true},
		{"depression less", x, y, stats.Less, 40, 0.986328125, 9, true},
		{"ties and zeros two-sided", a, b, stats.TwoSided, 37.5, 0.08198123074262048, 9, false},
		{"ties and zeros greater", a, b, stats.Greater, 37.5, 0.04099061537131024, 9, false},
		{"ties and zeros less", a, b, stats.Less, 37.5, 0.9685046013393852, 9, false},
		{"15 pairs", p, make([]float64, 15), stats.TwoSided, 110, 0.002624511718750001, 15, true},
		// set.seed(1); u <- round(rnorm(60), 6); v <- round(rnorm(60, 0.3), 6);
		// wilcox.test(u, v, paired = TRUE): V = 682, p 0.08697544330538623
		// (60 pairs: the normal approximation with continuity correction).
		{"60 pairs", normal60u, normal60v, stats.TwoSided, 682, 0.08697544330538623, 60, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stats.SignedRank(tt.x, tt.y, tt.alt)
			if got.V != tt.v || got.N != tt.n || got.Exact != tt.exact {
				t.Errorf("V %v N %d exact %v, want %v %d %v", got.V, got.N, got.Exact, tt.v, tt.n, tt.exact)
			}
			if !near(got.P, tt.p, 1e-9, true) {
				t.Errorf("p = %.16g, want %.16g", got.P, tt.p)
			}
		})
	}
	for _, bad := range [][2][]float64{{{1, 2}, {1, 2}}, {{1, 2}, {1}}, {nil, nil}} {
		if got := stats.SignedRank(bad[0], bad[1], stats.TwoSided); !math.IsNaN(got.P) {
			t.Errorf("SignedRank(%v, %v) = %+v, want NaN p", bad[0], bad[1], got)
		}
	}
}

var normal60u = []float64{-0.626454, 0.183643, -0.835629, 1.595281, 0.329508, -0.820468, 0.487429, 0.738325, 0.575781,
	-0.305388, 1.511781, 0.389843, -0.621241, -2.2147, 1.124931, -0.044934, -0.01619, 0.943836, 0.821221, 0.593901,
	0.918977, 0.782136, 0.074565, -1.989352, 0.619826, -0.056129, -0.155796, -1.470752, -0.47815, 0.417942, 1.35868,
	-0.102788, 0.387672, -0.053805, -1.37706, -0.414995, -0.39429, -0.059313, 1.100025, 0.763176, -0.164524, -0.253362,
	0.696963, 0.556663, -0.688756, -0.707495, 0.364582, 0.768533, -0.112346, 0.881108, 0.398106, -0.612026, 0.34112,
	-1.129363, 1.433024, 1.9804, -0.367221, -1.044135, 0.56972, -0.135055}

var normal60v = []float64{2.701618, 0.26076, 0.989739, 0.328002, -0.443273, 0.488792, -1.504959, 1.765555, 0.453253,
	2.472612, 0.77551, -0.409946, 0.910726, -0.634098, -0.953633, 0.591446, -0.143292, 0.301105, 0.374341, -0.289521,
	-0.268669, 0.164821, 1.478087, -1.223567, 0.893946, 0.63295, 1.3631, -0.004184, 0.670019, 0.567099, -0.24252,
	1.507868, 1.460403, 1.000214, 1.886833, 0.858486, -0.976592, -0.273265, -0.924613, -0.173401, -0.320367, 0.342116,
	-0.610922, 0.458029, -0.354585, 2.067287, 1.016707, 1.210174, 0.684185, 1.982176, -0.335736, -0.161645, 1.732282,
	-0.350696, 0.092619, -0.092808, -0.019993, 0.020887, 0.794188, 0.12267}
