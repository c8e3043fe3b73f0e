// Command fakefleet registers fake brokers carrying many topics with one
// or more name servers and keeps them registered until it is stopped, so
// that tools reading name servers can be measured against a large fleet:
//
//	go run ./test/fakefleet -ns '127.0.0.1:9876;127.0.0.1:9877' -topics 100000
//
// Every name server gets the same brokers and topics, except -extra topics
// registered with the first name server only. It re-registers every broker
// every -every (unchanged registrations are heartbeats), prints "ready" on
// stdout once all are registered, and unregisters them on SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// fleet is what to register.
type fleet struct {
	servers       []string
	brokers       int
	topics, extra int
	queues        int
	every         time.Duration
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fakefleet:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	f, err := parse(args)
	if err != nil {
		return err
	}
	c := nsclient.New(remoting.ClientConfig{RequestTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second})
	defer c.Close()
	regs := f.registrations()
	start := time.Now()
	if err := f.registerAll(ctx, c, regs); err != nil {
		return err
	}
	fmt.Fprintf(out, "ready: %d brokers, %d topics (+%d on %s only) on %s in %v\n", f.brokers, f.topics, f.extra,
		f.servers[0], strings.Join(f.servers, ";"), time.Since(start).Round(time.Millisecond))
	t := time.NewTicker(f.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return f.unregisterAll(c, regs)
		case <-t.C:
			if err := f.registerAll(ctx, c, regs); err != nil && ctx.Err() == nil {
				return err
			}
		}
	}
}

func parse(args []string) (*fleet, error) {
	fs := flag.NewFlagSet("fakefleet", flag.ContinueOnError)
	ns := fs.String("ns", "127.0.0.1:9876", "name servers, HOST:PORT;HOST:PORT...")
	f := &fleet{}
	fs.IntVar(&f.brokers, "brokers", 10, "broker groups (masters) sharing the topics")
	fs.IntVar(&f.topics, "topics", 100000, "topics registered with every name server")
	fs.IntVar(&f.extra, "extra", 0, "more topics registered with the first name server only")
	fs.IntVar(&f.queues, "queues", 8, "read and write queues per topic")
	fs.DurationVar(&f.every, "every", 30*time.Second, "re-registration period")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	for _, s := range strings.Split(*ns, ";") {
		if s = strings.TrimSpace(s); s != "" {
			f.servers = append(f.servers, s)
		}
	}
	switch {
	case len(f.servers) == 0:
		return nil, errors.New("-ns: no name server")
	case f.brokers < 1 || f.topics < f.brokers || f.extra < 0 || f.queues < 1 || f.every <= 0:
		return nil, errors.New("want -brokers >= 1, -topics >= -brokers, -extra >= 0, -queues >= 1, -every > 0")
	}
	return f, nil
}

// registration is one broker and the name servers it registers with.
type registration struct {
	reg     *nsclient.Registration
	servers []string
}

// registrations spreads the topics over the brokers; the extra topics
// belong to one more broker known to the first name server only.
func (f *fleet) registrations() []registration {
	var out []registration
	for b := range f.brokers {
		var names []string
		for t := b; t < f.topics; t += f.brokers {
			names = append(names, fmt.Sprintf("FleetTopic-%06d", t))
		}
		out = append(out, registration{f.broker(b, names), f.servers})
	}
	if f.extra > 0 {
		var names []string
		for t := range f.extra {
			names = append(names, fmt.Sprintf("FleetExtra-%06d", t))
		}
		out = append(out, registration{f.broker(f.brokers, names), f.servers[:1]})
	}
	return out
}

func (f *fleet) broker(i int, topics []string) *nsclient.Registration {
	addr := fmt.Sprintf("10.77.%d.%d:10911", i/250, i%250+1)
	rb := body.RegisterBody{DataVersion: state.DataVersion{Timestamp: time.Now().UnixMilli(), Counter: 1}, HasFilterServerList: true}
	for _, t := range topics {
		rb.TopicConfigs = append(rb.TopicConfigs, state.TopicConfig{TopicName: t, ReadQueueNums: int32(f.queues),
			WriteQueueNums: int32(f.queues), Perm: 6})
	}
	return &nsclient.Registration{ClusterName: "FakeFleet", BrokerName: fmt.Sprintf("fleet-%03d", i), BrokerAddr: addr,
		HaServerAddr: addr, BrokerID: 0, Body: rb}
}

func (f *fleet) registerAll(ctx context.Context, c *nsclient.Client, regs []registration) error {
	for _, r := range regs {
		for _, s := range r.servers {
			if _, err := c.RegisterBroker(ctx, s, r.reg); err != nil {
				return fmt.Errorf("register %s with %s: %w", r.reg.BrokerName, s, err)
			}
		}
	}
	return nil
}

func (f *fleet) unregisterAll(c *nsclient.Client, regs []registration) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, r := range regs {
		for _, s := range r.servers {
			if err := c.UnregisterBroker(ctx, s, r.reg.ClusterName, r.reg.BrokerName, r.reg.BrokerAddr, 0); err != nil {
				return err
			}
		}
	}
	return nil
}
