package io.github.raftns.interop;

import com.alibaba.fastjson.JSON;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * ClusterTestScenario runs RaftNS's cluster-test mode (the reference's clusterTest with productEnvName)
 * against a real production environment: a reference NameServer 5.5.0 of its own with a 5.5.0 master
 * "broker-prodenv" holding topic it-prod-P. Three RaftNS members of their own ("ct1"-"ct3") run with
 * --cluster-test --product-env-name prod and the production NameServer in NAMESRV_ADDR, and a 5.5.0
 * master "broker-testenv" of the test environment registers with them, holding topic it-test-L.
 * Through each test member, the 5.5.0 mqadmin's topicRoute of it-prod-P shows production's broker,
 * an unknown topic is TOPIC_NOT_EXIST (CODE: 17), topicList holds it-test-L but not it-prod-P. With
 * production's NameServer killed, topicRoute of it-prod-P through each member answers cluster-test
 * mode's SYSTEM_ERROR (CODE: 1) naming production as unreachable, and it-test-L still routes.
 */
final class ClusterTestScenario {
    static final String PROD_TOPIC = "it-prod-P";
    static final String TEST_TOPIC = "it-test-L";
    static final String PROD_BROKER = "broker-prodenv";
    static final String TEST_BROKER = "broker-testenv";
    static final Duration DEADLINE = Duration.ofSeconds(60);

    private ClusterTestScenario() {
    }

    static void run(Ctx c) throws Exception {
        if (!c.settings.raft()) {
            c.report.skip("clustertest", "RaftNS-only: the test environment is a RaftNS cluster in cluster-test mode");
            return;
        }
        JavaNameServers prod = new JavaNameServers(c.settings, c.procs, c.ports, 1, "prod");
        String prodAddr = prod.members().get(0).addr();
        RaftNameServers test = new RaftNameServers(c.settings, c.procs, c.ports, "ct",
            List.of("--cluster-test", "--product-env-name", "prod"), Map.of("NAMESRV_ADDR", prodAddr));
        Broker prodBroker = new Broker(c.settings, c.ports, "prodenv", PROD_BROKER, 0, Broker.Version.V5, prodAddr, Map.of());
        Broker testBroker = null;
        try {
            prod.start();
            test.start();
            prodBroker.start(c.procs);
            String testAddrs = test.addrList();
            Broker tb = new Broker(c.settings, c.ports, "testenv", TEST_BROKER, 0, Broker.Version.V5, testAddrs, Map.of());
            testBroker = tb;
            tb.start(c.procs);
            createTopic(c, "clustertest.production-topic-created", prodAddr, PROD_TOPIC);
            createTopic(c, "clustertest.test-topic-created", testAddrs, TEST_TOPIC);

            for (RaftNameServers.Node m : test.members()) {
                String via = "-via-" + m.id;
                c.check("clustertest.topicRoute-production-topic" + via, DEADLINE,
                    () -> routeTo(c, m, PROD_TOPIC, PROD_BROKER, prodBroker.addr()));
                c.check("clustertest.topicRoute-unknown-topic-not-exist" + via, DEADLINE, () -> {
                    MqAdmin.Result r = c.mqadmin.run5("topicRoute", "-n", m.addr(), "-t", "it-nowhere");
                    return r.output().contains("CODE: 17") ? null : "no CODE: 17 in " + r.brief();
                });
                c.check("clustertest.topicList-has-local-not-production-topic" + via, DEADLINE, () -> {
                    MqAdmin.Result r = c.mqadmin.run5("topicList", "-n", m.addr());
                    boolean local = r.output().lines().anyMatch(l -> l.trim().equals(TEST_TOPIC));
                    boolean production = r.output().lines().anyMatch(l -> l.trim().equals(PROD_TOPIC));
                    return !r.failed() && local && !production ? null
                        : "local " + local + ", production " + production + ": " + r.brief();
                });
                c.check("clustertest.topicRoute-local-topic" + via, DEADLINE,
                    () -> routeTo(c, m, TEST_TOPIC, TEST_BROKER, tb.addr()));
            }
            c.check("clustertest.lookups-in-metrics", DEADLINE, () -> NsView.every(test.members(), m -> {
                String metrics = test.metrics((RaftNameServers.Node) m);
                return metrics.contains("ns_production_lookups_total{result=\"found\"}") ? null : "no found lookups counted";
            }));

            prodBroker.shutdown(Duration.ofSeconds(30));
            prod.stop();
            Report.info("production NameServer stopped");
            for (RaftNameServers.Node m : test.members()) {
                String via = "-via-" + m.id;
                String[] desc = new String[1];
                c.check("clustertest.production-down-clear-error" + via, DEADLINE, () -> {
                    MqAdmin.Result r = c.mqadmin.run5("topicRoute", "-n", m.addr(), "-t", PROD_TOPIC);
                    desc[0] = r.output().lines().filter(l -> l.contains("CODE: 1 ")).findFirst().orElse("").trim();
                    return desc[0].contains("cluster-test mode") && desc[0].contains("unreachable") ? null : r.brief();
                }, () -> desc[0].substring(desc[0].indexOf("CODE")));
                c.check("clustertest.production-down-local-topic-routes" + via, DEADLINE,
                    () -> routeTo(c, m, TEST_TOPIC, TEST_BROKER, tb.addr()));
            }
        } finally {
            if (testBroker != null) {
                testBroker.shutdown(Duration.ofSeconds(30));
            }
            prodBroker.shutdown(Duration.ofSeconds(30));
            prod.stop();
            test.stop();
        }
    }

    private static void createTopic(Ctx c, String check, String namesrv, String topic) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("updateTopic", "-n", namesrv, "-c", Broker.CLUSTER, "-t", topic, "-r", "4", "-w", "4");
        c.report.check(check, r.failed() ? r.brief() : null);
    }

    /** routeTo runs mqadmin topicRoute through m and checks the route names broker at addr, 4/4 queues. */
    private static String routeTo(Ctx c, RaftNameServers.Node m, String topic, String broker, String addr) throws Exception {
        MqAdmin.Result r = c.mqadmin.run5("topicRoute", "-n", m.addr(), "-t", topic);
        if (r.failed() || r.output().indexOf('{') < 0) {
            return r.brief();
        }
        String json = r.output().substring(r.output().indexOf('{'), r.output().lastIndexOf('}') + 1);
        return NsView.routeHas(JSON.parseObject(json, TopicRouteData.class), broker, Map.of(0L, addr), 4, 6);
    }
}
