package io.github.raftns.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * MqAdmin runs the real mqadmin (org.apache.rocketmq.tools.command.MQAdminStartup) as its own JVM,
 * the way an operator does, and returns what it printed. mqadmin exits 0 even when a command fails
 * (it prints the exception), so callers check the output.
 */
final class MqAdmin {
    /** Result is what one mqadmin run printed (stdout and stderr together). */
    record Result(String output, int exitCode, Duration elapsed) {
        /** failed reports the signs of a failed command. */
        boolean failed() {
            return exitCode != 0 || output.contains("command failed") || output.contains("Exception");
        }

        /** brief returns the output on one line for failure messages. */
        String brief() {
            String s = output.replace('\n', ' ').replaceAll("\\s+", " ").trim();
            return s.length() > 400 ? s.substring(0, 400) + "…" : s;
        }
    }

    private final Settings settings;
    private final Procs procs;
    private final AtomicInteger seq = new AtomicInteger();

    MqAdmin(Settings settings, Procs procs) {
        this.settings = settings;
        this.procs = procs;
    }

    /** run5 runs the 5.x mqadmin with args (pass -n yourself). */
    Result run5(String... args) throws Exception {
        return run(true, args);
    }

    /** run4 runs the 4.9.x (4.9.8) mqadmin with args (pass -n yourself). */
    Result run4(String... args) throws Exception {
        return run(false, args);
    }

    /** run5With runs the 5.x mqadmin with extra JVM system properties (e.g. rocketmq.zone). */
    Result run5With(Map<String, String> extraSys, String... args) throws Exception {
        return run(true, settings.home.resolve("rocketmq4-home"), extraSys, args);
    }

    /**
     * run4Home runs the 4.9.8 mqadmin with rocketmq4Home as its ROCKETMQ_HOME, so that it signs its
     * requests with the account in rocketmq4Home/conf/tools.yml (the way an operator turns ACL on).
     */
    Result run4Home(Path rocketmq4Home, String... args) throws Exception {
        return run(false, rocketmq4Home, Map.of(), args);
    }

    /**
     * run5Home runs the 5.x mqadmin with rocketmqHome as its ROCKETMQ_HOME, so that it signs its requests
     * with the account in rocketmqHome/conf/tools.yml.
     */
    Result run5Home(Path rocketmqHome, String... args) throws Exception {
        return run(true, rocketmqHome, Map.of("rocketmq.home.dir", rocketmqHome.toString()), args);
    }

    private Result run(boolean v5, String... args) throws Exception {
        return run(v5, settings.home.resolve("rocketmq4-home"), Map.of(), args);
    }

    private Result run(boolean v5, Path rocketmq4Home, Map<String, String> extraSys, String... args) throws Exception {
        String name = String.format("mqadmin%s-%02d-%s", v5 ? "" : "4", seq.incrementAndGet(), args[0]);
        Path dir = settings.work.resolve("mqadmin");
        long start = System.nanoTime();
        Map<String, String> sys = new java.util.LinkedHashMap<>(v5
            ? Map.of("rmq.logback.configurationFile", settings.home.resolve("conf/rmq5-logback.xml").toString())
            : Map.of("rocketmq.home.dir", rocketmq4Home.toString()));
        sys.putAll(extraSys);
        Proc p = procs.java(name, dir, v5 ? settings.classpath5 : settings.classpath4client, settings.toolJvm,
            "org.apache.rocketmq.tools.command.MQAdminStartup", List.of(args), sys);
        if (!p.waitFor(Duration.ofSeconds(60))) {
            p.kill();
            return new Result("timed out after 60s: " + p.output(), -1, Duration.ofNanos(System.nanoTime() - start));
        }
        return new Result(p.output(), p.process.exitValue(), Duration.ofNanos(System.nanoTime() - start));
    }
}
