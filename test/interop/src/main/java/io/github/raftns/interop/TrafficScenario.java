package io.github.raftns.interop;

import java.time.Duration;
import java.util.List;

/**
 * TrafficScenario creates a topic with mqadmin updateTopic, checks its route on every name server,
 * then sends and receives N messages with the real Java clients: once in steady state and once while
 * a name server (the RaftNS leader) is killed with SIGKILL part-way through. The killed member is
 * started again and must serve the route again.
 */
final class TrafficScenario {
    static final String TOPIC = "it-topic";
    static final String FAILOVER_TOPIC = "it-failover";

    private TrafficScenario() {
    }

    /** run runs the topic, steady-traffic and failover checks against the running pair. */
    static void run(Ctx c, PairScenario.Pair pair) throws Exception {
        createTopic(c, pair, TOPIC, "traffic.mqadmin-updateTopic");
        steady(c);
        createTopic(c, pair, FAILOVER_TOPIC, "traffic.mqadmin-updateTopic-failover-topic");
        failover(c, pair);
    }

    /** createTopic creates topic on the cluster's master with 4 queues and waits for its route everywhere. */
    static void createTopic(Ctx c, PairScenario.Pair pair, String topic, String check) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("updateTopic", "-n", c.ns.addrList(), "-c", Broker.CLUSTER,
            "-t", topic, "-r", "4", "-w", "4");
        String want = "create topic to " + pair.master().addr() + " success";
        c.report.check(check, !r.failed() && r.output().contains(want) ? null
            : "output lacks \"" + want + "\": " + r.brief());
        c.check("traffic.route-of-" + topic + "-on-every-ns", Duration.ofSeconds(30), () -> c.view.every(m ->
            NsView.routeHas(c.view.route(m, topic), PairScenario.BROKER_NAME, pair.addrs(), 4, 6)));
    }

    private static void steady(Ctx c) throws Exception {
        Traffic.Outcome o = Traffic.run(c.ns.addrList(), TOPIC, "interop_steady", c.settings.messages, 5, null,
            Duration.ofSeconds(60));
        record(c, "traffic.steady-send-and-receive-all", o);
    }

    private static void failover(Ctx c, PairScenario.Pair pair) throws Exception {
        NameServers.Member victim = c.ns.leader();
        Report.info("failover: will SIGKILL " + victim.id() + " " + victim.addr() + " after a third of the sends");
        Traffic.Outcome o = Traffic.run(c.ns.addrList(), FAILOVER_TOPIC, "interop_failover", c.settings.messages, 25,
            () -> c.ns.kill(victim), Duration.ofSeconds(90));
        record(c, "traffic.failover-" + (c.ns.replicated() ? "leader" : "one-ns") + "-killed-none-lost", o);

        if (c.ns.replicated()) {
            c.check("traffic.failover-new-leader-elected", Duration.ofSeconds(30), () -> {
                NameServers.Member l = c.ns.leader();
                return l.id().equals(victim.id()) ? "killed member still reported as leader" : null;
            });
        } else {
            c.report.skip("traffic.failover-new-leader-elected", "RaftNS-only: reference NameServers have no leader");
        }

        c.ns.restart(victim);
        c.check("traffic.failover-restarted-member-serves-route", Duration.ofSeconds(45), () -> NsView.every(
            List.of(victim), m -> NsView.routeHas(c.view.route(m, FAILOVER_TOPIC), PairScenario.BROKER_NAME,
                pair.addrs(), 4, 6)));
    }

    private static void record(Ctx c, String name, Traffic.Outcome o) {
        if (o.failure() == null) {
            c.report.pass(name, o.note());
        } else {
            c.report.fail(name, o.failure());
        }
    }
}
