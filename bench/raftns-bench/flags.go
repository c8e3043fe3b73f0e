package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// listFlag is a comma-separated list flag; repeating it appends.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// intList is the flag function of a "N,N,..." list: it parses the value
// into *dst, replacing the default.
func intList(dst *[]int) func(string) error {
	return func(v string) error {
		var l listFlag
		l.Set(v)
		*dst = nil
		for _, f := range l {
			n, err := strconv.Atoi(f)
			if err != nil {
				return fmt.Errorf("%q is not a number", f)
			}
			*dst = append(*dst, n)
		}
		return nil
	}
}

// loadFlags are the flags of a scenario measured as closed-loop load for a
// while: -duration and -warmup.
type loadFlags struct {
	Duration time.Duration `json:"duration"`
	Warmup   time.Duration `json:"warmup"`
}

// bind registers -duration (default duration) and -warmup (default 1s);
// per names what one measured window is, "" for the whole run.
func (l *loadFlags) bind(fs *flag.FlagSet, duration time.Duration, per string) {
	of, before := "", ""
	if per != "" {
		of, before = " of one "+per, " each "+per
	}
	fs.DurationVar(&l.Duration, "duration", duration, "measured time"+of)
	fs.DurationVar(&l.Warmup, "warmup", time.Second, "unmeasured time before"+before)
}

func (l *loadFlags) check() error {
	if l.Duration <= 0 || l.Warmup < 0 {
		return fmt.Errorf("%w: -duration must be positive and -warmup not negative", errUsage)
	}
	return nil
}

// phase is the measured window of the flags with workers workers.
func (l *loadFlags) phase(workers int) loadPhase {
	return loadPhase{workers: workers, warmup: l.Warmup, duration: l.Duration}
}

// roundFlags are the flags of a scenario that disturbs the members a few
// times while brokers keep registering: -rounds, -writers and, where the
// scenario offers it, -write-timeout (the time one registration may take).
type roundFlags struct {
	Rounds       int           `json:"rounds"`
	Writers      int           `json:"writers"`
	WriteTimeout time.Duration `json:"writeTimeout"`
}

// bind registers -rounds (default rounds) and -writers (default 4) with
// their usage texts.
func (f *roundFlags) bind(fs *flag.FlagSet, rounds int, roundsUsage, writersUsage string) {
	fs.IntVar(&f.Rounds, "rounds", rounds, roundsUsage)
	fs.IntVar(&f.Writers, "writers", 4, writersUsage)
}

// bindWriteTimeout registers -write-timeout with default d.
func (f *roundFlags) bindWriteTimeout(fs *flag.FlagSet, d time.Duration, usage string) {
	fs.DurationVar(&f.WriteTimeout, "write-timeout", d, usage)
}

func (f *roundFlags) check() error {
	switch {
	case f.Rounds < 1 || f.Writers < 1:
		return fmt.Errorf("%w: -rounds and -writers must be at least 1", errUsage)
	case f.WriteTimeout <= 0:
		return fmt.Errorf("%w: -write-timeout must be positive", errUsage)
	}
	return nil
}

// viaFlag is -via: the member a scenario registers through, the leader or
// a follower. With -addrs and no -http the roles are unknown, and the
// first member is used whatever its role.
type viaFlag struct {
	Via string `json:"via"`
}

func (v *viaFlag) bind(fs *flag.FlagSet, usage string) {
	fs.StringVar(&v.Via, "via", "leader", usage)
}

// check validates -via; through a follower of started members it needs
// three of them.
func (v *viaFlag) check(c *commonOptions, set map[string]bool) error {
	if v.Via != "leader" && v.Via != "follower" {
		return fmt.Errorf("%w: -via %q: want leader or follower", errUsage, v.Via)
	}
	if v.Via == "follower" && c.starts() {
		if err := c.needThreeMembers(set, "-via follower"); err != nil {
			return err
		}
	}
	if !c.starts() && len(c.HTTP) == 0 {
		v.Via = ""
	}
	return nil
}
