package io.github.raftns.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * CaptureMain records golden frames: real RocketMQ 5.x and 4.9.x brokers and clients talk to one
 * reference NameServer through framecap proxies (one per source), and the frames worth keeping are
 * copied with descriptive names, plus MANIFEST.tsv, into the directory given as interop.captureOut.
 * Start it with test/interop/capture.sh.
 */
public final class CaptureMain {
    private static final int REGISTER_BROKER = 103;
    private static final int UNREGISTER_BROKER = 104;
    private static final int GET_ROUTEINFO_BY_TOPIC = 105;
    private static final int GET_BROKER_CLUSTER_INFO = 106;
    private static final int QUERY_DATA_VERSION = 322;
    private static final int GET_BROKER_MEMBER_GROUP = 901;
    private static final int BROKER_HEARTBEAT = 904;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Settings s;
    private final Procs procs;
    private final Ports ports = new Ports();
    private final Path bin;
    private final Path out;
    private final List<String> manifest = new ArrayList<>();
    private NameServers ns;
    private NsView view;
    private int failures;

    private CaptureMain(Settings s) {
        this.s = s;
        this.procs = new Procs(s.work);
        this.bin = Path.of(System.getProperty("interop.framecap"));
        this.out = Path.of(System.getProperty("interop.captureOut"));
    }

    /** main captures every source and exits 0 only when every wanted frame was found. */
    public static void main(String[] args) throws Exception {
        CaptureMain c = new CaptureMain(Settings.fromSystemProperties().validate());
        int status = 1;
        try {
            c.run();
            status = c.failures == 0 ? 0 : 1;
        } catch (Exception e) {
            System.out.println("FAIL capture: " + Poll.describe(e));
        } finally {
            if (c.view != null) {
                c.view.close();
            }
            c.procs.killAll();
        }
        System.out.println(Math.max(0, c.manifest.size() - 1) + " frames written, " + c.failures + " missing");
        System.exit(status);
    }

    private void run() throws Exception {
        Files.createDirectories(out);
        ns = new JavaNameServers(s, procs, ports, 1);
        ns.start();
        view = new NsView(ns);
        String target = ns.members().get(0).addr();
        manifest.add("file\tsource\tdirection\tkind\trequest_code\tresponse_code\topaque\tflag\tserialize_type\tversion\tlength\tsha256");

        if ("features5".equals(System.getProperty("interop.captureOnly", ""))) {
            // Only the 5.x NameServer features; the other files and their MANIFEST rows stay.
            features5(target);
            mergeManifest();
            return;
        }
        broker5(target);
        broker4(target, false);
        broker4(target, true);
        acting5(target, true);
        acting5(target, false);
        features5(target);
        Files.writeString(out.resolve("MANIFEST.tsv"), String.join("\n", manifest) + "\n");
    }

    /** broker5 captures a default 5.x broker, then the 5.x and 4.9.x clients routing to its topic. */
    private void broker5(String target) throws Exception {
        FrameCap cap = proxy("broker-5.5.0", target);
        Broker b = new Broker(s, ports, "cap-v5", "broker-cap5", 0, Broker.Version.V5, cap.addr(), Map.of());
        b.start(procs);
        awaitRegistered(b);
        view.all().createAndUpdateTopicConfig(b.addr(), topic("cap-topic", 4));
        awaitRoute("cap-topic");

        FrameCap client5 = proxy("client-5.5.0", target);
        DefaultMQProducer p = new DefaultMQProducer("capture_producer");
        p.setNamesrvAddr(client5.addr());
        p.setInstanceName("capture-" + System.nanoTime());
        p.start();
        p.send(new Message("cap-topic", "captured".getBytes()));
        try {
            p.fetchPublishMessageQueues("cap-no-such-topic");
        } catch (Exception expected) {
            // TOPIC_NOT_EXIST is the frame we want.
        }
        p.shutdown();
        DefaultMQAdminExt admin = new DefaultMQAdminExt(5000);
        admin.setNamesrvAddr(client5.addr());
        admin.setInstanceName("capture-admin-" + System.nanoTime());
        admin.start();
        admin.examineBrokerClusterInfo();
        admin.shutdown();

        FrameCap client4 = proxy("client-4.9.8", target);
        routeCheck4(client4, b, "JSON");
        // The same client with rocketmq.serialize.type=ROCKETMQ sends binary headers (as the bundled
        // benchmark tools do); the NameServer answers in the serialization of the request.
        FrameCap client4bin = proxy("client-4.9.8-rocketmq-serialize", target);
        routeCheck4(client4bin, b, "ROCKETMQ");

        b.shutdown(Duration.ofSeconds(60));
        String src = cap.source();
        pair(cap, src + "__REGISTER_BROKER__full", f -> f.request(REGISTER_BROKER), false);
        pair(cap, src + "__REGISTER_BROKER__one-topic", f -> f.request(REGISTER_BROKER), true);
        pair(cap, src + "__UNREGISTER_BROKER", f -> f.request(UNREGISTER_BROKER), false);
        pair(client5, client5.source() + "__GET_ROUTEINFO_BY_TOPIC", f -> f.request(GET_ROUTEINFO_BY_TOPIC)
            && f.mentions("\"topic\":\"cap-topic\"") && responseCode(client5, f) == 0, false);
        pair(client5, client5.source() + "__GET_ROUTEINFO_BY_TOPIC__topic-not-exist", f -> f.request(GET_ROUTEINFO_BY_TOPIC)
            && responseCode(client5, f) == 17, false);
        pair(client5, client5.source() + "__GET_BROKER_CLUSTER_INFO", f -> f.request(GET_BROKER_CLUSTER_INFO), false);
        pair(client4, client4.source() + "__GET_ROUTEINFO_BY_TOPIC", f -> f.request(GET_ROUTEINFO_BY_TOPIC)
            && f.mentions("\"topic\":\"cap-topic\"") && responseCode(client4, f) == 0, false);
        pair(client4bin, client4bin.source() + "__GET_ROUTEINFO_BY_TOPIC", f -> f.request(GET_ROUTEINFO_BY_TOPIC)
            && f.mentions("cap-topic") && responseCode(client4bin, f) == 0, false);
    }

    /** broker4 captures a 4.9.x broker, plain or with compressedRegister=true, registering, adding a topic and leaving. */
    private void broker4(String target, boolean compressed) throws Exception {
        FrameCap cap = proxy(compressed ? "broker-4.9.7-compressed" : "broker-4.9.7", target);
        Broker b = new Broker(s, ports, compressed ? "cap-v4z" : "cap-v4", compressed ? "broker-cap4z" : "broker-cap4", 0,
            Broker.Version.V4, cap.addr(), compressed ? Map.of("compressedRegister", "true") : Map.of());
        b.start(procs);
        awaitRegistered(b);
        String topic = compressed ? "cap-topic-4z" : "cap-topic-4";
        view.all().createAndUpdateTopicConfig(b.addr(), topic(topic, 2));
        awaitRoute(topic);
        b.shutdown(Duration.ofSeconds(60));
        String src = cap.source();
        pair(cap, src + "__REGISTER_BROKER__full", f -> f.request(REGISTER_BROKER), false);
        pair(cap, src + "__REGISTER_BROKER__one-topic", f -> f.request(REGISTER_BROKER), true);
        pair(cap, src + "__UNREGISTER_BROKER", f -> f.request(UNREGISTER_BROKER), false);
    }

    /**
     * acting5 captures a 5.x broker with enableSlaveActingMaster=true: with compatibleWithOldNameSrv=true (the
     * default) it heartbeats with oneway QUERY_DATA_VERSION and syncs its member group through the route of
     * rmq_sys_SYNC_BROKER_MEMBER_*; with false it sends BROKER_HEARTBEAT and GET_BROKER_MEMBER_GROUP.
     */
    private void acting5(String target, boolean compatible) throws Exception {
        String src = compatible ? "broker-5.5.0-acting-master" : "broker-5.5.0-acting-master-new-ns";
        FrameCap cap = proxy(src, target);
        Broker b = new Broker(s, ports, compatible ? "cap-v5a" : "cap-v5n", compatible ? "broker-cap5a" : "broker-cap5n", 0,
            Broker.Version.V5, cap.addr(), Map.of("enableSlaveActingMaster", "true", "skipPreOnline", "true",
                "compatibleWithOldNameSrv", Boolean.toString(compatible)));
        b.start(procs);
        awaitRegistered(b);
        int heartbeat = compatible ? QUERY_DATA_VERSION : BROKER_HEARTBEAT;
        int sync = compatible ? GET_ROUTEINFO_BY_TOPIC : GET_BROKER_MEMBER_GROUP;
        Poll.until(WAIT, () -> {
            Optional<FrameIndex.Frame> req = cap.index().first(f -> f.request(sync));
            boolean answered = req.isPresent() && respOf(cap, req.get()).isPresent();
            return answered && cap.index().first(f -> f.oneway(heartbeat)).isPresent() ? null : "waiting";
        });
        b.shutdown(Duration.ofSeconds(60));
        pair(cap, src + "__REGISTER_BROKER__full", f -> f.request(REGISTER_BROKER), false);
        one(cap, src + "__" + (compatible ? "QUERY_DATA_VERSION" : "BROKER_HEARTBEAT") + ".oneway", f -> f.oneway(heartbeat));
        pair(cap, src + "__" + (compatible ? "GET_ROUTEINFO_BY_TOPIC__sync-broker-member" : "GET_BROKER_MEMBER_GROUP"),
            f -> f.request(sync), false);
    }

    /**
     * features5 captures the 5.x NameServer's zone filter and acting-master route: group broker-capam (a
     * master and a slave with enableSlaveActingMaster=true, both in zone zoneA) and group broker-capzb (a
     * master in zoneB), topic cap-am on broker-capam. A 5.5.0 client in zone mode for zoneA reads TBW102
     * (both groups registered it; the answer keeps zoneA's group only); then, with supportActingMaster=true
     * on the NameServer and the master SIGKILLed, a 5.5.0 client reads cap-am (the slave shown under id 0).
     */
    private void features5(String target) throws Exception {
        FrameCap capM = proxy("broker-5.5.0-am-master", target);
        FrameCap capS = proxy("broker-5.5.0-am-slave", target);
        FrameCap capZ = proxy("broker-5.5.0-zone-b", target);
        Map<String, String> acting = Map.of("enableSlaveActingMaster", "true", "skipPreOnline", "true");
        Broker master = new Broker(s, ports, "cap-am0", "broker-capam", 0, Broker.Version.V5, capM.addr(), acting);
        Broker slave = new Broker(s, ports, "cap-am1", "broker-capam", 1, Broker.Version.V5, capS.addr(), acting);
        Broker zb = new Broker(s, ports, "cap-zb", "broker-capzb", 0, Broker.Version.V5, capZ.addr(), Map.of());
        master.sysProps.put("rocketmq.zone", "zoneA");
        slave.sysProps.put("rocketmq.zone", "zoneA");
        zb.sysProps.put("rocketmq.zone", "zoneB");
        master.start(procs);
        slave.start(procs);
        zb.start(procs);
        awaitRegistered(master);
        awaitRegistered(zb);
        view.all().createAndUpdateTopicConfig(master.addr(), topic("cap-am", 2));
        awaitRoute("cap-am");
        Poll.until(WAIT, () -> view.every(m -> view.brokerAddrs(m, "broker-capam").size() == 2 ? null : "slave not registered"));

        FrameCap zoneClient = proxy("client-5.5.0-zone-a", target);
        System.setProperty("rocketmq.zone", "zoneA");
        System.setProperty("rocketmq.zone.mode", "true");
        try {
            DefaultMQAdminExt admin = admin(zoneClient.addr());
            admin.examineTopicRouteInfo("TBW102");
            admin.shutdown();
        } finally {
            System.clearProperty("rocketmq.zone");
            System.clearProperty("rocketmq.zone.mode");
        }

        java.util.Properties p = new java.util.Properties();
        p.put("supportActingMaster", "true");
        view.all().updateNameServerConfig(p, List.of(target));
        master.proc().process.destroyForcibly();
        Poll.Result r = Poll.until(WAIT, () -> view.every(m -> {
            var route = view.route(m, "cap-am");
            return route != null && slave.addr().equals(NsView.brokerData(route, "broker-capam").getBrokerAddrs().get(0L))
                ? null : "no acting master yet";
        }));
        if (!r.ok()) {
            throw new IllegalStateException("acting master not shown: " + r.failure());
        }
        FrameCap actingClient = proxy("client-5.5.0-acting", target);
        DefaultMQAdminExt admin = admin(actingClient.addr());
        admin.examineTopicRouteInfo("cap-am");
        admin.shutdown();
        slave.shutdown(Duration.ofSeconds(60));
        zb.shutdown(Duration.ofSeconds(60));

        pair(capM, capM.source() + "__REGISTER_BROKER__full", f -> f.request(REGISTER_BROKER), false);
        pair(capM, capM.source() + "__REGISTER_BROKER__one-topic", f -> f.request(REGISTER_BROKER), true);
        pair(capS, capS.source() + "__REGISTER_BROKER__full", f -> f.request(REGISTER_BROKER), false);
        pair(capZ, capZ.source() + "__REGISTER_BROKER__full", f -> f.request(REGISTER_BROKER), false);
        pair(zoneClient, zoneClient.source() + "__GET_ROUTEINFO_BY_TOPIC", f -> f.request(GET_ROUTEINFO_BY_TOPIC)
            && f.mentions("TBW102") && responseCode(zoneClient, f) == 0, false);
        pair(actingClient, actingClient.source() + "__GET_ROUTEINFO_BY_TOPIC", f -> f.request(GET_ROUTEINFO_BY_TOPIC)
            && f.mentions("cap-am") && responseCode(actingClient, f) == 0, false);
    }

    private static DefaultMQAdminExt admin(String addr) throws Exception {
        DefaultMQAdminExt a = new DefaultMQAdminExt(5000);
        a.setNamesrvAddr(addr);
        a.setInstanceName("capture-admin-" + System.nanoTime());
        a.start();
        return a;
    }

    /** mergeManifest adds this run's rows to MANIFEST.tsv, replacing rows of the same files. */
    private void mergeManifest() throws IOException {
        Path path = out.resolve("MANIFEST.tsv");
        List<String> rows = new ArrayList<>(Files.exists(path) ? Files.readAllLines(path) : List.of(manifest.get(0)));
        for (String row : manifest.subList(1, manifest.size())) {
            String file = row.substring(0, row.indexOf('\t'));
            rows.removeIf(r -> r.startsWith(file + "\t"));
            rows.add(row);
        }
        Files.writeString(path, String.join("\n", rows) + "\n");
    }

    /** routeCheck4 runs our 4.9.x client program (route lookups and three sends) through cap. */
    private void routeCheck4(FrameCap cap, Broker b, String serializeType) throws Exception {
        Proc rc = procs.java("routecheck4-" + cap.source(), s.work.resolve("client4"), s.classpath4client, s.toolJvm,
            "io.github.raftns.interop.v4.RouteCheck4", List.of(cap.addr(), "cap-topic", b.brokerName, b.addr(), "4"),
            Map.of("logback.configurationFile", s.home.resolve("rocketmq4-home/conf/logback_tools.xml").toString(),
                "rocketmq.serialize.type", serializeType));
        if (!rc.waitFor(Duration.ofSeconds(90)) || !rc.output().contains("ROUTECHECK OK")) {
            throw new IllegalStateException("4.9.8 client through " + cap.source() + ": " + rc.tail(5));
        }
    }

    private FrameCap proxy(String source, String target) throws Exception {
        FrameCap cap = new FrameCap(s, ports, source);
        cap.start(procs, bin, target);
        return cap;
    }

    private static TopicConfig topic(String name, int queues) {
        TopicConfig t = new TopicConfig(name);
        t.setReadQueueNums(queues);
        t.setWriteQueueNums(queues);
        t.setPerm(6);
        return t;
    }

    private void awaitRegistered(Broker b) {
        Poll.Result r = Poll.until(WAIT, () -> view.every(m -> view.brokerAddrs(m, b.brokerName) == null ? "not registered" : null));
        if (!r.ok()) {
            throw new IllegalStateException(b.name + ": " + r.failure());
        }
    }

    private void awaitRoute(String topic) {
        Poll.Result r = Poll.until(WAIT, () -> view.every(m -> view.route(m, topic) == null ? "no route" : null));
        if (!r.ok()) {
            throw new IllegalStateException(topic + ": " + r.failure());
        }
    }

    private static int responseCode(FrameCap cap, FrameIndex.Frame req) throws IOException {
        return respOf(cap, req).map(FrameIndex.Frame::respCode).orElse(-1);
    }

    private static Optional<FrameIndex.Frame> respOf(FrameCap cap, FrameIndex.Frame req) throws IOException {
        return cap.index().responseTo(req);
    }

    /** CheckedPredicate lets selection predicates read the index. */
    private interface CheckedPredicate {
        boolean test(FrameIndex.Frame f) throws IOException;
    }

    private static Predicate<FrameIndex.Frame> unchecked(CheckedPredicate p) {
        return f -> {
            try {
                return p.test(f);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** pair keeps a request (first match, or the smallest when smallest) and the response that answers it. */
    private void pair(FrameCap cap, String name, CheckedPredicate p, boolean smallest) throws IOException {
        FrameIndex idx = cap.index();
        Optional<FrameIndex.Frame> req = smallest ? idx.smallest(unchecked(p)) : idx.first(unchecked(p));
        if (req.isEmpty()) {
            missing(name);
            return;
        }
        keep(cap, name + ".req.bin", req.get());
        Optional<FrameIndex.Frame> resp = idx.responseTo(req.get());
        if (resp.isEmpty()) {
            missing(name + " response");
            return;
        }
        keep(cap, name + ".resp.bin", resp.get());
    }

    /** one keeps the first frame matching p. */
    private void one(FrameCap cap, String name, CheckedPredicate p) throws IOException {
        Optional<FrameIndex.Frame> f = cap.index().first(unchecked(p));
        if (f.isEmpty()) {
            missing(name);
            return;
        }
        keep(cap, name + ".bin", f.get());
    }

    private void missing(String name) {
        failures++;
        System.out.println("MISSING " + name);
    }

    private void keep(FrameCap cap, String file, FrameIndex.Frame f) throws IOException {
        Files.copy(f.file(), out.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        byte[] bytes = Files.readAllBytes(f.file());
        String sha;
        try {
            sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        manifest.add(String.join("\t", file, cap.source(), f.dir(), f.kind(), Integer.toString(f.reqCode()),
            Integer.toString(f.respCode()), Integer.toString(f.opaque()), Integer.toString(f.flag()),
            Integer.toString(f.serialize()), Integer.toString(f.version()), Integer.toString(f.length()), sha));
        System.out.println("KEPT " + file + " (" + f.length() + " bytes)");
    }
}
