package io.github.raftns.interop;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * AuditClusterScenario has real callers make each kind of change on a three-member RaftNS cluster of its
 * own with access control (writes mode), the admin token and a snapshot after every entry: the 5.5.0
 * mqadmin signing with a tools.yml admin account changes a KV and a broker's write permission through a
 * follower and through the leader; bin/raftnsctl with the admin token transfers leadership through a
 * follower; a 5.5.0 broker is SIGKILLed and expires. Then every member answers the same audit trail
 * (GET /v1/audit), each record naming its caller, address and the member that took it; after SIGKILL of
 * the leader every survivor answers it; the killed member, started again on its data directory, restores
 * from a snapshot holding the whole trail and answers it too; no secret reaches a trail or a member's log.
 * RaftNS-only.
 */
final class AuditClusterScenario {
    private static final String ADMIN_AK = "auditAdmin";
    private static final String ADMIN_SK = "auditAdminSecretKey";
    private static final String NS = "AuditInteropNS";
    private static final Pattern SNAPSHOT_TAKEN = Pattern.compile("snapshot complete up to: .*index=(\\d+)");
    private static final Pattern SNAPSHOT_RESTORED = Pattern.compile("restored from snapshot: .*last-index=(\\d+)");

    /** Rec is one audit record as GET /v1/audit answers it. */
    record Rec(long index, String time, String who, String from, String via, String kind, String cluster, String broker,
               String topic, String detail, String outcome) {
        static Rec of(JSONObject o) {
            return new Rec(o.getLongValue("index"), o.getString("time"), o.getString("who"), str(o, "from"), o.getString("via"),
                o.getString("kind"), str(o, "cluster"), str(o, "broker"), str(o, "topic"), str(o, "detail"), o.getString("outcome"));
        }

        private static String str(JSONObject o, String key) {
            String s = o.getString(key);
            return s == null ? "" : s;
        }
    }

    /** Want is a record the scenario expects: its kind, caller, the member that took it, and a detail it names. */
    record Want(String kind, String who, String via, String detailHas) {
        String mismatch(Rec r) {
            boolean from = who.equals("raftns") ? r.from().isEmpty() : r.from().startsWith("127.0.0.1");
            boolean ok = r.kind().equals(kind) && r.who().equals(who) && r.via().equals(via) && from
                && r.detail().contains(detailHas) && r.outcome().equals("applied");
            return ok ? null : "record " + r + ", want " + kind + " by " + who + " from 127.0.0.1 via " + via
                + " with " + detailHas + ", applied";
        }
    }

    private final Ctx c;
    private final Path dir;
    private final String token;
    private final RaftNameServers raft;
    private final Ctl ctl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Want> wants = new ArrayList<>();

    private AuditClusterScenario(Ctx c, Path dir, String token, List<String> flags) {
        this.c = c;
        this.dir = dir;
        this.token = token;
        this.raft = new RaftNameServers(c.settings, c.procs, c.ports, "au", flags);
        this.ctl = new Ctl(c.settings, c.procs);
    }

    /** run starts the scenario's members and broker, runs the checks and stops them. */
    static void run(Ctx c) throws Exception {
        if (!c.ns.replicated()) {
            c.report.skip("audit", "RaftNS-only: the reference NameServer keeps no audit trail");
            return;
        }
        Path dir = c.settings.work.resolve("audit");
        Files.createDirectories(dir.resolve("home/conf"));
        Path accounts = dir.resolve("plain_acl.yml");
        Files.writeString(accounts, "accounts:\n- accessKey: " + ADMIN_AK + "\n  secretKey: " + ADMIN_SK + "\n  admin: true\n");
        // mqadmin signs with the account in ROCKETMQ_HOME/conf/tools.yml.
        Files.writeString(dir.resolve("home/conf/tools.yml"), "accessKey: " + ADMIN_AK + "\nsecretKey: " + ADMIN_SK + "\n");
        String token = "audit-interop-token-" + Long.toHexString(System.nanoTime());
        Path tokenFile = dir.resolve("admin.token");
        Files.writeString(tokenFile, token + "\n");
        AuditClusterScenario s = new AuditClusterScenario(c, dir, token, List.of(
            "--http-token-file", tokenFile.toString(),
            "--acl-mode", "writes", "--acl-file", accounts.toString(), "--acl-broker-addrs", "127.0.0.1",
            "--scan-interval", "500ms",
            "--snapshot-threshold", "1", "--snapshot-interval", "100ms", "--trailing-logs", "1"));
        try {
            s.raft.start();
            s.checks(tokenFile);
        } finally {
            c.procs.killNamed("broker-audit");
            s.raft.stop();
        }
    }

    private void checks(Path tokenFile) throws Exception {
        Broker broker = new Broker(c.settings, c.ports, "audit", "broker-audit", 0, Broker.Version.V5, raft.addrList(), Map.of());
        broker.start(c.procs);
        for (RaftNameServers.Node n : raft.members()) {
            c.check("audit.broker-registered-on-" + n.id, Duration.ofSeconds(30), () ->
                broker.addr().equals(c.view.brokerAddrs(n, broker.brokerName).get(0L)) ? null
                    : "brokerAddrs " + c.view.brokerAddrs(n, broker.brokerName));
        }
        RaftNameServers.Node leader = (RaftNameServers.Node) raft.leader();
        RaftNameServers.Node follower = (RaftNameServers.Node) raft.follower();
        mqadmin(follower, "follower", broker.brokerName);
        mqadmin(leader, "leader", broker.brokerName);

        Ctl.Result tr = ctl.run("--addr", follower.admin(), "--token-file", tokenFile.toString(), "leader", "transfer");
        c.report.check("audit.raftnsctl-leader-transfer-via-follower", tr.exitCode() == 0 ? null : tr.brief());
        wants.add(new Want("leader-transfer", "admin-token", follower.id, ""));
        RaftNameServers.Node newLeader = awaitLeaderOtherThan(leader);

        broker.proc().kill();
        wants.add(new Want("broker-expiry", "raftns", newLeader.id, "reason=connection-closed"));
        List<Rec> trail = awaitTrail(newLeader);
        Report.info("the audit trail (" + trail.size() + " records):");
        trail.forEach(r -> Report.info("  " + r));
        sameEverywhere("after-the-changes", raft.members(), trail);

        RaftNameServers.Node killed = (RaftNameServers.Node) raft.leader();
        long last = trail.get(trail.size() - 1).index();
        c.check("audit.leader-snapshot-holds-the-trail", Duration.ofSeconds(20), () ->
            logHolds(killed.proc.output(), SNAPSHOT_TAKEN, last) ? null : "no snapshot of index " + last + " on " + killed.id);
        raft.kill(killed);
        List<RaftNameServers.Node> survivors = raft.members().stream().filter(n -> n != killed).toList();
        c.check("audit.a-survivor-leads-after-the-kill", Duration.ofSeconds(30), () -> {
            for (RaftNameServers.Node n : survivors) {
                if ("Leader".equalsIgnoreCase(raft.status(n).getString("state"))) {
                    return null;
                }
            }
            return "no survivor reports state Leader";
        });
        sameEverywhere("after-the-leader-kill", survivors, trail);

        int from = killed.proc.output().length();
        raft.restart(killed);
        c.report.check("audit.restarted-member-restored-from-a-snapshot-of-the-trail",
            logHolds(killed.proc.output().substring(from), SNAPSHOT_RESTORED, last) ? null
                : killed.id + " logged no restore from a snapshot of index " + last + ": " + killed.proc.tail(10));
        sameEverywhere("after-the-restart-from-a-snapshot", raft.members(), trail);
        noSecrets();
    }

    /** mqadmin runs the signed 5.5.0 mqadmin's KV and write-permission commands through member n. */
    private void mqadmin(RaftNameServers.Node n, String role, String brokerName) throws Exception {
        Path home = dir.resolve("home");
        MqAdmin.Result r = c.mqadmin.run5Home(home, "updateKvConfig", "-n", n.addr(), "-s", NS, "-k", "via-" + role, "-v", n.id);
        c.report.check("audit.mqadmin5-signed-updateKvConfig-via-" + role, !r.failed() ? null : r.brief());
        wants.add(new Want("kv-put", ADMIN_AK, n.id, "key=via-" + role));
        r = c.mqadmin.run5Home(home, "wipeWritePerm", "-n", n.addr(), "-b", brokerName);
        c.report.check("audit.mqadmin5-signed-wipeWritePerm-via-" + role, !r.failed() && r.output().contains("OK") ? null : r.brief());
        wants.add(new Want("write-perm-wipe", ADMIN_AK, n.id, "topics="));
        r = c.mqadmin.run5Home(home, "addWritePerm", "-n", n.addr(), "-b", brokerName);
        c.report.check("audit.mqadmin5-signed-addWritePerm-via-" + role, !r.failed() && r.output().contains("OK") ? null : r.brief());
        wants.add(new Want("write-perm-add", ADMIN_AK, n.id, "topics="));
    }

    private RaftNameServers.Node awaitLeaderOtherThan(RaftNameServers.Node old) throws Exception {
        RaftNameServers.Node[] now = new RaftNameServers.Node[1];
        c.check("audit.leadership-moved", Duration.ofSeconds(20), () -> {
            now[0] = (RaftNameServers.Node) raft.leader();
            return now[0] != old ? null : old.id + " still leads";
        });
        return now[0];
    }

    /** awaitTrail waits until n's trail holds one record per expected change, and checks each. */
    private List<Rec> awaitTrail(RaftNameServers.Node n) {
        List<Rec> got = new ArrayList<>();
        c.check("audit.trail-names-every-caller", Duration.ofSeconds(30), () -> {
            got.clear();
            got.addAll(trail(n));
            if (got.size() != wants.size()) {
                return got.size() + " records, want " + wants.size() + ": " + got;
            }
            for (int i = 0; i < got.size(); i++) {
                String m = wants.get(i).mismatch(got.get(i));
                if (m != null) {
                    return m;
                }
            }
            return null;
        });
        if (got.size() != wants.size()) {
            throw new IllegalStateException("the trail never held the expected records");
        }
        return List.copyOf(got);
    }

    /** sameEverywhere checks that every member of ms answers exactly want. */
    private void sameEverywhere(String when, List<RaftNameServers.Node> ms, List<Rec> want) {
        for (RaftNameServers.Node n : ms) {
            c.check("audit.same-trail-on-" + n.id + "-" + when, Duration.ofSeconds(20), () -> {
                List<Rec> got = trail(n);
                return got.equals(want) ? null : n.id + " answers " + got + ", want " + want;
            });
        }
    }

    /** noSecrets checks that neither the secret key nor the admin token is in any member's trail or log. */
    private void noSecrets() throws Exception {
        StringBuilder all = new StringBuilder();
        for (RaftNameServers.Node n : raft.members()) {
            all.append(get(n, "/v1/audit?limit=1000").body()).append(n.proc.output());
        }
        String s = all.toString();
        c.report.check("audit.no-secret-in-any-trail-or-member-log",
            s.contains(ADMIN_SK) || s.contains(token) ? "the secret key or the admin token appears" : null);
    }

    private List<Rec> trail(RaftNameServers.Node n) throws Exception {
        HttpResponse<String> resp = get(n, "/v1/audit?limit=1000");
        if (resp.statusCode() != 200) {
            throw new IllegalStateException(n.id + " /v1/audit answered " + resp.statusCode() + ": " + resp.body());
        }
        JSONObject page = JSON.parseObject(resp.body());
        if (page.getBooleanValue("more")) {
            throw new IllegalStateException(n.id + " has more than 1000 records");
        }
        JSONArray recs = page.getJSONArray("records");
        List<Rec> out = new ArrayList<>();
        for (int i = 0; recs != null && i < recs.size(); i++) {
            Rec r = Rec.of(recs.getJSONObject(i));
            // The leader seeds the cluster's run-time settings when the cluster forms: not a change of the scenario's.
            if (!(r.kind().equals("config-update") && r.who().equals("raftns") && r.detail().contains("(seed from "))) {
                out.add(r);
            }
        }
        return out;
    }

    private HttpResponse<String> get(RaftNameServers.Node n, String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(n.http() + path)).timeout(Duration.ofSeconds(3)).GET().build();
        return http.send(req, HttpResponse.BodyHandlers.ofString());
    }

    /** logHolds reports whether log has a line of pattern naming an index at or above index. */
    private static boolean logHolds(String log, Pattern pattern, long index) {
        Matcher m = pattern.matcher(log);
        while (m.find()) {
            if (Long.parseLong(m.group(1)) >= index) {
                return true;
            }
        }
        return false;
    }
}
