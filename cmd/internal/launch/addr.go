package launch

import "net"

// FreeAddr returns a 127.0.0.1 address whose port the OS just chose. The
// port is free when this returns; another process may take it before the
// caller binds it, which is possible but unlikely.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
