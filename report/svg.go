package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"io"
	"strings"
)

// InlineSVG returns an SVG document (as plots.Figure.WriteSVG writes it)
// as an element to put in the page: the XML declaration, comments and
// document type before the <svg> root are dropped. It refuses, with an
// error saying why, a document that is not well-formed XML, whose root is
// not svg, or that holds what could run or fetch anything: a script or
// foreignObject element, an event-handler attribute (onload=...), or a
// reference to another document (href or xlink:href other than a #local
// fragment, url(...) other than url(#...) in an attribute or style sheet,
// or @import). So the page stays self-contained and scriptless whatever
// the picture holds.
func InlineSVG(doc []byte) (template.HTML, error) {
	start, err := checkSVG(doc)
	if err != nil {
		return "", fmt.Errorf("inline svg: %w", err)
	}
	return template.HTML(bytes.TrimSpace(doc[start:])), nil
}

// checkSVG parses doc and returns the offset of its root element.
func checkSVG(doc []byte) (int, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	root := -1
	depth := 0
	inStyle := false
	for {
		offset := int(d.InputOffset())
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root >= 0 {
					return 0, errors.New("more than one root element")
				}
				if t.Name.Local != "svg" {
					return 0, fmt.Errorf("root element is <%s>, want <svg>", t.Name.Local)
				}
				root = offset
			}
			depth++
			inStyle = strings.EqualFold(t.Name.Local, "style")
			switch strings.ToLower(t.Name.Local) {
			case "script", "foreignobject", "iframe", "object", "embed":
				return 0, fmt.Errorf("<%s> element not allowed", t.Name.Local)
			}
			for _, a := range t.Attr {
				name := strings.ToLower(a.Name.Local)
				v := strings.TrimSpace(a.Value)
				switch {
				case strings.HasPrefix(name, "on"):
					return 0, fmt.Errorf("event attribute %s not allowed", a.Name.Local)
				case name == "href" && !strings.HasPrefix(v, "#"):
					return 0, fmt.Errorf("reference %q to another document not allowed", v)
				case externalURL(v):
					return 0, fmt.Errorf("attribute %s=%q refers to another document", a.Name.Local, v)
				}
			}
		case xml.EndElement:
			depth--
			inStyle = false
		case xml.CharData:
			if inStyle && externalURL(string(t)) {
				return 0, errors.New("style sheet refers to another document")
			}
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return 0, errors.New("text outside the root element")
			}
		case xml.Directive:
			if depth > 0 {
				return 0, errors.New("directive inside the document")
			}
		case xml.ProcInst:
			if depth > 0 {
				return 0, fmt.Errorf("processing instruction <?%s?> inside the document", t.Target)
			}
		}
	}
	if root < 0 {
		return 0, errors.New("no <svg> element")
	}
	return root, nil
}

// externalURL reports whether a style refers to anything but a fragment
// of the page itself: url(...) other than url(#...), or @import.
func externalURL(style string) bool {
	s := strings.ToLower(style)
	if strings.Contains(s, "@import") || strings.Contains(s, "expression(") {
		return true
	}
	for {
		i := strings.Index(s, "url(")
		if i < 0 {
			return false
		}
		s = strings.TrimLeft(s[i+4:], " \t\n'\"")
		if !strings.HasPrefix(s, "#") {
			return true
		}
	}
}
