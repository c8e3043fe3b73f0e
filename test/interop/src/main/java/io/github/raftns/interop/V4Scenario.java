package io.github.raftns.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * V4Scenario runs two RocketMQ 4.9.x brokers against the name servers: one registering plain JSON
 * bodies and one with compressedRegister=true (zlib bodies, compressed=true header). Topics created
 * on each (the broker then registers incrementally, compressed for the second) must route on every
 * name server, and the 4.9.8 Java client must route to them and send (Maven Central has no 4.9.8 broker).
 */
final class V4Scenario {
    private V4Scenario() {
    }

    /** run starts the two 4.9.x brokers, checks registration, topics and the 4.9.x client, and stops them. */
    static void run(Ctx c) throws Exception {
        String all = c.ns.addrList();
        // No auto-creation: the client's sends below must go by the route the name servers serve.
        Broker plain = new Broker(c.settings, c.ports, "v4-plain", "broker-v4", 0, Broker.Version.V4, all,
            Map.of("autoCreateTopicEnable", "false"));
        Broker zipped = new Broker(c.settings, c.ports, "v4-compressed", "broker-v4z", 0, Broker.Version.V4, all,
            Map.of("autoCreateTopicEnable", "false", "compressedRegister", "true"));
        plain.launch(c.procs);
        zipped.launch(c.procs);
        plain.awaitBoot();
        zipped.awaitBoot();
        try {
            for (Broker b : List.of(plain, zipped)) {
                String kind = b == plain ? "plain" : "compressed";
                String topic = b == plain ? "it-v4" : "it-v4z";
                Map<Long, String> want = Map.of(0L, b.addr());
                c.check("v4." + kind + "-broker-registered-on-every-ns", Duration.ofSeconds(60), () -> c.view.every(m ->
                    want.equals(c.view.brokerAddrs(m, b.brokerName)) ? null : "brokerAddrs " + c.view.brokerAddrs(m, b.brokerName)));
                MqAdmin.Result r = c.mqadmin.run4("updateTopic", "-n", all, "-b", b.addr(), "-t", topic, "-r", "2", "-w", "2");
                String ok = "create topic to " + b.addr() + " success";
                c.report.check("v4." + kind + "-mqadmin4-updateTopic", !r.failed() && r.output().contains(ok) ? null : r.brief());
                c.check("v4." + kind + "-topic-route-on-every-ns", Duration.ofSeconds(30), () -> c.view.every(m ->
                    NsView.routeHas(c.view.route(m, topic), b.brokerName, want, 2, 6)));
                clientCheck(c, "v4." + kind + "-client-routes-on-every-ns-and-sends", all, topic, b);
            }
        } finally {
            plain.proc().process.destroy();
            zipped.proc().process.destroy();
        }
        c.check("v4.graceful-shutdown-unregisters-on-every-ns", Duration.ofSeconds(15), () -> c.view.every(m -> {
            var table = c.view.cluster(m).getBrokerAddrTable();
            return table.containsKey(plain.brokerName) || table.containsKey(zipped.brokerName)
                ? "still registered: " + table.keySet() : null;
        }), () -> LeavingScenario.stillRunning(plain) + " (" + plain.name + "), "
            + LeavingScenario.stillRunning(zipped) + " (" + zipped.name + ")");
        plain.shutdown(Duration.ofSeconds(60));
        zipped.shutdown(Duration.ofSeconds(60));
    }

    /** clientCheck runs our 4.9.x client program (io.github.raftns.interop.v4.RouteCheck4) in its own JVM. */
    private static void clientCheck(Ctx c, String name, String all, String topic, Broker b) throws Exception {
        Path dir = c.settings.work.resolve("client4");
        Proc p = c.procs.java("routecheck4-" + topic, dir, c.settings.classpath4client, c.settings.toolJvm,
            "io.github.raftns.interop.v4.RouteCheck4", List.of(all, topic, b.brokerName, b.addr(), "2"),
            Map.of("logback.configurationFile", c.settings.home.resolve("rocketmq4-home/conf/logback_tools.xml").toString()));
        if (!p.waitFor(Duration.ofSeconds(90))) {
            p.kill();
            c.report.fail(name, "timed out: " + p.tail(5));
            return;
        }
        String out = p.output();
        c.report.check(name, p.process.exitValue() == 0 && out.contains("ROUTECHECK OK") ? null
            : "exit " + p.process.exitValue() + ": " + p.tail(6));
    }
}
