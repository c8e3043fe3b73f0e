package main

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// Environment describes the machine and the build a report came from, since
// numbers from a shared two-core box mean little without it.
type Environment struct {
	NumCPU    int    `json:"numCPU"`
	CPUModel  string `json:"cpuModel,omitempty"`
	MemTotal  string `json:"memTotal,omitempty"`
	GoVersion string `json:"goVersion"`
	Commit    string `json:"commit,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	// LoadStart and LoadEnd are /proc/loadavg when the run started and
	// ended: on a shared machine they say how much else was running.
	LoadStart string `json:"loadStart,omitempty"`
	LoadEnd   string `json:"loadEnd,omitempty"`
}

// loadAvg returns the first three fields of /proc/loadavg, "" off Linux.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// currentEnvironment reads /proc (Linux) and the build info; missing pieces
// stay empty.
func currentEnvironment() Environment {
	e := Environment{NumCPU: runtime.NumCPU(), GoVersion: runtime.Version(), LoadStart: loadAvg()}
	e.CPUModel = procField("/proc/cpuinfo", "model name")
	e.MemTotal = procField("/proc/meminfo", "MemTotal")
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				e.Commit = s.Value
			case "vcs.modified":
				e.Modified = s.Value == "true"
			}
		}
	}
	return e
}

// procField returns the value of the first "key: value" line of a /proc
// file, or "" when the file or the key is missing.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
