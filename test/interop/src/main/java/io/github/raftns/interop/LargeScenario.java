package io.github.raftns.interop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;

/**
 * LargeScenario: a 5.5.0 master given 50,000 topics at once (one UPDATE_AND_CREATE_TOPIC_LIST), which it
 * registers as one 8 MB registration with every name server and again every 10 s, while a reader per
 * name server reads it without pause (the topic list, then a route): no read may fail or find its
 * connection closed, and with RaftNS no leader change may happen (the highest term of the members is the
 * same before and after).
 */
final class LargeScenario {
    private static final int TOPICS = 50_000;
    /** AFTER is how long the readers go on once every member lists every topic: two registration periods. */
    private static final Duration AFTER = Duration.ofSeconds(25);

    private LargeScenario() {
    }

    static void run(Ctx c) throws Exception {
        Broker b = new Broker(c.settings, c.ports, "large", "broker-large", 0, Broker.Version.V5, c.ns.addrList(), Map.of());
        b.jvmExtra.addAll(List.of("-Xms256m", "-Xmx512m"));
        b.start(c.procs);
        long termBefore = term(c);
        AtomicBoolean stop = new AtomicBoolean();
        List<Reader> readers = new ArrayList<>();
        for (NameServers.Member m : c.ns.members()) {
            Reader r = new Reader(c, m, stop);
            readers.add(r);
            r.start();
        }
        Set<String> table;
        try {
            List<TopicConfig> add = new ArrayList<>();
            for (int i = 0; i < TOPICS; i++) {
                add.add(new TopicConfig(String.format("LargeTopic%06d", i), 2, 2, 6));
            }
            long t0 = System.nanoTime();
            try {
                c.view.all().createAndUpdateTopicConfigList(b.addr(), add);
            } catch (RemotingTimeoutException e) {
                // The broker answers once it has registered the new table with every name server, which
                // can take longer than the admin client waits; it goes on regardless.
                Report.info("topic creation not answered within the admin timeout; waiting for the broker's table");
            }
            AtomicReference<Set<String>> seen = new AtomicReference<>(Set.of());
            if (!c.check("large.broker-holds-every-topic", Duration.ofSeconds(120), () -> {
                seen.set(c.view.all().getAllTopicConfig(b.addr(), 30_000).getTopicConfigTable().keySet());
                return seen.get().size() >= TOPICS ? null : "the broker holds " + seen.get().size() + " topics";
            })) {
                return;
            }
            table = Set.copyOf(seen.get());
            if (c.check("large.every-topic-listed-on-every-ns", Duration.ofSeconds(120), () -> c.view.every(m -> {
                Set<String> listed = c.view.topics(m);
                long gone = table.stream().filter(t -> !listed.contains(t)).count();
                return gone == 0 ? null : gone + " of " + table.size() + " topics not listed";
            }), () -> String.format("%.1fs after the topics were created", (System.nanoTime() - t0) / 1e9))) {
                Thread.sleep(AFTER.toMillis()); // the readers go on through two more registrations
            }
        } finally {
            stop.set(true);
            for (Reader r : readers) {
                r.join(60_000);
            }
        }
        StringBuilder failed = new StringBuilder();
        long reads = 0;
        for (Reader r : readers) {
            reads += r.reads.get();
            if (r.failures.get() > 0) {
                failed.append(failed.length() == 0 ? "" : "; ").append(r.m.id()).append(": ").append(r.failures.get())
                    .append(" of ").append(r.reads.get()).append(" reads failed, first: ").append(r.first.get());
            }
        }
        if (failed.length() > 0) {
            c.report.fail("large.no-read-refused-or-closed", failed.toString());
        } else {
            c.report.pass("large.no-read-refused-or-closed", reads + " reads of every member, none failed");
        }
        if (!c.ns.replicated()) {
            c.report.skip("large.no-leader-change", "RaftNS-only: reference NameServers have no leader");
        } else {
            long termAfter = term(c);
            if (termAfter == termBefore) {
                c.report.pass("large.no-leader-change", "term " + termAfter + " throughout");
            } else {
                c.report.fail("large.no-leader-change", "term " + termBefore + " before, " + termAfter + " after");
            }
        }
    }

    /** term is the highest Raft term of the RaftNS members, 0 for reference NameServers. */
    private static long term(Ctx c) throws Exception {
        if (!(c.ns instanceof RaftNameServers raft)) {
            return 0;
        }
        long t = 0;
        for (RaftNameServers.Node n : raft.members()) {
            t = Math.max(t, raft.status(n).getLongValue("term"));
        }
        return t;
    }

    /** Reader reads one name server until stopped: the topic list, then a route, 20 ms apart. */
    private static final class Reader extends Thread {
        final NameServers.Member m;
        private final Ctx c;
        private final AtomicBoolean stop;
        final AtomicLong reads = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicReference<String> first = new AtomicReference<>();

        Reader(Ctx c, NameServers.Member m, AtomicBoolean stop) {
            super("reader-" + m.id());
            setDaemon(true);
            this.c = c;
            this.m = m;
            this.stop = stop;
        }

        @Override
        public void run() {
            for (long i = 0; !stop.get(); i++) {
                try {
                    if (i % 2 == 0) {
                        c.view.topics(m);
                    } else {
                        c.view.route(m, "TBW102");
                    }
                } catch (Exception e) {
                    failures.incrementAndGet();
                    first.compareAndSet(null, Poll.describe(e));
                }
                reads.incrementAndGet();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
