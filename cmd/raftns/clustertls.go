package main

import (
	"crypto/tls"
	"fmt"
	"strings"

	"github.com/raftns/raftns/cluster"
)

// validateClusterTLS accepts all three cluster TLS files or none.
func (c *config) validateClusterTLS() error {
	var set, missing []string
	for _, f := range []struct{ flag, value string }{
		{"--cluster-tls-cert (clusterTlsCert)", c.ClusterTLSCert},
		{"--cluster-tls-key (clusterTlsKey)", c.ClusterTLSKey},
		{"--cluster-tls-ca (clusterTlsCa)", c.ClusterTLSCA},
	} {
		if f.value == "" {
			missing = append(missing, f.flag)
		} else {
			set = append(set, f.flag)
		}
	}
	if len(set) > 0 && len(missing) > 0 {
		return fmt.Errorf("cluster TLS needs a certificate, its key and the CA together: %s set but %s missing",
			strings.Join(set, ", "), strings.Join(missing, ", "))
	}
	return nil
}

// clusterTLS loads the cluster port's TLS configuration; nil when cluster
// TLS is off. The files are read once, at start.
func (c *config) clusterTLS() (*tls.Config, error) {
	if c.ClusterTLSCert == "" {
		return nil, nil
	}
	return cluster.LoadTLS(c.ClusterTLSCert, c.ClusterTLSKey, c.ClusterTLSCA)
}
