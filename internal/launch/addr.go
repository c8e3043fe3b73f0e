package launch

import (
	"errors"
	"net"
	"sync"
)

// handedOut holds every address FreeAddr returned in this process: the OS
// may offer a port again as soon as FreeAddr's listener closes, and two
// addresses picked for members started together must differ.
var handedOut = struct {
	sync.Mutex
	addrs map[string]bool
}{addrs: map[string]bool{}}

// freeAddrTries bounds FreeAddr's search for a port not handed out before.
const freeAddrTries = 100

// FreeAddr returns a 127.0.0.1 address whose port the OS just chose and
// that no earlier call in this process returned. The port is free when
// this returns; another process may take it before the caller binds it,
// which is possible but unlikely.
func FreeAddr() (string, error) {
	handedOut.Lock()
	defer handedOut.Unlock()
	for range freeAddrTries {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		addr := ln.Addr().String()
		ln.Close()
		if !handedOut.addrs[addr] {
			handedOut.addrs[addr] = true
			return addr, nil
		}
	}
	return "", errors.New("launch: no port that was not handed out before")
}
