package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
)

// A member whose log holds a committed entry of a newer release — as
// after a downgrade past a finalized upgrade — stops with a clear message
// naming both releases and a non-zero exit status, and never panics.
func TestProcess_EntryOfANewerReleaseStopsTheMemberClearly(t *testing.T) {
	p := newProc(t, "solo")
	p.start()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.WaitReady(ctx, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := p.Terminate(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	// The versioned envelope a release 9.1.0 writes around its command
	// type 99, appended to the log as that release's leader would.
	entry := append([]byte{21, 5}, "9.1.0"...)
	entry = append(entry, 99, 0x80)
	appendLogEntry(t, filepath.Join(p.DataDir, "raft", "raft.db"), entry)

	p.start()
	poll.For(t, 30*time.Second, "the member to stop", p.Exited)
	log := p.Log()
	if p.ExitCode() == 0 || strings.Contains(log, "panic") {
		t.Fatalf("exit status %d; want non-zero and no panic:\n%s", p.ExitCode(), log)
	}
	want := "is unknown to this member's release " + buildinfo.Release + "; it needs release 9.1.0 or newer"
	if !strings.Contains(log, want) || !strings.Contains(log, "stopping: this member cannot apply a committed log entry") {
		t.Fatalf("log lacks %q and the stop line:\n%s", want, log)
	}
}

// appendLogEntry adds a command entry after the last one of the Raft log
// at path, in the last entry's term.
func appendLogEntry(t *testing.T, path string, data []byte) {
	t.Helper()
	store, err := raftboltdb.New(raftboltdb.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	last, err := store.LastIndex()
	if err != nil {
		t.Fatal(err)
	}
	var prev raft.Log
	if err := store.GetLog(last, &prev); err != nil {
		t.Fatal(err)
	}
	if err := store.StoreLog(&raft.Log{Index: last + 1, Term: prev.Term, Type: raft.LogCommand, Data: data}); err != nil {
		t.Fatal(err)
	}
}
