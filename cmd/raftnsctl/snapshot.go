package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/raftns/raftns/snapshots"
	"github.com/spf13/cobra"
)

func (a *app) snapshotCommand() *cobra.Command {
	return group("snapshot", "Back up, restore and inspect snapshots of the replicated state",
		`snapshot saves the cluster's replicated state (routes, brokers, KV config,
member directory) to a file, restores it from one, or checks a file offline.
Every file is verified (format version, records, checksum) before it is kept
or sent.`,
		a.snapshotSaveCommand(), a.snapshotRestoreCommand(), a.snapshotInspectCommand())
}

// withFileArg makes c take exactly one argument, FILE, and run run on it.
func withFileArg(c *cobra.Command, run func(cmd *cobra.Command, file string) error) *cobra.Command {
	c.Args = exactArgs("FILE")
	c.RunE = func(cmd *cobra.Command, args []string) error { return run(cmd, args[0]) }
	return c
}

func (a *app) snapshotSaveCommand() *cobra.Command {
	return withFileArg(&cobra.Command{
		Use:   "save FILE",
		Short: "Download a snapshot of the cluster's state to FILE",
		Long: `save downloads a fresh snapshot from the leader (GET /v1/snapshot) into
FILE.tmp, verifies it, and only then renames it to FILE, replacing any
existing FILE. A download that breaks off or fails verification leaves FILE
untouched. --timeout bounds the whole transfer; raise it for large states.`,
		Example: `  raftnsctl snapshot save backup-$(date +%F).snap
  raftnsctl --addr 10.0.0.2:9856 --timeout 5m snapshot save backup.snap`,
	}, a.runSnapshotSave)
}

func (a *app) runSnapshotSave(cmd *cobra.Command, file string) error {
	return a.withAdmin(cmd, func(ctx context.Context, c *adminClient) error {
		resp, err := c.do(ctx, http.MethodGet, "/v1/snapshot", nil, nil)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		tmp := file + ".tmp"
		size, err := writeFileSynced(tmp, resp.Body)
		if err != nil {
			os.Remove(tmp)
			if ctx.Err() != nil {
				return c.transportError(ctx, err)
			}
			return fmt.Errorf("save snapshot from %s to %s after %d bytes: %w", c.addr(), tmp, size, err)
		}
		sum, err := inspectFile(tmp)
		if err != nil {
			os.Remove(tmp)
			return fmt.Errorf("%w: the %d bytes from %s: %w; %s left untouched", errBadSnapshot, size, c.addr(), err, file)
		}
		if err := os.Rename(tmp, file); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("save snapshot: %w", err)
		}
		syncDir(filepath.Dir(file))
		return a.printSummary("saved", file, size, sum, nil)
	})
}

// writeFileSynced writes r to path (mode 0600: the state holds KV config)
// and syncs it to disk.
func writeFileSynced(path string, r io.Reader) (int64, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// syncDir makes a rename durable; failing to is not worth an error.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// inspectFile verifies a snapshot file.
func inspectFile(path string) (snapshots.Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return snapshots.Summary{}, err
	}
	defer f.Close()
	return snapshots.Inspect(f)
}

func (a *app) snapshotRestoreCommand() *cobra.Command {
	return withFileArg(&cobra.Command{
		Use:   "restore FILE",
		Short: "Replace the cluster's state with the snapshot in FILE",
		Long: `restore verifies FILE locally, then sends it to the leader
(POST /v1/snapshot), which replaces the replicated state of every member
with it. A file that fails verification is not sent. The state in place
before the restore is lost: save a snapshot first.`,
		Example: `  raftnsctl snapshot restore backup.snap`,
	}, a.runSnapshotRestore)
}

func (a *app) runSnapshotRestore(cmd *cobra.Command, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("restore snapshot: %w", err)
	}
	defer f.Close()
	sum, err := snapshots.Inspect(f)
	if err != nil {
		return fmt.Errorf("%w: %s: %w; nothing sent", errBadSnapshot, file, err)
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		return fmt.Errorf("restore snapshot: %w", err)
	}
	return a.withAdmin(cmd, func(ctx context.Context, c *adminClient) error {
		var ans resultAnswer
		// Send exactly the bytes verified.
		body := &payload{r: io.LimitReader(f, size), length: size, contentType: "application/octet-stream"}
		raw, err := c.exchange(ctx, http.MethodPost, "/v1/snapshot", nil, body, &ans)
		if err != nil {
			return err
		}
		if a.json() {
			return printRaw(a.stdout, raw)
		}
		return a.printSummary(ans.Result, file, size, sum, nil)
	})
}

func (a *app) snapshotInspectCommand() *cobra.Command {
	return withFileArg(&cobra.Command{
		Use:   "inspect FILE",
		Short: "Verify a snapshot file offline and summarise it",
		Long: `inspect reads FILE without contacting any member, verifies its format
version, records and checksum, and prints the record counts per type. A
damaged file prints what was read before the damage and exits with 1.`,
		Example: `  raftnsctl snapshot inspect backup.snap
  raftnsctl snapshot inspect -o json backup.snap`,
	}, a.runSnapshotInspect)
}

func (a *app) runSnapshotInspect(_ *cobra.Command, file string) error {
	fi, err := os.Stat(file)
	if err != nil {
		return fmt.Errorf("inspect snapshot: %w", err)
	}
	if fi.IsDir() {
		return fmt.Errorf("inspect snapshot: %s is a directory", file)
	}
	sum, ierr := inspectFile(file)
	var notFile *os.PathError
	if errors.As(ierr, &notFile) {
		return fmt.Errorf("inspect snapshot: %w", ierr)
	}
	if err := a.printSummary("inspected", file, fi.Size(), sum, ierr); err != nil {
		return err
	}
	if ierr != nil {
		return fmt.Errorf("%w: %s: %w", errBadSnapshot, file, ierr)
	}
	return nil
}
