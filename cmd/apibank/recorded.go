package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// passSuffix is what `apibank run` adds to its --out name for one pass of a run of several (see
// trialPath and passPath): ".trial-N", ".variant-S", ".rerun", before the extension.
var passSuffix = regexp.MustCompile(`\.(trial-[0-9]+|variant-[0-9]+|rerun)$`)

// recorded is what a run's record (run.RecordPath) says of one of its predictions files, or, for a
// file with no record, what its name says (protocol.SeedInName).
type recorded struct {
	record string // the record's path ("": the seed is the file name's)
	seed   int64  // the variant the file's pass asked (0: the builtin data itself)
	// dataHash is the hash of the data the file's pass asked (run.DataHash of levels), when the
	// record keeps it: "" for a pass on other data than the run's (a robustness run's variants).
	dataHash string
	levels   []string
}

// recordOf finds the record of the run that wrote the predictions file path: the record beside it,
// or beside the run's --out when path is one pass of a run of several. ok is false when no record
// there names the file (a file written otherwise: the Runs page, a script), or it does not read.
func recordOf(path string) (rec recorded, ok bool) {
	ext := filepath.Ext(path)
	stem := path[:len(path)-len(ext)]
	for _, out := range []string{path, passSuffix.ReplaceAllString(stem, "") + ext} {
		b, err := os.ReadFile(run.RecordPath(out))
		if err != nil {
			continue
		}
		var r run.Record
		if json.Unmarshal(b, &r) != nil || r.Format != run.RecordFormat {
			continue
		}
		for _, t := range r.Trials {
			if t.File == filepath.Base(path) {
				rec := recorded{record: run.RecordPath(out), seed: t.Seed}
				if t.Seed == r.Run.Seed {
					rec.dataHash, rec.levels = r.Run.DataHash, r.Run.Levels
				}
				return rec, true
			}
		}
	}
	return recorded{}, false
}

// source says where rec's seed was read: its record, or file's name.
func (rec recorded) source(file string) string {
	if rec.record == "" {
		return "its name says so: " + filepath.Base(file)
	}
	return rec.record
}

// dataOfRecords chooses the data that predictions files are judged on from their runs' records
// (recordOf), or for a file with no record from its name as every host names a file of answers to
// a variant (protocol.SeedInName: a board's download MODEL-ID.seed-S.jsonl, a robustness pass
// FILE.variant-S.jsonl, the Runs page's export), as the Score page reads it: with neither --data
// nor --seed given, the variant they were asked on (said on stderr); judged on other data than they
// were asked on, right answers would be counted wrong without a word. A --seed other than a
// record's is refused; one other than a name's is taken, and stderr says so. With --data, a file asked on a variant is
// judged on the folder as asked, and stderr says so. Files asked on different data (a run on a
// variant beside one on the builtin data, compared) are each judged on their own: perFile maps
// every file to its seed then (a file without a record: the builtin data), and is nil otherwise.
func dataOfRecords(fs *flag.FlagSet, c *common, files []string, stderr io.Writer) (perFile map[string]int64, err error) {
	found := map[string]recorded{}
	var first string
	same := true
	for _, f := range files {
		rec, ok := recordOf(f)
		if !ok {
			seed, named := protocol.SeedInName(f)
			if !named {
				continue
			}
			rec = recorded{seed: seed}
		}
		if len(found) == 0 {
			first = f
		} else if rec.seed != found[first].seed {
			same = false
		}
		found[f] = rec
	}
	if len(found) == 0 {
		return nil, nil
	}
	seedGiven := false
	fs.Visit(func(f *flag.Flag) { seedGiven = seedGiven || f.Name == "seed" })
	for _, f := range files {
		rec, ok := found[f]
		switch {
		case !ok:
		case c.data != "" && rec.seed != 0:
			fmt.Fprintf(stderr, "apibank: %s was asked on %s (%s); judged on --data %s as asked\n", f, dataName(rec.seed), rec.source(f), c.data)
		case c.data == "" && seedGiven && rec.seed != c.seed.Seed && rec.record == "":
			fmt.Fprintf(stderr, "apibank: %s is named for %s; judged on %s, as --seed %d says\n", f, dataName(rec.seed), dataName(c.seed.Seed), c.seed.Seed)
		case c.data == "" && seedGiven && rec.seed != c.seed.Seed:
			return nil, fmt.Errorf("%s was asked on %s (%s says so): --seed %d would judge it on other data; leave --seed out, or give --seed %d", f, dataName(rec.seed), rec.record, c.seed.Seed, rec.seed)
		}
	}
	if c.data != "" || seedGiven {
		return nil, nil
	}
	seed := found[first].seed
	if same {
		if seed != 0 {
			c.seed.Seed = seed
			fmt.Fprintf(stderr, "apibank: judged on %s, which %s was asked on (%s)\n", dataName(seed), first, found[first].source(first))
			for _, f := range files {
				if _, ok := found[f]; !ok {
					fmt.Fprintf(stderr, "apibank: %s has no run record beside it, nor a seed in its name: judged on %s too\n", f, dataName(seed))
				}
			}
		}
		return nil, nil
	}
	perFile = map[string]int64{}
	for _, f := range files {
		rec, ok := found[f]
		perFile[f] = rec.seed
		if ok {
			fmt.Fprintf(stderr, "apibank: %s judged on %s, which it was asked on (%s)\n", f, dataName(rec.seed), rec.source(f))
		} else {
			fmt.Fprintf(stderr, "apibank: %s has no run record beside it, nor a seed in its name: judged on %s\n", f, dataName(0))
		}
	}
	return perFile, nil
}

// warnOtherData says on stderr when the data r holds is not the data the predictions file path
// was asked on, as its run's record keeps its hash (recordOf): a folder other than the run's
// --data, or data changed since. Judged on other data, right answers may be counted wrong: the
// verdicts are given, with a warning. A file with no record, or whose record keeps no hash of its
// data, is not checked.
func warnOtherData(r runner, path string, stderr io.Writer) error {
	rec, ok := recordOf(path)
	if !ok || rec.dataHash == "" {
		return nil
	}
	loaded, err := run.DataHash(context.Background(), r.do, rec.levels, nil)
	if err != nil || loaded == rec.dataHash {
		return err
	}
	fmt.Fprintf(stderr, "apibank: warning: %s was asked on other data than it is judged on (%s records data %s, the loaded data is %s): give the --data or --seed it was asked on\n",
		path, rec.record, rec.dataHash, loaded)
	return nil
}

// dataName names the builtin data (seed 0) or its variant of seed.
func dataName(seed int64) string {
	if seed == 0 {
		return "the builtin data itself"
	}
	return "the variant of seed " + strconv.FormatInt(seed, 10)
}
