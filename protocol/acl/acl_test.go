package acl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		class  Class
		ext    map[string]string
		remote string
		reason string // "" allowed
	}{
		{"off allows unsigned writes", Off, AdminWrite, kv, "1.2.3.4:1", ""},
		{"writes allows unsigned reads", Writes, Read, nil, "1.2.3.4:1", ""},
		{"writes refuses unsigned PutKV", Writes, AdminWrite, kv, "1.2.3.4:1", ReasonUnsigned},
		{"admin signature passes", Writes, AdminWrite, signed("rocketmq2", "87654321", kv, body), "1.2.3.4:1", ""},
		{"wrong secret", Writes, AdminWrite, signed("rocketmq2", "wrongwrong", kv, body), "1.2.3.4:1", ReasonBadSignature},
		{"tampered field", Writes, AdminWrite, tampered, "1.2.3.4:1", ReasonBadSignature},
		{"unknown key", Writes, AdminWrite, signed("nobody1", "87654321", kv, body), "1.2.3.4:1", ReasonUnknownKey},
		{"non-admin on admin code", Writes, AdminWrite, signed("RocketMQ", "12345678", kv, body), "1.2.3.4:1", ReasonNotAdmin},
		{"non-admin registers a broker", Writes, BrokerWrite, signed("RocketMQ", "12345678", kv, body), "1.2.3.4:1", ""},
		{"unsigned broker outside allow-list", Writes, BrokerWrite, kv, "1.2.3.4:1", ReasonUnsigned},
		{"unsigned broker on allow-list", Writes, BrokerWrite, kv, "10.0.0.7:1", ""},
		{"allow-list does not cover admin codes", Writes, AdminWrite, kv, "10.0.0.7:1", ReasonUnsigned},
		{"global white address", Writes, AdminWrite, kv, "10.10.103.9:1", ""},
		{"account white address skips signature", Writes, BrokerWrite, map[string]string{"AccessKey": "RocketMQ"}, "192.168.0.5:1", ""},
		{"all mode refuses unsigned reads", All, Read, nil, "1.2.3.4:1", ReasonUnsigned},
		{"all mode signed read", All, Read, signed("RocketMQ", "12345678", nil, body), "1.2.3.4:1", ""},
		{"all mode unsigned broker read on allow-list", All, BrokerRead, nil, "10.0.0.7:1", ""},
		{"all mode unsigned broker read outside allow-list", All, BrokerRead, nil, "1.2.3.4:1", ReasonUnsigned},
		{"writes allows unsigned broker reads", Writes, BrokerRead, nil, "1.2.3.4:1", ""},
		{"allow-list does not cover signed writes", Writes, Write, kv, "10.0.0.7:1", ReasonUnsigned},
		{"non-admin signs a write", Writes, Write, signed("RocketMQ", "12345678", kv, body), "1.2.3.4:1", ""},
		{"no class is refused unsigned on the allow-list", Writes, 0, kv, "10.0.0.7:1", ReasonUnsigned},
		{"no class needs an admin", Writes, Class(200), signed("RocketMQ", "12345678", kv, body), "1.2.3.4:1", ReasonNotAdmin},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testChecker(t, tc.mode, "10.0.0.0/24")
			b := body
			if tc.ext == nil {
				b = nil
			}
			remark := c.Check(100, tc.class, tc.ext, b, tc.remote)
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
