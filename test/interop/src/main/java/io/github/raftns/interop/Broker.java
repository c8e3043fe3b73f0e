package io.github.raftns.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Broker is one real Apache RocketMQ broker process (5.x or 4.9.x) started from the Maven jars
 * with org.apache.rocketmq.broker.BrokerStartup -c FILE. Everything it writes stays in its directory.
 */
final class Broker {
    /** Version selects the jars: the 5.x line or the 4.9.x line. */
    enum Version { V5, V4 }

    /** CLUSTER is the cluster name every broker of the harness registers under. */
    static final String CLUSTER = "InteropCluster";

    final String name;
    final String brokerName;
    final long brokerId;
    final Version version;
    final int port;
    private final Settings settings;
    private final Path dir;
    private final Map<String, String> props = new LinkedHashMap<>();
    /** sysProps are extra JVM system properties (e.g. rocketmq.zone, tls.enable), set before launch. */
    final Map<String, String> sysProps = new LinkedHashMap<>();
    /** jvmExtra are JVM options after the brokers' common ones, which they override. */
    final List<String> jvmExtra = new ArrayList<>();
    private Proc proc;
    private long launched;
    /** bootFrom is where this launch's output starts in the log, which earlier launches share. */
    private int bootFrom;

    /**
     * Broker prepares (does not start) a broker. brokerId 0 is a master (ASYNC_MASTER), anything else a SLAVE.
     * namesrvAddr is the broker's namesrvAddr value, null for none (a broker that fetches its list from an
     * address server); extra overrides or adds properties.
     */
    Broker(Settings s, Ports ports, String name, String brokerName, long brokerId, Version version,
           String namesrvAddr, Map<String, String> extra) {
        this.name = name;
        this.brokerName = brokerName;
        this.brokerId = brokerId;
        this.version = version;
        this.settings = s;
        this.port = ports.broker();
        this.dir = s.work.resolve("broker-" + name);
        Path store = dir.resolve("store");
        props.put("brokerClusterName", CLUSTER);
        props.put("brokerName", brokerName);
        props.put("brokerId", Long.toString(brokerId));
        props.put("brokerRole", brokerId == 0 ? "ASYNC_MASTER" : "SLAVE");
        props.put("flushDiskType", "ASYNC_FLUSH");
        if (namesrvAddr != null) {
            props.put("namesrvAddr", namesrvAddr);
        }
        props.put("brokerIP1", "127.0.0.1");
        props.put("brokerIP2", "127.0.0.1");
        props.put("listenPort", Integer.toString(port));
        props.put("storePathRootDir", store.toString());
        props.put("storePathCommitLog", store.resolve("commitlog").toString());
        // Small files: the defaults (1 GiB commit log, 6 MB consume queues) are pointless here.
        props.put("mappedFileSizeCommitLog", Integer.toString(16 * 1024 * 1024));
        props.put("mappedFileSizeConsumeQueue", Integer.toString(20 * 30000));
        // Shortest registration period the broker allows (it clamps to 10-60 s).
        props.put("registerNameServerPeriod", "10000");
        props.put("diskMaxUsedSpaceRatio", "95");
        if (version == Version.V5) {
            props.put("bindAddress", "127.0.0.1"); // 4.x has no such key and listens on every address
        }
        props.putAll(extra);
    }

    /** namesrvAddr changes the namesrvAddr the broker gets at its next launch. */
    void namesrvAddr(String addrs) {
        props.put("namesrvAddr", addrs);
    }

    /** configFile returns the broker's configuration file (-c) as it is now on disk. */
    String configFile() throws IOException {
        return Files.readString(dir.resolve("broker.properties"));
    }

    /** addr is the broker's client address as it registers it (brokerIP1:listenPort). */
    String addr() {
        return "127.0.0.1:" + port;
    }

    /** haAddr is the broker's HA address (brokerIP2:listenPort+1), handed to slaves by the name server. */
    String haAddr() {
        return "127.0.0.1:" + (port + 1);
    }

    /** log returns the broker's RocketMQ log (everything its logback writes), empty when there is none yet. */
    String log() throws IOException {
        Path p = dir.resolve("home/logs/rocketmq.log");
        return Files.exists(p) ? Files.readString(p) : "";
    }

    /** proc returns the running process, or null before start. */
    Proc proc() {
        return proc;
    }

    /** start launches the broker and waits for its boot line. */
    void start(Procs procs) throws IOException {
        launch(procs);
        awaitBoot();
    }

    /** launch writes broker.properties and starts the broker process without waiting for it. */
    void launch(Procs procs) throws IOException {
        Files.createDirectories(dir);
        Path conf = dir.resolve("broker.properties");
        StringBuilder sb = new StringBuilder();
        props.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        Files.writeString(conf, sb.toString());
        boolean v5 = version == Version.V5;
        Map<String, String> sys = new LinkedHashMap<>(v5
            ? Map.of("rocketmq.home.dir", dir.toString(),
                "rmq.logback.configurationFile", settings.home.resolve("conf/rmq5-logback.xml").toString())
            : Map.of("rocketmq.home.dir", settings.home.resolve("rocketmq4-home").toString()));
        sys.putAll(sysProps);
        launched = System.nanoTime();
        bootFrom = proc == null ? 0 : proc.output().length();
        List<String> jvm = new ArrayList<>(settings.brokerJvm);
        // The store unmaps its files through reflection; without these opens a 4.9.x broker's shutdown hook dies
        // on Java 17 before it sends UNREGISTER_BROKER (RocketMQ's own runbroker.sh adds the same for Java 9+).
        jvm.addAll(List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED"));
        jvm.addAll(jvmExtra);
        proc = procs.java("broker-" + name, dir, v5 ? settings.classpath5 : settings.classpath4, jvm,
            "org.apache.rocketmq.broker.BrokerStartup", List.of("-c", conf.toString()), sys);
    }

    /** awaitBoot waits until the launched broker printed its boot line; it throws when the broker died. */
    void awaitBoot() {
        Poll.Result r = Poll.until(Duration.ofSeconds(90), () -> {
            String out = proc.output();
            if (out.indexOf("boot success", Math.min(bootFrom, out.length())) >= 0) {
                return null;
            }
            if (!proc.alive()) {
                throw new IllegalStateException("broker " + name + " exited: " + proc.tail(8));
            }
            return "no boot line yet";
        });
        if (!r.ok()) {
            throw new IllegalStateException("broker " + name + " did not start: " + r.failure());
        }
        Report.info(String.format("broker %s (%s %s/%d) up at %s %.1fs after launch, pid %d", name, version,
            brokerName, brokerId, addr(), (System.nanoTime() - launched) / 1e9, proc.pid()));
    }

    /** shutdown stops the broker gracefully (SIGTERM: the broker unregisters from every name server). */
    boolean shutdown(Duration deadline) {
        return proc == null || proc.terminate(deadline);
    }
}
