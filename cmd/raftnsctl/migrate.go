package main

import (
	"context"
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/client/nscompare"
	"github.com/raftns/raftns/protocol/remoting"
)

// Environment of the migrate commands' account.
const (
	envAccessKey = "RAFTNS_ACCESS_KEY"
	envSecretKey = "RAFTNS_SECRET_KEY"
	// migrateTimeout is --timeout of the migrate commands when it is not
	// given: they read every topic, and each request has its own timeout.
	migrateTimeout = 30 * time.Minute
)

// errDisagree means a migrate report or verification found differences;
// raftnsctl exits with 3.
var errDisagree = errors.New("raftnsctl: differences found")

// disagreeError says what a report or verification found; it is
// errDisagree.
type disagreeError struct{ msg string }

func (e *disagreeError) Error() string { return e.msg }

func (e *disagreeError) Is(target error) bool { return target == errDisagree }

// migrateFlags are the options every migrate command shares.
type migrateFlags struct {
	from           string
	namespaces     []string
	concurrency    int
	requestTimeout time.Duration
	accessKey      string
	secretKeyFile  string
	secretKey      string // from the environment
}

func (a *app) migrateCommand(getenv func(string) string) *cobra.Command {
	f := &migrateFlags{accessKey: getenv(envAccessKey), secretKey: getenv(envSecretKey)}
	g := group("migrate", "Compare name servers and move from reference NameServers to RaftNS",
		`migrate compares what RocketMQ name servers hold and copies what brokers do
not bring themselves, over the RocketMQ protocol, for a move from reference
NameServers to RaftNS (docs/operators/migration.md):

  report   do the name servers of --from agree? (reference NameServers, or the
           members of a RaftNS cluster checked against each other)
  import   copy KV namespaces (and, with --write-perm, wiped write permission)
           from --from into RaftNS as ordinary replicated writes
  verify   does RaftNS (--to) hold everything --from holds?

Routes are never copied: brokers register their own topics with every name
server of their namesrvAddr. --from and --to take addresses separated by ';'
as namesrvAddr does. --timeout bounds the whole command (default 30m here),
--request-timeout each request.`,
		a.migrateReportCommand(f), a.migrateVerifyCommand(f), a.migrateImportCommand(f))
	fs := g.PersistentFlags()
	fs.StringVar(&f.accessKey, "access-key", f.accessKey,
		"sign requests with this ACL account, as mqadmin with tools.yml does (env "+envAccessKey+")")
	fs.StringVar(&f.secretKeyFile, "secret-key-file", "",
		"file holding the account's secret key; default: env "+envSecretKey)
	return g
}

// bindCommon adds the flags every migrate command takes.
func (f *migrateFlags) bindCommon(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.from, "from", "", "name servers to read, HOST:PORT;HOST:PORT... (required)")
	fs.StringSliceVar(&f.namespaces, "namespace", []string{nscompare.DefaultNamespace},
		"KV namespaces to compare or copy (repeat or separate with commas)")
	fs.IntVar(&f.concurrency, "concurrency", nscompare.DefaultConcurrency,
		"topics read at once: the most requests in flight to each name server")
	fs.DurationVar(&f.requestTimeout, "request-timeout", nscompare.DefaultRequestTimeout, "deadline of each request")
}

// options checks the shared flags and returns the comparison options.
func (f *migrateFlags) options(cmd *cobra.Command) (nscompare.Options, error) {
	name := commandName(cmd)
	switch {
	case f.concurrency < 1 || f.concurrency > nscompare.MaxConcurrency:
		return nscompare.Options{}, usagef("%s: --concurrency %d: want 1 to %d", name, f.concurrency, nscompare.MaxConcurrency)
	case f.requestTimeout <= 0:
		return nscompare.Options{}, usagef("%s: --request-timeout %v: must be positive", name, f.requestTimeout)
	}
	for _, ns := range f.namespaces {
		if strings.TrimSpace(ns) == "" {
			return nscompare.Options{}, usagef("%s: --namespace must not be empty", name)
		}
	}
	return nscompare.Options{Namespaces: f.namespaces, Concurrency: f.concurrency, RequestTimeout: f.requestTimeout}, nil
}

// addrList parses a ';'-separated list of HOST:PORT given as flag; empty
// entries are skipped, a repeated address is refused.
func addrList(cmd *cobra.Command, flag, value string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, s := range strings.Split(value, ";") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		host, port, err := net.SplitHostPort(s)
		if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			return nil, usagef("%s: --%s: %q: want HOST:PORT", commandName(cmd), flag, s)
		}
		if seen[s] {
			return nil, usagef("%s: --%s: %s is listed twice", commandName(cmd), flag, s)
		}
		seen[s] = true
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, usagef("%s: --%s: want at least one name server, HOST:PORT;HOST:PORT...", commandName(cmd), flag)
	}
	return out, nil
}

// client returns a name server client, signing when an account is given.
func (f *migrateFlags) client(cmd *cobra.Command) (*nsclient.Client, error) {
	var cred *nsclient.Credentials
	if f.accessKey != "" {
		secret := strings.TrimSpace(f.secretKey)
		if f.secretKeyFile != "" {
			b, err := os.ReadFile(f.secretKeyFile)
			if err != nil {
				return nil, usagef("%s: --secret-key-file: %v", commandName(cmd), err)
			}
			secret = strings.TrimSpace(string(b))
		}
		if secret == "" {
			return nil, usagef("%s: --access-key needs a secret key (--secret-key-file or env %s)", commandName(cmd), envSecretKey)
		}
		cred = &nsclient.Credentials{AccessKey: f.accessKey, SecretKey: secret}
	} else if f.secretKeyFile != "" {
		return nil, usagef("%s: --secret-key-file needs --access-key", commandName(cmd))
	}
	t := f.requestTimeout
	c := nsclient.New(remoting.ClientConfig{DialTimeout: t, RequestTimeout: t, WriteTimeout: t})
	c.Credentials = cred
	return c, nil
}

// withClient runs run with a client (closed afterwards), the command's
// deadline (--timeout, 30 minutes unless given) and opts with progress on
// a terminal.
func (a *app) withClient(cmd *cobra.Command, f *migrateFlags, opts nscompare.Options,
	run func(ctx context.Context, c *nsclient.Client, opts nscompare.Options) error) error {
	c, err := f.client(cmd)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := a.context(cmd)
	if !cmd.Flags().Changed("timeout") {
		cancel()
		ctx, cancel = context.WithTimeout(cmd.Context(), migrateTimeout)
	}
	defer cancel()
	opts.Progress = a.progress(commandName(cmd))
	return run(ctx, c, opts)
}
