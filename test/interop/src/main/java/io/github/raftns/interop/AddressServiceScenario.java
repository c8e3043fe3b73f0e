package io.github.raftns.interop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * AddressServiceScenario changes the membership of a RaftNS cluster of its own under brokers and
 * clients that were given no name-server address, only the RocketMQ address service of one member
 * (docs/operators/operations.md, "Adding and removing members without touching brokers and clients"): a 5.5.0
 * master with fetchNamesrvAddrByAddressServer=true and rmqAddressServerDomain, a producer sending every
 * 20 ms and a push consumer with -Drocketmq.namesrv.domain, mqadmin with the same. A fourth member is
 * added and an original one removed (with a drain) and stopped. The broker must reach the new member
 * within 15 s of it being listed, no send may fail after the removal, every message must be consumed,
 * the clients' own list and mqadmin must show the new member set, all without restarting anything.
 */
final class AddressServiceScenario {
    static final String TOPIC = "it-addrsvc";
    static final String BROKER_NAME = "broker-addrsvc";
    /** The request codes counted on the added member: a broker's registration and its heartbeat. */
    static final int REGISTER_BROKER = 103;
    static final int QUERY_DATA_VERSION = 322;
    /** DRAIN is the removal's drain: longer than the brokers' 10 s refresh of the list. */
    static final Duration DRAIN = Duration.ofSeconds(15);

    private AddressServiceScenario() {
    }

    static void run(Ctx c) throws Exception {
        if (!c.settings.raft()) {
            c.report.skip("addrsvc", "RaftNS-only: the reference NameServer serves no address service");
            return;
        }
        RaftNameServers raft = new RaftNameServers(c.settings, c.procs, c.ports, "as");
        Ctl ctl = new Ctl(c.settings, c.procs);
        Broker broker = null;
        ContinuousTraffic traffic = null;
        boolean stopped = false;
        try {
            raft.start();
            RaftNameServers.Node domainMember = raft.members().get(0);
            String domain = domainMember.admin();
            Report.info("address service domain " + domain + " (member " + domainMember.id + ")");
            Broker b = new Broker(c.settings, c.ports, "addrsvc", BROKER_NAME, 0, Broker.Version.V5, null, Map.of(
                "fetchNamesrvAddrByAddressServer", "true", "rmqAddressServerDomain", domain,
                "enableSlaveActingMaster", "true"));
            broker = b;
            b.start(c.procs);
            c.check("addrsvc.broker-without-namesrvAddr-registered-on-every-member", Duration.ofSeconds(60),
                () -> NsView.every(raft.members(), m -> registered(c, m, b)));
            Map<String, String> viaDomain = Map.of("rocketmq.namesrv.domain", domain);
            MqAdmin.Result r = c.mqadmin.run5With(viaDomain, "updateTopic", "-c", Broker.CLUSTER, "-t", TOPIC, "-r", "4", "-w", "4");
            c.report.check("addrsvc.mqadmin-updateTopic-via-domain", r.failed() ? r.brief() : null);
            System.setProperty("rocketmq.namesrv.domain", domain);
            traffic = new ContinuousTraffic(null, TOPIC, "interop_addrsvc");
            ContinuousTraffic t = traffic;
            c.check("addrsvc.clients-without-namesrvAddr-send", Duration.ofSeconds(60), () -> t.sent() > 0 ? null : "nothing sent yet",
                () -> "the producer's list: " + t.nameServers());
            changeMembers(c, raft, ctl, b, t, domainMember);
            stopped = true;
            ContinuousTraffic.Outcome o = traffic.stop(Duration.ofSeconds(90));
            c.report.check("addrsvc.every-message-consumed", o.missing() == 0 && o.sent() > 0 ? null : o.failure());
        } finally {
            System.clearProperty("rocketmq.namesrv.domain");
            if (traffic != null && !stopped) {
                traffic.stop(Duration.ofSeconds(5));
            }
            if (broker != null) {
                broker.shutdown(Duration.ofSeconds(30));
            }
            raft.stop();
        }
    }

    /**
     * changeMembers adds a fourth member, checks that the broker and the clients follow, removes the last
     * original member with a drain, stops it, and checks again.
     */
    private static void changeMembers(Ctx c, RaftNameServers raft, Ctl ctl, Broker broker, ContinuousTraffic traffic,
                                      RaftNameServers.Node via) throws Exception {
        RaftNameServers.Node added = raft.launchJoiner("as4", c.ports);
        Ctl.Result add = ctl.run("--addr", via.admin(), "peers", "add", added.id, "127.0.0.1:" + added.clusterPort);
        add.print("raftnsctl peers add " + added.id);
        List<RaftNameServers.Node> four = new ArrayList<>(raft.members());
        c.check("addrsvc.every-member-lists-the-added-member", Duration.ofSeconds(60),
            () -> listed(raft, four, four));
        long listedAt = System.nanoTime();
        // The broker sends every name server in its list a heartbeat each second (QUERY_DATA_VERSION, with
        // enableSlaveActingMaster) and its registration every registerNameServerPeriod (10 s here, the least
        // it allows); it fetches the list every 10 s.
        c.check("addrsvc.broker-reaches-the-added-member-within-15s", Duration.ofSeconds(15),
            () -> answered(raft, added, QUERY_DATA_VERSION) + answered(raft, added, REGISTER_BROKER) > 0 ? null
                : "no heartbeat or registration from the broker yet",
            () -> String.format("%.1fs after the member was listed", (System.nanoTime() - listedAt) / 1e9));
        c.check("addrsvc.broker-registers-with-the-added-member", Duration.ofSeconds(25),
            () -> answered(raft, added, REGISTER_BROKER) > 0 ? null : "no REGISTER_BROKER answered yet",
            () -> String.format("%.1fs after the member was listed", (System.nanoTime() - listedAt) / 1e9));
        c.check("addrsvc.added-member-answers-the-route", Duration.ofSeconds(10),
            () -> NsView.routeHas(c.view.route(added, TOPIC), BROKER_NAME, Map.of(0L, broker.addr()), 4, 6));

        // A new cluster raises its cluster version itself once its leader has heard from every member; finalize
        // makes sure it has, so that the removal drains (docs/operators/operations.md, "Upgrading").
        Ctl.Result fin = ctl.run("--addr", via.admin(), "upgrade", "finalize");
        fin.print("raftnsctl upgrade finalize");
        c.report.check("addrsvc.upgrade-finalize", fin.exitCode() == 0 ? null : fin.brief());
        RaftNameServers.Node removed = four.get(2);
        Ctl.Result rm = ctl.run("--addr", via.admin(), "peers", "remove", "--drain", DRAIN.toSeconds() + "s", removed.id);
        rm.print("raftnsctl peers remove " + removed.id);
        c.report.check("addrsvc.peers-remove-shows-the-drain", rm.exitCode() == 0
            && rm.output().contains("draining for " + DRAIN.toSeconds() + "s")
            && rm.output().contains("peer " + removed.id + ": removed") ? null : rm.brief());
        removed.proc.terminate(Duration.ofSeconds(10));
        int failedAtRemoval = traffic.failedSends();
        int sentAtRemoval = traffic.sent();
        List<RaftNameServers.Node> left = four.stream().filter(n -> n != removed).collect(Collectors.toList());
        c.check("addrsvc.every-member-lists-the-new-set", Duration.ofSeconds(30), () -> listed(raft, left, left));
        Report.info("removal done: " + sentAtRemoval + " sent, " + failedAtRemoval + " failed so far");

        // Java clients fetch the list 10 s after they start and then every 2 minutes: wait for one fetch.
        // The client shuffles the list it takes, so it is compared as a set.
        String want = addrs(left);
        List<String> wantSorted = left.stream().map(RaftNameServers.Node::addr).sorted().collect(Collectors.toList());
        c.check("addrsvc.java-client-list-follows", Duration.ofSeconds(150), () -> {
            List<String> got = new ArrayList<>(traffic.nameServers());
            got.sort(String::compareTo);
            return got.equals(wantSorted) ? null : "the producer has " + got + ", want " + wantSorted;
        });
        MqAdmin.Result conf = c.mqadmin.run5With(Map.of("rocketmq.namesrv.domain", via.admin()), "getNamesrvConfig");
        c.report.check("addrsvc.mqadmin-via-domain-lists-the-new-set", sections(conf.output()).equals(wantSorted) ? null
            : "getNamesrvConfig sections " + sections(conf.output()) + ", want " + want + ": " + conf.brief());
        int failedAfter = traffic.failedSends() - failedAtRemoval;
        c.report.check("addrsvc.no-failed-send-after-the-removal", failedAfter == 0 && traffic.sent() > sentAtRemoval ? null
            : failedAfter + " sends failed after the removal, " + (traffic.sent() - sentAtRemoval) + " acknowledged");
        Report.info("sends in all: " + traffic.sent() + " acknowledged, " + traffic.failedSends() + " failed");
    }

    /** registered checks that member m holds broker b as the master of BROKER_NAME. */
    private static String registered(Ctx c, NameServers.Member m, Broker b) throws Exception {
        Map<Long, String> got = c.view.brokerAddrs(m, BROKER_NAME);
        return Map.of(0L, b.addr()).equals(got) ? null : "brokerAddrs " + got;
    }

    /** listed checks that every member of ask answers the client addresses of want on its address service. */
    private static String listed(RaftNameServers raft, List<RaftNameServers.Node> ask, List<RaftNameServers.Node> want) {
        String body = "200 " + addrs(want);
        return NsView.every(ask, m -> {
            String got = raft.addressService((RaftNameServers.Node) m);
            return got.equals(body) ? null : "answers " + got + ", want " + body;
        });
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

    /** sections lists the name servers getNamesrvConfig printed a section for, sorted. */
    private static List<String> sections(String output) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^=+([0-9.]+:\\d+)=+$").matcher(output);
        while (m.find()) {
            out.add(m.group(1));
        }
        out.sort(String::compareTo);
        return out;
    }
}
