package io.github.raftns.interop;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * SingleNameServerScenario starts a 5.x broker whose namesrvAddr names one member only (for RaftNS a
 * follower, so its writes are forwarded to the leader). The named member must serve its route; with
 * RaftNS every member must.
 */
final class SingleNameServerScenario {
    private static final String TOPIC = "it-single";

    private SingleNameServerScenario() {
    }

    /** run starts broker-b against one member, checks its route and stops it. */
    static void run(Ctx c) throws Exception {
        NameServers.Member one = c.ns.follower();
        Report.info("single: broker-b names only " + one.id() + " " + one.addr());
        Broker b = new Broker(c.settings, c.ports, "b-single", "broker-b", 0, Broker.Version.V5, one.addr(), Map.of());
        b.start(c.procs);
        Map<Long, String> want = Map.of(0L, b.addr());
        List<NameServers.Member> named = List.of(one);
        c.check("single.registered-on-named-ns", Duration.ofSeconds(60), () -> NsView.every(named, m ->
            want.equals(c.view.brokerAddrs(m, b.brokerName)) ? null : "brokerAddrs " + c.view.brokerAddrs(m, b.brokerName)));

        MqAdmin.Result r = c.mqadmin.run5("updateTopic", "-n", one.addr(), "-b", b.addr(), "-t", TOPIC, "-r", "4", "-w", "4");
        String ok = "create topic to " + b.addr() + " success";
        c.report.check("single.mqadmin-updateTopic-on-broker", !r.failed() && r.output().contains(ok) ? null : r.brief());
        c.check("single.route-on-named-ns", Duration.ofSeconds(30), () -> NsView.every(named, m ->
            NsView.routeHas(c.view.route(m, TOPIC), b.brokerName, want, 4, 6)));
        c.raftOnly("single.route-served-by-every-member", Duration.ofSeconds(30), () -> c.view.every(m ->
            NsView.routeHas(c.view.route(m, TOPIC), b.brokerName, want, 4, 6)));

        b.proc().process.destroy();
        c.check("single.graceful-shutdown-unregisters-on-named-ns", Duration.ofSeconds(15), () -> NsView.every(named, m ->
            c.view.route(m, TOPIC) == null ? null : "route still served"), () -> LeavingScenario.stillRunning(b));
        c.raftOnly("single.graceful-shutdown-unregisters-on-every-member", Duration.ofSeconds(15), () -> c.view.every(m ->
            c.view.route(m, TOPIC) == null ? null : "route still served"));
        b.shutdown(Duration.ofSeconds(60));
    }
}
