package nsclient

import (
	"maps"

	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

// Credentials are an account of the name server's access control. A client
// holding them signs every request as RocketMQ's ACL client hook does (and
// mqadmin with an account in tools.yml): the AccessKey header field, and
// the Signature of the header fields and body under SecretKey.
type Credentials struct {
	AccessKey string
	SecretKey string
}

// sign returns req signed with the credentials: a copy with AccessKey and
// Signature added to its header fields. Nil credentials return req as is.
func (cr *Credentials) sign(req *remoting.Command) *remoting.Command {
	if cr == nil {
		return req
	}
	signed := *req
	signed.ExtFields = maps.Clone(req.ExtFields)
	if signed.ExtFields == nil {
		signed.ExtFields = map[string]string{}
	}
	delete(signed.ExtFields, acl.FieldSignature)
	signed.ExtFields[acl.FieldAccessKey] = cr.AccessKey
	signed.ExtFields[acl.FieldSignature] = acl.Sign(signed.ExtFields, signed.Body, cr.SecretKey)
	return &signed
}
