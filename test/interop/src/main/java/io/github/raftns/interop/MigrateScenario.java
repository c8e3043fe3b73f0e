package io.github.raftns.interop;

import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * MigrateScenario runs raftnsctl migrate against real software. Two reference NameServers of its own
 * (5.5.0, loopback only) serve a 5.5.0 master and slave of "broker-mig". First the NameServers are made
 * to disagree (the slave registered with one of them only, a KV entry on one only, a topic deleted on
 * one only): migrate report must name exactly those differences and exit 3; once they agree it must
 * exit 0. Then, with RaftNS, MigrateCutover runs the cutover of docs/operators/migration.md under live traffic.
 */
final class MigrateScenario {
    static final String BROKER_NAME = "broker-mig";
    static final String TOPIC = "it-migrate";
    static final String KV_NS = "ORDER_TOPIC_CONFIG";
    static final String KV_KEY = "it-migrate-order";
    static final String KV_VALUE = BROKER_NAME + ":4";

    /** Fleet is what the scenario runs: the reference NameServers, the pair and raftnsctl. */
    record Fleet(JavaNameServers refs, Broker master, Broker slave, Ctl ctl) {
        NameServers.Member ref(int i) {
            return refs.members().get(i);
        }
    }

    private MigrateScenario() {
    }

    /** run starts the reference NameServers and the pair, runs the report checks and, with RaftNS, the cutover. */
    static void run(Ctx c) throws Exception {
        JavaNameServers refs = new JavaNameServers(c.settings, c.procs, c.ports, 2, "ref");
        RaftNameServers raft = c.settings.raft() ? new RaftNameServers(c.settings, c.procs, c.ports, "mig") : null;
        // A 10 s period makes a broker pick up a namesrvAddr changed at run time within 10 s (default 2 min).
        Map<String, String> extra = Map.of("updateNameServerAddrPeriod", "10000");
        Broker master = new Broker(c.settings, c.ports, "mig-master", BROKER_NAME, 0, Broker.Version.V5, refs.addrList(), extra);
        Broker slave = new Broker(c.settings, c.ports, "mig-slave", BROKER_NAME, 1, Broker.Version.V5,
            refs.members().get(0).addr(), extra);
        Fleet f = new Fleet(refs, master, slave, new Ctl(c.settings, c.procs));
        try {
            refs.start();
            if (raft != null) {
                raft.start();
            }
            master.launch(c.procs);
            slave.launch(c.procs);
            master.awaitBoot();
            slave.awaitBoot();
            report(c, f);
            if (raft == null) {
                c.report.skip("migrate.cutover", "RaftNS-only: the cutover moves to RaftNS members");
            } else {
                MigrateCutover.run(c, f, raft);
            }
        } finally {
            slave.shutdown(Duration.ofSeconds(30));
            master.shutdown(Duration.ofSeconds(30));
            refs.stop();
            if (raft != null) {
                raft.stop();
            }
        }
    }

    /** report makes the reference NameServers disagree, checks the report, makes them agree and checks again. */
    private static void report(Ctx c, Fleet f) throws Exception {
        String ref1 = f.ref(0).addr();
        String ref2 = f.ref(1).addr();
        c.check("migrate.report.slave-registered-with-one-only", Duration.ofSeconds(60), () -> registered(c, f, false));
        MqAdmin.Result r = c.mqadmin.run5("updateTopic", "-n", f.refs.addrList(), "-c", Broker.CLUSTER, "-t", TOPIC,
            "-r", "4", "-w", "4");
        c.report.check("migrate.report.mqadmin-updateTopic", r.failed() ? r.brief() : null);
        c.check("migrate.report.topic-on-both", Duration.ofSeconds(30), () -> topicEverywhere(f));
        expectOk(f.ctl.run("kv", "put", "--namesrv", ref1, KV_NS, KV_KEY, KV_VALUE), "kv put on " + ref1);
        expectOk(f.ctl.run("delete-topic", "--namesrv", ref2, TOPIC), "delete-topic on " + ref2);

        Ctl.Result table = f.ctl.run("migrate", "report", "--from", f.refs.addrList());
        table.print("raftnsctl migrate report --from '" + f.refs.addrList() + "' (disagreeing)");
        Ctl.Result json = f.ctl.run("migrate", "report", "--from", f.refs.addrList(), "-o", "json");
        Set<String> want = Set.of("broker " + BROKER_NAME + "/1 missing", "kv " + KV_NS + "/" + KV_KEY + " missing",
            "topic " + TOPIC + " missing");
        c.report.check("migrate.report.names-every-difference-exit-3", disagreement(table, json, want));

        // Agreement: the slave restarted with both NameServers, the key put on the second, the topic
        // updated again (the broker registers its new topic config with both).
        f.slave.shutdown(Duration.ofSeconds(30));
        f.slave.namesrvAddr(f.refs.addrList());
        f.slave.start(c.procs);
        expectOk(f.ctl.run("kv", "put", "--namesrv", ref2, KV_NS, KV_KEY, KV_VALUE), "kv put on " + ref2);
        r = c.mqadmin.run5("updateTopic", "-n", f.refs.addrList(), "-c", Broker.CLUSTER, "-t", TOPIC, "-r", "4", "-w", "4");
        c.report.check("migrate.report.mqadmin-updateTopic-again", r.failed() ? r.brief() : null);
        c.check("migrate.report.slave-registered-with-both", Duration.ofSeconds(60), () -> registered(c, f, true));
        Ctl.Result[] last = new Ctl.Result[1];
        c.check("migrate.report.agree-exit-0", Duration.ofSeconds(60), () -> {
            last[0] = f.ctl.run("migrate", "report", "--from", f.refs.addrList());
            return last[0].exitCode() == 0 ? null : "exit " + last[0].exitCode() + ": " + last[0].brief();
        });
        if (last[0] != null) {
            last[0].print("raftnsctl migrate report --from '" + f.refs.addrList() + "' (agreeing)");
        }
    }

    /** registered checks the pair on both NameServers: the slave on the first only, or on both. */
    static String registered(Ctx c, Fleet f, boolean slaveOnBoth) {
        return NsView.every(f.refs.members(), m -> {
            Map<Long, String> want = m == f.ref(0) || slaveOnBoth
                ? Map.of(0L, f.master.addr(), 1L, f.slave.addr()) : Map.of(0L, f.master.addr());
            Map<Long, String> got = c.view.brokerAddrs(m, BROKER_NAME);
            return want.equals(got) ? null : "brokerAddrs " + got + ", want " + want;
        });
    }

    private static String topicEverywhere(Fleet f) throws Exception {
        Ctl.Result r = f.ctl.run("migrate", "report", "--from", f.refs.addrList(), "-o", "json");
        JSONArray diffs = r.json().getJSONArray("differences");
        for (int i = 0; i < diffs.size(); i++) {
            if (diffs.getJSONObject(i).getString("subject").equals(TOPIC)) {
                return "topic differs: " + diffs.getJSONObject(i);
            }
        }
        JSONArray sums = r.json().getJSONArray("summaries");
        return sums.getJSONObject(0).getIntValue("topics") > 0 ? null : "no topics yet";
    }

    /** disagreement checks the table's exit status and verdict and that the JSON names exactly want. */
    private static String disagreement(Ctl.Result table, Ctl.Result json, Set<String> want) {
        if (table.exitCode() != 3 || json.exitCode() != 3) {
            return "exit " + table.exitCode() + " (table), " + json.exitCode() + " (json), want 3: " + table.brief();
        }
        if (!table.output().contains("disagree: 3 differences (1 broker, 1 topic, 1 kv)")) {
            return "table lacks the verdict: " + table.brief();
        }
        JSONObject o = json.json();
        Set<String> got = new TreeSet<>();
        JSONArray diffs = o.getJSONArray("differences");
        for (int i = 0; i < diffs.size(); i++) {
            JSONObject d = diffs.getJSONObject(i);
            got.add(d.getString("kind") + " " + d.getString("subject") + " " + d.getString("problem"));
        }
        return got.equals(new TreeSet<>(want)) && !o.getBooleanValue("ok") ? null : "differences " + got + ", want " + want;
    }

    /** expectOk throws when a raftnsctl command the scenario relies on failed. */
    static void expectOk(Ctl.Result r, String what) {
        if (r.exitCode() != 0) {
            throw new IllegalStateException(what + ": exit " + r.exitCode() + ": " + r.brief());
        }
    }
}
