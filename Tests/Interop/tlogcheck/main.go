// tlogcheck checks a C2SP tlog publication and proofs with golang.org/x/mod's sumdb/note and sumdb/tlog —
// an implementation independent of onym-ledger's. Run in GOPATH mode against Debian's
// golang-golang-x-mod-dev:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run main.go DIR
//
// DIR holds `vkey` (the log's verifier key), `checkpoint` (the signed note), the C2SP tiles under `tile/`,
// and `proofs.txt`: lines `inclusion <index> <entry b64> <hash b64>...` and
// `consistency <old size> <old root b64> <hash b64>...` against the checkpoint's tree.
// Prints one "ok" line per check and exits 1 at the first failure.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL "+format+"\n", args...)
	os.Exit(1)
}

// tilePath is the C2SP path of a tile: no height element, entry bundles under tile/entries.
func tilePath(t tlog.Tile) string {
	n := t.N
	var groups []string
	for {
		groups = append([]string{fmt.Sprintf("%03d", n%1000)}, groups...)
		n /= 1000
		if n == 0 {
			break
		}
	}
	for i := 0; i < len(groups)-1; i++ {
		groups[i] = "x" + groups[i]
	}
	level := strconv.Itoa(t.L)
	if t.L == -1 {
		level = "entries"
	}
	p := "tile/" + level + "/" + strings.Join(groups, "/")
	if t.W < 1<<uint(t.H) {
		p += ".p/" + strconv.Itoa(t.W)
	}
	return p
}

type dirTiles struct{ dir string }

func (d dirTiles) Height() int { return 8 }
func (d dirTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	var out [][]byte
	for _, t := range tiles {
		data, err := os.ReadFile(filepath.Join(d.dir, tilePath(t)))
		if err != nil {
			return nil, err
		}
		out = append(out, data)
	}
	return out, nil
}
func (d dirTiles) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

func decodeHash(s string) tlog.Hash {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw) != tlog.HashSize {
		fail("bad hash %q", s)
	}
	var h tlog.Hash
	copy(h[:], raw)
	return h
}

func main() {
	dir := os.Args[1]
	vkey, err := os.ReadFile(filepath.Join(dir, "vkey"))
	if err != nil {
		fail("%v", err)
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		fail("verifier key: %v", err)
	}
	msg, err := os.ReadFile(filepath.Join(dir, "checkpoint"))
	if err != nil {
		fail("%v", err)
	}
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		fail("checkpoint signature: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) != 4 || lines[3] != "" {
		fail("checkpoint body: %q", n.Text)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("size: %v", err)
	}
	root := decodeHash(lines[2])
	fmt.Printf("ok checkpoint %s size %d signed by %s\n", lines[0], size, verifier.Name())

	if size > 0 {
		tree := tlog.Tree{N: size, Hash: root}
		reader := tlog.TileHashReader(tree, dirTiles{dir})
		got, err := tlog.TreeHash(size, reader)
		if err != nil || got != root {
			fail("tree hash from tiles: %v %v", got, err)
		}
		fmt.Printf("ok tiles give the root for size %d\n", size)
		// Every entry bundle hashes to the level-0 tile beside it.
		for start := int64(0); start < size; start += 256 {
			w := size - start
			if w > 256 {
				w = 256
			}
			t := tlog.Tile{H: 8, L: 0, N: start / 256, W: int(w)}
			hashes, err := dirTiles{dir}.ReadTiles([]tlog.Tile{t})
			if err != nil {
				fail("tile %s: %v", tilePath(t), err)
			}
			bundle, err := os.ReadFile(filepath.Join(dir, tilePath(tlog.Tile{H: 8, L: -1, N: t.N, W: t.W})))
			if err != nil {
				fail("bundle: %v", err)
			}
			for i := 0; i < int(w); i++ {
				if len(bundle) < 2 {
					fail("bundle %d short", t.N)
				}
				l := int(binary.BigEndian.Uint16(bundle))
				entry := bundle[2 : 2+l]
				bundle = bundle[2+l:]
				h := tlog.RecordHash(entry)
				if !bytes.Equal(h[:], hashes[0][i*32:(i+1)*32]) {
					fail("entry %d does not hash to its tile", start+int64(i))
				}
			}
			if len(bundle) != 0 {
				fail("bundle %d has trailing bytes", t.N)
			}
		}
		fmt.Printf("ok entry bundles match the tiles\n")
	}

	proofs, err := os.Open(filepath.Join(dir, "proofs.txt"))
	if err != nil {
		return
	}
	scanner := bufio.NewScanner(proofs)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		switch fields[0] {
		case "inclusion":
			index, _ := strconv.ParseInt(fields[1], 10, 64)
			entry, err := base64.StdEncoding.DecodeString(fields[2])
			if err != nil {
				fail("entry: %v", err)
			}
			var proof tlog.RecordProof
			for _, f := range fields[3:] {
				proof = append(proof, decodeHash(f))
			}
			if err := tlog.CheckRecord(proof, size, root, index, tlog.RecordHash(entry)); err != nil {
				fail("inclusion of %d in %d: %v", index, size, err)
			}
			fmt.Printf("ok inclusion %d of %d\n", index, size)
		case "consistency":
			old, _ := strconv.ParseInt(fields[1], 10, 64)
			oldRoot := decodeHash(fields[2])
			var proof tlog.TreeProof
			for _, f := range fields[3:] {
				proof = append(proof, decodeHash(f))
			}
			if err := tlog.CheckTree(proof, size, root, old, oldRoot); err != nil {
				fail("consistency %d → %d: %v", old, size, err)
			}
			fmt.Printf("ok consistency %d of %d\n", old, size)
		default:
			fail("unknown line %q", fields[0])
		}
	}
}
