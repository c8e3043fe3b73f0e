package acl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raftns/raftns/transport/remoting"
)

// The expected value was computed with openssl, independently of this
// package: printf %s 'rocketmq2DefaultClusterTopicTest{"body":1}' |
// openssl dgst -sha1 -hmac 12345678 -binary | base64
func TestSign_KnownAnswer(t *testing.T) {
	ext := map[string]string{"AccessKey": "rocketmq2", "topic": "TopicTest", "clusterName": "DefaultCluster", "Signature": "ignored"}
	if got := Sign(ext, []byte(`{"body":1}`), "12345678"); got != "yl363xHw8kz+9QlhwcWXjcHcUlQ=" {
		t.Fatalf("signature = %s", got)
	}
}

const accountsYAML = `
globalWhiteRemoteAddresses:
- 10.10.103.*
accounts:
- accessKey: RocketMQ
  secretKey: 12345678
  whiteRemoteAddress: 192.168.0.*
  admin: false
  topicPerms:
  - topicA=DENY
- accessKey: rocketmq2
  secretKey: 87654321
  admin: true
`

func testChecker(t *testing.T, mode Mode, brokers ...string) *Checker {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(path, []byte(accountsYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	accs, err := LoadAccounts(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChecker(mode, accs, brokers)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func signed(ak, sk string, ext map[string]string, body []byte) map[string]string {
	out := map[string]string{FieldAccessKey: ak}
	for k, v := range ext {
		out[k] = v
	}
	out[FieldSignature] = Sign(out, body, sk)
	return out
}

func TestChecker_Decisions(t *testing.T) {
	kv := map[string]string{"namespace": "ns", "key": "k", "value": "v"}
	body := []byte("x")
	tampered := signed("rocketmq2", "87654321", kv, body)
	tampered["value"] = "other"
	cases := []struct {
		name   string
		mode   Mode
		code   int32
		ext    map[string]string
		remote string
		reason string // "" allowed
	}{
		{"off allows unsigned writes", Off, remoting.PutKVConfig, kv, "1.2.3.4:1", ""},
		{"writes allows unsigned reads", Writes, remoting.GetRouteInfoByTopic, nil, "1.2.3.4:1", ""},
		{"writes refuses unsigned PutKV", Writes, remoting.PutKVConfig, kv, "1.2.3.4:1", ReasonUnsigned},
		{"admin signature passes", Writes, remoting.PutKVConfig, signed("rocketmq2", "87654321", kv, body), "1.2.3.4:1", ""},
		{"wrong secret", Writes, remoting.PutKVConfig, signed("rocketmq2", "wrongwrong", kv, body), "1.2.3.4:1", ReasonBadSignature},
		{"tampered field", Writes, remoting.PutKVConfig, tampered, "1.2.3.4:1", ReasonBadSignature},
		{"unknown key", Writes, remoting.PutKVConfig, signed("nobody1", "87654321", kv, body), "1.2.3.4:1", ReasonUnknownKey},
		{"non-admin on admin code", Writes, remoting.WipeWritePermOfBroker, signed("RocketMQ", "12345678", kv, body), "1.2.3.4:1", ReasonNotAdmin},
		{"non-admin registers a broker", Writes, remoting.RegisterBroker, signed("RocketMQ", "12345678", kv, body), "1.2.3.4:1", ""},
		{"unsigned broker outside allow-list", Writes, remoting.RegisterBroker, kv, "1.2.3.4:1", ReasonUnsigned},
		{"unsigned broker on allow-list", Writes, remoting.RegisterBroker, kv, "10.0.0.7:1", ""},
		{"allow-list does not cover admin codes", Writes, remoting.PutKVConfig, kv, "10.0.0.7:1", ReasonUnsigned},
		{"global white address", Writes, remoting.PutKVConfig, kv, "10.10.103.9:1", ""},
		{"account white address skips signature", Writes, remoting.RegisterBroker, map[string]string{"AccessKey": "RocketMQ"}, "192.168.0.5:1", ""},
		{"all mode refuses unsigned reads", All, remoting.GetRouteInfoByTopic, nil, "1.2.3.4:1", ReasonUnsigned},
		{"all mode signed read", All, remoting.GetRouteInfoByTopic, signed("RocketMQ", "12345678", nil, body), "1.2.3.4:1", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testChecker(t, tc.mode, "10.0.0.0/24")
			b := body
			if tc.ext == nil {
				b = nil
			}
			remark := c.Check(tc.code, tc.ext, b, tc.remote)
			if tc.reason == "" {
				if remark != "" {
					t.Fatalf("refused: %s", remark)
				}
				return
			}
			if remark == "" || !strings.Contains(remark, "refused") {
				t.Fatalf("allowed, want refusal %s", tc.reason)
			}
			if c.Denied()[tc.reason] != 1 {
				t.Fatalf("counters %v, want one %s", c.Denied(), tc.reason)
			}
		})
	}
}

func TestLoadAccounts_Rejects(t *testing.T) {
	for name, text := range map[string]string{
		"no accounts":   "accounts: []\n",
		"short secret":  "accounts:\n- accessKey: abcdefg\n  secretKey: 123\n",
		"duplicate key": "accounts:\n- accessKey: abcdefg\n  secretKey: 1234567\n- accessKey: abcdefg\n  secretKey: 7654321\n",
		"bad address":   "accounts:\n- accessKey: abcdefg\n  secretKey: 1234567\n  whiteRemoteAddress: 300.1.*\n",
		"not yaml":      "accounts: [\n",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.yml")
			os.WriteFile(path, []byte(text), 0o600)
			if _, err := LoadAccounts(path); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	if _, err := ParseMode("sometimes"); err == nil {
		t.Fatal("bad mode accepted")
	}
}

func TestAddressRule(t *testing.T) {
	rule, err := parseAddressRule("192.168.1.1-100, 10.*, 172.16.0.0/12, 1.2.3.4")
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"192.168.1.50": true, "192.168.1.101": false, "10.9.8.7": true, "172.20.0.1": true, "1.2.3.4": true, "1.2.3.5": false,
	} {
		if got := rule.match(remoteIP(addr + ":1")); got != want {
			t.Errorf("%s: %v, want %v", addr, got, want)
		}
	}
}
