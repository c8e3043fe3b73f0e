package acl

import (
	"strings"
	"testing"
)

// FuzzCheck runs the access decision on arbitrary header fields, body and
// remote address: no input may panic, and none without the secret may pass
// a signature check for a write.
func FuzzCheck(f *testing.F) {
	f.Add("rocketmq2", "sig", "k", "v", []byte("body"), "1.2.3.4:5")
	f.Add("", "", "", "", []byte{}, "garbage")
	f.Fuzz(func(t *testing.T, ak, sig, k, v string, body []byte, remote string) {
		accs, err := newAccounts("fuzz", accountsFile{Accounts: []Account{{AccessKey: "rocketmq2", SecretKey: "12345678", Admin: true}}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewChecker(Writes, accs, nil)
		if err != nil {
			t.Fatal(err)
		}
		ext := map[string]string{FieldAccessKey: ak, FieldSignature: sig, k: v}
		if c.Check(100, AdminWrite, ext, body, remote) == "" && ext[FieldSignature] != Sign(ext, body, "12345678") {
			t.Fatalf("a write with a wrong signature passed: %v", ext)
		}
	})
}

// FuzzAccounts parses arbitrary text as an accounts file: an error or a
// usable set of accounts, never a panic.
func FuzzAccounts(f *testing.F) {
	f.Add(accountsYAML)
	f.Add("accounts:\n- accessKey: abcdefg\n  secretKey: 1234567\n  whiteRemoteAddress: 10.1-9.*\n")
	f.Fuzz(func(t *testing.T, text string) {
		accs, err := parseAccounts("fuzz.yml", []byte(text))
		if err == nil && accs.Len() == 0 {
			t.Fatal("an accounts file without accounts loaded")
		}
		if err != nil && !strings.Contains(err.Error(), "acl: bad accounts file") {
			t.Fatalf("error %v does not say what is wrong", err)
		}
	})
}
