package io.github.raftns.interop;

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

/**
 * AclScenario runs one RaftNS member with access control in writes mode (an accounts file shaped like
 * plain_acl.yml, the 4.9.x broker's address on the broker allow-list) and checks, with real RocketMQ
 * software: the 4.9.8 mqadmin signing with a tools.yml admin account succeeds; the same commands
 * unsigned are refused with NO_PERMISSION (16) and change nothing; a 4.9.8 producer with the ACL client
 * hook routes and sends; the 4.9.7 broker, which cannot sign, keeps registering; the replicated audit
 * trail names the signing account and its address for every signed change, holds no record of a refused
 * one, and no secret key reaches it or the member's log. RaftNS-only: the
 * reference NameServer has no access control, so under NAMESRV=java every check is a SKIP.
 */
final class AclScenario {
    private static final String ADMIN_AK = "interopAdmin";
    private static final String ADMIN_SK = "interopAdminSecret";
    private static final String USER_AK = "interopUser";
    private static final String USER_SK = "interopUserSecret";
    private static final String NS = "AclInteropNS";

    private AclScenario() {
    }

    /** run starts the ACL member and a 4.9.7 broker, runs the checks and stops both. */
    static void run(Ctx c) throws Exception {
        if (!c.ns.replicated()) {
            c.report.skip("acl", "RaftNS-only: the reference NameServer has no access control");
            return;
        }
        Path dir = c.settings.work.resolve("acl");
        Files.createDirectories(dir.resolve("data"));
        Path accounts = dir.resolve("plain_acl.yml");
        Files.writeString(accounts, "accounts:\n"
            + "- accessKey: " + ADMIN_AK + "\n  secretKey: " + ADMIN_SK + "\n  admin: true\n"
            + "- accessKey: " + USER_AK + "\n  secretKey: " + USER_SK + "\n  admin: false\n");
        // A ROCKETMQ_HOME whose conf/tools.yml makes mqadmin sign with the admin account.
        Path signedHome = dir.resolve("rocketmq4-home-signed");
        Files.createDirectories(signedHome.resolve("conf"));
        for (String f : List.of("logback_tools.xml", "logback_broker.xml")) {
            Files.copy(c.settings.home.resolve("rocketmq4-home/conf/" + f), signedHome.resolve("conf/" + f));
        }
        Files.writeString(signedHome.resolve("conf/tools.yml"), "accessKey: " + ADMIN_AK + "\nsecretKey: " + ADMIN_SK + "\n");

        RaftNameServers.Node n = new RaftNameServers.Node("acl1", c.ports.one(), c.ports.one(), c.ports.one(), dir);
        List<String> cmd = new ArrayList<>(List.of(c.settings.raftnsBin.toAbsolutePath().toString(),
            "--id", n.id, "--listen", n.addr(), "--cluster-addr", "127.0.0.1:" + n.clusterPort,
            "--http-addr", "127.0.0.1:" + n.httpPort, "--data-dir", dir.resolve("data").toString(),
            "--acl-mode", "writes", "--acl-file", accounts.toString(), "--acl-broker-addrs", "127.0.0.1"));
        n.proc = c.procs.start("raftns-acl1", dir, cmd, Map.of());
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Poll.Result up = Poll.until(Duration.ofSeconds(60), () -> {
            if (!n.proc.alive()) {
                throw new IllegalStateException("raftns acl1 exited: " + n.proc.tail(5));
            }
            return get(http, n, "/readyz").statusCode() == 200 ? null : "not ready";
        });
        if (!up.ok()) {
            throw new IllegalStateException("ACL member not ready: " + up.failure());
        }
        // Raise the cluster version so that the audit trail is on (no token: asked from loopback).
        HttpResponse<String> fin = http.send(HttpRequest.newBuilder(URI.create(n.http() + "/v1/upgrade/finalize"))
            .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (fin.statusCode() != 200) {
            throw new IllegalStateException("finalize on the ACL member: " + fin.statusCode() + " " + fin.body());
        }
        Broker broker = new Broker(c.settings, c.ports, "v4-acl", "broker-acl", 0, Broker.Version.V4, n.addr(),
            Map.of("autoCreateTopicEnable", "false"));
        broker.launch(c.procs);
        broker.awaitBoot();
        try {
            checks(c, n, http, broker, signedHome);
        } finally {
            broker.shutdown(Duration.ofSeconds(60));
            n.proc.terminate(Duration.ofSeconds(10));
        }
    }

    private static void checks(Ctx c, RaftNameServers.Node n, HttpClient http, Broker broker, Path signedHome) throws Exception {
        String ns = n.addr();
        Map<Long, String> want = Map.of(0L, broker.addr());
        c.check("acl.unsigned-4.9-broker-registers-from-the-allow-list", Duration.ofSeconds(60), () ->
            want.equals(c.view.brokerAddrs(n, broker.brokerName)) ? null : "brokerAddrs " + c.view.brokerAddrs(n, broker.brokerName));
        double registeredBefore = metric(http, n, "ns_requests_total{code=\"103\",response=\"0\"}");

        // Signed with the tools.yml admin account: accepted.
        MqAdmin.Result r = c.mqadmin.run4Home(signedHome, "updateKvConfig", "-n", ns, "-s", NS, "-k", "signed", "-v", "yes");
        c.report.check("acl.mqadmin4-signed-updateKvConfig-succeeds", !r.failed() ? null : r.brief());
        c.check("acl.signed-kv-visible", Duration.ofSeconds(10), () -> "yes".equals(c.view.kv(n, NS, "signed")) ? null
            : "kv " + c.view.kv(n, NS, "signed"));
        r = c.mqadmin.run4Home(signedHome, "updateTopic", "-n", ns, "-b", broker.addr(), "-t", "it-acl", "-r", "2", "-w", "2");
        c.report.check("acl.mqadmin4-signed-updateTopic-succeeds", !r.failed() ? null : r.brief());
        c.check("acl.topic-route-after-the-broker-registers-it", Duration.ofSeconds(30), () ->
            NsView.routeHas(c.view.route(n, "it-acl"), broker.brokerName, want, 2, 6));
        r = c.mqadmin.run4Home(signedHome, "wipeWritePerm", "-n", ns, "-b", broker.brokerName);
        c.report.check("acl.mqadmin4-signed-wipeWritePerm-succeeds", !r.failed() && r.output().contains("wipe write perm of broker["
            + broker.brokerName + "] in name server[" + ns + "] OK") ? null : r.brief());
        c.check("acl.signed-wipe-took-effect", Duration.ofSeconds(10), () ->
            NsView.routeHas(c.view.route(n, "it-acl"), broker.brokerName, want, 2, 4));
        r = c.mqadmin.run4Home(signedHome, "addWritePerm", "-n", ns, "-b", broker.brokerName);
        c.report.check("acl.mqadmin4-signed-addWritePerm-succeeds", !r.failed() ? null : r.brief());
        c.check("acl.signed-add-took-effect", Duration.ofSeconds(10), () ->
            NsView.routeHas(c.view.route(n, "it-acl"), broker.brokerName, want, 2, 6));

        // The same commands unsigned: NO_PERMISSION (16), nothing changes.
        double deniedBefore = metric(http, n, "ns_acl_denied_total{reason=\"unsigned\"}");
        r = c.mqadmin.run4("updateKvConfig", "-n", ns, "-s", NS, "-k", "unsigned", "-v", "evil");
        c.report.check("acl.mqadmin4-unsigned-updateKvConfig-refused-16", refused16(r));
        r = c.mqadmin.run4("updateKvConfig", "-n", ns, "-s", NS, "-k", "signed", "-v", "evil");
        c.report.check("acl.mqadmin4-unsigned-overwrite-refused-16", refused16(r));
        r = c.mqadmin.run4("deleteKvConfig", "-n", ns, "-s", NS, "-k", "signed");
        c.report.check("acl.mqadmin4-unsigned-deleteKvConfig-refused-16", refused16(r));
        r = c.mqadmin.run4("wipeWritePerm", "-n", ns, "-b", broker.brokerName);
        c.report.check("acl.mqadmin4-unsigned-wipeWritePerm-refused", r.output().contains("OK") ? r.brief() : null);
        c.report.check("acl.unsigned-commands-changed-nothing", unchanged(c, n, broker, want));
        c.report.check("acl.refusals-counted", metric(http, n, "ns_acl_denied_total{reason=\"unsigned\"}") >= deniedBefore + 4
            ? null : "ns_acl_denied_total{reason=unsigned} did not grow by 4");

        // The 5.5.0 mqadmin, signing with the same tools.yml account.
        r = c.mqadmin.run5Home(signedHome, "updateKvConfig", "-n", ns, "-s", NS, "-k", "signed5", "-v", "yes5");
        c.report.check("acl.mqadmin5-signed-updateKvConfig-succeeds", !r.failed() ? null : r.brief());
        r = c.mqadmin.run5Home(signedHome, "wipeWritePerm", "-n", ns, "-b", broker.brokerName);
        c.report.check("acl.mqadmin5-signed-wipeWritePerm-succeeds", !r.failed() && r.output().contains("OK") ? null : r.brief());
        r = c.mqadmin.run5Home(signedHome, "addWritePerm", "-n", ns, "-b", broker.brokerName);
        c.report.check("acl.mqadmin5-signed-addWritePerm-succeeds", !r.failed() ? null : r.brief());
        c.check("acl.mqadmin5-signed-changes-took-effect", Duration.ofSeconds(10), () ->
            "yes5".equals(c.view.kv(n, NS, "signed5")) ? NsView.routeHas(c.view.route(n, "it-acl"), broker.brokerName, want, 2, 6)
                : "kv " + c.view.kv(n, NS, "signed5"));
        auditChecks(c, n, http);

        // A 4.9.8 producer with the ACL client hook routes through the ACL member and sends.
        Proc p = c.procs.java("aclproducer4", c.settings.work.resolve("client4"), c.settings.classpath4client, c.settings.toolJvm,
            "io.github.raftns.interop.v4.AclProducer4", List.of(ns, "it-acl", USER_AK, USER_SK),
            Map.of("logback.configurationFile", c.settings.home.resolve("rocketmq4-home/conf/logback_tools.xml").toString()));
        if (!p.waitFor(Duration.ofSeconds(90))) {
            p.kill();
            c.report.fail("acl.producer4-with-acl-hook-sends", "timed out: " + p.tail(5));
        } else {
            c.report.check("acl.producer4-with-acl-hook-sends", p.process.exitValue() == 0 && p.output().contains("ACLPRODUCER OK")
                ? null : "exit " + p.process.exitValue() + ": " + p.tail(6));
        }

        // The broker keeps registering (its period is 10 s) although it never signs.
        c.check("acl.broker-keeps-registering", Duration.ofSeconds(40), () -> {
            double now = metric(http, n, "ns_requests_total{code=\"103\",response=\"0\"}");
            return now > registeredBefore ? null : "no successful REGISTER_BROKER since the first check";
        });
    }

    /**
     * auditChecks reads the member's audit trail after the signed and the refused mqadmin commands: the
     * signed changes are recorded with the admin account and mqadmin's address, the refused ones not at
     * all, and neither secret key appears in the trail or the member's log.
     */
    private static void auditChecks(Ctx c, RaftNameServers.Node n, HttpClient http) throws Exception {
        c.check("acl.audit-names-the-signing-account-for-each-signed-change", Duration.ofSeconds(10), () -> {
            String body = get(http, n, "/v1/audit?who=" + ADMIN_AK).body();
            for (String kind : List.of("kv-put", "write-perm-wipe", "write-perm-add")) {
                // One by the 4.9.8 mqadmin, one by the 5.5.0 one.
                if (body.split("\"kind\": \"" + kind + "\"", -1).length != 3) {
                    return "not two " + kind + " records by " + ADMIN_AK + ": " + body;
                }
            }
            return body.contains("\"from\": \"127.0.0.1:") && body.contains("\"via\": \"acl1\"") ? null : "no caller address or member: " + body;
        });
        String refused = get(http, n, "/v1/audit?who=anonymous&kind=kv-put").body()
            + get(http, n, "/v1/audit?who=anonymous&kind=kv-delete").body()
            + get(http, n, "/v1/audit?who=anonymous&kind=write-perm-wipe").body();
        c.report.check("acl.audit-has-no-record-of-refused-changes", refused.split("\"records\": \\[\\]", -1).length == 4
            ? null : "records of refused changes: " + refused);
        String all = get(http, n, "/v1/audit").body() + n.proc.output();
        c.report.check("acl.no-secret-key-in-the-audit-trail-or-the-log",
            all.contains(ADMIN_SK) || all.contains(USER_SK) ? "a secret key appears in the trail or the log" : null);
    }

    /** refused16 passes when mqadmin failed with response code 16. */
    private static String refused16(MqAdmin.Result r) {
        return r.output().contains("CODE: 16") ? null : "want CODE: 16 in: " + r.brief();
    }

    private static String unchanged(Ctx c, RaftNameServers.Node n, Broker broker, Map<Long, String> want) {
        try {
            String signed = c.view.kv(n, NS, "signed");
            String unsigned = c.view.kv(n, NS, "unsigned");
            String route = NsView.routeHas(c.view.route(n, "it-acl"), broker.brokerName, want, 2, 6);
            if (!"yes".equals(signed) || unsigned != null || route != null) {
                return "signed=" + signed + " unsigned=" + unsigned + " route: " + route;
            }
            return null;
        } catch (Exception e) {
            return Poll.describe(e);
        }
    }

    private static HttpResponse<String> get(HttpClient http, RaftNameServers.Node n, String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(n.http() + path)).timeout(Duration.ofSeconds(3)).GET().build();
        return http.send(req, HttpResponse.BodyHandlers.ofString());
    }

    /** metric reads one sample of the member's /metrics; 0 when absent. */
    private static double metric(HttpClient http, RaftNameServers.Node n, String sample) throws Exception {
        for (String line : get(http, n, "/metrics").body().split("\n")) {
            if (line.startsWith(sample + " ")) {
                return Double.parseDouble(line.substring(sample.length() + 1).trim());
            }
        }
        return 0;
    }
}
