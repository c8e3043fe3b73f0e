package io.github.raftns.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * SharedConfigScenario shows that a run-time setting is the cluster's: on a three-member RaftNS cluster of
 * its own (a snapshot after every entry), the 5.5.0 mqadmin sends {@code updateNamesrvConfig -k
 * orderMessageEnable -v true} to one member only, a follower; every member then serves the order
 * configuration of a topic in its route and {@code getNamesrvConfig} of each shows the value. The same holds
 * after every member is restarted in turn (each restores from a snapshot and replays), and after a snapshot
 * taken with the value is restored over a later change of it made through another member. RaftNS-only: a
 * reference NameServer changes only the one it is sent to.
 */
final class SharedConfigScenario {
    private static final String TOPIC = "SharedConfigTopic";
    private static final String ORDER_NS = "ORDER_TOPIC_CONFIG";
    private static final Duration SHORT = Duration.ofSeconds(20);

    private final Ctx c;
    private final Path dir;
    private final RaftNameServers raft;
    private final NsView view;
    private final Ctl ctl;

    private SharedConfigScenario(Ctx c, Path dir) {
        this.c = c;
        this.dir = dir;
        this.raft = new RaftNameServers(c.settings, c.procs, c.ports, "sc", List.of(
            "--snapshot-threshold", "1", "--snapshot-interval", "100ms", "--trailing-logs", "1"));
        this.view = new NsView(raft);
        this.ctl = new Ctl(c.settings, c.procs);
    }

    /** run starts the scenario's members and broker, runs the checks and stops them. */
    static void run(Ctx c) throws Exception {
        if (!c.ns.replicated()) {
            c.report.skip("sharedconf", "RaftNS-only: a reference NameServer's settings are its own");
            return;
        }
        Path dir = c.settings.work.resolve("sharedconf");
        Files.createDirectories(dir);
        SharedConfigScenario s = new SharedConfigScenario(c, dir);
        try {
            s.raft.start();
            s.checks();
        } finally {
            c.procs.killNamed("broker-sc");
            s.raft.stop();
        }
    }

    private void checks() throws Exception {
        Broker broker = new Broker(c.settings, c.ports, "sharedconf", "broker-sc", 0, Broker.Version.V5, raft.addrList(), Map.of());
        broker.start(c.procs);
        c.check("sharedconf.broker-registered-everywhere", Duration.ofSeconds(30), () -> view.every(m ->
            broker.addr().equals(view.brokerAddrs(m, broker.brokerName).get(0L)) ? null : "brokerAddrs " + view.brokerAddrs(m, broker.brokerName)));
        RaftNameServers.Node follower = (RaftNameServers.Node) raft.follower();
        MqAdmin.Result r = c.mqadmin.run5("updateTopic", "-n", follower.addr(), "-b", broker.addr(), "-t", TOPIC, "-r", "4", "-w", "4");
        c.report.check("sharedconf.mqadmin-updateTopic", !r.failed() ? null : r.brief());
        String conf = broker.brokerName + ":4";
        r = c.mqadmin.run5("updateKvConfig", "-n", follower.addr(), "-s", ORDER_NS, "-k", TOPIC, "-v", conf);
        c.report.check("sharedconf.mqadmin-updateKvConfig-order-conf", !r.failed() ? null : r.brief());
        c.check("sharedconf.no-order-conf-in-routes-before-the-update", SHORT, () -> view.every(m -> orderConf(m, null)));

        r = c.mqadmin.run5("updateNamesrvConfig", "-n", follower.addr(), "-k", "orderMessageEnable", "-v", "true");
        c.report.check("sharedconf.mqadmin-updateNamesrvConfig-via-one-follower",
            r.output().contains("update name server config success") ? null : r.brief());
        everyMember("after-the-update", "true", conf);

        Path snap = dir.resolve("with-order.snap");
        Ctl.Result saved = ctl.run("--addr", follower.admin(), "snapshot", "save", snap.toString());
        c.report.check("sharedconf.raftnsctl-snapshot-save", saved.exitCode() == 0 ? null : saved.brief());

        for (RaftNameServers.Node n : raft.members()) {
            n.proc.terminate(Duration.ofSeconds(15));
            raft.restart(n);
            everyMember("after-restarting-" + n.id, "true", conf);
        }

        RaftNameServers.Node other = (RaftNameServers.Node) raft.leader();
        r = c.mqadmin.run5("updateNamesrvConfig", "-n", other.addr(), "-k", "orderMessageEnable", "-v", "false");
        c.report.check("sharedconf.mqadmin-updateNamesrvConfig-false-via-the-leader",
            r.output().contains("update name server config success") ? null : r.brief());
        everyMember("after-setting-it-false", "false", null);

        Ctl.Result restored = ctl.run("--addr", follower.admin(), "snapshot", "restore", snap.toString());
        c.report.check("sharedconf.raftnsctl-snapshot-restore", restored.exitCode() == 0 ? null : restored.brief());
        everyMember("after-the-snapshot-restore", "true", conf);
    }

    /**
     * everyMember checks, on every member, that the route of TOPIC carries wantConf as its order
     * configuration and that mqadmin getNamesrvConfig sent to that member alone shows orderMessageEnable=want.
     */
    private void everyMember(String when, String want, String wantConf) throws Exception {
        c.check("sharedconf.route-order-conf-on-every-member-" + when, SHORT, () -> view.every(m -> orderConf(m, wantConf)));
        for (RaftNameServers.Node n : raft.members()) {
            MqAdmin.Result r = c.mqadmin.run5("getNamesrvConfig", "-n", n.addr());
            // mqadmin prints "key<padding>=  value" in a section per name server.
            Pattern line = Pattern.compile("(?m)^orderMessageEnable\\s*=\\s*" + want + "\\s*$");
            c.report.check("sharedconf.getNamesrvConfig-" + n.id + "-" + when, r.failed() ? r.brief()
                : line.matcher(r.output()).find() ? null : "no orderMessageEnable = " + want + " line: " + r.brief());
        }
    }

    private String orderConf(NameServers.Member m, String want) throws Exception {
        TopicRouteData route = view.route(m, TOPIC);
        if (route == null) {
            return "no route";
        }
        String got = route.getOrderTopicConf();
        return want == null ? (got == null ? null : "orderTopicConf " + got + ", want none")
            : want.equals(got) ? null : "orderTopicConf " + got + ", want " + want;
    }
}
