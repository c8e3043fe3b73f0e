package main

import (
	"fmt"
	"strconv"
	"strings"
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

// intList parses "N,N,..." into *dst, replacing the default.
func intList(dst *[]int) func(string) error {
	return func(v string) error {
		*dst = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return fmt.Errorf("%q: want positive integers", v)
			}
			*dst = append(*dst, n)
		}
		return nil
	}
}

// parseInts parses "1,2,3".
func parseInts(v string) ([]int, error) {
	var out []int
	var l listFlag
	l.Set(v)
	for _, s := range l {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		out = append(out, n)
	}
	return out, nil
}
