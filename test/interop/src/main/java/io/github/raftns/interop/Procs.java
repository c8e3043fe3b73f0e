package io.github.raftns.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Procs starts the processes of a run, writes each pid to WORK/pids (run.sh kills what is left
 * there on exit, by pid) and stops them all when the run ends.
 */
final class Procs {
    private final Path work;
    private final Path pidFile;
    private final List<Proc> started = new ArrayList<>();

    Procs(Path work) {
        this.work = work;
        this.pidFile = work.resolve("pids");
        Runtime.getRuntime().addShutdownHook(new Thread(this::killAll, "procs-cleanup"));
    }

    /** java starts a JVM; the process's user.home is dir/home so RocketMQ logs and stores stay in dir. */
    Proc java(String name, Path dir, String classpath, List<String> jvm, String mainClass, List<String> args,
              Map<String, String> sysProps) throws IOException {
        Files.createDirectories(dir.resolve("home"));
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvm);
        cmd.add("-Duser.home=" + dir.resolve("home"));
        sysProps.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return start(name, dir, cmd, Map.of());
    }

    /** start runs cmd in dir with its stdout and stderr going to dir/NAME.log. */
    synchronized Proc start(String name, Path dir, List<String> cmd, Map<String, String> env) throws IOException {
        Files.createDirectories(dir);
        Path log = dir.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        Process p = pb.start();
        Files.writeString(pidFile, p.pid() + " " + name + "\n", StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Proc proc = new Proc(name, p, log);
        started.add(proc);
        return proc;
    }

    /** run starts cmd and waits for it to finish within deadline; the process is killed if it does not. */
    Proc run(String name, Path dir, List<String> cmd, Duration deadline) throws IOException {
        Proc p = start(name, dir, cmd, Map.of());
        if (!p.waitFor(deadline)) {
            p.kill();
        }
        return p;
    }

    /** killAll sends SIGKILL to every process still running (continuing stopped ones first). */
    synchronized void killAll() {
        for (Proc p : started) {
            if (p.alive()) {
                p.kill();
            }
        }
    }

    /** killNamed sends SIGKILL to every running process whose name starts with prefix. */
    synchronized void killNamed(String prefix) {
        for (Proc p : started) {
            if (p.name.startsWith(prefix) && p.alive()) {
                p.kill();
            }
        }
    }

    /** work returns the run's work directory. */
    Path work() {
        return work;
    }
}
