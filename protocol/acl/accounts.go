package acl

import (
	"errors"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

// minKeyLen is the shortest access or secret key the reference accepts.
const minKeyLen = 6

// ErrBadAccounts reports an accounts file that cannot be used.
var ErrBadAccounts = errors.New("acl: bad accounts file")

// Account is one entry of the accounts file.
type Account struct {
	AccessKey string `yaml:"accessKey"`
	SecretKey string `yaml:"secretKey"`
	// Admin accounts may send the codes that change name-server state an
	// operator owns (KV config, write permissions, topics, settings).
	Admin bool `yaml:"admin"`
	// WhiteRemoteAddress, when the request comes from a matching address
	// and names this account, skips the signature check (as the reference
	// does).
	WhiteRemoteAddress string `yaml:"whiteRemoteAddress"`
}

// accountsFile is the part of plain_acl.yml this package reads; other keys
// (topicPerms, groupPerms, defaultTopicPerm…) concern brokers and are
// ignored.
type accountsFile struct {
	GlobalWhiteRemoteAddresses []string  `yaml:"globalWhiteRemoteAddresses"`
	Accounts                   []Account `yaml:"accounts"`
}

// Accounts are the loaded accounts and global address rules.
type Accounts struct {
	byKey       map[string]Account
	whites      map[string]addressRule
	globalWhite []addressRule
}

// LoadAccounts reads an accounts file. Every problem is an ErrBadAccounts
// naming the file and, where there is one, the account.
func LoadAccounts(path string) (*Accounts, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadAccounts, err)
	}
	return parseAccounts(path, raw)
}

// parseAccounts reads the accounts file's text; path names it in errors.
func parseAccounts(path string, raw []byte) (*Accounts, error) {
	var f accountsFile
	if err := yaml.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadAccounts, path, err)
	}
	return newAccounts(path, f)
}

func newAccounts(path string, f accountsFile) (*Accounts, error) {
	a := &Accounts{byKey: map[string]Account{}, whites: map[string]addressRule{}}
	if len(f.Accounts) == 0 {
		return nil, fmt.Errorf("%w: %s has no accounts", ErrBadAccounts, path)
	}
	for i, acc := range f.Accounts {
		switch {
		case len(acc.AccessKey) < minKeyLen || len(acc.SecretKey) < minKeyLen:
			return nil, fmt.Errorf("%w: %s: account %d (%q): accessKey and secretKey need at least %d characters",
				ErrBadAccounts, path, i+1, acc.AccessKey, minKeyLen)
		case a.byKey[acc.AccessKey] != (Account{}):
			return nil, fmt.Errorf("%w: %s: accessKey %q appears twice", ErrBadAccounts, path, acc.AccessKey)
		}
		if acc.WhiteRemoteAddress != "" {
			rule, err := parseAddressRule(acc.WhiteRemoteAddress)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: account %q: whiteRemoteAddress: %w", ErrBadAccounts, path, acc.AccessKey, err)
			}
			a.whites[acc.AccessKey] = rule
		}
		a.byKey[acc.AccessKey] = acc
	}
	for _, g := range f.GlobalWhiteRemoteAddresses {
		rule, err := parseAddressRule(g)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: globalWhiteRemoteAddresses: %w", ErrBadAccounts, path, err)
		}
		a.globalWhite = append(a.globalWhite, rule)
	}
	return a, nil
}

// Len returns the number of accounts.
func (a *Accounts) Len() int { return len(a.byKey) }
