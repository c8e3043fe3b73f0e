package io.github.raftns.interop;

import java.time.Duration;

/**
 * Main runs the interoperability scenarios against three name servers (the reference
 * NameServer or RaftNS) with real Apache RocketMQ brokers, clients and mqadmin, and prints one
 * PASS/FAIL/SKIP line per check and "N passed, M failed". Exit status 1 when any check failed.
 * Start it with test/interop/run.sh, which builds the classpaths and cleans up.
 */
public final class Main {
    private Main() {
    }

    /** main runs every selected scenario and exits 0 only when no check failed. */
    public static void main(String[] args) throws Exception {
        Settings s = Settings.fromSystemProperties().validate();
        Report report = new Report();
        Procs procs = new Procs(s.work);
        Ports ports = new Ports();
        NameServers ns = s.raft() ? new RaftNameServers(s, procs, ports) : new JavaNameServers(s, procs, ports);
        long start = System.nanoTime();
        watchdog(report, Duration.ofMinutes(Long.getLong("interop.timeoutMinutes", 30)));
        Report.info("name servers: " + ns.describe() + ", work dir " + s.work);
        int status;
        try {
            ns.start();
            Report.info("name servers up: " + ns.addrList());
            Ctx c = new Ctx(s, report, procs, ports, ns);
            try {
                scenarios(c);
            } finally {
                c.view.close();
            }
        } catch (Exception e) {
            report.fail("harness", Poll.describe(e));
        } finally {
            ns.stop();
            procs.killAll();
            report.summary();
            Report.info(String.format("total %.0fs", Duration.ofNanos(System.nanoTime() - start).toMillis() / 1000.0));
            status = report.failed() == 0 ? 0 : 1;
        }
        System.exit(status);
    }

    /**
     * watchdog ends the run with a failure if it is still going after limit, so CI never waits on a hung
     * process; the Procs shutdown hook then kills everything that was started.
     */
    private static void watchdog(Report report, Duration limit) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(limit.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            report.fail("harness.timeout", "the run took longer than " + limit.toMinutes() + " minutes");
            report.summary();
            System.exit(1);
        }, "watchdog");
        t.setDaemon(true);
        t.start();
    }

    private static void scenarios(Ctx c) {
        Settings s = c.settings;
        if (s.wants("pair") || s.wants("traffic") || s.wants("mqadmin")) {
            step(c, "pair", () -> {
                PairScenario.Pair pair = PairScenario.run(c);
                if (s.wants("traffic") || s.wants("mqadmin")) {
                    part(c, "traffic", () -> TrafficScenario.run(c, pair));
                }
                if (s.wants("mqadmin")) {
                    part(c, "mqadmin", () -> MqAdminScenario.run(c, pair));
                }
                LeavingScenario.graceful(c, pair);
            });
        }
        if (s.wants("single")) {
            step(c, "single", () -> SingleNameServerScenario.run(c));
        }
        if (s.wants("v4")) {
            step(c, "v4", () -> V4Scenario.run(c));
        }
        if (s.wants("leave")) {
            step(c, "leave", () -> LeavingScenario.signals(c));
        }
        if (s.wants("acting")) {
            step(c, "acting", () -> ActingMasterScenario.run(c));
        }
        if (s.wants("zone")) {
            step(c, "zone", () -> ZoneScenario.run(c));
        }
        if (s.wants("edge")) {
            step(c, "edge", () -> ClientPortScenario.run(c));
        }
        if (s.wants("acl")) {
            step(c, "acl", () -> AclScenario.run(c));
        }
        if (s.wants("audit")) {
            step(c, "audit", () -> AuditClusterScenario.run(c));
        }
        if (s.wants("sharedconf")) {
            step(c, "sharedconf", () -> SharedConfigScenario.run(c));
        }
        if (s.wants("controller")) {
            step(c, "controller", () -> ControllerScenario.run(c));
        }
        if (s.wants("migrate")) {
            step(c, "migrate", () -> MigrateScenario.run(c));
        }
        if (s.wants("proxy")) {
            step(c, "proxy", () -> ProxyScenario.run(c));
        }
        if (s.wants("addrsvc")) {
            step(c, "addrsvc", () -> AddressServiceScenario.run(c));
        }
        if (s.wants("zones")) {
            step(c, "zones", () -> ZonesScenario.run(c));
        }
        if (s.wants("clustertest")) {
            step(c, "clustertest", () -> ClusterTestScenario.run(c));
        }
        if (s.wants("split")) {
            step(c, "split", () -> SplitScenario.run(c));
        }
        if (s.wants("large")) {
            step(c, "large", () -> LargeScenario.run(c));
        }
    }

    /** Step is a scenario body that may throw. */
    private interface Step {
        void run() throws Exception;
    }

    /**
     * step runs one scenario; an exception fails it (as "NAME.aborted") and lets the next scenario run.
     * Brokers the scenario left running are killed afterwards; the name servers stay.
     */
    private static void step(Ctx c, String name, Step body) {
        long t = System.nanoTime();
        Report.info("scenario " + name);
        try {
            part(c, name, body);
        } finally {
            c.procs.killNamed("broker-");
            Report.info(String.format("scenario %s took %.0fs", name, (System.nanoTime() - t) / 1e9));
        }
    }

    /** part runs a part of a scenario; an exception fails it as "NAME.aborted". */
    private static void part(Ctx c, String name, Step body) {
        try {
            body.run();
        } catch (Exception e) {
            c.report.fail(name + ".aborted", Poll.describe(e));
        }
    }
}
