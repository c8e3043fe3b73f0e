package io.github.raftns.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Settings holds every knob of one harness run. run.sh passes them as system properties
 * (interop.*); each has a default that suits the 2-core CI machine.
 */
final class Settings {
    /** Which name servers to test: "java" (the reference NamesrvStartup, to validate the harness) or "raftns". */
    final String namesrv;
    /** Work directory of this run: every process gets a sub-directory, logs and data stay here. */
    final Path work;
    /** test/interop: conf files and the 4.x ROCKETMQ_HOME live here. */
    final Path home;
    /** Classpath of RocketMQ 5.x (broker, namesrv, tools, client) plus our classes. */
    final String classpath5;
    /** Classpath of the RocketMQ 4.9.x broker (4.9.7). */
    final String classpath4;
    /** Classpath of the RocketMQ 4.9.x client and mqadmin (4.9.8) plus our 4.x route check. */
    final String classpath4client;
    /** Classpath of the RocketMQ 5.5.0 proxy (rocketmq-proxy). */
    final String classpathProxy;
    /** Classpath of the gRPC client (rocketmq-client-java) plus our traffic program. */
    final String classpathGrpcClient;
    /** The raftns binary (NAMESRV=raftns). */
    final Path raftnsBin;
    /** The raftnsctl binary (the migrate and addrsvc scenarios). */
    final Path raftnsctlBin;
    /** Extra arguments for every raftns member, split on spaces (RAFTNS_EXTRA_ARGS). */
    final List<String> raftnsExtraArgs;
    /** JVM options of every broker. */
    final List<String> brokerJvm;
    /** JVM options of the reference name servers. */
    final List<String> namesrvJvm;
    /** JVM options of mqadmin and the client programs. */
    final List<String> toolJvm;
    /** JVM options of the proxy. */
    final List<String> proxyJvm;
    /** Messages per traffic run. */
    final int messages;
    /** How often the proxy scenario starts the proxy. */
    final int proxyStarts;
    /** Scenarios to run (names as in Main), empty for all. */
    final List<String> only;
    /** How long a stopped (SIGSTOP) broker may take to expire on every name server. */
    final Duration expiryDeadline;
    /** How long a SIGKILLed broker may take to disappear (connection-close grace); below brokerNotActiveMillis. */
    final Duration closeDeadline;
    /** The broker's own heartbeat timeout sent to name servers (brokerNotActiveTimeoutMillis). */
    final long brokerNotActiveMillis;

    private Settings(String namesrv, Path work, Path home, String classpath5, String classpath4,
                     String classpath4client, String classpathProxy, String classpathGrpcClient, Path raftnsBin,
                     Path raftnsctlBin, List<String> raftnsExtraArgs, List<String> brokerJvm, List<String> namesrvJvm,
                     List<String> toolJvm, List<String> proxyJvm, int messages, int proxyStarts, List<String> only,
                     Duration expiryDeadline, Duration closeDeadline, long brokerNotActiveMillis) {
        this.namesrv = namesrv;
        this.work = work;
        this.home = home;
        this.classpath5 = classpath5;
        this.classpath4 = classpath4;
        this.classpath4client = classpath4client;
        this.classpathProxy = classpathProxy;
        this.classpathGrpcClient = classpathGrpcClient;
        this.raftnsBin = raftnsBin;
        this.raftnsctlBin = raftnsctlBin;
        this.raftnsExtraArgs = raftnsExtraArgs;
        this.brokerJvm = brokerJvm;
        this.namesrvJvm = namesrvJvm;
        this.toolJvm = toolJvm;
        this.proxyJvm = proxyJvm;
        this.messages = messages;
        this.proxyStarts = proxyStarts;
        this.only = only;
        this.expiryDeadline = expiryDeadline;
        this.closeDeadline = closeDeadline;
        this.brokerNotActiveMillis = brokerNotActiveMillis;
    }

    /** fromSystemProperties reads the interop.* system properties set by run.sh. */
    static Settings fromSystemProperties() throws Exception {
        Path work = Path.of(required("interop.work"));
        Path home = Path.of(required("interop.home"));
        String cp5 = Files.readString(Path.of(required("interop.cp5"))).trim();
        String cp4 = Files.readString(Path.of(required("interop.cp4"))).trim();
        String cp4client = Files.readString(Path.of(required("interop.cp4client"))).trim();
        String cpProxy = Files.readString(Path.of(required("interop.cpProxy"))).trim();
        String cpGrpc = Files.readString(Path.of(required("interop.cpGrpcClient"))).trim();
        String namesrv = System.getProperty("interop.namesrv", "java");
        if (!namesrv.equals("java") && !namesrv.equals("raftns")) {
            throw new IllegalArgumentException("NAMESRV must be java or raftns, not " + namesrv);
        }
        return new Settings(
            namesrv, work, home,
            cp5 + ":" + required("interop.classes5"),
            cp4,
            cp4client + ":" + required("interop.classes4client"),
            cpProxy,
            cpGrpc + ":" + required("interop.classesGrpcClient"),
            Path.of(System.getProperty("interop.raftns.bin", "bin/raftns")),
            Path.of(System.getProperty("interop.raftnsctl.bin", "bin/raftnsctl")),
            words(System.getProperty("interop.raftns.extraArgs", "")),
            words(System.getProperty("interop.jvm.broker",
                "-Xms128m -Xmx256m -XX:MaxDirectMemorySize=128m -XX:+UseSerialGC")),
            words(System.getProperty("interop.jvm.namesrv",
                "-Xms64m -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1")),
            words(System.getProperty("interop.jvm.tool",
                "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto")),
            words(System.getProperty("interop.jvm.proxy",
                "-Xms96m -Xmx256m -XX:MaxDirectMemorySize=64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1")),
            Integer.parseInt(System.getProperty("interop.messages", "200")),
            Integer.parseInt(System.getProperty("interop.proxyStarts", "10")),
            words(System.getProperty("interop.only", "").replace(',', ' ')),
            Duration.ofSeconds(Long.parseLong(System.getProperty("interop.expiryDeadlineSeconds", "45"))),
            Duration.ofSeconds(Long.parseLong(System.getProperty("interop.closeDeadlineSeconds", "15"))),
            Long.parseLong(System.getProperty("interop.brokerNotActiveMillis", "20000")));
    }

    /** validate refuses settings under which a check could pass for the wrong reason. */
    Settings validate() {
        if (closeDeadline.toMillis() >= brokerNotActiveMillis) {
            throw new IllegalArgumentException("the close deadline (" + closeDeadline.toSeconds() + "s) must stay below the"
                + " broker heartbeat timeout (" + brokerNotActiveMillis + " ms), or expiry alone could pass the SIGKILL check");
        }
        return this;
    }

    /** raft reports whether the name servers under test are RaftNS members sharing one state. */
    boolean raft() {
        return namesrv.equals("raftns");
    }

    /** wants reports whether scenario name is selected (INTEROP_ONLY). */
    boolean wants(String name) {
        return only.isEmpty() || only.contains(name);
    }

    private static String required(String key) {
        String v = System.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("missing system property " + key + " (start the harness with run.sh)");
        }
        return v;
    }

    private static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        for (String w : Arrays.asList(s.trim().split("\\s+"))) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }
}
