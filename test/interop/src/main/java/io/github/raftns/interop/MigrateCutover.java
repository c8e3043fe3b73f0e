package io.github.raftns.interop;

import com.alibaba.fastjson.JSONArray;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * MigrateCutover runs the cutover of docs/operators/migration.md end to end while a producer sends every 20 ms and
 * a consumer receives: KV imported into RaftNS (dry run, import, import again), migrate verify naming the
 * brokers not yet registered with RaftNS, the RaftNS members added to the master's namesrvAddr at run time
 * (mqadmin updateBrokerConfig) and to the slave's by a restart, verify clean, the clients switched to the
 * members, verify clean again, the brokers' namesrvAddr reduced to the members and the reference
 * NameServers stopped. Not one send may fail over the whole run, and every message must be consumed.
 */
final class MigrateCutover {
    private MigrateCutover() {
    }

    static void run(Ctx c, MigrateScenario.Fleet f, RaftNameServers raft) throws Exception {
        String refs = f.refs().addrList();
        String members = raft.addrList();
        String both = refs + ";" + members;
        ContinuousTraffic traffic = new ContinuousTraffic(refs, MigrateScenario.TOPIC, "interop_migrate");
        boolean stopped = false;
        try {
            importKV(c, f, raft);
            Ctl.Result before = f.ctl().run("migrate", "verify", "--from", refs, "--to", members);
            before.print("raftnsctl migrate verify before the brokers know RaftNS");
            c.report.check("migrate.cutover.verify-names-unregistered-brokers", before.exitCode() == 3
                && before.output().contains("broker " + MigrateScenario.BROKER_NAME + "/0: missing")
                && before.output().contains("broker " + MigrateScenario.BROKER_NAME + "/1: missing")
                && before.output().contains("topic " + MigrateScenario.TOPIC + ": missing") ? null
                : "want exit 3 naming both broker ids and the topic: " + before.brief());

            MqAdmin.Result r = c.mqadmin.run5("updateBrokerConfig", "-n", refs, "-b", f.master().addr(),
                "-k", "namesrvAddr", "-v", both);
            c.report.check("migrate.cutover.master-namesrvAddr-updated-at-run-time",
                r.output().contains("update broker config success") ? null : r.brief());
            c.check("migrate.cutover.master-config-file-holds-the-new-list", Duration.ofSeconds(10),
                () -> f.master().configFile().contains("namesrvAddr=" + both) ? null : "broker.properties lacks namesrvAddr=" + both);
            c.check("migrate.cutover.master-registered-with-raftns", Duration.ofSeconds(60),
                () -> lacks(f, refs, members, "broker " + MigrateScenario.BROKER_NAME + "/0"));

            f.slave().shutdown(Duration.ofSeconds(30));
            f.slave().namesrvAddr(both);
            f.slave().start(c.procs);
            c.check("migrate.cutover.verify-clean-with-both-lists", Duration.ofSeconds(60), () -> clean(f, refs, members));
            Report.info("traffic so far: " + traffic.sent() + " sent, " + traffic.failedSends() + " failed; switching the clients to " + members);

            traffic.switchTo(members);
            Ctl.Result last = f.ctl().run("migrate", "verify", "--from", refs, "--to", members);
            last.print("raftnsctl migrate verify after the clients moved, before the reference NameServers stop");
            c.report.check("migrate.cutover.verify-clean-before-stopping-references", last.exitCode() == 0 ? null : last.brief());

            c.check("migrate.cutover.brokers-namesrvAddr-reduced-to-raftns", Duration.ofSeconds(60),
                () -> reduceTo(c, f, members));
            f.refs().stop();
            int atStop = traffic.sent();
            Report.info("reference NameServers stopped; " + atStop + " sent so far, " + traffic.failedSends() + " failed");
            Poll.until(Duration.ofSeconds(30), () -> traffic.sent() >= atStop + 200 ? null : "sending on RaftNS alone");
            ContinuousTraffic.Outcome o = traffic.stop(Duration.ofSeconds(90));
            stopped = true;
            if (o.failure() == null) {
                c.report.pass("migrate.cutover.no-failed-send-every-message-consumed", o.note());
            } else {
                c.report.fail("migrate.cutover.no-failed-send-every-message-consumed", o.failure());
            }
            Ctl.Result agree = f.ctl().run("migrate", "report", "--from", members);
            agree.print("raftnsctl migrate report --from the RaftNS members, after the cutover");
            c.report.check("migrate.cutover.raftns-members-agree", agree.exitCode() == 0 ? null : agree.brief());
            c.check("migrate.cutover.every-member-serves-the-pair", Duration.ofSeconds(30), () -> NsView.every(raft.members(),
                m -> NsView.routeHas(c.view.route(m, MigrateScenario.TOPIC), MigrateScenario.BROKER_NAME,
                    Map.of(0L, f.master().addr(), 1L, f.slave().addr()), 4, 6)));
        } finally {
            if (!stopped) {
                traffic.stop(Duration.ofSeconds(5));
            }
        }
    }

    /** importKV copies the KV namespace into RaftNS: a dry run, the import, and the import again. */
    private static void importKV(Ctx c, MigrateScenario.Fleet f, RaftNameServers raft) throws Exception {
        String refs = f.refs().addrList();
        String first = raft.members().get(0).addr();
        String key = MigrateScenario.KV_NS + "/" + MigrateScenario.KV_KEY;
        Ctl.Result dry = f.ctl().run("migrate", "import", "--from", refs, "--to", first, "--dry-run");
        dry.print("raftnsctl migrate import --dry-run");
        Ctl.Result got = f.ctl().run("kv", "get", "--namesrv", first, MigrateScenario.KV_NS, MigrateScenario.KV_KEY);
        c.report.check("migrate.cutover.import-dry-run-writes-nothing", dry.exitCode() == 0
            && dry.output().matches("(?s).*set\\s+kv\\s+" + key + "\\s+" + MigrateScenario.KV_VALUE + ".*")
            && got.exitCode() == 1 ? null : "dry run: " + dry.brief() + "; kv get: " + got.brief());

        Ctl.Result imp = f.ctl().run("migrate", "import", "--from", refs, "--to", first);
        imp.print("raftnsctl migrate import");
        c.report.check("migrate.cutover.import", imp.exitCode() == 0 && imp.output().contains("1 key set")
            && imp.output().contains("routes are not copied") ? null : imp.brief());
        c.check("migrate.cutover.kv-imported-on-every-member", Duration.ofSeconds(10), () -> NsView.every(raft.members(), m -> {
            Ctl.Result v = f.ctl().run("kv", "get", "--namesrv", m.addr(), MigrateScenario.KV_NS, MigrateScenario.KV_KEY);
            return v.exitCode() == 0 && v.output().trim().equals(MigrateScenario.KV_VALUE) ? null : v.brief();
        }));
        Ctl.Result again = f.ctl().run("migrate", "import", "--from", refs, "--to", raft.members().get(1).addr());
        c.report.check("migrate.cutover.import-again-changes-nothing", again.exitCode() == 0
            && again.output().contains("0 keys set, 0 updated, 1 unchanged") ? null : again.brief());
    }

    /**
     * reduceTo runs step 5's cluster-wide updateBrokerConfig and returns null once both brokers' configuration
     * files hold namesrvAddr=members. mqadmin updates the brokers it finds in the cluster info of the name server
     * it asked, printing one success line each; the guide says to run it again for a broker it did not name.
     */
    private static String reduceTo(Ctx c, MigrateScenario.Fleet f, String members) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("updateBrokerConfig", "-n", members, "-c", Broker.CLUSTER, "-a", "true",
            "-k", "namesrvAddr", "-v", members);
        String want = "namesrvAddr=" + members;
        boolean master = f.master().configFile().contains(want);
        boolean slave = f.slave().configFile().contains(want);
        if (master && slave) {
            return null;
        }
        String missing = (master ? "" : "master ") + (slave ? "" : "slave ") + "lacks " + want + " after: " + r.brief();
        Report.info("updateBrokerConfig again: " + missing);
        return missing;
    }

    /** lacks returns null once migrate verify no longer lists subject (e.g. "broker NAME/ID"). */
    private static String lacks(MigrateScenario.Fleet f, String refs, String members, String subject) throws Exception {
        JSONArray diffs = f.ctl().run("migrate", "verify", "--from", refs, "--to", members, "-o", "json").json()
            .getJSONArray("differences");
        Set<String> listed = new HashSet<>();
        for (int i = 0; i < diffs.size(); i++) {
            listed.add(diffs.getJSONObject(i).getString("kind") + " " + diffs.getJSONObject(i).getString("subject"));
        }
        return listed.contains(subject) ? "verify still lists " + subject + ": " + listed : null;
    }

    /** clean returns null once migrate verify exits 0. */
    private static String clean(MigrateScenario.Fleet f, String refs, String members) throws Exception {
        Ctl.Result r = f.ctl().run("migrate", "verify", "--from", refs, "--to", members);
        return r.exitCode() == 0 ? null : "exit " + r.exitCode() + ": " + r.brief();
    }
}
