package zipfile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"strings"
	"testing"
	"time"
)

var modified = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)

// stdZip is an archive written by archive/zip: a folder entry, then files, each with method.
func stdZip(t *testing.T, method uint16, files ...File) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	if _, err := zw.Create("top/"); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: method, Modified: modified})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(f.Data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadWhatArchiveZipWrote(t *testing.T) {
	files := []File{{"top/a.jsonl", []byte(strings.Repeat(`{"x": 1}`+"\n", 500))}, {"top/b/ü.txt", []byte("héllo")}, {"top/empty", nil}}
	for _, tc := range []struct {
		name   string
		method uint16
	}{{"stored", zip.Store}, {"deflated", zip.Deflate}} {
		t.Run(tc.name, func(t *testing.T) {
			entries, err := Read(stdZip(t, tc.method, files...))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 4 || !entries[0].IsDir() || entries[0].Name != "top/" {
				t.Fatalf("entries %+v", entries)
			}
			for i, f := range files {
				e := entries[i+1]
				if e.Name != f.Name || e.IsDir() {
					t.Errorf("entry %d: %q", i+1, e.Name)
				}
				got, err := e.Read(1 << 20)
				if err != nil || !bytes.Equal(got, f.Data) {
					t.Errorf("%s: %q, %v", f.Name, got, err)
				}
			}
		})
	}
}

func TestReadLimit(t *testing.T) {
	entries, err := Read(stdZip(t, zip.Deflate, File{"big", bytes.Repeat([]byte("a"), 10000)}))
	if err != nil {
		t.Fatal(err)
	}
	got, err := entries[1].Read(99)
	if err != nil || len(got) != 100 {
		t.Fatalf("over the limit: %d bytes, %v; want the limit and one byte, no error", len(got), err)
	}
}

func TestWriteIsReadByArchiveZip(t *testing.T) {
	files := []File{{"synth/level-1/x.jsonl", []byte(strings.Repeat("line\n", 300))}, {"synth/README.md", []byte("# ü")}}
	b, err := Write(files, modified, Deflate)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Write(files, modified, Deflate)
	if !bytes.Equal(b, again) {
		t.Error("the same files wrote different bytes")
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != len(files) {
		t.Fatalf("%d files", len(zr.File))
	}
	for i, f := range zr.File {
		if f.Name != files[i].Name || !f.Modified.Equal(modified) || f.NonUTF8 {
			t.Errorf("header %+v", f.FileHeader)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		if err != nil || !bytes.Equal(got, files[i].Data) {
			t.Errorf("%s: %q, %v", f.Name, got, err)
		}
	}
	// And by Read.
	entries, err := Read(b)
	if err != nil || len(entries) != 2 {
		t.Fatal(entries, err)
	}
	if got, err := entries[0].Read(1 << 20); err != nil || !bytes.Equal(got, files[0].Data) {
		t.Error(got, err)
	}
}

func TestReadZip64(t *testing.T) {
	b := zip64Archive(t, File{"top/a.txt", []byte("zip64 sizes")})
	entries, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := entries[len(entries)-1].Read(1 << 20)
	if err != nil || string(got) != "zip64 sizes" {
		t.Fatalf("%q, %v", got, err)
	}
}

func TestReadBad(t *testing.T) {
	good := stdZip(t, zip.Deflate, File{"a.txt", []byte(strings.Repeat("abc", 100))})
	flip := func(at int, v byte) []byte { b := bytes.Clone(good); b[at] = v; return b }
	// Where the file's deflated data starts: after its local record's name and extra field.
	entries, err := Read(good)
	if err != nil {
		t.Fatal(err)
	}
	off := int(entries[1].off)
	dataAt := off + 30 + int(binary.LittleEndian.Uint16(good[off+26:])) + int(binary.LittleEndian.Uint16(good[off+28:]))
	for _, tc := range []struct {
		name string
		b    []byte
		want string // in Read's error, or else in the entry's
	}{
		{"empty", nil, "not a valid zip"},
		{"text", []byte("hello, world"), "not a valid zip"},
		{"truncated", good[:len(good)-30], "not a valid zip"},
		{"damaged data", flip(dataAt, 0xff), "zip"},
		{"checksum", func() []byte {
			b := bytes.Clone(good)
			i := bytes.LastIndex(b, []byte{0x50, 0x4b, 0x01, 0x02})
			b[i+16] ^= 0xff
			return b
		}(), "checksum"},
		{"encrypted", func() []byte {
			b := bytes.Clone(good)
			i := bytes.LastIndex(b, []byte{0x50, 0x4b, 0x01, 0x02})
			b[i+8] |= 1
			return b
		}(), "encrypted"},
		{"method", func() []byte {
			b := bytes.Clone(good)
			i := bytes.LastIndex(b, []byte{0x50, 0x4b, 0x01, 0x02})
			b[i+10] = 12
			return b
		}(), "method 12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entries, err := Read(tc.b)
			if err == nil {
				_, err = entries[len(entries)-1].Read(1 << 20)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// FuzzRead: no input makes Read or an entry's Read panic.
func FuzzRead(f *testing.F) {
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := Read(b)
		if err != nil {
			return
		}
		for _, e := range entries {
			_, _ = e.Read(1 << 16)
		}
	})
}

func crc(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// zip64Archive builds, byte by byte, an archive of one stored file whose central record and end
// records are in zip64 form (as writers of large archives make them).
func zip64Archive(t *testing.T, f File) []byte {
	t.Helper()
	le := binary.LittleEndian
	var b []byte
	b = le.AppendUint32(b, sigLocal)
	b = append(b, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	b = le.AppendUint32(b, crc(f.Data))
	b = le.AppendUint32(b, uint32(len(f.Data)))
	b = le.AppendUint32(b, uint32(len(f.Data)))
	b = le.AppendUint16(b, uint16(len(f.Name)))
	b = le.AppendUint16(b, 0)
	b = append(b, f.Name...)
	b = append(b, f.Data...)
	dirOff := len(b)
	b = le.AppendUint32(b, sigCentral)
	b = append(b, 45, 0, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	b = le.AppendUint32(b, crc(f.Data))
	b = le.AppendUint32(b, 0xffffffff)
	b = le.AppendUint32(b, 0xffffffff)
	b = le.AppendUint16(b, uint16(len(f.Name)))
	b = le.AppendUint16(b, 4+24)
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	b = le.AppendUint32(b, 0xffffffff)
	b = append(b, f.Name...)
	b = le.AppendUint16(b, 1)
	b = le.AppendUint16(b, 24)
	b = le.AppendUint64(b, uint64(len(f.Data)))
	b = le.AppendUint64(b, uint64(len(f.Data)))
	b = le.AppendUint64(b, 0)
	dirSize := len(b) - dirOff
	end64 := len(b)
	b = le.AppendUint32(b, sigEnd64)
	b = le.AppendUint64(b, 44)
	b = append(b, 45, 0, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	b = le.AppendUint64(b, 1)
	b = le.AppendUint64(b, 1)
	b = le.AppendUint64(b, uint64(dirSize))
	b = le.AppendUint64(b, uint64(dirOff))
	b = le.AppendUint32(b, sigEnd64Locate)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, uint64(end64))
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, sigEnd)
	b = append(b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff)
	b = le.AppendUint32(b, 0xffffffff)
	b = le.AppendUint32(b, 0xffffffff)
	b = le.AppendUint16(b, 0)
	// archive/zip reads it too: the fixture is a real zip64 archive.
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil || len(zr.File) != 1 || zr.File[0].UncompressedSize64 != uint64(len(f.Data)) {
		t.Fatalf("the zip64 fixture is not what archive/zip reads: %v", err)
	}
	return b
}
