package io.github.raftns.interop;

import com.alibaba.fastjson.JSON;
import java.time.Duration;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * MqAdminScenario runs every name-server-facing mqadmin subcommand against the name servers, checks
 * what mqadmin prints, and checks each change on every member through NsView. Checks that write
 * through one member and expect the change on every member are RaftNS-only.
 */
final class MqAdminScenario {
    private static final String KV_NS = "interop_ns";
    private static final String ORDER_NS = "ORDER_TOPIC_CONFIG";
    private static final Duration SHORT = Duration.ofSeconds(15);

    private MqAdminScenario() {
    }

    /** run runs every mqadmin check against the running pair; the pair's topic is deleted at the end. */
    static void run(Ctx c, PairScenario.Pair pair) throws Exception {
        String all = c.ns.addrList();
        String topic = TrafficScenario.TOPIC;
        reads(c, pair, all, topic);
        kv(c, all);
        writePerm(c, all, topic);
        config(c, all);
        orderConf(c, all, topic);
        deleteTopic(c, all, topic);
    }

    private static void reads(Ctx c, PairScenario.Pair pair, String all, String topic) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("clusterList", "-n", all);
        c.report.check("mqadmin.clusterList", r.failed() ? r.brief()
            : missingRow(r.output(), pair.master().addr(), "0", pair.slave().addr(), "1"));

        r = c.mqadmin.run5("topicList", "-n", all);
        c.report.check("mqadmin.topicList", !r.failed() && r.output().lines().anyMatch(l -> l.trim().equals(topic))
            ? null : "no line " + topic + ": " + r.brief());

        r = c.mqadmin.run5("topicRoute", "-t", topic, "-n", all);
        String routeProblem;
        if (r.failed() || r.output().indexOf('{') < 0) {
            routeProblem = r.brief();
        } else {
            String json = r.output().substring(r.output().indexOf('{'), r.output().lastIndexOf('}') + 1);
            routeProblem = NsView.routeHas(JSON.parseObject(json, TopicRouteData.class), PairScenario.BROKER_NAME,
                pair.addrs(), 4, 6);
        }
        c.report.check("mqadmin.topicRoute", routeProblem);

        r = c.mqadmin.run5("topicClusterList", "-t", topic, "-n", all);
        c.report.check("mqadmin.topicClusterList", !r.failed() && r.output().lines().anyMatch(l -> l.trim().equals(Broker.CLUSTER))
            ? null : "no line " + Broker.CLUSTER + ": " + r.brief());

        c.check("api.getTopicsByCluster-on-every-ns", SHORT, () -> c.view.every(m ->
            c.view.topicsByCluster(m, Broker.CLUSTER).contains(topic) ? null : "topics of cluster lack " + topic));
        c.check("api.getAllTopicList-on-every-ns", SHORT, () -> c.view.every(m ->
            c.view.topics(m).contains(topic) ? null : "topic list lacks " + topic));
    }

    /** missingRow checks clusterList output for the rows of the pair (cluster, broker name, BID, address). */
    private static String missingRow(String out, String masterAddr, String masterId, String slaveAddr, String slaveId) {
        boolean master = false;
        boolean slave = false;
        for (String line : out.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].equals(Broker.CLUSTER) && f[1].equals(PairScenario.BROKER_NAME)) {
                master |= f[2].equals(masterId) && f[3].equals(masterAddr);
                slave |= f[2].equals(slaveId) && f[3].equals(slaveAddr);
            }
        }
        return master && slave ? null : "rows for " + masterAddr + "/" + slaveAddr + " missing: " + out.replace('\n', '|');
    }

    private static void kv(Ctx c, String all) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("updateKvConfig", "-s", KV_NS, "-k", "k1", "-v", "v1", "-n", all);
        if (expect(c, "mqadmin.updateKvConfig", r, "create or update kv config to namespace success")) {
            c.check("mqadmin.updateKvConfig-visible-on-every-ns", SHORT, () -> c.view.every(m ->
                eq(c.view.kv(m, KV_NS, "k1"), "v1")));
            c.check("api.getKVListByNamespace-on-every-ns", SHORT, () -> c.view.every(m -> {
                KVTable t = c.view.kvList(m, KV_NS);
                return t == null ? "namespace not found" : eq(t.getTable().get("k1"), "v1");
            }));
        }
        NameServers.Member one = c.ns.replicated() ? c.ns.follower() : null;
        c.raftOnly("mqadmin.updateKvConfig-via-one-member-visible-on-every-member", SHORT, () -> {
            MqAdmin.Result x = c.mqadmin.run5("updateKvConfig", "-s", KV_NS, "-k", "k2", "-v", "v2", "-n", one.addr());
            if (x.failed()) {
                return x.brief();
            }
            return Poll.until(SHORT, () -> c.view.every(m -> eq(c.view.kv(m, KV_NS, "k2"), "v2"))).failure();
        });

        r = c.mqadmin.run5("deleteKvConfig", "-s", KV_NS, "-k", "k1", "-n", all);
        if (expect(c, "mqadmin.deleteKvConfig", r, "delete kv config from namespace success")) {
            c.check("mqadmin.deleteKvConfig-gone-on-every-ns", SHORT, () -> c.view.every(m ->
                eq(c.view.kv(m, KV_NS, "k1"), null)));
        }
        c.raftOnly("mqadmin.deleteKvConfig-via-one-member-gone-on-every-member", SHORT, () -> {
            MqAdmin.Result x = c.mqadmin.run5("deleteKvConfig", "-s", KV_NS, "-k", "k2", "-n", one.addr());
            if (x.failed()) {
                return x.brief();
            }
            return Poll.until(SHORT, () -> c.view.every(m -> eq(c.view.kv(m, KV_NS, "k2"), null))).failure();
        });
    }

    private static void writePerm(Ctx c, String all, String topic) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("wipeWritePerm", "-b", PairScenario.BROKER_NAME, "-n", all);
        if (expectPerMember(c, "mqadmin.wipeWritePerm", r, "wipe write perm of broker[" + PairScenario.BROKER_NAME + "] in name server[%s] OK, ")) {
            c.check("mqadmin.wipeWritePerm-read-only-on-every-ns", SHORT, () -> c.view.every(m -> perm(c, m, topic, 4)));
        }
        r = c.mqadmin.run5("addWritePerm", "-b", PairScenario.BROKER_NAME, "-n", all);
        if (expectPerMember(c, "mqadmin.addWritePerm", r, "add write perm of broker[" + PairScenario.BROKER_NAME + "] in name server[%s] OK, ")) {
            c.check("mqadmin.addWritePerm-writable-on-every-ns", SHORT, () -> c.view.every(m -> perm(c, m, topic, 6)));
        }
        NameServers.Member one = c.ns.replicated() ? c.ns.follower() : null;
        c.raftOnly("mqadmin.wipeWritePerm-via-one-member-on-every-member", SHORT, () -> {
            MqAdmin.Result x = c.mqadmin.run5("wipeWritePerm", "-b", PairScenario.BROKER_NAME, "-n", one.addr());
            return x.failed() ? x.brief() : Poll.until(SHORT, () -> c.view.every(m -> perm(c, m, topic, 4))).failure();
        });
        c.raftOnly("mqadmin.addWritePerm-via-one-member-on-every-member", SHORT, () -> {
            MqAdmin.Result x = c.mqadmin.run5("addWritePerm", "-b", PairScenario.BROKER_NAME, "-n", one.addr());
            return x.failed() ? x.brief() : Poll.until(SHORT, () -> c.view.every(m -> perm(c, m, topic, 6))).failure();
        });
    }

    private static String perm(Ctx c, NameServers.Member m, String topic, int want) throws Exception {
        TopicRouteData route = c.view.route(m, topic);
        if (route == null) {
            return "no route";
        }
        QueueData q = NsView.queueData(route, PairScenario.BROKER_NAME);
        return q == null ? "no QueueData" : q.getPerm() == want ? null : "perm " + q.getPerm() + ", want " + want;
    }

    private static void config(Ctx c, String all) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("getNamesrvConfig", "-n", all);
        String missing = null;
        for (NameServers.Member m : c.ns.members()) {
            if (!r.output().contains("============" + m.addr() + "============")) {
                missing = "no section for " + m.addr();
            }
        }
        c.report.check("mqadmin.getNamesrvConfig", r.failed() ? r.brief()
            : missing != null ? missing + ": " + r.brief()
            : r.output().contains("orderMessageEnable") ? null : "no orderMessageEnable line: " + r.brief());

        r = c.mqadmin.run5("updateNamesrvConfig", "-k", "orderMessageEnable", "-v", "true", "-n", all);
        if (expect(c, "mqadmin.updateNamesrvConfig", r, "update name server config success")) {
            c.check("mqadmin.updateNamesrvConfig-applied-on-every-ns", SHORT, () -> c.view.every(m ->
                eq(c.view.config(m).getProperty("orderMessageEnable"), "true")));
        }

        String evil = c.settings.work.resolve("evil.properties").toString();
        r = c.mqadmin.run5("updateNamesrvConfig", "-k", "configStorePath", "-v", evil, "-n", all);
        String refused = r.output().contains("update name server config success") ? "the update was accepted" : null;
        if (refused == null) {
            refused = c.view.every(m -> evil.equals(c.view.config(m).getProperty("configStorePath"))
                ? "configStorePath changed" : null);
        }
        c.report.check("mqadmin.updateNamesrvConfig-refuses-blacklisted-key", refused);
    }

    private static void orderConf(Ctx c, String all, String topic) throws Exception {
        String conf = PairScenario.BROKER_NAME + ":4";
        MqAdmin.Result r = c.mqadmin.run5("updateOrderConf", "-t", topic, "-m", "put", "-v", conf, "-n", all);
        if (expect(c, "mqadmin.updateOrderConf-put", r, "update orderConf success. topic=[" + topic + "], orderConf=[" + conf + "]")) {
            c.check("mqadmin.updateOrderConf-put-kv-on-every-ns", SHORT, () -> c.view.every(m ->
                eq(c.view.kv(m, ORDER_NS, topic), conf)));
            c.check("mqadmin.updateOrderConf-put-orderTopicConf-in-route-on-every-ns", SHORT, () -> c.view.every(m -> {
                TopicRouteData route = c.view.route(m, topic);
                return route == null ? "no route" : eq(route.getOrderTopicConf(), conf);
            }));
        }
        r = c.mqadmin.run5("updateOrderConf", "-t", topic, "-m", "get", "-n", all);
        expect(c, "mqadmin.updateOrderConf-get", r, "get orderConf success. topic=[" + topic + "], orderConf=[" + conf + "]");

        r = c.mqadmin.run5("updateOrderConf", "-t", topic, "-m", "delete", "-n", all);
        if (expect(c, "mqadmin.updateOrderConf-delete", r, "delete orderConf success. topic=[" + topic + "]")) {
            c.check("mqadmin.updateOrderConf-delete-gone-on-every-ns", SHORT, () -> c.view.every(m -> {
                String kv = eq(c.view.kv(m, ORDER_NS, topic), null);
                TopicRouteData route = c.view.route(m, topic);
                return kv != null ? kv : route == null ? "no route" : eq(route.getOrderTopicConf(), null);
            }));
        }
        r = c.mqadmin.run5("updateNamesrvConfig", "-k", "orderMessageEnable", "-v", "false", "-n", all);
        if (expect(c, "mqadmin.updateNamesrvConfig-restore", r, "update name server config success")) {
            c.check("mqadmin.updateNamesrvConfig-restored-on-every-ns", SHORT, () -> c.view.every(m ->
                eq(c.view.config(m).getProperty("orderMessageEnable"), "false")));
        }
    }

    private static void deleteTopic(Ctx c, String all, String topic) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("deleteTopic", "-t", topic, "-c", Broker.CLUSTER, "-n", all);
        if (expect(c, "mqadmin.deleteTopic", r, "delete topic [" + topic + "] from cluster [" + Broker.CLUSTER + "] success.",
            "delete topic [" + topic + "] from NameServer success.")) {
            c.check("mqadmin.deleteTopic-gone-on-every-ns", SHORT, () -> c.view.every(m -> {
                if (c.view.route(m, topic) != null) {
                    return "route still served";
                }
                return c.view.topics(m).contains(topic) ? "still in topic list" : null;
            }));
        }
    }

    /** expect records a check that r succeeded and printed every want string. */
    private static boolean expect(Ctx c, String name, MqAdmin.Result r, String... want) {
        for (String w : want) {
            if (r.failed() || !r.output().contains(w)) {
                return c.report.fail(name, "want \"" + w + "\" in: " + r.brief());
            }
        }
        c.report.pass(name, String.format("%.1fs", r.elapsed().toMillis() / 1000.0));
        return true;
    }

    /** expectPerMember records a check that r printed format (with %s = member address) for every member. */
    private static boolean expectPerMember(Ctx c, String name, MqAdmin.Result r, String format) {
        String[] want = c.ns.members().stream().map(m -> String.format(format, m.addr())).toArray(String[]::new);
        return expect(c, name, r, want);
    }

    private static String eq(String got, String want) {
        if (want == null) {
            return got == null ? null : "value " + got + " still there";
        }
        return want.equals(got) ? null : "value " + got + ", want " + want;
    }
}
