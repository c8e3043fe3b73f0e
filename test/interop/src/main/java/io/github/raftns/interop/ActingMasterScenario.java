package io.github.raftns.interop;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * ActingMasterScenario: a 5.5.0 master and slave of one group, both with enableSlaveActingMaster=true, and
 * every name server with supportActingMaster=true and notifyMinBrokerIdChanged=true. When the master is
 * SIGKILLed, the Java client's route shows the slave under id 0 (the acting master) on every name server,
 * and the slave is told NOTIFY_MIN_BROKER_ID_CHANGE (its log says "min broker id changed"): once by RaftNS,
 * once per name server by the reference.
 */
final class ActingMasterScenario {
    static final String BROKER_NAME = "broker-am";
    /** TOPIC is registered by every 5.x broker with autoCreateTopicEnable (the default). */
    static final String TOPIC = "TBW102";
    private static final Pattern NOTICE = Pattern.compile("min broker id changed, prev \\S+, new (\\d+)");

    private ActingMasterScenario() {
    }

    static void run(Ctx c) throws Exception {
        setOnEveryNameServer(c, Map.of("supportActingMaster", "true", "notifyMinBrokerIdChanged", "true"));
        try {
            body(c);
        } finally {
            setOnEveryNameServer(c, Map.of("supportActingMaster", "false", "notifyMinBrokerIdChanged", "false"));
        }
    }

    private static void body(Ctx c) throws Exception {
        Map<String, String> acting = Map.of("enableSlaveActingMaster", "true",
            "brokerNotActiveTimeoutMillis", Long.toString(c.settings.brokerNotActiveMillis));
        Broker master = new Broker(c.settings, c.ports, "am-master", BROKER_NAME, 0, Broker.Version.V5, c.ns.addrList(), acting);
        Broker slave = new Broker(c.settings, c.ports, "am-slave", BROKER_NAME, 1, Broker.Version.V5, c.ns.addrList(), acting);
        master.start(c.procs);
        slave.start(c.procs);
        Map<Long, String> both = Map.of(0L, master.addr(), 1L, slave.addr());
        if (!c.check("acting.master-and-slave-in-route-on-every-ns", Duration.ofSeconds(60), () -> c.view.every(m ->
            NsView.routeHas(c.view.route(m, TOPIC), BROKER_NAME, both, 0, -1)))) {
            return;
        }
        int before = notices(slave).size();
        master.proc().process.destroyForcibly();
        Map<Long, String> actingView = Map.of(0L, slave.addr());
        c.check("acting.killed-master-replaced-by-slave-in-java-client-route-on-every-ns", Duration.ofSeconds(60),
            () -> c.view.every(m -> {
                TopicRouteData r = c.view.route(m, TOPIC);
                String bad = NsView.routeHas(r, BROKER_NAME, actingView, 0, -1);
                if (bad != null) {
                    return bad;
                }
                int perm = NsView.queueData(r, BROKER_NAME).getPerm();
                return (perm & 2) == 0 ? null : "perm " + perm + " still writable";
            }), () -> "the stored group keeps id 1: " + safeAddrs(c));
        c.check("acting.slave-notified-of-min-broker-id-change", Duration.ofSeconds(30), () -> {
            List<String> got = notices(slave);
            if (got.size() <= before) {
                return "no \"min broker id changed\" line in the slave's log";
            }
            return got.get(got.size() - 1).equals("1") ? null : "notified min id " + got.get(got.size() - 1) + ", want 1";
        });
        // RaftNS sends once for the whole cluster; every reference NameServer sends its own.
        int want = c.ns.replicated() ? 1 : c.ns.members().size();
        Poll.Result settled = Poll.until(Duration.ofSeconds(10), () -> notices(slave).size() - before >= want ? null : "waiting");
        int got = notices(slave).size() - before;
        String name = "acting.min-broker-id-notice-count";
        if (settled.ok() && got == want) {
            c.report.pass(name, got + " notice(s) for " + c.ns.members().size() + " name servers");
        } else {
            c.report.fail(name, got + " notices, want " + want);
        }
        slave.proc().kill();
    }

    private static String safeAddrs(Ctx c) {
        try {
            return String.valueOf(c.view.brokerAddrs(c.ns.members().get(0), BROKER_NAME));
        } catch (Exception e) {
            return Poll.describe(e);
        }
    }

    /** notices returns the new min ids of the "min broker id changed" lines of the broker's log, in order. */
    static List<String> notices(Broker b) throws Exception {
        Matcher m = NOTICE.matcher(b.log());
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** setOnEveryNameServer changes name server settings with UPDATE_NAMESRV_CONFIG, as mqadmin updateNamesrvConfig. */
    static void setOnEveryNameServer(Ctx c, Map<String, String> kv) throws Exception {
        Properties p = new Properties();
        p.putAll(kv);
        List<String> addrs = c.ns.members().stream().map(NameServers.Member::addr).toList();
        c.view.all().updateNameServerConfig(p, addrs);
    }
}
