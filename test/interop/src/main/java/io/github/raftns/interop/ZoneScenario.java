package io.github.raftns.interop;

import java.time.Duration;
import java.util.Map;

/**
 * ZoneScenario: two 5.5.0 masters in two zones (the broker JVM's rocketmq.zone, sent as __ZONE_NAME when
 * they register) and a 5.5.0 client of each zone with rocketmq.zone.mode=true (mqadmin topicRoute, a
 * real Java client that sends __ZONE_MODE and __ZONE_NAME): each sees only its zone's broker; a client
 * without zone mode sees both.
 */
final class ZoneScenario {
    private ZoneScenario() {
    }

    static void run(Ctx c) throws Exception {
        Broker a = zoneBroker(c, "zone-a", "broker-za", "zoneA");
        Broker b = zoneBroker(c, "zone-b", "broker-zb", "zoneB");
        a.start(c.procs);
        b.start(c.procs);
        String topic = ActingMasterScenario.TOPIC;
        if (!c.check("zone.both-zones-in-route-on-every-ns", Duration.ofSeconds(60), () -> c.view.every(m -> {
            String x = NsView.routeHas(c.view.route(m, topic), a.brokerName, Map.of(0L, a.addr()), 0, -1);
            return x != null ? x : NsView.routeHas(c.view.route(m, topic), b.brokerName, Map.of(0L, b.addr()), 0, -1);
        }))) {
            return;
        }
        for (String[] zone : new String[][] {{"zoneA", a.brokerName, b.brokerName}, {"zoneB", b.brokerName, a.brokerName}}) {
            c.check("zone." + zone[0] + "-client-sees-only-its-zone", Duration.ofSeconds(60), () -> {
                MqAdmin.Result r = c.mqadmin.run5With(Map.of("rocketmq.zone", zone[0], "rocketmq.zone.mode", "true"),
                    "topicRoute", "-n", c.ns.addrList(), "-t", topic);
                if (r.failed()) {
                    return r.brief();
                }
                if (!r.output().contains(zone[1])) {
                    return "no " + zone[1] + " in " + r.brief();
                }
                return r.output().contains(zone[2]) ? zone[2] + " of the other zone shown: " + r.brief() : null;
            });
        }
        c.check("zone.client-without-zone-mode-sees-both", Duration.ofSeconds(60), () -> {
            MqAdmin.Result r = c.mqadmin.run5With(Map.of("rocketmq.zone", "zoneA"), "topicRoute", "-n", c.ns.addrList(), "-t", topic);
            return !r.failed() && r.output().contains(a.brokerName) && r.output().contains(b.brokerName) ? null : r.brief();
        });
    }

    private static Broker zoneBroker(Ctx c, String name, String brokerName, String zone) {
        Broker br = new Broker(c.settings, c.ports, name, brokerName, 0, Broker.Version.V5, c.ns.addrList(), Map.of());
        br.sysProps.put("rocketmq.zone", zone);
        return br;
    }
}
