package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
)

// nameServer talks the RocketMQ remoting protocol to one member's client
// port, as mqadmin does.
type nameServer struct {
	addr string
	c    *nsclient.Client
}

// nameServer returns a client for --namesrv; close it when done. With a
// list (a;b, as namesrvAddr), the first member that accepts a connection
// is used: any member serves reads and forwards writes to the leader.
func (a *app) nameServer() (*nameServer, error) {
	addrs, err := namesrvList(a.namesrv)
	if err != nil {
		return nil, err
	}
	c := nsclient.New(remoting.ClientConfig{DialTimeout: a.timeout, RequestTimeout: a.timeout, WriteTimeout: a.timeout})
	return &nameServer{addr: firstReachable(addrs, min(a.timeout, listDialTimeout)), c: c}, nil
}

// listDialTimeout bounds the connection attempt to each member of a
// --namesrv list before the next is tried.
const listDialTimeout = 3 * time.Second

// namesrvList parses --namesrv: HOST:PORT, or several separated by ';'
// as RocketMQ's namesrvAddr and NAMESRV_ADDR are.
func namesrvList(value string) ([]string, error) {
	var out []string
	for _, s := range strings.Split(value, ";") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if host, _, err := net.SplitHostPort(s); err != nil || host == "" {
			return nil, usagef("--namesrv %q: want HOST:PORT, or HOST:PORT;HOST:PORT...", s)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, usagef("--namesrv %q: want HOST:PORT, or HOST:PORT;HOST:PORT...", value)
	}
	return out, nil
}

// firstReachable returns the first address accepting a TCP connection
// within timeout, or the first address when none does (its request then
// says why). A single address is returned without a try.
func firstReachable(addrs []string, timeout time.Duration) string {
	if len(addrs) == 1 {
		return addrs[0]
	}
	for _, addr := range addrs {
		if conn, err := net.DialTimeout("tcp", addr, timeout); err == nil {
			conn.Close()
			return addr
		}
	}
	return addrs[0]
}

// withNameServer runs f with a client for --namesrv and the command's
// deadline, and closes the client afterwards.
func (a *app) withNameServer(cmd *cobra.Command, f func(ctx context.Context, ns *nameServer) error) error {
	ns, err := a.nameServer()
	if err != nil {
		return err
	}
	defer ns.Close()
	ctx, cancel := a.context(cmd)
	defer cancel()
	return f(ctx, ns)
}

// nsQuery runs one read against the name server at --namesrv and shows
// its answer: asJSON gives the -o json shape, text prints it for people. A
// failed read is described as what (nameServer.fail).
func nsQuery[T any](a *app, cmd *cobra.Command, what string, read func(context.Context, *nameServer) (T, error),
	asJSON func(T) any, text func(T) error) error {
	return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
		v, err := read(ctx, ns)
		if err != nil {
			return ns.fail(what, err)
		}
		if a.json() {
			return printJSON(a.stdout, asJSON(v))
		}
		return text(v)
	})
}

// Close closes the connection.
func (n *nameServer) Close() { n.c.Close() }

// request builds a request the way nsclient does, for codes it has no
// method for.
func (n *nameServer) request(code int32, ext map[string]string) *remoting.Command {
	return &remoting.Command{Code: code, Language: n.c.Language, Version: n.c.Version, ExtFields: ext}
}

// responseCodeNames names the response codes a name server sends.
var responseCodeNames = map[int32]string{
	remoting.SystemError:             "SYSTEM_ERROR",
	remoting.SystemBusy:              "SYSTEM_BUSY",
	remoting.RequestCodeNotSupported: "REQUEST_CODE_NOT_SUPPORTED",
	remoting.NoPermission:            "NO_PERMISSION",
	remoting.TopicNotExist:           "TOPIC_NOT_EXIST",
	remoting.QueryNotFound:           "QUERY_NOT_FOUND",
}

func responseCodeName(code int32) string {
	if n, ok := responseCodeNames[code]; ok {
		return n
	}
	return "code " + strconv.Itoa(int(code))
}

// fail describes a failed request named what: the code and remark of an
// error answer (TOPIC_NOT_EXIST and QUERY_NOT_FOUND wrap errNotFound), or the
// address that could not be reached.
func (n *nameServer) fail(what string, err error) error {
	var re *nsclient.ResponseError
	if remoting.IsHTTPAnswer(err) || (!errors.As(err, &re) && !isDialError(err) && speaksHTTP(context.Background(), n.addr)) {
		return fmt.Errorf("name server %s: %s: it answered with HTTP, so it is an HTTP port (a member's admin port, "+
			"which --addr takes), not a RocketMQ client port: give --namesrv the member's client address (default port 9876)", n.addr, what)
	}
	if !errors.As(err, &re) {
		return fmt.Errorf("name server %s: %s: %w", n.addr, what, err)
	}
	if re.Code == remoting.TopicNotExist || re.Code == remoting.QueryNotFound {
		return fmt.Errorf("%w: %s: name server %s answered %s: %s", errNotFound, what, n.addr, responseCodeName(re.Code), re.Remark)
	}
	return fmt.Errorf("%s: name server %s answered %s: %s", what, n.addr, responseCodeName(re.Code), re.Remark)
}
