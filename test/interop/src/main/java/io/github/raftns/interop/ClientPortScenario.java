package io.github.raftns.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * ClientPortScenario (RaftNS only): TLS on the RocketMQ port in its three modes and the PROXY protocol.
 * Three single-member RaftNS run with tls.server.mode enforcing (reference keys in a properties file),
 * permissive with the PROXY protocol (flags), and disabled. A 5.5.0 broker with tls.enable=true registers
 * with the enforcing member directly and with the permissive one through a PROXY protocol v1 proxy;
 * 5.5.0 Java clients with and without TLS read routes from each, and through a v2 proxy.
 */
final class ClientPortScenario {
    private static final String TOPIC = ActingMasterScenario.TOPIC;

    private ClientPortScenario() {
    }

    static void run(Ctx c) throws Exception {
        if (!c.ns.replicated()) {
            c.report.skip("edge", "RaftNS-only: TLS and the PROXY protocol are set up on RaftNS members");
            return;
        }
        Path tlsProps = c.settings.work.resolve("tls-enforcing.properties");
        Files.writeString(tlsProps, "tls.server.mode=enforcing\ntls.test.mode.enable=true\n");
        List<SoloRaftNs> started = new ArrayList<>();
        try {
            SoloRaftNs enforcing = solo(c, started, "tls-enf", List.of("--tls-config-file", tlsProps.toString()));
            SoloRaftNs permissive = solo(c, started, "tls-perm", List.of("--tls-server-mode", "permissive",
                "--tls-test-mode", "true", "--proxy-protocol", "true"));
            SoloRaftNs disabled = solo(c, started, "tls-off", List.of());
            body(c, enforcing, permissive, disabled);
        } finally {
            started.forEach(SoloRaftNs::stop);
        }
    }

    private static SoloRaftNs solo(Ctx c, List<SoloRaftNs> started, String id, List<String> args) throws Exception {
        SoloRaftNs s = new SoloRaftNs(c, id, args);
        started.add(s);
        return s;
    }

    private static void body(Ctx c, SoloRaftNs enforcing, SoloRaftNs permissive, SoloRaftNs disabled) throws Exception {
        try (ProxyPipe v1 = new ProxyPipe(1, permissive.addr()); ProxyPipe v2 = new ProxyPipe(2, permissive.addr())) {
            Broker b = new Broker(c.settings, c.ports, "tls", "broker-tls", 0, Broker.Version.V5,
                enforcing.addr() + ";" + v1.addr(), Map.of());
            b.sysProps.put("tls.enable", "true");
            b.start(c.procs);
            Map<Long, String> want = Map.of(0L, b.addr());

            c.check("edge.tls-enforcing-broker-registers-over-tls", Duration.ofSeconds(60),
                () -> NsView.routeHas(route(enforcing.addr(), true), b.brokerName, want, 0, -1));
            c.check("edge.tls-enforcing-plain-client-refused", Duration.ofSeconds(30),
                () -> refused(enforcing.addr(), false));

            c.check("edge.proxy-v1-tls-broker-registers-through-proxy", Duration.ofSeconds(60),
                () -> NsView.routeHas(route(permissive.addr(), true), b.brokerName, want, 0, -1));
            c.check("edge.proxy-v1-member-logs-real-client-address", Duration.ofSeconds(30), () -> {
                for (String client : v1.clients) {
                    if (permissive.log().contains("remote=" + client)) {
                        return null;
                    }
                }
                return "no \"remote=<client>\" line for the proxied broker connections " + v1.clients;
            }, () -> "proxy announced " + v1.clients);
            c.check("edge.tls-permissive-plain-client-reads-route", Duration.ofSeconds(30),
                () -> NsView.routeHas(route(permissive.addr(), false), b.brokerName, want, 0, -1));
            c.check("edge.proxy-v2-plain-client-reads-route", Duration.ofSeconds(30),
                () -> NsView.routeHas(route(v2.addr(), false), b.brokerName, want, 0, -1));
            c.check("edge.proxy-v2-tls-client-reads-route", Duration.ofSeconds(30),
                () -> NsView.routeHas(route(v2.addr(), true), b.brokerName, want, 0, -1));

            c.check("edge.tls-disabled-plain-client-answered", Duration.ofSeconds(30),
                () -> answered(disabled.addr(), false));
            c.check("edge.tls-disabled-tls-client-refused", Duration.ofSeconds(30),
                () -> refused(disabled.addr(), true));
            b.shutdown(Duration.ofSeconds(60));
        }
    }

    /** AdminCall is one request through an admin client. */
    private interface AdminCall<T> {
        T call(DefaultMQAdminExt a) throws Exception;
    }

    /** withAdmin runs f with a fresh 5.5.0 admin client (useTLS as given) naming only addr. */
    private static <T> T withAdmin(String addr, boolean tls, AdminCall<T> f) throws Exception {
        DefaultMQAdminExt a = admin(addr, tls);
        try {
            return f.call(a);
        } finally {
            a.shutdown();
        }
    }

    /** route reads TOPIC. */
    private static TopicRouteData route(String addr, boolean tls) throws Exception {
        return withAdmin(addr, tls, a -> a.examineTopicRouteInfo(TOPIC));
    }

    /** answered: a cluster-info request gets an answer. */
    private static String answered(String addr, boolean tls) throws Exception {
        withAdmin(addr, tls, a -> a.examineBrokerClusterInfo());
        return null;
    }

    /** refused: a cluster-info request fails because the member closes the connection. */
    private static String refused(String addr, boolean tls) throws Exception {
        return withAdmin(addr, tls, a -> {
            try {
                a.examineBrokerClusterInfo();
                return "answered a " + (tls ? "TLS" : "plain") + " client";
            } catch (Exception e) {
                return null;
            }
        });
    }

    private static DefaultMQAdminExt admin(String addr, boolean tls) throws Exception {
        DefaultMQAdminExt a = new DefaultMQAdminExt(3000);
        a.setNamesrvAddr(addr);
        a.setUseTLS(tls);
        a.setInstanceName("edge-" + System.nanoTime());
        a.setAdminExtGroup("interop_edge_" + System.nanoTime());
        a.start();
        return a;
    }
}
