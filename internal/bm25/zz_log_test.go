package bm25

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

func TestZZLog(t *testing.T) {
	b, err := os.ReadFile("/tmp/bm25dev/logs.json")
	if err != nil {
		t.Skip()
	}
	var hx [][2]string
	json.Unmarshal(b, &hx)
	bad, badStd := 0, 0
	for _, h := range hx {
		x, _ := strconv.ParseFloat(h[0], 64)
		want, _ := strconv.ParseFloat(h[1], 64)
		if got := pyLog(x); got != want {
			bad++
			if bad < 40 && x == math.Floor(x)+0.5 && x < 2e6 {
				t.Logf("x=%v cr=%x py=%s", x, got, h[1])
			}
		}
		if math.Log(x) != want {
			badStd++
		}
	}
	t.Logf("%d of %d differ (math.Log: %d)", bad, len(hx), badStd)
}
