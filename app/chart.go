package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

const svgNS = "http://www.w3.org/2000/svg"

// Bar is one bar of a chart: a label, a value, and the text written at the bar's end.
type Bar struct {
	Label string
	Value float64
	Text  string
	// Class colours the bar (chart-bar-good, -bad, -none, -level); empty is the accent colour.
	Class string
}

// BarChart draws horizontal bars scaled to max (the largest value when max <= 0) as SVG. Labels are
// text nodes, never markup, so imported names cannot inject anything.
func BarChart(title string, bars []Bar, max float64) app.UI {
	if max <= 0 {
		for _, b := range bars {
			if b.Value > max {
				max = b.Value
			}
		}
	}
	if max <= 0 {
		max = 1
	}
	const labelW, barW, rowH, textW = 190.0, 300.0, 26.0, 90.0
	h := rowH*float64(len(bars)) + 8
	el := func(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }
	rows := make([]app.UI, 0, 1+len(bars))
	rows = append(rows, el("title").Text(title))
	for i, b := range bars {
		y := 4 + rowH*float64(i)
		w := barW * b.Value / max
		if w < 0 {
			w = 0
		}
		rows = append(rows, el("g").Body(
			el("text").Attr("x", labelW-8).Attr("y", y+rowH/2+4).Attr("text-anchor", "end").Attr("class", "chart-label").Text(b.Label),
			el("rect").Attr("x", labelW).Attr("y", y+3).Attr("width", fmt.Sprintf("%.1f", w)).Attr("height", rowH-8).Attr("rx", 3).Attr("class", "chart-bar chart-bar-"+b.Class),
			el("text").Attr("x", fmt.Sprintf("%.1f", labelW+w+6)).Attr("y", y+rowH/2+4).Attr("class", "chart-value").Text(b.Text),
		))
	}
	return el("svg").Attr("viewBox", fmt.Sprintf("0 0 %.0f %.0f", labelW+barW+textW, h)).Attr("role", "img").
		Attr("aria-label", title).Attr("class", "chart").DataSet("testid", "chart").Body(rows...)
}
