package io.github.raftns.interop;

import java.time.Duration;
import java.util.Map;
import org.apache.rocketmq.remoting.protocol.body.HARuntimeInfo;

/**
 * PairScenario starts a 5.x master and a slave of broker name "broker-a" whose namesrvAddr lists
 * every name server, and checks that both register everywhere and that the slave, which has no
 * haMasterAddress configured, learns the master's HA address from the name server and connects.
 */
final class PairScenario {
    /** BROKER_NAME is the broker name of the pair. */
    static final String BROKER_NAME = "broker-a";

    /** Pair is the running master and slave. */
    record Pair(Broker master, Broker slave) {
        /** addrs is the brokerAddrs map a route must show for the pair. */
        Map<Long, String> addrs() {
            return Map.of(0L, master.addr(), 1L, slave.addr());
        }
    }

    private PairScenario() {
    }

    /** run starts the pair and records its checks; it throws when the pair cannot be used at all. */
    static Pair run(Ctx c) throws Exception {
        String all = c.ns.addrList();
        Broker master = new Broker(c.settings, c.ports, "a-master", BROKER_NAME, 0, Broker.Version.V5, all, Map.of());
        Broker slave = new Broker(c.settings, c.ports, "a-slave", BROKER_NAME, 1, Broker.Version.V5, all, Map.of());
        master.launch(c.procs);
        slave.launch(c.procs);
        master.awaitBoot();
        slave.awaitBoot();
        Pair pair = new Pair(master, slave);

        c.check("pair.master-and-slave-registered-on-every-ns", Duration.ofSeconds(60), () -> c.view.every(m -> {
            Map<Long, String> got = c.view.brokerAddrs(m, BROKER_NAME);
            if (got == null) {
                return "cluster info has no " + BROKER_NAME;
            }
            if (!got.equals(pair.addrs())) {
                return "brokerAddrs " + got + ", want " + pair.addrs();
            }
            var clusters = c.view.cluster(m).getClusterAddrTable().get(Broker.CLUSTER);
            return clusters != null && clusters.contains(BROKER_NAME) ? null : "cluster table lacks " + BROKER_NAME;
        }));

        // The slave's HA client only knows the master's HA address from the REGISTER_BROKER answer
        // (masterAddr/haServerAddr), so a connected HA channel proves the name server answered it.
        c.check("pair.slave-learns-master-ha-address-and-connects", Duration.ofSeconds(60), () -> {
            HARuntimeInfo s = c.view.all().getBrokerHAStatus(slave.addr());
            String got = s.getHaClientRuntimeInfo() == null ? null : s.getHaClientRuntimeInfo().getMasterAddr();
            if (!master.haAddr().equals(got)) {
                return "slave HA client master address " + got + ", want " + master.haAddr();
            }
            HARuntimeInfo mi = c.view.all().getBrokerHAStatus(master.addr());
            if (mi.getHaConnectionInfo() == null || mi.getHaConnectionInfo().isEmpty()) {
                return "master has no HA connection yet";
            }
            return null;
        });
        return pair;
    }
}
