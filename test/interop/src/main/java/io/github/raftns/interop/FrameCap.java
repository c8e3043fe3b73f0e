package io.github.raftns.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * FrameCap runs one test/interop/framecap proxy in front of a name server: clients and brokers are
 * pointed at addr() and every frame both ways lands in dir() with an index.tsv.
 */
final class FrameCap {
    private final String source;
    private final int port;
    private final Path dir;
    private Proc proc;

    FrameCap(Settings s, Ports ports, String source) {
        this.source = source;
        this.port = ports.one();
        this.dir = s.work.resolve("frames").resolve(source);
    }

    /** start launches the proxy to target and waits until it listens. */
    void start(Procs procs, Path bin, String target) throws Exception {
        proc = procs.start("framecap-" + source, dir.getParent(), List.of(bin.toString(),
            "-listen", addr(), "-target", target, "-out", dir.toString()), Map.of());
        Poll.Result r = Poll.until(Duration.ofSeconds(20), () -> proc.output().contains("LISTENING") ? null
            : proc.alive() ? "not listening yet" : "exited: " + proc.tail(3));
        if (!r.ok()) {
            throw new IllegalStateException("framecap " + source + ": " + r.failure());
        }
    }

    /** addr is the address to give brokers and clients instead of the name server's. */
    String addr() {
        return "127.0.0.1:" + port;
    }

    /** index returns the index of what was captured so far. */
    FrameIndex index() {
        return new FrameIndex(dir);
    }

    /** source names what talks through this proxy (for example broker-5.5.0). */
    String source() {
        return source;
    }
}
