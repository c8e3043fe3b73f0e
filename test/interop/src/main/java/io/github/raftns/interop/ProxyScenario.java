package io.github.raftns.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ProxyScenario puts the stock RocketMQ 5.5.0 proxy, in cluster mode, in front of a 5.5.0 broker and the
 * three name servers. Each proxy start creates its system topic through the broker, which registers it
 * with every name server and answers once all three did, and then at once asks one name server for the
 * topic's route: a name server that said SUCCESS and then answers TOPIC_NOT_EXIST makes the proxy exit.
 * The proxy is started ten times (INTEROP_PROXY_STARTS); then the gRPC client (rocketmq-client-java)
 * sends and receives through it while the name server leader is killed.
 */
final class ProxyScenario {
    static final String BROKER_NAME = "broker-px";
    static final String TOPIC = "it-grpc";
    private static final Pattern RESULT = Pattern.compile(
        "RESULT acked=(\\d+) retried=(\\d+) lost=(\\d+) missing=(\\d+) duplicates=(\\d+) seconds=([0-9.]+) last=(.*)");

    private ProxyScenario() {
    }

    /** run starts the broker and the proxy, restarts the proxy, runs gRPC traffic and stops both. */
    static void run(Ctx c) throws Exception {
        Broker b = new Broker(c.settings, c.ports, "px", BROKER_NAME, 0, Broker.Version.V5, c.ns.addrList(), Map.of());
        // The proxy's consumers pop, and a pop reads through 4 MiB direct buffers: the brokers' common
        // 128 MiB of direct memory runs out after a few hundred pops.
        b.jvmExtra.add("-XX:MaxDirectMemorySize=512m");
        b.start(c.procs);
        Map<Long, String> want = Map.of(0L, b.addr());
        c.check("proxy.broker-registered-on-every-ns", Duration.ofSeconds(60), () -> c.view.every(m ->
            want.equals(c.view.brokerAddrs(m, BROKER_NAME)) ? null : "brokerAddrs " + c.view.brokerAddrs(m, BROKER_NAME)));
        RmqProxy proxy = new RmqProxy(c.settings, c.ports);
        try {
            if (starts(c, proxy, want)) {
                traffic(c, proxy, want);
            }
        } finally {
            proxy.stop();
            b.shutdown(Duration.ofSeconds(30));
        }
    }

    /**
     * starts starts the proxy as often as the settings say (ten times by default), each start after the
     * previous one is killed (the last one stays up), and reports whether the last one is up.
     */
    private static boolean starts(Ctx c, RmqProxy proxy, Map<Long, String> want) throws Exception {
        int starts = c.settings.proxyStarts;
        int exits = 0;
        String first = null;
        long t = System.nanoTime();
        for (int i = 1; i <= starts; i++) {
            proxy.stop();
            String failure = proxy.start(c.procs, c.ns.addrList());
            if (failure != null) {
                exits++;
                first = first == null ? failure : first;
            }
        }
        double took = (System.nanoTime() - t) / 1e9;
        c.report.check("proxy.cluster-mode-started-" + starts + "-times-0-exits",
            exits == 0 ? null : exits + " of " + starts + " starts exited; first: " + first);
        Report.info(String.format("proxy: %d starts in %.0fs", starts, took));
        c.check("proxy.system-topic-of-every-start-on-every-ns", Duration.ofSeconds(30), () -> c.view.every(m -> {
            for (int i = 1; i <= starts; i++) {
                String missing = NsView.routeHas(c.view.route(m, RmqProxy.syncTopic(i)), BROKER_NAME, want, 1, 6);
                if (missing != null) {
                    return RmqProxy.syncTopic(i) + ": " + missing;
                }
            }
            return null;
        }));
        return proxy.proc() != null && proxy.proc().alive();
    }

    /** traffic sends and receives through the proxy with the gRPC client while the leader is killed. */
    private static void traffic(Ctx c, RmqProxy proxy, Map<Long, String> want) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("updateTopic", "-n", c.ns.addrList(), "-c", Broker.CLUSTER,
            "-t", TOPIC, "-r", "4", "-w", "4", "-a", "+message.type=NORMAL");
        c.report.check("proxy.mqadmin-updateTopic", !r.failed() && r.output().contains("success") ? null : r.brief());
        c.check("proxy.route-of-" + TOPIC + "-on-every-ns", Duration.ofSeconds(30), () -> c.view.every(m ->
            NsView.routeHas(c.view.route(m, TOPIC), BROKER_NAME, want, 4, 6)));

        NameServers.Member victim = c.ns.leader();
        Path dir = c.settings.work.resolve("grpc-traffic");
        Proc client = c.procs.java("grpc-traffic", dir, c.settings.classpathGrpcClient, c.settings.toolJvm,
            "io.github.raftns.interop.grpcclient.GrpcTraffic",
            List.of(proxy.endpoint(), TOPIC, "interop_grpc", Integer.toString(c.settings.messages), "25", "90"),
            Map.of());
        Poll.Result third = Poll.until(Duration.ofSeconds(120), () -> client.output().contains("THIRD-SENT") ? null
            : client.alive() ? "a third not sent yet" : "exited: " + client.tail(8));
        if (third.ok()) {
            Report.info("proxy: SIGKILL " + victim.id() + " " + victim.addr() + " after a third of the gRPC sends");
            c.ns.kill(victim);
        }
        if (!client.waitFor(Duration.ofSeconds(180))) {
            client.kill();
        }
        Matcher m = RESULT.matcher(client.output());
        String failure;
        if (!third.ok() || !m.find()) {
            failure = "no result: " + (third.ok() ? "" : third.failure() + "; ") + client.tail(8);
        } else {
            int acked = Integer.parseInt(m.group(1));
            int lost = Integer.parseInt(m.group(3));
            int missing = Integer.parseInt(m.group(4));
            failure = acked > 0 && lost == 0 && missing == 0 ? null
                : "acked " + acked + ", lost " + lost + " (after one retry each), not received " + missing + ", last error " + m.group(7);
            if (failure == null) {
                c.report.pass("proxy.grpc-send-receive-while-leader-killed-none-lost", acked + " sent, " + m.group(2)
                    + " needed a retry, all received, " + m.group(5) + " duplicates, " + m.group(6) + "s");
            }
        }
        if (failure != null) {
            c.report.fail("proxy.grpc-send-receive-while-leader-killed-none-lost", failure);
        }
        c.report.check("proxy.still-running-after-the-leader-kill", proxy.proc().alive() ? null
            : "the proxy exited: " + proxy.proc().tail(12));
        c.ns.restart(victim);
    }
}
