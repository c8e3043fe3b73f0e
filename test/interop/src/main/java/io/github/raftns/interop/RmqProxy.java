package io.github.raftns.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * RmqProxy is the stock Apache RocketMQ 5.5.0 proxy (org.apache.rocketmq.proxy.ProxyStartup from the
 * rocketmq-proxy jar) in cluster mode, in front of the harness's brokers and name servers. At start it
 * creates its heartbeat-syncer system topic through a broker and reads its route from a name server at
 * once; it exits when that route is missing. Every launch names a topic of its own, so that every start
 * creates one.
 */
final class RmqProxy {
    private final Settings settings;
    private final Path dir;
    final int grpcPort;
    private final int remotingPort;
    private Proc proc;
    private int launches;

    RmqProxy(Settings s, Ports ports) {
        this.settings = s;
        this.dir = s.work.resolve("proxy");
        this.grpcPort = ports.one();
        this.remotingPort = ports.one();
    }

    /** endpoint is the gRPC endpoint clients are given. */
    String endpoint() {
        return "127.0.0.1:" + grpcPort;
    }

    /** syncTopic is the heartbeat-syncer topic of launch n (1-based). */
    static String syncTopic(int n) {
        return "it-proxy-sync-" + n;
    }

    /** proc returns the running process, or null before the first launch. */
    Proc proc() {
        return proc;
    }

    /**
     * start launches the proxy (the n-th launch names syncTopic(n)) and waits for its start-up line. It
     * returns null once the proxy is up, else why not: the proxy exited (with its last lines) or did not
     * come up in time.
     */
    String start(Procs procs, String namesrvAddr) throws IOException {
        launches++;
        Files.createDirectories(dir);
        Path conf = dir.resolve("rmq-proxy-" + launches + ".json");
        // Advertised addresses are pinned to loopback; the proxy has no bind-address setting for its
        // gRPC and remoting ports.
        Files.writeString(conf, String.format("{%n  \"rocketMQClusterName\": \"%s\",%n  \"namesrvAddr\": \"%s\",%n"
            + "  \"proxyMode\": \"cluster\",%n  \"grpcServerPort\": %d,%n  \"remotingListenPort\": %d,%n"
            + "  \"localServeAddr\": \"127.0.0.1\",%n  \"remotingAccessAddr\": \"127.0.0.1\",%n"
            + "  \"heartbeatSyncerTopicName\": \"%s\",%n  \"grpcShutdownTimeSeconds\": 1%n}%n",
            Broker.CLUSTER, namesrvAddr, grpcPort, remotingPort, syncTopic(launches)));
        int from = proc == null ? 0 : proc.output().length();
        long t = System.nanoTime();
        proc = procs.java("proxy", dir, settings.classpathProxy, settings.proxyJvm,
            "org.apache.rocketmq.proxy.ProxyStartup", List.of("-pc", conf.toString(), "-pm", "cluster"),
            Map.of("rocketmq.home.dir", dir.toString(),
                "rmq.logback.configurationFile", settings.home.resolve("conf/rmq5-logback.xml").toString()));
        Proc launched = proc;
        Poll.Result r = Poll.until(Duration.ofSeconds(90), () -> {
            String out = launched.output();
            if (out.indexOf("rocketmq-proxy startup successfully", Math.min(from, out.length())) >= 0) {
                return null;
            }
            return launched.alive() ? "no start-up line yet" : "exited";
        });
        if (!r.ok()) {
            String why = launched.alive() ? "no start-up line within 90 s" : "exited with " + launched.tail(12);
            Report.info("proxy launch " + launches + " failed: " + why);
            return "launch " + launches + ": " + why;
        }
        Report.info(String.format("proxy launch %d up at %s %.1fs after launch, pid %d", launches, endpoint(),
            (System.nanoTime() - t) / 1e9, launched.pid()));
        return null;
    }

    /** stop kills the proxy (it keeps no state the next launch needs). */
    void stop() {
        if (proc != null && proc.alive()) {
            proc.kill();
        }
    }
}
