// notecheck opens signed notes with golang.org/x/mod's sumdb/note, the reference C2SP client, to compare
// what it accepts with what onym-ledger's checkpoint rule accepts (docs/FORMAT.md, "Checkpoints"). Run in
// GOPATH mode against Debian's golang-golang-x-mod-dev:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run main.go VKEY-FILE NOTE-FILE...
//
// Prints one line per note: "accept <file>" when note.Open verifies it under the verifier key, else
// "reject <file>: <error>". Exits 2 when the key cannot be read or a file is missing.
package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Println("usage: notecheck VKEY-FILE NOTE-FILE...")
		os.Exit(2)
	}
	vkey, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Println("unreadable key:", err)
		os.Exit(2)
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		fmt.Println("bad key:", err)
		os.Exit(2)
	}
	for _, path := range os.Args[2:] {
		msg, err := os.ReadFile(path)
		if err != nil {
			fmt.Println("unreadable note:", err)
			os.Exit(2)
		}
		if _, err := note.Open(msg, note.VerifierList(verifier)); err != nil {
			fmt.Printf("reject %s: %v\n", path, err)
		} else {
			fmt.Printf("accept %s\n", path)
		}
	}
}
