package acl

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"sort"
)

// Header fields the reference's ACL client hook adds.
const (
	FieldAccessKey     = "AccessKey"
	FieldSignature     = "Signature"
	FieldSecurityToken = "SecurityToken"
)

// Sign returns the signature the reference client hook computes for a
// request with header fields ext and body under secretKey. ext must
// already hold AccessKey (and SecurityToken, when used); a Signature in it
// is left out.
func Sign(ext map[string]string, body []byte, secretKey string) string {
	keys := make([]string, 0, len(ext))
	for k := range ext {
		if k != FieldSignature {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	m := hmac.New(sha1.New, []byte(secretKey))
	for _, k := range keys {
		m.Write([]byte(ext[k]))
	}
	m.Write(body)
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// validSignature reports whether ext carries the signature of the request
// under secretKey, compared in constant time.
func validSignature(ext map[string]string, body []byte, secretKey string) bool {
	return hmac.Equal([]byte(ext[FieldSignature]), []byte(Sign(ext, body, secretKey)))
}
