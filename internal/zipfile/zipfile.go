// Package zipfile reads and writes zip archives with the parts of the format the tab uses: stored and
// deflated entries, zip64 sizes and offsets, no encryption, no multi-disk archives. It exists for
// app.wasm's size: archive/zip is larger than all of this, and compress/flate, which does the
// (de)compressing, is linked anyway (net/http's gzip, the share links). See RATIONALE, "First visit on
// a phone network: bytes first".
package zipfile

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"time"
)

// The records' signatures.
const (
	sigLocal       = 0x04034b50
	sigCentral     = 0x02014b50
	sigEnd         = 0x06054b50
	sigEnd64       = 0x06064b50
	sigEnd64Locate = 0x07064b50
)

// The compression methods read and written.
const (
	methodStore   = 0
	methodDeflate = 8
)

// Entry is one file (or folder, see IsDir) of an archive Read found.
type Entry struct {
	// Name is the entry's path as the archive spells it (slash-separated).
	Name string

	flags, method     uint16
	crc               uint32
	packed, size, off uint64
	archive           []byte
}

// IsDir tells a folder's entry (its name ends with a slash).
func (e *Entry) IsDir() bool { return strings.HasSuffix(e.Name, "/") }

// Read returns the entry's content, at most max+1 bytes of it (as io.LimitReader would give), so a
// caller can tell an entry over its limit without expanding all of it; the checksum is checked when
// the whole content was read.
func (e *Entry) Read(max int64) ([]byte, error) {
	b := e.archive
	if e.off > uint64(len(b)) || uint64(len(b))-e.off < 30 || binary.LittleEndian.Uint32(b[e.off:]) != sigLocal {
		return nil, errors.New("zip: its local header is missing")
	}
	start := e.off + 30 + uint64(binary.LittleEndian.Uint16(b[e.off+26:])) + uint64(binary.LittleEndian.Uint16(b[e.off+28:]))
	if start > uint64(len(b)) || uint64(len(b))-start < e.packed {
		return nil, errors.New("zip: the entry's data runs past the end of the archive")
	}
	data := b[start : start+e.packed]
	var r io.Reader
	switch {
	case e.flags&1 != 0:
		return nil, errors.New("zip: encrypted entries are not supported")
	case e.method == methodStore:
		r = bytes.NewReader(data)
	case e.method == methodDeflate:
		fr := flate.NewReader(bytes.NewReader(data))
		defer fr.Close()
		r = fr
	default:
		return nil, fmt.Errorf("zip: compression method %d is not supported", e.method)
	}
	out, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("zip: %v", err)
	}
	if int64(len(out)) <= max && (uint64(len(out)) != e.size || crc32.ChecksumIEEE(out) != e.crc) {
		return nil, errors.New("zip: checksum error")
	}
	return out, nil
}

// errFormat is Read's error for bytes that are not a zip archive.
var errFormat = errors.New("zip: not a valid zip file")

// Read lists the entries of the archive b, in the order its central directory gives them.
func Read(b []byte) ([]Entry, error) {
	end := bytes.LastIndex(b[max(0, len(b)-(22+65535)):], []byte{0x50, 0x4b, 0x05, 0x06})
	if end < 0 {
		return nil, errFormat
	}
	end += max(0, len(b)-(22+65535))
	if len(b)-end < 22 {
		return nil, errFormat
	}
	e := b[end:]
	count := uint64(binary.LittleEndian.Uint16(e[10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(e[12:]))
	dirOff := uint64(binary.LittleEndian.Uint32(e[16:]))
	if binary.LittleEndian.Uint16(e[4:]) != 0 || binary.LittleEndian.Uint16(e[6:]) != 0 {
		return nil, errors.New("zip: multi-disk archives are not supported")
	}
	if count == 0xffff || dirSize == 0xffffffff || dirOff == 0xffffffff {
		// zip64: the locator just before the end record says where the zip64 end record is.
		if end < 20 || binary.LittleEndian.Uint32(b[end-20:]) != sigEnd64Locate {
			return nil, errFormat
		}
		at := binary.LittleEndian.Uint64(b[end-12:])
		if at > uint64(len(b)) || uint64(len(b))-at < 56 || binary.LittleEndian.Uint32(b[at:]) != sigEnd64 {
			return nil, errFormat
		}
		e64 := b[at:]
		count, dirSize, dirOff = binary.LittleEndian.Uint64(e64[32:]), binary.LittleEndian.Uint64(e64[40:]), binary.LittleEndian.Uint64(e64[48:])
	}
	if dirOff > uint64(len(b)) || uint64(len(b))-dirOff < dirSize {
		return nil, errFormat
	}
	dir := b[dirOff : dirOff+dirSize]
	// Every central record is at least 46 bytes: a count beyond that is a lie, not an allocation.
	entries := make([]Entry, 0, min(count, uint64(len(dir)/46)))
	for i := uint64(0); i < count; i++ {
		if len(dir) < 46 || binary.LittleEndian.Uint32(dir) != sigCentral {
			return nil, errFormat
		}
		n, m, k := int(binary.LittleEndian.Uint16(dir[28:])), int(binary.LittleEndian.Uint16(dir[30:])), int(binary.LittleEndian.Uint16(dir[32:]))
		if len(dir) < 46+n+m+k {
			return nil, errFormat
		}
		en := Entry{
			Name:    string(dir[46 : 46+n]),
			flags:   binary.LittleEndian.Uint16(dir[8:]),
			method:  binary.LittleEndian.Uint16(dir[10:]),
			crc:     binary.LittleEndian.Uint32(dir[16:]),
			packed:  uint64(binary.LittleEndian.Uint32(dir[20:])),
			size:    uint64(binary.LittleEndian.Uint32(dir[24:])),
			off:     uint64(binary.LittleEndian.Uint32(dir[42:])),
			archive: b,
		}
		if err := en.zip64(dir[46+n : 46+n+m]); err != nil {
			return nil, err
		}
		entries = append(entries, en)
		dir = dir[46+n+m+k:]
	}
	return entries, nil
}

// zip64 reads the zip64 extra field of a central record: the 8-byte forms of the sizes and offset
// whose 4-byte fields are all ones, in that order.
func (e *Entry) zip64(extra []byte) error {
	for len(extra) >= 4 {
		id, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if len(extra) < 4+n {
			return errFormat
		}
		if id == 1 {
			f := extra[4 : 4+n]
			for _, p := range []*uint64{&e.size, &e.packed, &e.off} {
				if *p != 0xffffffff {
					continue
				}
				if len(f) < 8 {
					return errFormat
				}
				*p, f = binary.LittleEndian.Uint64(f), f[8:]
			}
		}
		extra = extra[4+n:]
	}
	return nil
}

// File is one file for Write.
type File struct {
	Name string
	Data []byte
}

// Deflate compresses b as raw deflate data at compress/flate's best compression: Write's deflate
// where linking flate's compressor costs nothing.
func Deflate(b []byte) ([]byte, error) {
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Write returns an archive of files in the order given, each compressed by deflate (raw deflate
// data, as Deflate makes) and dated modified (a fixed time makes the same files the same bytes).
func Write(files []File, modified time.Time, deflate func([]byte) ([]byte, error)) ([]byte, error) {
	var out, dir bytes.Buffer
	dosTime := uint16(modified.Hour()<<11 | modified.Minute()<<5 | modified.Second()/2)
	dosDate := uint16((modified.Year()-1980)<<9 | int(modified.Month())<<5 | modified.Day())
	le := binary.LittleEndian
	for _, f := range files {
		if len(f.Name) > 0xffff {
			return nil, fmt.Errorf("zip: the name %.40q... is too long", f.Name)
		}
		packed, err := deflate(f.Data)
		if err != nil {
			return nil, fmt.Errorf("zip: %s: %v", f.Name, err)
		}
		if uint64(len(packed)) >= 0xffffffff || uint64(len(f.Data)) >= 0xffffffff || out.Len() >= 0xffffffff {
			return nil, fmt.Errorf("zip: %s: archives of 4 GB and more are not written", f.Name)
		}
		crc := crc32.ChecksumIEEE(f.Data)
		// The fields a local and a central record share: version needed (2.0), flags (bit 11: the name
		// is UTF-8), method, time, date, checksum, sizes, name length, no extra field.
		var common []byte
		common = le.AppendUint16(common, 20)
		common = le.AppendUint16(common, 1<<11)
		common = le.AppendUint16(common, methodDeflate)
		common = le.AppendUint16(common, dosTime)
		common = le.AppendUint16(common, dosDate)
		common = le.AppendUint32(common, crc)
		common = le.AppendUint32(common, uint32(len(packed)))
		common = le.AppendUint32(common, uint32(len(f.Data)))
		common = le.AppendUint16(common, uint16(len(f.Name)))
		common = le.AppendUint16(common, 0)
		off := out.Len()
		out.Write(le.AppendUint32(nil, sigLocal))
		out.Write(common)
		out.WriteString(f.Name)
		out.Write(packed)
		dir.Write(le.AppendUint32(nil, sigCentral))
		dir.Write(le.AppendUint16(nil, 20)) // version made by: 2.0, MS-DOS attributes
		dir.Write(common)
		// No comment, disk 0, no internal or external attributes, the local record's offset.
		dir.Write([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
		dir.Write(le.AppendUint32(nil, uint32(off)))
		dir.WriteString(f.Name)
	}
	if len(files) >= 0xffff || out.Len()+dir.Len() >= 0xffffffff {
		return nil, errors.New("zip: archives of 65535 files or 4 GB are not written")
	}
	dirOff := out.Len()
	out.Write(dir.Bytes())
	end := le.AppendUint32(nil, sigEnd)
	end = append(end, 0, 0, 0, 0) // disk numbers
	end = le.AppendUint16(end, uint16(len(files)))
	end = le.AppendUint16(end, uint16(len(files)))
	end = le.AppendUint32(end, uint32(dir.Len()))
	end = le.AppendUint32(end, uint32(dirOff))
	end = le.AppendUint16(end, 0) // no comment
	out.Write(end)
	return out.Bytes(), nil
}
