package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
)

// csrfGuard keeps other sites from writing through a browser that has the
// pages open (cross-site request forgery). Each server draws a random
// secret. A page with a form gives the browser a cookie holding a random
// nonce (SameSite=Strict, so no other site's request carries it) and puts
// in the form the nonce's HMAC under the secret, which no other site can
// read or compute. A POST is taken only with the cookie and the token that
// matches it, compared in constant time, and only when its Origin (or,
// without one, its Referer) names this server.
type csrfGuard struct {
	secret []byte
	// cookie is the cookie's name, distinct per server: a browser keeps
	// one cookie per host whatever the port, and two servers on one host
	// must not take each other's.
	cookie string
}

// csrfField is the form field holding the token.
const csrfField = "csrf"

// errCSRF is why a POST was refused; its text is the 403 page's.
var errCSRF = errors.New("this form was not sent by a page of this server (missing or wrong token, or from another origin): reload the page and send it again")

func newCSRFGuard() (*csrfGuard, error) {
	g := &csrfGuard{secret: make([]byte, 32)}
	if _, err := rand.Read(g.secret); err != nil {
		return nil, err
	}
	g.cookie = "sudokulab_csrf_" + g.mac("cookie name")[:12]
	return g, nil
}

// mac is the hex HMAC-SHA256 of s under the server's secret.
func (g *csrfGuard) mac(s string) string {
	h := hmac.New(sha256.New, g.secret)
	h.Write([]byte(s))
	return hex.EncodeToString(h.Sum(nil))
}

// token returns the form token for the browser of r, giving it a fresh
// nonce cookie when it has none.
func (g *csrfGuard) token(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(g.cookie); err == nil && c.Value != "" {
		return g.mac(c.Value)
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on the systems Go supports
	}
	nonce := hex.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: g.cookie, Value: nonce, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return g.mac(nonce)
}

// check returns errCSRF unless the POST r carries the cookie, the token
// that matches it in its form, and no Origin or Referer of another host.
// The form must be parsed.
func (g *csrfGuard) check(r *http.Request) error {
	if o := r.Header.Get("Origin"); o != "" {
		if !sameHost(o, r.Host) {
			return errCSRF
		}
	} else if ref := r.Header.Get("Referer"); ref != "" && !sameHost(ref, r.Host) {
		return errCSRF
	}
	c, err := r.Cookie(g.cookie)
	if err != nil || c.Value == "" {
		return errCSRF
	}
	if !hmac.Equal([]byte(r.PostForm.Get(csrfField)), []byte(g.mac(c.Value))) {
		return errCSRF
	}
	return nil
}

// sameHost tells whether the URL u (an Origin or Referer; "null" is none)
// names host.
func sameHost(u, host string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Host != "" && p.Host == host
}
