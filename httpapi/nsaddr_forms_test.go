package httpapi

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// zoneLister answers one address naming the zone it was asked for, in
// lower case (zones match ignoring case, and the service keeps one answer
// per lower-cased zone).
type zoneLister struct{}

func (zoneLister) ClientAddressesFor(zone string) ([]string, error) {
	if zone == "" {
		return []string{"plain:9876"}, nil
	}
	return []string{strings.ToLower(zone) + ":9876"}, nil
}

// TestAddressService_EveryURLFormOfRocketMQCallers sends, over a real
// listener and with the headers RocketMQ's Java HTTP client adds, each URL
// a 4.x or 5.x broker, Java client, mqadmin, proxy or Go client builds
// from its domain, subgroup and unit name, and checks the zone each one
// is answered for. The Java callers build http://DOMAIN[:8080]/rocketmq/
// SUBGROUP, append -UNIT?nofix=1 when the client has a unit name, and (5.x,
// with parameters) append them after ?nofix=1& or ?.
func TestAddressService_EveryURLFormOfRocketMQCallers(t *testing.T) {
	srv := NewAddressServer(zoneLister{}, 0, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })

	for _, tc := range []struct{ who, path, zone string }{
		{"broker, client, mqadmin, proxy and Go client with the default subgroup", "/rocketmq/nsaddr", ""},
		{"broker with rmqAddressServerSubGroup=nsaddr-b, client with rocketmq.namesrv.domain.subgroup=nsaddr-b, proxy with namesrvDomainSubgroup=nsaddr-b, Go client's URL", "/rocketmq/nsaddr-b", "b"},
		{"Java client (4.x TopAddressing, 5.x DefaultTopAddressing) with unit name b", "/rocketmq/nsaddr-b?nofix=1", "b"},
		{"5.x DefaultTopAddressing with unit name b and parameters", "/rocketmq/nsaddr-b?nofix=1&k=v", "b"},
		{"5.x DefaultTopAddressing with parameters and no unit name", "/rocketmq/nsaddr?k=v", ""},
		{"unit name in upper case", "/rocketmq/nsaddr-B?nofix=1", "b"},
		{"unit name with a dash", "/rocketmq/nsaddr-eu-1a?nofix=1", "eu-1a"},
		{"unit name with an underscore", "/rocketmq/nsaddr-unit_1?nofix=1", "unit_1"},
		// A subgroup that names a zone and a unit name on top: the zone is
		// all that follows the first dash, so such a client should keep
		// the plain subgroup and give its zone as its unit name.
		{"subgroup nsaddr-b with unit name u1", "/rocketmq/nsaddr-b-u1?nofix=1", "b-u1"},
	} {
		req, err := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		// What RocketMQ's HttpTinyClient sends with every GET.
		req.Header.Set("Client-Version", "V5_3_1")
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")
		req.Header.Set("Metaq-Client-RequestTS", "1765000000000")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := "plain:9876"
		if tc.zone != "" {
			want = tc.zone + ":9876"
		}
		if resp.StatusCode != http.StatusOK || string(body) != want {
			t.Errorf("%s: GET %s = %d %q, want 200 %q (zone %q)", tc.who, tc.path, resp.StatusCode, body, want, tc.zone)
		}
	}
}
