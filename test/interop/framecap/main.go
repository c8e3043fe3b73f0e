// Command framecap is a TCP proxy for the RocketMQ remoting protocol that records every frame it
// forwards, in both directions, one file per frame, for golden-frame tests. Standard library only.
//
//	framecap -listen 127.0.0.1:PORT -target 127.0.0.1:9876 -out DIR [-prefix NAME-]
//
// Files are named PREFIXcCONN-SEQ-DIR-KIND-NAME.bin (DIR "out" = client to name server, "in" = back;
// KIND req, oneway, resp or bad; a response is named after the request code its opaque answers, plus
// -rcRESPONSECODE). DIR/index.tsv has one line per frame: file, connection, sequence, direction,
// kind, request code, response code, opaque, flag, serialize type, version, length.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"os"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to accept clients on")
	target := flag.String("target", "", "name server address to forward to")
	out := flag.String("out", "", "directory for the captured frames")
	prefix := flag.String("prefix", "", "prefix of every file name")
	flag.Parse()
	if *target == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: framecap -listen HOST:PORT -target HOST:PORT -out DIR [-prefix NAME-]")
		os.Exit(2)
	}
	rec, err := newRecorder(*out, *prefix)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("framecap: listen %s: %v", *listen, err)
	}
	fmt.Printf("LISTENING %s -> %s\n", ln.Addr(), *target)
	log.Fatal(serve(ln, *target, rec))
}
