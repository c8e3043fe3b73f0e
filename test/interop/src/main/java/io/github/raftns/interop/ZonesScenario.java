package io.github.raftns.interop;

import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * ZonesScenario runs a RaftNS cluster of its own over two zones (docs/operators/operations.md, "Several
 * zones"): three voters in zone a and two non-voters in zone b, every member with
 * --address-service-zone-only. A 5.5.0 master with fetchNamesrvAddrByAddressServer=true and
 * rmqAddressServerSubGroup=nsaddr-b, and a producer and push consumer with
 * -Drocketmq.namesrv.domain.subgroup=nsaddr-b, are given a zone-a member's address service as their
 * domain and no name-server address. They must use the zone-b members alone: the broker registers
 * through them (never with a zone-a member directly), the clients read routes from them and send and
 * receive; every member holds the same route; the zone-b members stay non-voters and never lead.
 */
final class ZonesScenario {
    static final String TOPIC = "it-zones";
    static final String BROKER_NAME = "broker-zones";
    static final String SUBGROUP = "nsaddr-b";
    /** The request codes counted: a broker's registration and a client's route query. */
    static final int REGISTER_BROKER = 103;
    static final int GET_ROUTEINFO_BY_TOPIC = 105;

    private ZonesScenario() {
    }

    static void run(Ctx c) throws Exception {
        if (!c.settings.raft()) {
            c.report.skip("zones", "RaftNS-only: the reference NameServer has no zones or address service");
            return;
        }
        RaftNameServers raft = new RaftNameServers(c.settings, c.procs, c.ports, "za",
            List.of("--zone", "a", "--address-service-zone-only"));
        Ctl ctl = new Ctl(c.settings, c.procs);
        Broker broker = null;
        ContinuousTraffic traffic = null;
        boolean stopped = false;
        try {
            raft.start();
            List<RaftNameServers.Node> zoneA = new ArrayList<>(raft.members());
            RaftNameServers.Node via = zoneA.get(0);
            List<RaftNameServers.Node> zoneB = new ArrayList<>();
            for (String id : List.of("zb1", "zb2")) {
                RaftNameServers.Node n = raft.launchJoiner(id, c.ports, List.of("--zone", "b"));
                Ctl.Result add = ctl.run("--addr", via.admin(), "peers", "add", "--non-voter", n.id, "127.0.0.1:" + n.clusterPort);
                add.print("raftnsctl peers add --non-voter " + n.id);
                c.report.check("zones.peers-add-non-voter-" + id, add.exitCode() == 0 ? null : add.brief());
                zoneB.add(n);
            }
            List<RaftNameServers.Node> all = new ArrayList<>(raft.members());
            c.check("zones.every-member-answers-nsaddr-b-with-zone-b-alone", Duration.ofSeconds(60),
                () -> NsView.every(all, m -> answers(raft, (RaftNameServers.Node) m, SUBGROUP, "200 " + addrs(zoneB))));
            c.check("zones.plain-nsaddr-lists-the-voters", Duration.ofSeconds(10),
                () -> NsView.every(all, m -> answers(raft, (RaftNameServers.Node) m, "nsaddr", "200 " + addrs(zoneA))));
            Ctl.Result list = ctl.run("--addr", via.admin(), "peers", "list");
            list.print("raftnsctl peers list");
            c.report.check("zones.peers-list-shows-zones-and-warns", list.output().contains("ZONE")
                && list.output().contains("warning: losing zone a (3 of 3 voters)") ? null : list.brief());

            String domain = via.admin();
            Report.info("address service domain " + domain + " (member " + via.id + ", zone a), subgroup " + SUBGROUP);
            Broker b = new Broker(c.settings, c.ports, "zones", BROKER_NAME, 0, Broker.Version.V5, null, Map.of(
                "fetchNamesrvAddrByAddressServer", "true", "rmqAddressServerDomain", domain,
                "rmqAddressServerSubGroup", SUBGROUP));
            broker = b;
            b.start(c.procs);
            c.check("zones.broker-registered-on-every-member", Duration.ofSeconds(60),
                () -> NsView.every(all, m -> registered(c, m, b)));
            c.check("zones.broker-registers-through-zone-b", Duration.ofSeconds(30),
                () -> NsView.every(zoneB, m -> answered(raft, (RaftNameServers.Node) m, REGISTER_BROKER) > 0 ? null
                    : "no REGISTER_BROKER answered"));
            c.report.check("zones.broker-never-registers-with-zone-a", NsView.every(zoneA,
                m -> answered(raft, (RaftNameServers.Node) m, REGISTER_BROKER) == 0 ? null : "answered a REGISTER_BROKER"));

            Map<String, String> viaZoneB = Map.of("rocketmq.namesrv.domain", domain, "rocketmq.namesrv.domain.subgroup", SUBGROUP);
            MqAdmin.Result r = c.mqadmin.run5With(viaZoneB, "updateTopic", "-c", Broker.CLUSTER, "-t", TOPIC, "-r", "4", "-w", "4");
            c.report.check("zones.mqadmin-updateTopic-via-zone-b", r.failed() ? r.brief() : null);
            c.check("zones.route-identical-on-all-five", Duration.ofSeconds(30),
                () -> NsView.every(all, m -> NsView.routeHas(c.view.route(m, TOPIC), BROKER_NAME, Map.of(0L, b.addr()), 4, 6)));
            // The harness read the route from every member; what comes next is the clients'.
            Map<String, Long> routeReads = new java.util.HashMap<>();
            for (RaftNameServers.Node n : all) {
                routeReads.put(n.id, answered(raft, n, GET_ROUTEINFO_BY_TOPIC));
            }

            viaZoneB.forEach(System::setProperty);
            traffic = new ContinuousTraffic(null, TOPIC, "interop_zones");
            ContinuousTraffic t = traffic;
            List<String> wantList = zoneB.stream().map(RaftNameServers.Node::addr).sorted().collect(Collectors.toList());
            c.check("zones.java-clients-take-the-zone-b-list", Duration.ofSeconds(60), () -> {
                List<String> got = new ArrayList<>(t.nameServers());
                got.sort(String::compareTo);
                return got.equals(wantList) ? null : "the producer has " + got + ", want " + wantList;
            });
            c.check("zones.clients-send", Duration.ofSeconds(60), () -> t.sent() >= 50 ? null : t.sent() + " sent so far");
            // A client keeps one name server of its list until that connection breaks: the zone-b members
            // together must have answered its route queries.
            c.check("zones.clients-read-routes-from-zone-b", Duration.ofSeconds(30), () -> {
                long more = 0;
                for (RaftNameServers.Node n : zoneB) {
                    more += answered(raft, n, GET_ROUTEINFO_BY_TOPIC) - routeReads.get(n.id);
                }
                return more > 0 ? null : "no route query from the clients answered by zb1 or zb2";
            });
            stopped = true;
            ContinuousTraffic.Outcome o = traffic.stop(Duration.ofSeconds(90));
            c.report.check("zones.every-message-consumed", o.missing() == 0 && o.failed() == 0 && o.sent() > 0 ? null : o.failure());
            StringBuilder readsA = new StringBuilder();
            for (RaftNameServers.Node n : zoneA) {
                long more = answered(raft, n, GET_ROUTEINFO_BY_TOPIC) - routeReads.get(n.id);
                if (more != 0) {
                    readsA.append(n.id).append(" answered ").append(more).append(" route queries; ");
                }
            }
            c.report.check("zones.clients-never-read-from-zone-a", readsA.length() == 0 ? null : readsA.toString());
            c.report.check("zones.zone-b-stays-non-voting-and-never-leads", NsView.every(all, m -> nonVoters(raft, (RaftNameServers.Node) m, zoneB)));
        } finally {
            System.clearProperty("rocketmq.namesrv.domain");
            System.clearProperty("rocketmq.namesrv.domain.subgroup");
            if (traffic != null && !stopped) {
                traffic.stop(Duration.ofSeconds(5));
            }
            if (broker != null) {
                broker.shutdown(Duration.ofSeconds(30));
            }
            raft.stop();
        }
    }

    /** answers checks what n's address service answers for subgroup. */
    private static String answers(RaftNameServers raft, RaftNameServers.Node n, String subgroup, String want) throws Exception {
        String got = raft.addressService(n, subgroup);
        return got.equals(want) ? null : subgroup + " answers " + got + ", want " + want;
    }

    /** nonVoters checks, in n's peer list, that the zone-b members are reachable non-voters in zone b, not leading. */
    private static String nonVoters(RaftNameServers raft, RaftNameServers.Node n, List<RaftNameServers.Node> zoneB) throws Exception {
        JSONArray peers = raft.peers(n);
        for (RaftNameServers.Node b : zoneB) {
            JSONObject p = null;
            for (int i = 0; i < peers.size(); i++) {
                if (b.id.equals(peers.getJSONObject(i).getString("id"))) {
                    p = peers.getJSONObject(i);
                }
            }
            if (p == null || !"Nonvoter".equals(p.getString("suffrage")) || p.getBooleanValue("leader")
                || !"b".equals(p.getString("zone"))) {
                return b.id + " is " + p;
            }
        }
        return null;
    }

    /** registered checks that member m holds broker b as the master of BROKER_NAME. */
    private static String registered(Ctx c, NameServers.Member m, Broker b) throws Exception {
        Map<Long, String> got = c.view.brokerAddrs(m, BROKER_NAME);
        return Map.of(0L, b.addr()).equals(got) ? null : "brokerAddrs " + got;
    }

    /** addrs is the address service's answer for nodes: their client addresses in member-id order. */
    private static String addrs(List<RaftNameServers.Node> nodes) {
        return nodes.stream().sorted((a, b) -> a.id.compareTo(b.id)).map(RaftNameServers.Node::addr)
            .collect(Collectors.joining(";"));
    }

    /** answered returns how many requests of code the member answered with SUCCESS (ns_requests_total). */
    private static long answered(RaftNameServers raft, RaftNameServers.Node n, int code) throws Exception {
        Matcher m = Pattern.compile("(?m)^ns_requests_total\\{code=\"" + code + "\",response=\"0\"} (\\S+)$").matcher(raft.metrics(n));
        return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
    }
}
