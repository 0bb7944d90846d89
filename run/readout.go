package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	linereader "github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
)

// Out is a run's predictions file (OutJSONL) read back apart: the prediction lines, ready for the
// engine's score op, and the level-3 episode lines, decoded. Preds keeps the file's line numbers:
// each episode line (and each line too long or not an episode) is left blank there, so a verdict's
// or a line error's number is the file's.
type Out struct {
	Preds    []byte
	Episodes []LineEpisode
	// Errors are the lines that could be neither, by number from 1 (File left empty: the caller
	// names the file).
	Errors []LineError
}

// LineEpisode is an episode and the line of the file it was read from.
type LineEpisode struct {
	Line    int
	Episode Episode
}

// ReadOut splits a run's predictions file (as `apibank run --out` writes it, the Runs page exports
// it and the board hands it back) into its predictions and its level-3 episodes. An episode's
// outcome is read as written: a host that judges the file replays the calls (ReplayEpisode) and
// believes nothing else. maxLine bounds a line's length (a longer one is an error of its own).
func ReadOut(data []byte, maxLine int) (Out, error) {
	var out Out
	var preds bytes.Buffer
	lr := linereader.NewBytesReader(data, maxLine)
	for {
		raw, n, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if !errors.Is(err, linereader.ErrTooLong) {
				return Out{}, err
			}
			out.Errors = append(out.Errors, LineError{Line: n, Message: err.Error()})
			preds.WriteByte('\n')
			continue
		}
		if IsEpisodeLine(raw) {
			var ep Episode
			if why := protocol.CheckEpisodeLine(raw); why != "" {
				out.Errors = append(out.Errors, LineError{Line: n, Message: why})
			} else if err := json.Unmarshal(raw, &ep); err != nil {
				out.Errors = append(out.Errors, LineError{Line: n, Message: fmt.Sprintf("not a level-3 episode: %v", err)})
			} else {
				out.Episodes = append(out.Episodes, LineEpisode{n, ep})
			}
			preds.WriteByte('\n')
			continue
		}
		preds.Write(raw)
		preds.WriteByte('\n')
	}
	out.Preds = preds.Bytes()
	return out, nil
}

// IsEpisodeLine says whether a line of a run's predictions file is a level-3 episode (EpisodeLine):
// protocol.IsEpisodeLine, which the engine's scoring streams use too.
func IsEpisodeLine(line []byte) bool { return protocol.IsEpisodeLine(line) }
