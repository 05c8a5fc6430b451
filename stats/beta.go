package stats

import "math"

// FUpper returns P(X > x) for X F-distributed with d1 and d2 degrees of
// freedom (R's pf(x, d1, d2, lower.tail = FALSE)). It is NaN for a NaN or
// negative x or degrees of freedom not above 0.
func FUpper(x, d1, d2 float64) float64 {
	if math.IsNaN(x) || x < 0 || !(d1 > 0) || !(d2 > 0) {
		return math.NaN()
	}
	if math.IsInf(x, 1) {
		return 0
	}
	return betaRegularized(d2/2, d1/2, d2/(d2+d1*x))
}

// betaRegularized returns the regularized incomplete beta function
// I_x(a, b), by its continued fraction (modified Lentz), on the side
// where it converges fast, as in Numerical Recipes 6.4.
func betaRegularized(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(a, b, x) / a
	}
	return 1 - front*betaFraction(b, a, 1-x)/b
}

// betaFraction evaluates the continued fraction of I_x(a, b).
func betaFraction(a, b, x float64) float64 {
	const eps = 1e-15
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1/awayFromZero(1-qab*x/qap)
	h := d
	for m := 1; m < 10000; m++ {
		mf := float64(m)
		m2 := 2 * mf
		// The fraction's even and odd steps.
		for _, aa := range [2]float64{
			mf * (b - mf) * x / ((qam + m2) * (a + m2)),
			-(a + mf) * (qab + mf) * x / ((a + m2) * (qap + m2)),
		} {
			d = 1 / awayFromZero(1+aa*d)
			c = awayFromZero(1 + aa/c)
			h *= d * c
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return h
}
