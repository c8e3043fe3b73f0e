package poll

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestPoll(t *testing.T) {
	boom := errors.New("boom")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		ctx     context.Context
		results []bool // cond's answers in turn; the last repeats
		err     error
		want    error
	}{
		{"true at once", context.Background(), []bool{true}, nil, nil},
		{"true on the third call", context.Background(), []bool{false, false, true}, nil, nil},
		{"condition error", context.Background(), []bool{false}, boom, boom},
		{"never true", context.Background(), []bool{false}, nil, ErrTimeout},
		{"context ended", canceled, []bool{false}, nil, context.Canceled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := Until(tc.ctx, 50*time.Millisecond, time.Millisecond, "it", func() (bool, error) {
				ok := tc.results[min(calls, len(tc.results)-1)]
				calls++
				return ok, tc.err
			})
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("Until = %v, want %v", err, tc.want)
			}
			if errors.Is(err, ErrTimeout) && !strings.Contains(err.Error(), "waiting for it") {
				t.Fatalf("timeout error %q does not say what was awaited", err)
			}
		})
	}
}

// fakeTB records a failure instead of stopping the test.
type fakeTB struct{ failed string }

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Fatal(args ...any) { f.failed = fmt.Sprint(args...) }

func TestFor(t *testing.T) {
	var ok fakeTB
	calls := 0
	For(&ok, time.Second, "the third call", func() bool { calls++; return calls == 3 })
	if ok.failed != "" || calls != 3 {
		t.Fatalf("For failed %q after %d calls, want success on the third", ok.failed, calls)
	}
	var late fakeTB
	For(&late, 30*time.Millisecond, "never", func() bool { return false })
	if !strings.Contains(late.failed, "waiting for never") {
		t.Fatalf("For on a condition that never holds reported %q", late.failed)
	}
}

func TestSleep(t *testing.T) {
	if !Sleep(time.Millisecond, nil) {
		t.Fatal("Sleep without a stop channel reported an early stop")
	}
	stop := make(chan struct{})
	close(stop)
	if Sleep(time.Hour, stop) {
		t.Fatal("Sleep ignored a closed stop channel")
	}
}

func TestEvery(t *testing.T) {
	stop := make(chan struct{})
	done := make(chan struct{})
	calls := 0
	go func() {
		defer close(done)
		Every(time.Millisecond, stop, func() {
			if calls++; calls == 3 {
				close(stop)
			}
		})
	}()
	<-done
	if calls != 3 {
		t.Fatalf("Every called f %d times before stop closed, want 3", calls)
	}
	closed := make(chan struct{})
	close(closed)
	Every(time.Hour, closed, func() { t.Fatal("Every called f after stop closed") })
}
