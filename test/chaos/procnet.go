package chaos

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// socketInode returns the inode of the TCP socket whose local address is
// addr, from /proc/net/tcp (IPv4 loopback only, which is all the harness
// uses).
func socketInode(addr *net.TCPAddr) (string, error) {
	ip := addr.IP.To4()
	if ip == nil {
		return "", fmt.Errorf("%v is not IPv4", addr)
	}
	// /proc/net/tcp prints the address as the little-endian hex of the
	// 32-bit value and the port as big-endian hex.
	want := fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], addr.Port)
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 9 && fields[1] == want {
			return fields[9], nil
		}
	}
	return "", fmt.Errorf("no socket with local address %v", addr)
}

// socketOwner returns which of pids holds the socket whose local address is
// addr: the proxies use it to learn which member dialled them, since every
// member dials from 127.0.0.1 with an ephemeral port.
func socketOwner(addr *net.TCPAddr, pids map[int]string) (string, bool) {
	inode, err := socketInode(addr)
	if err != nil {
		return "", false
	}
	target := "socket:[" + inode + "]"
	for pid, name := range pids {
		dir := "/proc/" + strconv.Itoa(pid) + "/fd"
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if link, err := os.Readlink(dir + "/" + e.Name()); err == nil && link == target {
				return name, true
			}
		}
	}
	return "", false
}
