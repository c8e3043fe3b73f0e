package io.github.raftns.interop;

import java.time.Duration;
import java.util.Map;

/**
 * LeavingScenario checks how brokers leave: a graceful shutdown unregisters at once; a SIGSTOPped
 * broker (sockets open, silent) expires after the broker expiry and comes back when continued; a
 * SIGKILLed broker (the kernel closes its sockets) is removed within the connection-close grace.
 */
final class LeavingScenario {
    private static final Duration GRACEFUL = Duration.ofSeconds(15);

    private LeavingScenario() {
    }

    /** graceful shuts down the pair's slave, then its master, checking each disappears from every name server. */
    static void graceful(Ctx c, PairScenario.Pair pair) {
        Map<Long, String> masterOnly = Map.of(0L, pair.master().addr());
        pair.slave().proc().process.destroy();
        c.check("leave.graceful-slave-shutdown-unregisters-on-every-ns", GRACEFUL, () -> c.view.every(m -> {
            Map<Long, String> got = c.view.brokerAddrs(m, PairScenario.BROKER_NAME);
            return masterOnly.equals(got) ? null : "brokerAddrs " + got + ", want " + masterOnly;
        }), () -> stillRunning(pair.slave()));
        pair.slave().shutdown(Duration.ofSeconds(60));

        pair.master().proc().process.destroy();
        c.check("leave.graceful-master-shutdown-unregisters-on-every-ns", GRACEFUL, () -> c.view.every(m -> {
            if (c.view.brokerAddrs(m, PairScenario.BROKER_NAME) != null) {
                return PairScenario.BROKER_NAME + " still in cluster info";
            }
            return c.view.route(m, TrafficScenario.FAILOVER_TOPIC) == null ? null
                : "route of " + TrafficScenario.FAILOVER_TOPIC + " still served";
        }), () -> stillRunning(pair.master()));
        pair.master().shutdown(Duration.ofSeconds(60));
    }

    /** signals runs the SIGSTOP / SIGCONT / SIGKILL checks on a broker of its own. */
    static void signals(Ctx c) throws Exception {
        // enableSlaveActingMaster makes a 5.x broker send heartbeatTimeoutMillis (= brokerNotActiveTimeoutMillis)
        // in REGISTER_BROKER and a oneway QUERY_DATA_VERSION heartbeat every second; the reference NameServer
        // then expires it after that timeout instead of 120 s.
        Broker b = new Broker(c.settings, c.ports, "c-signals", "broker-c", 0, Broker.Version.V5, c.ns.addrList(),
            Map.of("enableSlaveActingMaster", "true",
                "brokerNotActiveTimeoutMillis", Long.toString(c.settings.brokerNotActiveMillis),
                "skipPreOnline", "true"));
        b.start(c.procs);
        Map<Long, String> want = Map.of(0L, b.addr());
        if (!c.check("leave.acting-master-broker-registered-on-every-ns", Duration.ofSeconds(60), () -> present(c, b, want))) {
            b.proc().kill();
            return;
        }
        b.proc().pause();
        // The broker heartbeats every second, so nothing may expire it sooner than its timeout less that second.
        Poll.Result r = Poll.until(c.settings.expiryDeadline, () -> absent(c, b));
        long earliest = c.settings.brokerNotActiveMillis - 1500;
        String name = "leave.sigstop-broker-expires-on-every-ns";
        if (!r.ok()) {
            c.report.fail(name, r.failure());
        } else if (r.elapsed().toMillis() < earliest) {
            c.report.fail(name, "expired " + r.seconds() + " after SIGSTOP, before its heartbeat timeout of "
                + c.settings.brokerNotActiveMillis + " ms");
        } else {
            c.report.pass(name, "expired " + r.seconds() + " after SIGSTOP; heartbeatTimeoutMillis "
                + c.settings.brokerNotActiveMillis);
        }
        b.proc().resume();
        c.check("leave.sigcont-broker-comes-back-on-every-ns", Duration.ofSeconds(60), () -> present(c, b, want));
        b.proc().process.destroyForcibly();
        c.check("leave.sigkill-broker-removed-within-close-grace-on-every-ns", c.settings.closeDeadline, () -> absent(c, b));
        b.proc().kill();
    }

    /**
     * stillRunning notes whether the broker process was still running when its removal was seen. When it
     * was, the removal came from its UNREGISTER_BROKER and not from its connections closing at exit; when
     * it was not, the poll may simply have been too slow to tell (a 4.9.x broker exits right after).
     */
    static String stillRunning(Broker b) {
        return "broker process " + (b.proc().alive() ? "still running" : "already gone") + " when the removal was seen";
    }

    private static String present(Ctx c, Broker b, Map<Long, String> want) {
        return c.view.every(m -> {
            Map<Long, String> got = c.view.brokerAddrs(m, b.brokerName);
            return want.equals(got) ? null : "brokerAddrs " + got + ", want " + want;
        });
    }

    private static String absent(Ctx c, Broker b) {
        return c.view.every(m -> c.view.brokerAddrs(m, b.brokerName) == null ? null : b.brokerName + " still registered");
    }
}
