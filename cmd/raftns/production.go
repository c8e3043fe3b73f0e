package main

import (
	"os"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/namesrv"
	"github.com/raftns/raftns/namesrv/production"
)

// productionSource reads where production's name servers are from the
// member's current settings, in the order the reference's admin client
// looks: RaftNS's productionNamesrvAddr, rocketmq.namesrv.addr, the
// NAMESRV_ADDR environment variable, then the address service
// rocketmq.namesrv.domain with the unit productEnvName.
func productionSource(settings *namesrv.Settings, getenv func(string) string) func() production.Source {
	return func() production.Source {
		src := production.Source{
			Domain:   settings.String(namesrv.PropNamesrvDomain),
			Subgroup: settings.String(namesrv.PropNamesrvDomainSubgroup),
			EnvName:  settings.String(namesrv.PropProductEnvName),
		}
		for _, addrs := range []string{settings.String(namesrv.PropProductionNamesrvAddr),
			settings.String(namesrv.PropNamesrvAddr), getenv("NAMESRV_ADDR")} {
			if strings.TrimSpace(addrs) != "" {
				src.Addrs = addrs
				break
			}
		}
		return src
	}
}

// newProductionLookup returns the cluster-test mode's lookup; it warns
// when the mode is on and nothing says where production is.
func newProductionLookup(settings *namesrv.Settings, logger hclog.Logger) *production.Lookup {
	src := productionSource(settings, os.Getenv)
	if settings.Bool(namesrv.PropClusterTest, false) {
		s := src()
		if strings.TrimSpace(s.Addrs) == "" && strings.TrimSpace(s.Domain) == "" {
			logger.Warn("cluster-test mode is on, but " + production.ErrNotConfigured.Error())
		} else {
			logger.Info("cluster-test mode: unknown topics are looked up in production",
				"env", s.EnvName, "addrs", s.Addrs, "domain", s.Domain)
		}
	}
	return production.New(production.Config{Source: src, Logger: logger.Named("production")})
}
