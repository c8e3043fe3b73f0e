package transport

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
)

// MinClusterKeyLen is the shortest cluster key accepted, in bytes.
const MinClusterKeyLen = 16

// keyMagic opens the cluster-key handshake; it is part of the
// member-to-member wire format.
var keyMagic = []byte("RNSKEY1")

const keyNonceLen = 32

// Labels keep a client proof from being replayed as a server proof.
const (
	keyClientLabel = "raftns cluster client"
	keyServerLabel = "raftns cluster server"
)

// errKeyRejected reports a peer that did not prove it holds the key.
var errKeyRejected = errors.New("cluster key challenge failed")

// LoadClusterKey reads the shared cluster key: the file's content with
// surrounding white space removed, at least MinClusterKeyLen bytes.
// Problems are errors naming the file.
func LoadClusterKey(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cluster key: %w", err)
	}
	key := bytes.TrimSpace(raw)
	if len(key) < MinClusterKeyLen {
		return nil, fmt.Errorf("cluster key file %s holds %d bytes, need at least %d (e.g. openssl rand -hex 32)",
			path, len(key), MinClusterKeyLen)
	}
	return key, nil
}

// keyProof is the HMAC-SHA256 under key of label and both nonces.
func keyProof(key []byte, label string, serverNonce, clientNonce []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(label))
	m.Write(serverNonce)
	m.Write(clientNonce)
	return m.Sum(nil)
}

// keyServerHandshake challenges a new connection: it sends the magic and
// a fresh nonce, checks the client's proof over both nonces, and answers
// with its own proof, so each side knows the other holds the key and no
// recorded exchange can be replayed. The caller sets the deadline.
func keyServerHandshake(conn net.Conn, key []byte) error {
	serverNonce := make([]byte, keyNonceLen)
	if _, err := rand.Read(serverNonce); err != nil {
		return err
	}
	if _, err := conn.Write(append(append([]byte(nil), keyMagic...), serverNonce...)); err != nil {
		return err
	}
	answer := make([]byte, keyNonceLen+sha256.Size)
	if _, err := io.ReadFull(conn, answer); err != nil {
		return fmt.Errorf("%w: %w", errKeyRejected, err)
	}
	clientNonce, proof := answer[:keyNonceLen], answer[keyNonceLen:]
	if !hmac.Equal(proof, keyProof(key, keyClientLabel, serverNonce, clientNonce)) {
		return fmt.Errorf("%w: wrong proof (a different key, or no key)", errKeyRejected)
	}
	_, err := conn.Write(keyProof(key, keyServerLabel, serverNonce, clientNonce))
	return err
}

// keyClientHandshake answers keyServerHandshake and checks the member's
// proof. The caller sets the deadline.
func keyClientHandshake(conn net.Conn, key []byte) error {
	challenge := make([]byte, len(keyMagic)+keyNonceLen)
	if _, err := io.ReadFull(conn, challenge); err != nil {
		return fmt.Errorf("read cluster key challenge: %w", err)
	}
	if !bytes.Equal(challenge[:len(keyMagic)], keyMagic) {
		return errors.New("the member sent no cluster key challenge (it runs without --cluster-key-file?)")
	}
	serverNonce := challenge[len(keyMagic):]
	clientNonce := make([]byte, keyNonceLen)
	if _, err := rand.Read(clientNonce); err != nil {
		return err
	}
	if _, err := conn.Write(append(clientNonce, keyProof(key, keyClientLabel, serverNonce, clientNonce)...)); err != nil {
		return err
	}
	proof := make([]byte, sha256.Size)
	if _, err := io.ReadFull(conn, proof); err != nil {
		return fmt.Errorf("the member refused the cluster key: %w", err)
	}
	if !hmac.Equal(proof, keyProof(key, keyServerLabel, serverNonce, clientNonce)) {
		return errors.New("the member's cluster key proof is wrong")
	}
	return nil
}
