package production

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Source says where the production name servers are. It is read at every
// lookup, so a setting changed at run time applies to the next one.
type Source struct {
	// Addrs lists name servers directly, "host:port;host:port" (commas
	// are accepted too). When set, the address service is not asked.
	Addrs string
	// Domain is the address service, "host" (port 8080) or "host:port",
	// as the reference's rocketmq.namesrv.domain; Subgroup is its path
	// name, "nsaddr" when empty.
	Domain, Subgroup string
	// EnvName is production's unit (productEnvName): the address service
	// is asked for /rocketmq/<subgroup>-<EnvName>?nofix=1.
	EnvName string
}

// ErrNotConfigured is the error of a lookup whose Source names neither
// addresses nor an address service.
var ErrNotConfigured = errors.New("no production name servers configured: set productionNamesrvAddr, " +
	"rocketmq.namesrv.addr, the NAMESRV_ADDR environment variable or rocketmq.namesrv.domain")

// addressRefresh is how long an address list fetched from the address
// service is used before it is fetched again (the reference's admin client
// fetches every 2 minutes).
const addressRefresh = 2 * time.Minute

// maxAddressBody bounds the address service's answer.
const maxAddressBody = 64 << 10

// splitAddrs reads a name-server list separated by ';' or ','.
func splitAddrs(v string) []string {
	var out []string
	for _, a := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == ',' }) {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// addressURL is the address service URL the reference's admin client of
// unit envName asks (MixAll.getWSAddr with the unit suffix).
func addressURL(domain, subgroup, envName string) string {
	if subgroup == "" {
		subgroup = "nsaddr"
	}
	host := domain
	if !strings.Contains(domain, ":") {
		host = domain + ":8080"
	}
	url := "http://" + host + "/rocketmq/" + subgroup
	if strings.TrimSpace(envName) != "" {
		url += "-" + envName + "?nofix=1"
	}
	return url
}

// addressBook resolves a Source to addresses, caching what the address
// service answered.
type addressBook struct {
	http *http.Client
	now  func() time.Time

	mu      sync.Mutex
	url     string
	addrs   []string
	fetched time.Time
}

// resolve returns the name-server addresses of src. An address service
// list is refetched after addressRefresh; when that fetch fails, the last
// list it answered is used, as the reference's client keeps its list.
func (b *addressBook) resolve(ctx context.Context, src Source) ([]string, error) {
	if addrs := splitAddrs(src.Addrs); len(addrs) > 0 {
		return addrs, nil
	}
	if strings.TrimSpace(src.Domain) == "" {
		return nil, ErrNotConfigured
	}
	url := addressURL(strings.TrimSpace(src.Domain), strings.TrimSpace(src.Subgroup), strings.TrimSpace(src.EnvName))
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.url == url && len(b.addrs) > 0 && b.now().Sub(b.fetched) < addressRefresh {
		return b.addrs, nil
	}
	addrs, err := b.fetch(ctx, url)
	if err != nil {
		if b.url == url && len(b.addrs) > 0 {
			return b.addrs, nil
		}
		return nil, err
	}
	b.url, b.addrs, b.fetched = url, addrs, b.now()
	return addrs, nil
}

func (b *addressBook) fetch(ctx context.Context, url string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("address service %s: %w", url, err)
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("address service: %w", err)
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(io.LimitReader(resp.Body, maxAddressBody))
	if err != nil {
		return nil, fmt.Errorf("address service %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("address service %s answered %s", url, resp.Status)
	}
	addrs := splitAddrs(strings.TrimSpace(string(text)))
	if len(addrs) == 0 {
		return nil, fmt.Errorf("address service %s answered no name servers", url)
	}
	return addrs, nil
}
