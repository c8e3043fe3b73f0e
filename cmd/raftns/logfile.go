package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"gopkg.in/natefinch/lumberjack.v2"
)

// logFileConfig sends the log to a file that is rotated by size and kept
// for a number of backups and an age, for hosts without journald
// (--log-file). Rotation is lumberjack's: the file is renamed with a time
// stamp once it would grow past MaxSize, and old ones are removed.
type logFileConfig struct {
	// Path is the log file; empty logs to standard error.
	Path string
	// MaxSize is the size a file reaches before it is rotated.
	MaxSize int64
	// MaxBackups is how many rotated files are kept; 0 keeps all (up to
	// MaxAge).
	MaxBackups int
	// MaxAge is how long rotated files are kept; 0 keeps them (up to
	// MaxBackups).
	MaxAge time.Duration
}

// Defaults of the log file's rotation.
const (
	defaultLogMaxSize    = 100 << 20
	defaultLogMaxBackups = 10
	defaultLogMaxAge     = 30 * 24 * time.Hour
	// minLogMaxSize is lumberjack's unit: it rotates by whole megabytes.
	minLogMaxSize = 1 << 20
)

func defaultLogFile() logFileConfig {
	return logFileConfig{MaxSize: defaultLogMaxSize, MaxBackups: defaultLogMaxBackups, MaxAge: defaultLogMaxAge}
}

// setters are the properties of the log file.
func (l *logFileConfig) setters() map[string]func(string) error {
	return map[string]func(string) error{
		"logFile":       setString(&l.Path),
		"logMaxSize":    setParsed(&l.MaxSize, parseBytes),
		"logMaxBackups": setParsed(&l.MaxBackups, strconv.Atoi),
		"logMaxAge":     setParsed(&l.MaxAge, parseDuration),
	}
}

// properties reports the log file's settings.
func (l *logFileConfig) properties(p map[string]string) {
	p["logFile"] = l.Path
	p["logMaxSize"] = strconv.FormatInt(l.MaxSize, 10)
	p["logMaxBackups"] = strconv.Itoa(l.MaxBackups)
	p["logMaxAge"] = l.MaxAge.String()
}

func (l *logFileConfig) validate() error {
	switch {
	case l.MaxSize < minLogMaxSize:
		return fmt.Errorf("log max size %d must be at least 1MiB", l.MaxSize)
	case l.MaxBackups < 0:
		return fmt.Errorf("log max backups %d must not be negative", l.MaxBackups)
	case l.MaxAge < 0:
		return fmt.Errorf("log max age %v must not be negative", l.MaxAge)
	case l.Path != "" && filepath.Base(l.Path) == ".":
		return errors.New("log file names a directory")
	}
	return nil
}

// open returns where the log goes: stderr, or the rotated file. Close the
// file when the process ends.
func (l *logFileConfig) open(stderr io.Writer) io.WriteCloser {
	if l.Path == "" {
		return nopCloser{stderr}
	}
	return &lumberjack.Logger{
		Filename:   l.Path,
		MaxSize:    int(l.MaxSize / minLogMaxSize),
		MaxBackups: l.MaxBackups,
		// lumberjack counts whole days; a part of a day keeps a file a
		// whole day longer rather than less.
		MaxAge:    int(math.Ceil(l.MaxAge.Hours() / 24)),
		LocalTime: false,
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
