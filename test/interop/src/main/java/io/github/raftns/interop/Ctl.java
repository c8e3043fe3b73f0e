package io.github.raftns.interop;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ctl runs bin/raftnsctl, the way an operator does, and returns its exit status and what it printed
 * (stdout and stderr together; errors come last, on one "raftnsctl: ..." line).
 */
final class Ctl {
    /** Result is one run of raftnsctl. */
    record Result(int exitCode, String output) {
        /** json parses the JSON object the command printed with -o json. */
        JSONObject json() {
            int start = output.indexOf('{');
            int end = output.lastIndexOf('}');
            if (start < 0 || end < start) {
                throw new IllegalStateException("no JSON in: " + brief());
            }
            return JSON.parseObject(output.substring(start, end + 1));
        }

        /** brief returns the output on one line for failure messages. */
        String brief() {
            String s = output.replace('\n', ' ').replaceAll("\\s+", " ").trim();
            return s.length() > 600 ? s.substring(0, 600) + "…" : s;
        }

        /** print writes the output into the harness log, one "#" line per line, at most 60 lines. */
        void print(String title) {
            Report.info(title + " (exit " + exitCode + "):");
            List<String> lines = output.lines().toList();
            lines.stream().limit(60).forEach(l -> Report.info("  " + l));
            if (lines.size() > 60) {
                Report.info("  … " + (lines.size() - 60) + " more lines; the last: " + lines.get(lines.size() - 1));
            }
        }
    }

    private final Settings settings;
    private final Procs procs;
    private final AtomicInteger seq = new AtomicInteger();

    Ctl(Settings settings, Procs procs) {
        this.settings = settings;
        this.procs = procs;
    }

    /** run runs raftnsctl with args and waits up to a minute for it. */
    Result run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(settings.raftnsctlBin.toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        String name = String.format("raftnsctl-%02d-%s", seq.incrementAndGet(), args.length > 1 ? args[1] : args[0]);
        Path dir = settings.work.resolve("raftnsctl");
        Proc p = procs.start(name, dir, cmd, Map.of());
        if (!p.waitFor(Duration.ofSeconds(60))) {
            p.kill();
            return new Result(-1, "timed out after 60s: " + p.output());
        }
        return new Result(p.process.exitValue(), p.output());
    }
}
