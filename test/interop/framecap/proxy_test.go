package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeNameServer answers every request frame on ln with TOPIC_NOT_EXIST (17) echoing its opaque.
func fakeNameServer(t *testing.T, ln net.Listener) {
	t.Helper()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				for {
					req, err := readFrame(c)
					if err != nil {
						return
					}
					h, _ := parseHeader(req)
					if _, err := c.Write(binaryFrame(17, 453, int32(h.Opaque), flagResponse)); err != nil {
						return
					}
				}
			}()
		}
	}()
}

func TestProxy_RecordsRequestAndResponseFiles(t *testing.T) {
	srv, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	fakeNameServer(t, srv)

	dir := t.TempDir()
	rec, err := newRecorder(dir, "t-")
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	go func() { _ = serve(proxy, srv.Addr().String(), rec) }()

	client, err := net.Dial("tcp", proxy.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	req := jsonFrame(t, `{"code":105,"flag":0,"opaque":5,"extFields":{"topic":"T"}}`, nil)
	if _, err := client.Write(req); err != nil {
		t.Fatal(err)
	}
	resp, err := readFrame(client)
	if err != nil {
		t.Fatal(err)
	}

	want := map[string][]byte{
		"t-c001-00001-out-req-GET_ROUTEINFO_BY_TOPIC.bin":      req,
		"t-c001-00002-in-resp-GET_ROUTEINFO_BY_TOPIC-rc17.bin": resp,
	}
	for name, content := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("missing capture: %v", err)
		}
		if !bytes.Equal(got, content) {
			t.Fatalf("%s = %x, want %x", name, got, content)
		}
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(index), "\n"); lines != 2 {
		t.Fatalf("index has %d lines, want 2:\n%s", lines, index)
	}
}
