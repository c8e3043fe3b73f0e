package io.github.raftns.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Proc is one process the harness started, with its output in a log file. Signals go to its pid only.
 */
final class Proc {
    final String name;
    final Process process;
    final Path log;

    Proc(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** pid returns the process id. */
    long pid() {
        return process.pid();
    }

    /** alive reports whether the process is still running (a stopped process counts as running). */
    boolean alive() {
        return process.isAlive();
    }

    /** kill sends SIGKILL and waits for the process to be gone. */
    void kill() {
        signal("CONT");
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(20));
    }

    /** terminate sends SIGTERM (graceful shutdown) and waits up to deadline; true when it exited. */
    boolean terminate(Duration deadline) {
        process.destroy();
        return waitFor(deadline);
    }

    /** pause sends SIGSTOP: the process keeps its sockets open but answers nothing. */
    void pause() {
        signal("STOP");
    }

    /** resume sends SIGCONT. */
    void resume() {
        signal("CONT");
    }

    /** waitFor waits for the process to exit; true when it did. */
    boolean waitFor(Duration deadline) {
        try {
            return process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** output returns the whole log written so far. */
    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** tail returns the last lines of the log, for failure messages. */
    String tail(int lines) {
        List<String> all = output().lines().toList();
        return String.join(" | ", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    private void signal(String sig) {
        if (!process.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-" + sig, Long.toString(pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("kill -" + sig + " " + pid() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
