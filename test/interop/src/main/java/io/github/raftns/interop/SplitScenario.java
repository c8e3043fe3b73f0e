package io.github.raftns.interop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.rocketmq.common.TopicConfig;

/**
 * SplitScenario: a 5.5.0 master with enableSplitRegistration=true (parts of splitRegistrationSize=800
 * topics sharing one DataVersion, then the rest) holding 2,500 topics (last part: 100 topics) and then
 * 3,200 (last part: empty). On every name server, sampled over several registration rounds (the broker
 * registers every 10 s), every topic of the broker is listed, without and with
 * deleteTopicWithBrokerRegistration; at the end every topic is routed by every member. The reference
 * NameServer lets each part delete the other parts' topics, so the checks with deletion are RaftNS-only.
 */
final class SplitScenario {
    private static final int PART = 800;
    /** ROUNDS is how long each variant is watched: three registration periods and a little more. */
    private static final Duration ROUNDS = Duration.ofSeconds(35);

    private SplitScenario() {
    }

    static void run(Ctx c) throws Exception {
        for (int total : new int[] {2500, 3200}) {
            Broker b = new Broker(c.settings, c.ports, "split-" + total, "broker-split" + total, 0, Broker.Version.V5,
                c.ns.addrList(), Map.of("enableSplitRegistration", "true", "splitRegistrationSize", Integer.toString(PART)));
            b.start(c.procs);
            try {
                variants(c, b, total);
            } finally {
                b.proc().kill();
            }
        }
    }

    private static void variants(Ctx c, Broker b, int total) throws Exception {
        Set<String> table = fill(c, b, total);
        String name = "split." + total;
        if (!c.check(name + ".every-topic-listed-on-every-ns", Duration.ofSeconds(60), () -> missing(c, table))) {
            return;
        }
        watch(c, name + ".listed-over-rounds", table);
        ActingMasterScenario.setOnEveryNameServer(c, Map.of("deleteTopicWithBrokerRegistration", "true"));
        try {
            if (!c.ns.replicated()) {
                c.report.skip(name + ".delete.listed-over-rounds",
                    "the reference NameServer lets each part of a round delete the topics of the others; seen: "
                        + fewestListed(c, table));
            } else {
                watch(c, name + ".delete.listed-over-rounds", table);
            }
        } finally {
            ActingMasterScenario.setOnEveryNameServer(c, Map.of("deleteTopicWithBrokerRegistration", "false"));
        }
        c.check(name + ".every-topic-routed-on-every-ns", Duration.ofSeconds(60), () -> c.view.every(m -> {
            int unrouted = 0;
            for (String t : table) {
                if (NsView.queueData(c.view.route(m, t), b.brokerName) == null) {
                    unrouted++;
                }
            }
            return unrouted == 0 ? null : unrouted + " of " + table.size() + " topics not routed to " + b.brokerName;
        }));
    }

    /**
     * fill creates topics on the broker until its table holds total topics (its system topics included),
     * so that the last part holds total % 800 topics, and returns the table's names.
     */
    private static Set<String> fill(Ctx c, Broker b, int total) throws Exception {
        int have = c.view.all().getAllTopicConfig(b.addr(), 10_000).getTopicConfigTable().size();
        List<TopicConfig> add = new ArrayList<>();
        for (int i = 0; have + add.size() < total; i++) {
            add.add(new TopicConfig(String.format("SplitTopic%05d", i), 2, 2, 6));
        }
        c.view.all().createAndUpdateTopicConfigList(b.addr(), add);
        Set<String> table = c.view.all().getAllTopicConfig(b.addr(), 10_000).getTopicConfigTable().keySet();
        Report.info("broker " + b.brokerName + " holds " + table.size() + " topics: parts of " + PART
            + ", the last with " + table.size() % PART);
        return Set.copyOf(table);
    }

    /**
     * watch samples every member's topic list for ROUNDS: each sample must list the whole table. A read that
     * fails (a connection closed by a member that was briefly not ready) says nothing of the topics; such reads
     * are counted in the note, and the large scenario is the one that holds reads to never failing.
     */
    private static void watch(Ctx c, String name, Set<String> table) throws Exception {
        long end = System.nanoTime() + ROUNDS.toNanos();
        int samples = 0;
        int failedReads = 0;
        while (System.nanoTime() < end) {
            for (NameServers.Member m : c.ns.members()) {
                Set<String> listed;
                try {
                    listed = c.view.topics(m);
                } catch (Exception e) {
                    failedReads++;
                    continue;
                }
                long gone = table.stream().filter(t -> !listed.contains(t)).count();
                if (gone > 0) {
                    c.report.fail(name, "sample " + samples + ": " + m.id() + " lists " + (table.size() - gone) + " of "
                        + table.size() + " topics");
                    return;
                }
            }
            samples++;
            Thread.sleep(200);
        }
        c.report.pass(name, samples + " samples over " + ROUNDS.toSeconds() + "s, every topic listed on every member"
            + (failedReads == 0 ? "" : " (" + failedReads + " reads failed)"));
    }

    /** fewestListed samples every member's topic list for ROUNDS and says the fewest of table's topics listed. */
    private static String fewestListed(Ctx c, Set<String> table) throws Exception {
        long end = System.nanoTime() + ROUNDS.toNanos();
        long fewest = table.size();
        while (System.nanoTime() < end) {
            for (NameServers.Member m : c.ns.members()) {
                try {
                    Set<String> listed = c.view.topics(m);
                    fewest = Math.min(fewest, table.stream().filter(listed::contains).count());
                } catch (Exception e) {
                    // a failed read says nothing of the topics
                }
            }
            Thread.sleep(200);
        }
        return "as few as " + fewest + " of " + table.size() + " topics listed over " + ROUNDS.toSeconds() + "s";
    }

    /** missing says, per member, how many of table's topics it does not list; null when all do. */
    private static String missing(Ctx c, Set<String> table) {
        return c.view.every(m -> {
            Set<String> listed = c.view.topics(m);
            long gone = table.stream().filter(t -> !listed.contains(t)).count();
            return gone == 0 ? null : gone + " of " + table.size() + " topics not listed";
        });
    }
}
