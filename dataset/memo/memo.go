// Package memo keeps engine memos (protocol.Memo) in a folder of the user's cache: what an engine
// learned loading a data folder, filed under a digest of the engine module and the folder (Key),
// so that the next run of the same module on the same folder hands it back and skips that work (see
// RATIONALE.md, "A folder's memo"). It is a cache: whatever goes wrong reading or writing it, a run
// goes on without it.
package memo

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/dataset"
)

// MaxSize bounds a memo's size, read or written: a memo holds counts, small tables and a few gold
// replays (tens of KB for the original's folder), so a larger file is not one of ours.
const MaxSize = 8 << 20

// Keep is how many memos a store keeps: those most recently used, the others removed.
const Keep = 16

// suffix ends a memo's file name.
const suffix = ".memo"

// A Store is a folder of memos.
type Store struct {
	dir string
}

// Open returns the store in dir, creating the folder (readable by its owner only).
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Store{dir: dir}, nil
}

// Module identifies an engine module by its size and CRC-32C and CRC-32 (IEEE) checksums, for Key:
// a host keeps this, not the module's megabytes.
func Module(module []byte) string { return string(checks(module)) }

// checks is a text's size and its two checksums, 16 bytes.
func checks(b []byte) []byte {
	var n [16]byte
	binary.LittleEndian.PutUint64(n[:8], uint64(len(b)))
	binary.LittleEndian.PutUint32(n[8:12], crc32.Checksum(b, castagnoli))
	binary.LittleEndian.PutUint32(n[12:], crc32.ChecksumIEEE(b))
	return n[:]
}

// Key digests an engine module (its Module) and a folder's files (path -> bytes): any change to
// either, a byte, a path, a file added or removed, gives another key. Each text is read through
// two CRCs, CRC-32C and CRC-32 (IEEE), which the processor computes at several GB/s: together a
// 64-bit check, which misses an accidental change with a chance of about 2^-64 (SHA-256 over the
// same 9 MB, the module and the original's folder, took 12 ms: 6% of the start-up the memo speeds
// up). The checks, the sizes and the paths are then digested with SHA-256. A memo is the user's own
// cache, not a security boundary: anyone who can write it can write the compilation cache beside it.
func Key(module string, files map[string][]byte) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	var n [8]byte
	field := func(b []byte) { // its length first, so no two lists digest alike
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field([]byte(module))
	for _, p := range paths {
		field([]byte(p))
		h.Write(checks(files[p]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// castagnoli is the CRC-32C table.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// path is where the memo of key is kept.
func (s *Store) path(key string) string { return filepath.Join(s.dir, key+suffix) }

// header starts a memo's file: the key it is kept under and the CRC-32C of the memo after it, so
// that a file cut short, changed on disk or copied under another key reads as no memo.
func header(key, memo string) string {
	return fmt.Sprintf("apibank-memo 1 %s %08x\n", key, crc32.Checksum([]byte(memo), castagnoli))
}

// Get returns the memo kept under key, or "" when there is none (or it cannot be read, is not a
// regular file, is over MaxSize, or its header does not vouch for it). A memo found counts as just
// used (see Keep).
func (s *Store) Get(key string) string {
	b, err := dataset.ReadFile(s.path(key), MaxSize+headerMax) // a FIFO, a device or a folder is refused unopened
	if err != nil {
		return ""
	}
	head, memo, ok := strings.Cut(string(b), "\n")
	if !ok || head+"\n" != header(key, memo) {
		return ""
	}
	now := time.Now()
	os.Chtimes(s.path(key), now, now)
	return memo
}

// headerMax bounds a header's size (a key is 64 hex digits).
const headerMax = 128

// Put keeps memo under key, replacing what was there, and removes the oldest memos beyond Keep. The
// file is written beside its place and renamed there, so a reader at the same time sees the old
// memo or the new one, never a part (and a file cut short by a crash fails its header's check).
func (s *Store) Put(key, memo string) error {
	if len(memo) > MaxSize {
		return errors.New("memo over the size limit")
	}
	f, err := os.CreateTemp(s.dir, tempPrefix+"*.tmp")
	if err != nil {
		return err
	}
	_, err = f.WriteString(header(key, memo) + memo)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), s.path(key))
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	s.prune()
	return nil
}

// tempPrefix starts the name of a memo being written; one older than staleTemp was left by a
// process that died writing it.
const (
	tempPrefix = "put-"
	staleTemp  = time.Hour
)

// prune removes the memos beyond the Keep most recently used, and stale temporary files.
func (s *Store) prune() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	type memo struct {
		name string
		at   int64
	}
	var memos []memo
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasPrefix(e.Name(), tempPrefix) {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
				os.Remove(filepath.Join(s.dir, e.Name()))
			}
			continue
		}
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		if info, err := e.Info(); err == nil {
			memos = append(memos, memo{e.Name(), info.ModTime().UnixNano()})
		}
	}
	if len(memos) <= Keep {
		return
	}
	sort.Slice(memos, func(i, j int) bool { return memos[i].at > memos[j].at })
	for _, m := range memos[Keep:] {
		os.Remove(filepath.Join(s.dir, m.name))
	}
}
